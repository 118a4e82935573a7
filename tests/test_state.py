"""The state a game's moves change (schotten.state): what a move may replace is exactly what
pop puts back, and what the rules read of it."""

from __future__ import annotations

import random

import pytest

from schotten.board import Player, Variant
from schotten.game import Game
from schotten.moves import Deck
from schotten.state import FRAME, GameState, frame_of

# Kept beside the state, not restored by pop: the move list and the caches that check, on every
# read, that they still describe the current board and pool.
NOT_IN_FRAME = {"history", "_undo", "_proofs", "_rooms"}


@pytest.mark.parametrize("variant", list(Variant))
def test_every_attribute_a_move_replaces_is_in_the_frame_pop_restores(variant: Variant) -> None:
    for seed in range(12):
        game, rng = Game(variant, seed=seed), random.Random(seed)
        while not game.is_over:
            before = dict(vars(game))
            move = rng.choice(game.legal_moves())
            game.push(move)
            changed = {name for name, value in vars(game).items() if before.get(name) is not value}
            assert changed - NOT_IN_FRAME <= set(FRAME), sorted(changed - NOT_IN_FRAME - set(FRAME))
            game.pop()
            assert all(vars(game)[name] is before[name] for name in FRAME)
            assert frame_of(game) == tuple(before[name] for name in FRAME)
            game.push(move)


def test_a_state_reads_its_hands_and_decks_top_first() -> None:
    game = Game(Variant.TACTICAL, seed=5)
    assert isinstance(game, GameState)
    assert game.hands == (game.hand(Player.FIRST), game.hand(Player.SECOND))
    assert [len(h) for h in game.hands] == [7, 7]
    assert len(game.deck(Deck.CLAN)) == 54 - 14 and len(game.deck(Deck.TACTIC)) == 10
    top = game.deck(Deck.CLAN)[0]
    for move in ("claim none", "draw clan"):
        if game.phase.value == "play":
            game.apply(game.legal_moves()[0])
        game.apply(move)
    assert game.hand(Player.FIRST)[-1] == top and game.deck(Deck.CLAN)[0] != top
