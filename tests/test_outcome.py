"""The end of the game (RULES.md, End of the game): the winning sets of stones, and the deadlock
closing (site ruling) that gives out the open stones when nobody can move."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

import pytest
from positions import OPPONENT, YOU, cards

from schotten.board import Board, Player, Side, Stone, Variant
from schotten.outcome import Outcome, Termination, close_deadlock, deadlock_taker, winning_condition


def held(stones: dict[int, Player], variant: Variant = Variant.BASE) -> Board:
    board = Board.empty(variant)
    for number, player in stones.items():
        board = board.with_stone(Stone(number, claimed_by=player))
    return board


def stone(number: int, mine: str, theirs: str, *, mud: bool = False) -> Stone:
    return Stone(
        number,
        (Side(cards(mine)), Side(cards(theirs))),
        mud_fight=YOU if mud else None,
    )


def on(board: Board, stones: Iterable[Stone]) -> Board:
    for item in stones:
        board = board.with_stone(item)
    return board


# --- Winning sets ---------------------------------------------------------------------------


@pytest.mark.parametrize("line", [(1, 2, 3), (4, 5, 6), (7, 8, 9)])
def test_outcome_three_adjacent_stones_win_rule_game_end(line: tuple[int, ...]) -> None:
    board = held(dict.fromkeys(line, YOU))
    assert winning_condition(board, YOU) is Termination.THREE_ADJACENT
    assert winning_condition(board, OPPONENT) is None


def test_outcome_five_stones_win_rule_game_end() -> None:
    board = held(dict.fromkeys((1, 3, 5, 7, 9), OPPONENT))
    assert winning_condition(board, OPPONENT) is Termination.FIVE_STONES
    assert winning_condition(held(dict.fromkeys((1, 3, 5, 7), OPPONENT)), OPPONENT) is None


def test_outcome_four_stones_in_two_pairs_are_not_enough_rule_game_end() -> None:
    assert winning_condition(held(dict.fromkeys((1, 2, 4, 5), YOU)), YOU) is None


def test_outcome_a_stone_of_the_opponent_breaks_a_line_rule_game_end() -> None:
    board = held({1: YOU, 2: YOU, 3: OPPONENT, 4: YOU})
    assert winning_condition(board, YOU) is None


def test_outcome_three_adjacent_is_named_before_five_stones_rule_game_end() -> None:
    board = held(dict.fromkeys((1, 2, 3, 5, 7), YOU))
    assert winning_condition(board, YOU) is Termination.THREE_ADJACENT


def test_outcome_says_who_won_and_why() -> None:
    assert str(Outcome(YOU, Termination.FIVE_STONES)) == "first wins (five-stones)"
    assert str(Outcome(OPPONENT, Termination.THREE_ADJACENT)) == "second wins (three-adjacent)"
    assert str(Outcome(None, Termination.DEADLOCK)) == "draw (deadlock)"
    with pytest.raises(dataclasses.FrozenInstanceError):
        Outcome(YOU, Termination.DEADLOCK).winner = OPPONENT  # type: ignore[misc]


# --- The deadlock closing (site ruling) -----------------------------------------------------


def test_deadlock_taker_the_only_complete_side_takes_the_stone_rule_deadlock() -> None:
    # A complete side beats a higher total on an incomplete one.
    assert deadlock_taker(stone(1, "red 1, red 2, red 3", "red 9, green 9")) is YOU
    assert deadlock_taker(stone(1, "red 9", "red 1, green 1, blue 1")) is OPPONENT


def test_deadlock_taker_otherwise_the_higher_total_rule_deadlock() -> None:
    assert deadlock_taker(stone(2, "red 4, red 6", "red 9")) is YOU  # 10 against 9
    assert deadlock_taker(stone(2, "red 1", "")) is YOU
    assert deadlock_taker(stone(2, "", "blue 1")) is OPPONENT


def test_deadlock_taker_equal_totals_go_to_nobody_rule_deadlock() -> None:
    assert deadlock_taker(stone(3, "red 9, red 1", "blue 8, blue 2")) is None
    assert deadlock_taker(stone(3, "", "")) is None


def test_deadlock_taker_counts_an_elite_troop_at_its_highest_value_rule_deadlock() -> None:
    assert deadlock_taker(stone(4, "joker", "red 8")) is YOU  # 9 against 8
    assert deadlock_taker(stone(4, "spy", "red 7")) is None  # 7 against 7
    assert deadlock_taker(stone(4, "shield-bearer", "red 4")) is OPPONENT  # 3 against 4


def test_deadlock_taker_under_mud_fight_three_cards_are_incomplete_rule_mud_fight() -> None:
    three = stone(5, "red 7, red 8, red 9", "red 1, red 2, red 3, red 4", mud=True)
    assert deadlock_taker(three) is OPPONENT
    both_short = stone(5, "red 7, red 8, red 9", "red 1, red 2, red 3", mud=True)
    assert deadlock_taker(both_short) is YOU  # 24 against 6


def test_deadlock_closing_gives_the_open_stones_and_names_the_winner_rule_deadlock() -> None:
    board = on(held({1: YOU, 2: YOU, 5: OPPONENT}), [stone(3, "red 9, red 8", "blue 1, blue 2")])
    closed, outcome = close_deadlock(board)
    assert closed.stone(3).claimed_by is YOU
    assert [s.claimed_by for s in closed.stones] == [YOU, YOU, YOU, None, OPPONENT, *[None] * 4]
    assert outcome == Outcome(YOU, Termination.DEADLOCK)


def test_deadlock_closing_keeps_a_claimed_stone_as_it_is_rule_deadlock() -> None:
    # Stone 4 is the opponent's whatever its sides say.
    taken = dataclasses.replace(stone(4, "red 9, red 8, red 7", ""), claimed_by=OPPONENT)
    closed, outcome = close_deadlock(on(Board.empty(Variant.BASE), [taken]))
    assert closed.stone(4).claimed_by is OPPONENT
    assert outcome == Outcome(None, Termination.DEADLOCK)


def test_deadlock_closing_with_two_winning_sets_is_a_draw_rule_deadlock() -> None:
    board = on(
        held({1: YOU, 2: YOU, 7: OPPONENT, 8: OPPONENT}),
        [stone(3, "red 9", "blue 1"), stone(9, "green 1", "yellow 9")],
    )
    closed, outcome = close_deadlock(board)
    assert (closed.stone(3).claimed_by, closed.stone(9).claimed_by) == (YOU, OPPONENT)
    assert outcome == Outcome(None, Termination.DEADLOCK)


def test_deadlock_closing_with_no_winning_set_is_a_draw_rule_deadlock() -> None:
    board = on(held({1: YOU, 3: OPPONENT}), [stone(2, "red 5", "blue 5")])
    closed, outcome = close_deadlock(board)
    assert closed.stone(2).claimed_by is None
    assert outcome == Outcome(None, Termination.DEADLOCK)
