"""The players the computer is measured against (schotten.players): a legal move at every step
of random games of both variants; the greedy player places the card of the strongest formation."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from test_bot import positions

from schotten.board import Board, Player, Variant
from schotten.cards import parse_card, parse_cards
from schotten.game import Game, Phase
from schotten.moves import Claim, Move, Play
from schotten.players import greedy_player, random_player


@pytest.mark.parametrize("variant", tuple(Variant))
@pytest.mark.parametrize("player", [random_player, greedy_player])
def test_a_legal_move_at_every_step_of_random_games(
    variant: Variant, player: Callable[..., Move]
) -> None:
    for game in positions(variant, range(6), every=3):
        move = player(game, seed=len(game.history))
        assert move in game.legal_moves(), (str(game), str(move))
        if game.phase is Phase.CLAIM:
            assert move == Claim(game.provable_stones())


def test_greedy_completes_the_strongest_formation() -> None:
    board = Board.empty(Variant.BASE)
    for step, (stone, card) in enumerate(
        [(2, "red 7"), (2, "red 8"), (6, "blue 2"), (6, "green 2")]
    ):
        board = board.place(Player.FIRST, stone, parse_card(card), at=step)
    hand = parse_cards(["red 9", "yellow 2", "orange 1"])
    game = Game.from_position(board, [hand, parse_cards(["purple 5"])], step=10)
    assert greedy_player(game, seed=0) == Play(parse_card("red 9"), 2)
