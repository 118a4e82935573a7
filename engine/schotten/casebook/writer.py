"""Case files as text: the one writer of what a case file holds, in the layout of ``cases/``.

``approve`` writes an ``expect:`` block (:func:`expect_block`) and ``retire`` a ``published:`` one
(:func:`published_block`) into files an editor wrote; ``schotten conformance run --cases`` and
``schotten verify`` write whole new files, a position seen from one player who is ``you``:
:func:`claim_case` (a claim vector), :func:`move_case` (a move vector, as a play-on) and
:func:`disagreement_case` (a position the brute force judges otherwise).

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
from typing import Any

from schotten.board import Board, Player
from schotten.cards import Card
from schotten.casebook.model import Expectation, Publication
from schotten.claims import Reason
from schotten.game import Game, Phase
from schotten.moves import Deck

SCHEMA_LINE = "# yaml-language-server: $schema=./case.schema.json"
# The ``why`` of a disagreement, until an editor finds it.
_UNEXPLAINED = {
    "fr": "À établir\u00a0: la recherche exhaustive contredit le moteur sur cette Borne.",
    "es": "Por aclarar: la búsqueda exhaustiva contradice al motor en esta piedra.",
}


def expect_block(expect: Expectation) -> str:
    """The ``expect:`` block as approve writes it.

    >>> from schotten.casebook.model import ExpectedStone
    >>> from schotten.claims import Reason
    >>> stone = ExpectedStone(4, "granted", Reason.STRONGER)
    >>> print(expect_block(Expectation((stone,), "ongoing")))
    expect:
      stones:
        4: {verdict: granted, reason: stronger}
      game: ongoing
    <BLANKLINE>
    """
    lines = ["expect:"]
    data = expect.as_data()
    for stone, entry in data.get("stones", {}).items():
        if len(lines) == 1:
            lines.append("  stones:")
        if "witness" in entry:
            lines.append(f"    {stone}:")
            lines += [f"      {key}: {_flow(value)}" for key, value in entry.items()]
        else:
            lines.append(f"    {stone}: {_flow(entry)}")
    if "game" in data:
        lines.append(f"  game: {data['game']}")
    if "play_on" in data:
        play = data["play_on"]
        lines.append("  play_on:")
        lines.append("    steps:")
        lines += [f"      - {step}" for step in play["steps"]]
        lines += [f"    {key}: {_flow(play[key])}" for key in play if key != "steps"]
    return "\n".join(lines) + "\n"


def published_block(place: Publication) -> str:
    """``published: {table: faq, row: 3}``, as one line."""
    return f"published: {{table: {place.table}, row: {place.row}}}\n"


def claim_case(
    ident: str,
    board: Board,
    claimer: Player,
    stones: Sequence[int],
    hand: Sequence[Card],
    what: str,
    rules: Sequence[str] = ("claim-proof",),
) -> str:
    """A claim vector that a run did not agree on, as a case (facts only): ``claimer`` is
    ``you``; ``rules`` are the ids it pins."""
    lines = _vector_head(ident, what, rules, board)
    lines += position_lines(board, claimer)
    if hand:
        lines += ["hands:", f"  you: {_flow(hand)}"]
    lines.append(_claim_line(stones))
    return "\n".join(lines)


def move_case(ident: str, game: Game, moves: Sequence[str], what: str, rule: str) -> str | None:
    """A move vector as a case with a play-on from the position, the player to move as ``you``
    (``None`` at a Recruiter's return step or after the end, which a case cannot start from, or
    with no move). Its question is the last move."""
    if game.outcome is not None or game.phase is Phase.RETURN or not moves:
        return None
    you = game.to_move
    lines = _vector_head(ident, what, [rule], game.board)
    lines += position_lines(game.board, you)
    lines += [
        "hands:",
        f"  you: {_flow(game.hand(you))}",
        f"  opponent: {_flow(game.hand(you.other))}",
        "play_on:",
        f"  start: {game.phase}",
        "  decks:",
        f"    clan: {_flow(game.deck(Deck.CLAN))}",
        f"    tactic: {_flow(game.deck(Deck.TACTIC))}",
        # The move in question is the last: the refused ones come first, and change nothing.
        f"  question: {{you: {_quoted(moves[-1])}, move: {len(moves)}}}",
        "  moves:",
    ]
    lines += [f"    - you: {_quoted(move)}" for move in moves]
    return "\n".join(lines)


def disagreement_case(space: str, board: Board, claimer: Player, stone: int, problem: str) -> str:
    """A position of ``schotten verify``'s space ``space`` where the engine and the brute force
    disagree, as a case claiming ``stone`` (``claimer`` is ``you``), with texts that say so."""
    reason = problem.split()[2] if problem.startswith("engine says ") else "opponent-can-beat"
    try:
        rule = Reason(reason).rule
    except ValueError:
        rule = Reason.OPPONENT_CAN_BEAT.rule
    lines = [
        SCHEMA_LINE,
        f"# Found by `schotten verify {space}`: {problem}",
        "situation:",
        f"  fr: {_quoted(f'Désaccord entre le moteur et la recherche exhaustive ({space})')}",
        f"  es: {_quoted(f'Desacuerdo entre el motor y la búsqueda exhaustiva ({space})')}",
        "why:",
        *(f"  {language}: {_quoted(text)}" for language, text in _UNEXPLAINED.items()),
        f"source: {_quoted(f'schotten verify {space} (brute force)')}",
        f"rule: [{rule}]",
        f"variant: {board.variant}",
        *position_lines(board, claimer),
        _claim_line([stone]),
    ]
    return "\n".join(lines) + "\n"


def position_lines(board: Board, you: Player) -> list[str]:
    """The ``stones:`` and ``discard:`` of a table seen from ``you`` (none for an empty table)."""
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


def _vector_head(ident: str, what: str, rules: Sequence[str], board: Board) -> list[str]:
    comment = " ".join(what.split())
    return [
        SCHEMA_LINE,
        f"# conformance vector {ident}: {comment}",
        "# to write before it joins cases/: situation and why, in French and Spanish",
        f"source: conformance suite, vector {ident}",
        f"rule: [{', '.join(rules)}]",
        f"variant: {board.variant}",
    ]


def _claim_line(stones: Sequence[int]) -> str:
    return f"claim: [{', '.join(str(n) for n in sorted(stones))}]"


def _quoted(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a YAML double-quoted scalar


def _flow(value: Any) -> str:
    """A value in YAML's flow style, as case files write lists and small mappings."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return str(value)
