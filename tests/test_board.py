"""The table (:mod:`schotten.board`): stones and sides, what a side holds and when it was
completed, the combat modes, what is face up and what each player has played."""

from __future__ import annotations

import dataclasses

import pytest
from positions import OPPONENT, YOU, cards

from schotten.board import STONES, Board, Player, Side, Stone, Variant
from schotten.cards import Tactic
from schotten.errors import InvalidPositionError


def placed(board: Board, player: Player, number: int, text: str, first_step: int = 0) -> Board:
    for step, card in enumerate(cards(text), first_step):
        board = board.place(player, number, card, at=step)
    return board


def test_players_take_turns_with_each_other() -> None:
    assert (Player.FIRST.other, Player.SECOND.other) == (Player.SECOND, Player.FIRST)
    assert (str(Player.FIRST), str(Player.SECOND)) == ("first", "second")


def test_hand_size_six_in_the_base_game_seven_in_the_tactical_rule_hand_size() -> None:
    assert (Variant.BASE.hand_size, Variant.TACTICAL.hand_size) == (6, 7)


def test_an_empty_board_has_nine_empty_stones_numbered_one_to_nine() -> None:
    board = Board.empty(Variant.BASE)
    assert [s.number for s in board.stones] == list(STONES) == list(range(1, 10))
    assert all(s.sides == (Side(), Side()) and s.claimed_by is None for s in board.stones)
    assert board.discard == ((), ())
    assert board.stone(9) is board.stones[8]


@pytest.mark.parametrize("number", [0, 10, -1])
def test_there_is_no_stone_outside_one_to_nine(number: int) -> None:
    with pytest.raises(InvalidPositionError, match=f"there is no stone {number}: stones are"):
        Board.empty(Variant.BASE).stone(number)


def test_a_side_holds_three_cards_four_under_mud_fight_rule_play_capacity() -> None:
    assert Stone(1).capacity == 3
    assert Stone(1, mud_fight=OPPONENT).capacity == 4  # whoever played it: both sides
    board = placed(Board.empty(Variant.BASE), YOU, 2, "red 1, red 2")
    assert board.stone(2).has_room(YOU) and not board.stone(2).is_complete(YOU)
    board = placed(board, YOU, 2, "red 3", 2)
    assert not board.stone(2).has_room(YOU) and board.stone(2).is_complete(YOU)
    assert board.stone(2).has_room(OPPONENT)


def test_a_claimed_stone_has_no_room_rule_play_claimed_stone() -> None:
    stone = Stone(3, (Side(cards("red 1")), Side()), claimed_by=OPPONENT)
    assert not stone.has_room(YOU) and not stone.has_room(OPPONENT)


def test_placing_keeps_the_order_and_leaves_the_board_unchanged() -> None:
    empty = Board.empty(Variant.BASE)
    board = placed(empty, OPPONENT, 5, "blue 9, red 1")
    assert board.stone(5).side(OPPONENT).cards == cards("blue 9, red 1")
    assert board.stone(5).side(YOU).cards == ()
    assert empty.stone(5).side(OPPONENT).cards == ()
    with pytest.raises(dataclasses.FrozenInstanceError):
        board.variant = Variant.TACTICAL  # type: ignore[misc]


def test_a_side_records_the_step_it_was_completed_at_rule_completed_first() -> None:
    board = placed(Board.empty(Variant.BASE), YOU, 4, "red 1, red 2", 10)
    assert board.stone(4).side(YOU).completed_at is None
    board = board.place(YOU, 4, cards("red 3")[0], at=17)
    assert board.stone(4).side(YOU).completed_at == 17


def test_under_mud_fight_a_side_is_complete_with_its_fourth_card_rule_completed_first() -> None:
    board = Board.empty(Variant.TACTICAL).with_stone(Stone(6, mud_fight=YOU))
    board = placed(board, OPPONENT, 6, "red 1, red 2, red 3")
    assert board.stone(6).side(OPPONENT).completed_at is None
    assert not board.stone(6).is_complete(OPPONENT)
    board = board.place(OPPONENT, 6, cards("red 4")[0], at=8)
    assert board.stone(6).side(OPPONENT).completed_at == 8


def test_completed_first_names_the_side_complete_earlier_rule_completed_first() -> None:
    def sides(mine: int | None, theirs: int | None) -> Stone:
        three = cards("red 1, red 2, red 3")
        return Stone(1, (Side(three, mine), Side(three, theirs)))

    assert sides(3, 5).completed_first() is YOU
    assert sides(6, 5).completed_first() is OPPONENT
    assert sides(None, 5).completed_first() is None  # both must be complete
    assert sides(5, 5).completed_first() is None


def test_blind_mans_bluff_makes_a_stone_compare_totals_only_rule_blind_mans_bluff() -> None:
    assert not Stone(1).totals_only
    assert Stone(1, blind_mans_bluff=YOU).totals_only


def test_the_discard_pile_is_kept_by_the_player_who_had_played_the_card() -> None:
    board = Board.empty(Variant.TACTICAL).discard_card(OPPONENT, Tactic.BANSHEE)
    board = board.discard_card(OPPONENT, cards("red 5")[0]).discard_card(YOU, Tactic.TRAITOR)
    assert board.discard == ((Tactic.TRAITOR,), (Tactic.BANSHEE, *cards("red 5")))


def test_placed_and_visible_cards() -> None:
    board = placed(Board.empty(Variant.TACTICAL), YOU, 1, "red 1, joker")
    board = placed(board, OPPONENT, 2, "blue 2")
    board = board.with_stone(dataclasses.replace(board.stone(3), mud_fight=OPPONENT))
    board = board.with_stone(dataclasses.replace(board.stone(3), blind_mans_bluff=YOU))
    board = board.discard_card(YOU, Tactic.STRATEGIST)
    assert list(board.placed()) == [
        (YOU, cards("red 1")[0]),
        (YOU, Tactic.JOKER),
        (OPPONENT, cards("blue 2")[0]),
    ]
    assert sorted(board.visible(), key=str) == sorted(
        [*cards("red 1, joker, blue 2, mud-fight, blind-mans-bluff, strategist")], key=str
    )


def test_tactics_played_count_discarded_ones_and_combat_modes_rule_tactic_count() -> None:
    board = placed(Board.empty(Variant.TACTICAL), YOU, 1, "red 1, spy")
    board = board.with_stone(Stone(2, mud_fight=YOU)).with_stone(Stone(3, blind_mans_bluff=YOU))
    board = board.discard_card(YOU, Tactic.BANSHEE).discard_card(YOU, cards("green 4")[0])
    board = board.with_stone(dataclasses.replace(board.stone(4), mud_fight=OPPONENT))
    assert board.tactics_played(YOU) == 4  # the Spy, two combat modes, the Banshee
    assert board.tactics_played(OPPONENT) == 1


def test_a_joker_played_stays_played_once_discarded_rule_joker_once() -> None:
    board = Board.empty(Variant.TACTICAL)
    assert not board.has_played_joker(YOU)
    on_table = placed(board, YOU, 7, "joker")
    assert on_table.has_played_joker(YOU) and not on_table.has_played_joker(OPPONENT)
    discarded = board.discard_card(OPPONENT, Tactic.JOKER)
    assert discarded.has_played_joker(OPPONENT) and not discarded.has_played_joker(YOU)


def test_stones_held_are_listed_in_order() -> None:
    board = Board.empty(Variant.BASE)
    for number, player in ((7, YOU), (2, YOU), (4, OPPONENT)):
        board = board.with_stone(Stone(number, claimed_by=player))
    assert board.stones_held(YOU) == (2, 7)
    assert board.stones_held(OPPONENT) == (4,)
