"""The finer reasons of a refused move (schotten.refusals): each raised where its rule refuses for
that reason only, with the rule the conformance vectors still read."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from schotten.board import Board, Player, Variant
from schotten.cards import Tactic, parse_card
from schotten.errors import IllegalActionError
from schotten.moves import Banshee, Move, Play, Strategist
from schotten.refusals import Refusal, RefusedMove, refusal_id
from schotten.rules import Rule
from schotten.tactics import (
    verify_banshee,
    verify_combat_mode,
    verify_ruse_target,
    verify_strategist,
)

YOU = Player.FIRST


def _board(*placed: tuple[Player, int, str]) -> Board:
    board = Board.empty(Variant.TACTICAL)
    for step, (player, stone, card) in enumerate(placed):
        board = board.place(player, stone, parse_card(card), at=step)
    return board


def test_every_refusal_belongs_to_a_rule() -> None:
    assert {r.rule for r in Refusal} <= set(Rule)
    error = RefusedMove(Refusal.MODE_ON_NO_SIDE, "x")
    assert isinstance(error, IllegalActionError) and error.rule is Rule.COMBAT_MODE
    assert refusal_id(error) == "mode-on-no-side"
    assert refusal_id(IllegalActionError(Rule.PASS, "x")) == "pass"


def test_a_ruse_on_a_combat_mode_is_refused_because_the_mode_is_on_no_side() -> None:
    board = _board((YOU, 4, "red 5"))
    board = board.with_stone(replace(board.stone(4), mud_fight=Player.SECOND))
    attempts: tuple[Callable[[], object], ...] = (
        lambda: verify_strategist(board, YOU, Strategist(Tactic.MUD_FIGHT, 4, None)),
        lambda: verify_banshee(board, YOU, Banshee(Tactic.MUD_FIGHT, 4)),
    )
    for attempt in attempts:
        with pytest.raises(RefusedMove) as info:
            attempt()
        assert info.value.refusal is Refusal.MODE_ON_NO_SIDE


def test_a_combat_mode_on_a_claimed_stone_names_that_reason() -> None:
    board = _board()
    board = board.with_stone(replace(board.stone(2), claimed_by=YOU))
    with pytest.raises(RefusedMove) as info:
        verify_combat_mode(board, Play(Tactic.BLIND_MANS_BLUFF, 2))
    assert info.value.refusal is Refusal.MODE_ON_CLAIMED_STONE
    assert info.value.rule is Rule.CLAIM_CLOSED


def test_a_traitor_without_room_is_told_so_and_one_without_a_card_to_take_is_not() -> None:
    board = _board((Player.SECOND, 3, "blue 2"))
    with pytest.raises(RefusedMove) as info:
        verify_ruse_target(board, YOU, Tactic.TRAITOR, room=[], decks={})
    assert info.value.refusal is Refusal.RUSE_WITHOUT_ROOM
    # Nothing to take: the rule's own reason, whatever the room.
    for room in ([], [1, 2]):
        with pytest.raises(IllegalActionError) as plain:
            verify_ruse_target(_board(), YOU, Tactic.TRAITOR, room=room, decks={})
        assert not isinstance(plain.value, RefusedMove) and plain.value.rule is Rule.RUSE_TARGET


def test_moves_refused_by_the_game_carry_their_reason() -> None:
    from schotten.game import Game

    game = Game(Variant.BASE, seed=1)
    with pytest.raises(RefusedMove) as info:
        game.apply(Move.parse("play purple 9 at 4"))  # not in the hand dealt by seed 1
    assert info.value.refusal is Refusal.CARD_NOT_IN_HAND
    game.apply("play red 3 at 5")
    game.apply("claim none")
    with pytest.raises(RefusedMove) as info:
        game.apply("draw tactic")
    assert info.value.refusal is Refusal.NO_TACTIC_DECK
