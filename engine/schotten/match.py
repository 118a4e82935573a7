"""Matches: several rounds and their points (rule ``match-scoring``)."""

from __future__ import annotations

from schotten.board import Player, Variant
from schotten.game import Game


def round_points(game: Game) -> tuple[int, int]:
    """Points of a finished round (rule ``match-scoring``): the winner scores 5, the loser one per
    stone held; in a drawn round each player scores one per stone held.

    >>> game = Game.from_dict(Game(seed=0).to_dict())
    >>> round_points(game)
    Traceback (most recent call last):
    ...
    ValueError: the round is not over: no points yet
    """
    if game.outcome is None:
        raise ValueError("the round is not over: no points yet")
    winner = game.outcome.winner
    points = [5 if p is winner else len(game.stones_held(p)) for p in Player]
    return points[0], points[1]


class Match:
    """Several rounds and their points (rule ``match-scoring``).

    Rounds are dealt with the seeds given; the first player alternates from round to round unless
    given (the booklet leaves it open).
    """

    def __init__(self, variant: Variant = Variant.BASE) -> None:
        self.variant = variant
        self.rounds: list[Game] = []

    def new_round(self, seed: int, first: Player | None = None) -> Game:
        if self.rounds and not self.rounds[-1].is_over:
            raise ValueError(f"round {len(self.rounds)} is not over")
        if first is None:
            first = Player(len(self.rounds) % 2)
        game = Game(self.variant, seed=seed, first=first)
        self.rounds.append(game)
        return game

    @property
    def points(self) -> tuple[int, int]:
        """The total points of the finished rounds."""
        totals = [0, 0]
        for game in self.rounds:
            if game.is_over:
                for player, points in zip(Player, round_points(game), strict=True):
                    totals[player] += points
        return totals[0], totals[1]
