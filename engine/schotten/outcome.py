"""The end of a game (RULES.md, End of the game): who holds enough stones, and why it ended.

>>> from schotten.board import Board, Stone, Variant
>>> board = Board.empty(Variant.BASE)
>>> for n in (2, 3, 4):
...     board = board.with_stone(Stone(n, claimed_by=Player.SECOND))
>>> winning_condition(board, Player.SECOND), winning_condition(board, Player.FIRST)
(<Termination.THREE_ADJACENT: 'three-adjacent'>, None)
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from schotten.board import Board, Player, Stone
from schotten.cards import Card, ClanCard
from schotten.turn import Phase

STONES_TO_WIN = 5
ADJACENT_TO_WIN = 3


class Termination(enum.StrEnum):
    """Why the game ended."""

    FIVE_STONES = "five-stones"
    """The winner holds at least five stones."""
    THREE_ADJACENT = "three-adjacent"
    """The winner holds three stones next to each other."""
    DEADLOCK = "deadlock"
    """Neither player could play or claim any more; the engine closed the game."""


@dataclass(frozen=True)
class Outcome:
    """The end of a game: the winner (``None`` for a draw) and why it ended."""

    winner: Player | None
    termination: Termination

    def __str__(self) -> str:
        result = "draw" if self.winner is None else f"{self.winner} wins"
        return f"{result} ({self.termination})"


def winning_condition(board: Board, player: Player) -> Termination | None:
    """Three adjacent stones, else five stones, else ``None`` (rule ``game-end``).

    Adjacent means held by the same player with no stone of the other between them.
    """
    held = [s.claimed_by is player for s in board.stones]
    last = len(held) - ADJACENT_TO_WIN + 1
    if any(all(held[i : i + ADJACENT_TO_WIN]) for i in range(last)):
        return Termination.THREE_ADJACENT
    if sum(held) >= STONES_TO_WIN:
        return Termination.FIVE_STONES
    return None


def close_deadlock(board: Board) -> tuple[Board, Outcome]:
    """The deadlock closing (site ruling ``deadlock``), once nobody can draw, place or claim:
    each open stone to :func:`deadlock_taker`, then the one player holding a winning set wins,
    else a draw.

    >>> from schotten.board import Side, Variant
    >>> from schotten.cards import parse_cards
    >>> stone = Stone(5, (Side(tuple(parse_cards(["red 9", "red 8"]))), Side()))
    >>> board, outcome = close_deadlock(Board.empty(Variant.BASE).with_stone(stone))
    >>> board.stone(5).claimed_by, str(outcome)
    (<Player.FIRST: 0>, 'draw (deadlock)')
    """
    for stone in board.stones:
        taker = deadlock_taker(stone) if stone.claimed_by is None else None
        if taker is not None:
            board = board.with_stone(replace(stone, claimed_by=taker))
    winners = [p for p in Player if winning_condition(board, p) is not None]
    return board, Outcome(winners[0] if len(winners) == 1 else None, Termination.DEADLOCK)


def deadlock_problems(
    board: Board,
    phase: Phase,
    can_draw: Callable[[Player], bool],
    can_place: Callable[[Player], bool],
    provable: Callable[[Player], tuple[int, ...]],
) -> Iterator[str]:
    """Why a position cannot be the end of a deadlock closing (site ruling ``deadlock``): the
    closing happens as a turn starts, when nobody can draw, place or claim (what each player
    could still do is read from the game), and it closes every stone that goes to somebody."""
    if phase is not Phase.PLAY:
        yield f"the closing happens as a turn starts, not at the {phase} step"
    for player in Player:
        if can_draw(player):
            yield f"{player} can still draw"
        if can_place(player):
            yield f"{player} can still place a card"
        stones = provable(player)
        if stones:
            yield f"{player} can still claim stone {', '.join(map(str, stones))}"
    for stone in board.stones:
        taker = deadlock_taker(stone) if stone.claimed_by is None else None
        if taker is not None:
            yield f"stone {stone.number} is left open, but the closing gives it to {taker}"


def deadlock_taker(stone: Stone) -> Player | None:
    """Who the closing gives an open stone: the player whose side alone is complete, else the
    higher total (an elite troop at its highest value); equal totals, nobody."""
    complete = [stone.is_complete(p) for p in Player]
    if complete[0] != complete[1]:
        return Player.FIRST if complete[0] else Player.SECOND
    totals = [sum(_top_value(c) for c in stone.sides[p].cards) for p in Player]
    if totals[0] == totals[1]:
        return None
    return Player.FIRST if totals[0] > totals[1] else Player.SECOND


def _top_value(card: Card) -> int:
    return card.value if isinstance(card, ClanCard) else max(card.values, default=0)
