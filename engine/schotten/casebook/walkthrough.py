"""A play-on case move by move, for ``schotten explain``: the position before each claim move,
the engine's verdict on every stone it claims, and the board once the moves are played."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

from schotten.board import Board, Player
from schotten.cards import Card
from schotten.casebook.model import Case
from schotten.casebook.playon import start_game
from schotten.claims import StoneVerdict, judge_claim
from schotten.errors import IllegalActionError
from schotten.moves import Claim


@dataclass(frozen=True)
class ClaimStep:
    """One claim move of a play-on: who claimed, the board it was judged on, the verdicts."""

    move: int  # from 1
    player: Player
    board: Board
    verdicts: tuple[StoneVerdict, ...]


@dataclass(frozen=True)
class Walkthrough:
    claims: tuple[ClaimStep, ...]
    board: Board  # after the last move
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]


def walk_play_on(case: Case) -> Walkthrough | None:
    """The case's play-on replayed move by move (``None`` for a case without one)."""
    spec = case.play_on
    if spec is None:
        return None
    game = start_game(case.board, case.hands, spec.decks, spec.start)
    claims = []
    for number, (player, move) in enumerate(spec.moves, 1):
        if isinstance(move, Claim) and move.stones and game.outcome is None:
            verdicts = judge_claim(game.board, player, move.stones)
            claims.append(ClaimStep(number, player, game.board, verdicts))
        # A refused move is recorded by the replay; the game goes on from the same state.
        with contextlib.suppress(IllegalActionError):
            game.apply(move)
    hands = (tuple(game.hand(Player.FIRST)), tuple(game.hand(Player.SECOND)))
    return Walkthrough(tuple(claims), game.board, hands)
