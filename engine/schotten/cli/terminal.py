"""A position and its claim proofs, drawn as text for the terminal (ANSI colours optional).

One row per stone: the opponent's side on the left, the stone in the middle, yours on the right,
with an empty slot (``·``) for each card a side still needs, and the stone's marks (Mud Fight,
Blind-Man's Bluff, claimed).

>>> from schotten.cards import parse_card
>>> board = Board.empty(Variant.BASE).place(Player.FIRST, 4, parse_card("red 7"), at=1)
>>> print(draw_board(board).splitlines()[8])
                          ·, ·, ·    4    red 7, ·, ·
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import TextIO

from schotten.board import Board, Player, Stone, Variant
from schotten.cards import Card, ClanCard, Colour, Tactic
from schotten.casebook.model import NAME_OF
from schotten.claims import StoneVerdict, describe, unseen_pool
from schotten.completion import best_completion
from schotten.formations import Formation

# SGR colour codes, in the order of Colour (red, orange, yellow, green, blue, purple).
_ANSI = dict(zip(Colour, ("31", "38;5;208", "33", "32", "34", "35"), strict=True))
_TACTIC_ANSI = "1;36"
_MARK_ANSI = "1"
_WIDTH = 33  # four long card names fit on one side


def use_colour(stream: TextIO) -> bool:
    """Colours only for a terminal, and never when ``NO_COLOR`` is set (no-color.org)."""
    return stream.isatty() and "NO_COLOR" not in os.environ


def paint(text: str, code: str | None, colour: bool) -> str:
    return f"\x1b[{code}m{text}\x1b[0m" if colour and code else text


def card_text(card: Card, colour: bool = False) -> str:
    """A card in the project's notation, in its colour when ``colour``."""
    code = _ANSI[card.colour] if isinstance(card, ClanCard) else _TACTIC_ANSI
    return paint(str(card), code, colour)


def cards_text(cards: Iterable[Card], colour: bool = False) -> str:
    return ", ".join(card_text(c, colour) for c in cards) or "-"


def draw_board(
    board: Board,
    *,
    colour: bool = False,
    claim: Sequence[int] = (),
    hands: tuple[Sequence[Card], Sequence[Card]] = ((), ()),
) -> str:
    """The nine stones with both sides and their marks, then the known hands and the discard."""
    game = "Tactical variant" if board.variant is Variant.TACTICAL else "base game"
    lines = [f"Schotten Totten, {game}" + (f"; you claim {_numbers(claim)}" if claim else "")]
    lines.append("")
    lines.append(f"{'opponent':>{_WIDTH}}  stone  you")
    lines.append(f"{'-' * _WIDTH}  -----  {'-' * _WIDTH}")
    lines.append("")
    for stone in board.stones:
        lines.append(_stone_row(stone, colour, stone.number in claim))
    lines.append("")
    for player in (Player.FIRST, Player.SECOND):
        if hands[player]:
            whose = "your hand" if player is Player.FIRST else "opponent's hand"
            lines.append(f"{whose}: {cards_text(hands[player], colour)}")
    for player in (Player.FIRST, Player.SECOND):
        if board.discard[player]:
            pile = cards_text(board.discard[player], colour)
            lines.append(f"discarded by {NAME_OF[player]}: {pile}")
    return "\n".join(lines).rstrip() + "\n"


def _stone_row(stone: Stone, colour: bool, claimed_now: bool) -> str:
    left_plain, left = _side(stone, Player.SECOND, colour, reverse=True)
    right_plain, right = _side(stone, Player.FIRST, colour, reverse=False)
    pad = " " * max(0, _WIDTH - len(left_plain))
    centre = f"{stone.number:^5}"
    if claimed_now:
        centre = paint(centre, "7", colour)
    notes = []
    if stone.mud_fight is not None:
        notes.append(f"Mud Fight ({NAME_OF[stone.mud_fight]})")
    if stone.blind_mans_bluff is not None:
        notes.append(f"Blind-Man's Bluff ({NAME_OF[stone.blind_mans_bluff]})")
    if stone.claimed_by is not None:
        notes.append(f"claimed by {NAME_OF[stone.claimed_by]}")
    first = stone.completed_first()
    if first is not None:
        notes.append(f"completed first: {NAME_OF[first]}")
    if claimed_now:
        notes.append("<- claimed now")
    tail = " " * max(0, _WIDTH - len(right_plain))
    note = paint("  ".join(notes), _MARK_ANSI, colour) if notes else ""
    return f"{pad}{left}  {centre}  {right}{tail}  {note}".rstrip()


def _side(stone: Stone, player: Player, colour: bool, *, reverse: bool) -> tuple[str, str]:
    """The side as plain text (to measure) and as shown (to print)."""
    cards = stone.side(player).cards
    empty = max(0, stone.capacity - len(cards))
    if stone.claimed_by is not None:
        empty = 0
    plain = [str(c) for c in cards] + ["·"] * empty
    shown = [card_text(c, colour) for c in cards] + ["·"] * empty
    if not plain:
        plain = shown = ["-"]
    return ", ".join(plain), ", ".join(shown)


def draw_proof(board: Board, verdict: StoneVerdict, *, colour: bool = False) -> str:
    """The grounds of one stone's verdict: both formations, the unseen cards that matter, the
    witness."""
    stone = board.stone(verdict.stone)
    word = "granted" if verdict.granted else "refused"
    head = paint(f"stone {verdict.stone}: {word}", "32" if verdict.granted else "31", colour)
    lines = [f"{head} ({verdict.reason}, rule {verdict.reason.rule})"]
    mine, theirs = stone.side(Player.FIRST), stone.side(Player.SECOND)
    lines.append(f"  yours:  {cards_text(mine.cards, colour)}" + _formation(verdict.mine))
    need = stone.capacity - len(theirs.cards)
    if need <= 0:
        lines.append(f"  theirs: {cards_text(theirs.cards, colour)}" + _formation(verdict.theirs))
    elif verdict.mine is not None and stone.claimed_by is None:
        more = f" + {need} card{'s' if need > 1 else ''} to come"
        lines.append(f"  theirs: {cards_text(theirs.cards, colour)}{more}")
        lines.append("  " + _pool_line(board, stone, verdict, colour))
        if verdict.theirs is not None:
            lines.append(f"  their best completion: {describe(verdict.theirs)}")
    if verdict.witness is not None:
        w = verdict.witness
        lines.append(
            f"  witness: {cards_text(w.cards, colour)} would give them "
            f"{cards_text(w.side, colour)} = {describe(w.formation)}"
        )
    return "\n".join(lines) + "\n"


def _formation(formation: Formation | None) -> str:
    return f" = {describe(formation)}" if formation is not None else ""


def _pool_line(board: Board, stone: Stone, verdict: StoneVerdict, colour: bool) -> str:
    pool = unseen_pool(board, Player.FIRST)
    theirs = stone.side(Player.SECOND).cards
    wilds = f" and {cards_text(pool.wilds, colour)}" if pool.wilds else ""
    if stone.capacity - len(theirs) == 1 and verdict.mine is not None:
        # One card to come: the unseen cards that would beat you, each on its own.
        candidates: list[Card] = [*pool.clan, *pool.wilds]
        beating = [card for card in candidates if _beats(stone, theirs, card, verdict)]
        if not beating:
            return f"no unseen card would beat you ({len(pool.clan)} Clan cards unseen{wilds})"
        return f"unseen cards that would beat you: {cards_text(beating, colour)}"
    placed = [t for t in theirs if isinstance(t, ClanCard)]
    related = [
        c for c in pool.clan if any(c.colour == t.colour or c.value == t.value for t in placed)
    ]
    listed = cards_text(related, colour) if related else "none"
    return f"unseen pool: {len(pool.clan)} Clan cards{wilds}; of their colours or values: {listed}"


def _beats(stone: Stone, theirs: Sequence[Card], card: Card, verdict: StoneVerdict) -> bool:
    wilds = (card,) if isinstance(card, Tactic) else ()
    pool = () if isinstance(card, Tactic) else (card,)
    best = best_completion(
        theirs, stone.capacity, totals_only=stone.totals_only, pool=pool, wilds=wilds
    )
    return best is not None and verdict.mine is not None and best.formation > verdict.mine


def _numbers(stones: Sequence[int]) -> str:
    return ", ".join(map(str, stones))
