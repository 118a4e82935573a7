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
from dataclasses import dataclass

from schotten.board import Board, Player

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
