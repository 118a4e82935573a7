"""Matches (RULES.md, rule ``match-scoring``): the points of a round and of several rounds."""

from __future__ import annotations

import pytest
from positions import OPPONENT, YOU, start

from schotten.board import Player, Variant
from schotten.game import Game, Phase
from schotten.match import Match, round_points
from schotten.moves import Claim


def test_match_scoring_winner_five_loser_one_per_stone() -> None:
    game = start(
        {3: ("red 9, red 8, red 7", "blue 1, green 2, yellow 4")},
        phase=Phase.CLAIM,
        claimed={4: YOU, 5: YOU, 7: OPPONENT, 9: OPPONENT},
    )
    game.apply("claim 3")
    assert round_points(game) == (5, 2)


def test_match_scoring_adds_up_the_rounds_and_alternates_the_first_player() -> None:
    match = Match(Variant.BASE)
    first = match.new_round(seed=1)
    assert first.to_move is Player.FIRST
    with pytest.raises(ValueError, match="round 1 is not over"):
        match.new_round(seed=2)
    play_out(first)
    second = match.new_round(seed=2)
    assert second.to_move is Player.SECOND
    assert match.points == round_points(first)
    play_out(second)
    assert match.points == tuple(
        a + b for a, b in zip(round_points(first), round_points(second), strict=True)
    )


def play_out(game: Game) -> None:
    """Play to the end: the first legal move at each step, every provable stone claimed."""
    while not game.is_over:
        move = Claim(game.provable_stones()) if game.phase is Phase.CLAIM else game.legal_moves()[0]
        game.apply(move)
