"""A disagreement written as a case file of the casebook (``schotten conformance run --cases``).

The position is seen from the claimer (or from the player to move, for a move): that player is
``you``. The file holds the facts only: the position, the claim or the moves, the source and the
rules. Before it joins ``cases/``, an editor writes its ``situation`` and ``why`` in French and
Spanish, and ``schotten approve`` records its ``expect:``, as for any new case
(``cases/README.md``).

>>> from schotten.board import Board, Player, Variant
>>> from schotten.cards import parse_card
>>> board = Board.empty(Variant.BASE)
>>> for step, text in enumerate(["red 1", "green 1", "blue 1"]):
...     board = board.place(Player.SECOND, 4, parse_card(text), at=step)
>>> print(claim_case("c00042", board, Player.SECOND, [4], (), "stone 4 reason differs"))
... # doctest: +ELLIPSIS
# yaml-language-server: $schema=./case.schema.json
# conformance vector c00042: stone 4 reason differs
# to write before it joins cases/: situation and why, in French and Spanish
source: conformance suite, vector c00042
rule: [claim-proof]
variant: base
stones:
  4:
    you: [red 1, green 1, blue 1]
claim: [4]
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from schotten.board import Board, Player
from schotten.cards import Card
from schotten.game import Game, Phase
from schotten.moves import Deck

_FACTS = """\
# to write before it joins cases/: situation and why, in French and Spanish
source: conformance suite, vector {ident}
rule: [{rules}]
"""


def claim_case(
    ident: str,
    board: Board,
    claimer: Player,
    stones: Sequence[int],
    hand: Sequence[Card],
    what: str,
    rules: Sequence[str] = ("claim-proof",),
) -> str:
    """A claim vector as a case: ``claimer`` is ``you``; ``rules`` are the ids it pins."""
    lines = _head(ident, what, rules, board)
    lines += _table(board, claimer)
    if hand:
        lines += ["hands:", f"  you: {_flow(hand)}"]
    lines.append(f"claim: [{', '.join(str(n) for n in sorted(stones))}]")
    return "\n".join(lines)


def move_case(ident: str, game: Game, moves: Sequence[str], what: str, rule: str) -> str | None:
    """A move vector as a case with a play-on from the position (``None`` at a Recruiter's
    return step or after the end, which a case cannot start from)."""
    if game.outcome is not None or game.phase is Phase.RETURN:
        return None
    you = game.to_move
    lines = _head(ident, what, [rule], game.board)
    lines += _table(game.board, you)
    lines += [
        "hands:",
        f"  you: {_flow(game.hand(you))}",
        f"  opponent: {_flow(game.hand(you.other))}",
        "play_on:",
        f"  start: {game.phase}",
        "  decks:",
        f"    clan: {_flow(game.deck(Deck.CLAN))}",
        f"    tactic: {_flow(game.deck(Deck.TACTIC))}",
        "  moves:",
    ]
    lines += [f"    - you: {json.dumps(move)}" for move in moves]
    return "\n".join(lines)


def _head(ident: str, what: str, rules: Sequence[str], board: Board) -> list[str]:
    comment = " ".join(what.split())
    return [
        "# yaml-language-server: $schema=./case.schema.json",
        f"# conformance vector {ident}: {comment}",
        *_FACTS.format(ident=ident, rules=", ".join(rules)).splitlines(),
        f"variant: {board.variant}",
    ]


def _table(board: Board, you: Player) -> list[str]:
    names = {you: "you", you.other: "opponent"}
    lines = ["stones:"]
    for stone in board.stones:
        body = [
            f"    {names[p]}: {_flow(stone.sides[p].cards)}"
            for p in (you, you.other)
            if stone.sides[p].cards
        ]
        if stone.is_complete(Player.FIRST) and stone.is_complete(Player.SECOND):
            first = stone.completed_first()
            if first is not None:
                body.append(f"    completed_first: {names[first]}")
        for key, who in (
            ("claimed_by", stone.claimed_by),
            ("mud-fight", stone.mud_fight),
            ("blind-mans-bluff", stone.blind_mans_bluff),
        ):
            if who is not None:
                body.append(f"    {key}: {names[who]}")
        if body:
            lines += [f"  {stone.number}:", *body]
    if lines == ["stones:"]:
        lines = []
    piles = [(names[p], board.discard[p]) for p in (you, you.other) if board.discard[p]]
    if piles:
        lines.append("discard:")
        lines += [f"  {name}: {_flow(cards)}" for name, cards in piles]
    return lines


def _flow(cards: Sequence[Card]) -> str:
    return "[" + ", ".join(str(c) for c in cards) + "]"
