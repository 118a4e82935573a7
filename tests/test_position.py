"""Whether a position can occur (:mod:`schotten.position`): structured, located problems."""

from __future__ import annotations

from dataclasses import replace

from schotten.board import Board, Player, Side, Stone, Variant
from schotten.cards import CLAN_CARDS, Tactic, parse_cards
from schotten.game import Game
from schotten.moves import Deck
from schotten.position import position_problems, reach_problems, table_problems
from schotten.rules import Rule


def side(text: str, at: int | None = None) -> Side:
    return Side(tuple(parse_cards(text.split(", "))), at)


def test_a_card_not_placed_on_a_side_is_located_at_its_stone_side_and_index() -> None:
    stone = Stone(4, (side("red 1, traitor"), Side()))
    (problem,) = table_problems(Board.empty(Variant.TACTICAL).with_stone(stone))
    assert (problem.code, problem.stone, problem.player, problem.index) == (
        "not-on-a-side",
        4,
        Player.FIRST,
        1,
    )
    assert problem.cards == (Tactic.TRAITOR,)
    assert str(problem) == "stone 4: traitor is not placed on a side"


def test_a_side_over_capacity_names_its_rule() -> None:
    stone = Stone(2, (Side(), side("red 1, red 2, red 3, red 4", 3)))
    (problem,) = table_problems(Board.empty(Variant.BASE).with_stone(stone))
    assert (problem.code, problem.rule, problem.stone, problem.player) == (
        "side-over-capacity",
        Rule.PLAY_CAPACITY,
        2,
        Player.SECOND,
    )


def test_a_claim_the_taker_could_not_prove_is_unreachable() -> None:
    stone = Stone(
        4,
        (side("red 1, blue 3, green 4", 1), side("purple 3, purple 4, purple 5", 2)),
        Player.FIRST,
    )
    board = Board.empty(Variant.BASE).with_stone(stone)
    (problem,) = reach_problems(board)
    assert (problem.code, problem.rule, problem.stone, problem.player) == (
        "claim-unproven",
        Rule.CLAIM_PROOF,
        4,
        Player.FIRST,
    )
    granted = replace(stone, claimed_by=Player.SECOND)
    assert list(reach_problems(Board.empty(Variant.BASE).with_stone(granted))) == []


def three_full_stones(variant: Variant) -> Board:
    board = Board.empty(variant)
    for n, cards in ((1, "red 1, red 2, red 3"), (2, "red 4, red 5, red 6"), (3, "red 7, red 8")):
        board = board.with_stone(Stone(n, (side(cards, n if n < 3 else None), Side())))
    return board


def test_counts_need_passes_only_a_hand_without_clan_cards_allows() -> None:
    board = three_full_stones(Variant.BASE)
    (problem,) = reach_problems(board)
    assert (problem.code, problem.player, problem.rule) == ("card-count", Player.SECOND, Rule.PASS)
    # With a Traitor played, a card of theirs may have crossed over: still far apart.
    assert [p.code for p in reach_problems(three_full_stones(Variant.TACTICAL))] == ["card-count"]


def test_a_player_whose_sides_are_all_full_may_have_passed() -> None:
    """Every open stone full on the side that fell behind: no room, so passes were legal."""
    clan = iter(CLAN_CARDS)
    board = Board.empty(Variant.BASE)
    for n in range(1, 10):
        mine = Side(tuple(next(clan) for _ in range(3)), n)
        taken = n in (1, 3, 5)
        theirs = Side() if taken else Side(tuple(next(clan) for _ in range(3)), 10 + n)
        board = board.with_stone(Stone(n, (mine, theirs), Player.FIRST if taken else None))
    assert list(table_problems(board)) == []
    # 27 cards against 18: eight passes at least, each with every open side of theirs full.
    assert list(reach_problems(board)) == []
    emptied = board.with_stone(replace(board.stone(9), sides=(board.stone(9).sides[0], Side())))
    assert [p.code for p in reach_problems(emptied)] == ["card-count"]


def test_a_game_position_lists_the_problems_of_hands_and_decks_too() -> None:
    game = Game(Variant.BASE, seed=2)
    hands = [[*game.hand(Player.FIRST), game.deck(Deck.CLAN)[0]], list(game.hand(Player.SECOND))]
    decks = {d: game.deck(d) for d in game.position().decks}
    codes = [p.code for p in position_problems(game.board, hands, decks)]
    assert codes == ["hand-size", "card-twice"]
