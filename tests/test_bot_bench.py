"""The computer player's benchmark (schotten.bot_bench): paired deals and the Wilson interval."""

from __future__ import annotations

from schotten.board import Variant
from schotten.bot_bench import paired, play_game, wilson
from schotten.players import random_player


def test_a_paired_match_plays_each_deal_twice_seats_swapped() -> None:
    tally = paired(Variant.BASE, random_player, range(2))
    assert tally.games == 4
    assert tally.wins + tally.draws + tally.losses == 4
    assert len(tally.times) > 0
    game = play_game(Variant.BASE, 5, random_player, random_player)
    assert game.outcome is not None


def test_wilson_interval() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(650, 1000)
    assert 0.619 < low < 0.621 and 0.678 < high < 0.680
    low, high = wilson(1000, 1000)
    assert high == 1.0 and 0.996 < low < 0.997
