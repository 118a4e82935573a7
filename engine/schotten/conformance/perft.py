"""Perft: the number of move sequences of a given depth from a position, as chess engines count.

Every move the rules allow counts, claims included (``claim none`` and each set of provable
stones), and a draw takes the top card of its deck, so a deal fixes the whole tree. A finished
game has no moves: a sequence that ends the game early counts only at its own depth.

>>> from schotten.board import Variant
>>> game = Game(Variant.BASE, seed=1)
>>> [perft(game, depth) for depth in range(4)]
[1, 54, 54, 54]
>>> divide(game, 2)[0]
('play red 3 at 1', 1)
"""

from __future__ import annotations

from schotten.game import Game


def perft(game: Game, depth: int) -> int:
    """The number of legal move sequences of exactly ``depth`` moves from ``game`` (played with
    ``push`` and undone with ``pop``: the game is as it was when this returns)."""
    if depth <= 0:
        return 1
    if depth == 1:
        return game.legal_move_count()
    total = 0
    for move in game.legal_moves():
        game.push(move)
        total += perft(game, depth - 1)
        game.pop()
    return total


def divide(game: Game, depth: int) -> list[tuple[str, int]]:
    """:func:`perft` split by first move, in the engine's move order (``depth`` at least 1)."""
    counts = []
    for move in game.legal_moves():
        game.push(move)
        counts.append((str(move), perft(game, depth - 1)))
        game.pop()
    return counts
