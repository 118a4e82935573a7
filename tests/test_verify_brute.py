"""The brute force of schotten.verify, on positions worked out by hand from RULES.md, and
against the test-only reference on random positions (tests/test_verify_spaces.py runs it against
the engine on every space)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from reference import brute_judge as reference_judge

from schotten.board import Player
from schotten.cards import CLAN_CARDS, Card, Tactic, parse_cards
from schotten.verify import ranks
from schotten.verify.brute import (
    BrutePosition,
    blocks,
    brute_judge,
    brute_judge_many,
    completion_strength,
    judge_block,
    judge_blocks,
)
from schotten.verify.ranks import rank, rank_table, strength
from schotten.verify.spaces import one_stone_board


def pos(mine: str, theirs: str, variant: str = "base", **kw: object) -> BrutePosition:
    split = lambda text: parse_cards(t for t in text.split(",") if t.strip())  # noqa: E731
    return BrutePosition(variant, split(mine), split(theirs), **kw)  # type: ignore[arg-type]


def test_formation_ladder_from_strongest_to_weakest() -> None:
    def of(text: str, **kw: bool) -> tuple[str, int]:
        cards = parse_cards(text.split(","))
        return strength(rank([c.colour * 9 + c.value - 1 for c in cards], **kw))  # type: ignore[union-attr]

    assert of("blue 5, blue 6, blue 7") == ("colour-run", 18)
    assert of("red 2, green 2, blue 2") == ("same-value", 6)
    assert of("red 9, red 2, red 6") == ("colour", 17)
    assert of("red 1, green 2, blue 3") == ("run", 6)
    assert of("red 8, green 9, blue 1") == ("sum", 18)  # rule no-wrap-around
    assert of("red 9, red 1, red 2") == ("colour", 12)
    assert of("red 1, red 2, red 3", totals_only=True) == ("total", 6)
    assert of("red 4, green 4, blue 4, purple 4") == ("same-value", 16)


def test_rank_table_holds_every_order_of_every_side() -> None:
    table = rank_table(3, False)
    rng = random.Random(3)
    for _ in range(500):
        a, b, c = (rng.randrange(54) for _ in range(3))
        assert table[(a * 54 + b) * 54 + c] == rank([a, b, c])


def test_claim_proof_the_last_three_is_in_the_pool() -> None:
    # Three 1s against two 3s: orange 3 (or any unseen 3) gives three 3s.
    verdict = brute_judge(pos("red 1, green 1, blue 1", "red 3, green 3"))
    assert (verdict.reason, verdict.theirs) == ("opponent-can-beat", ("same-value", 9))


def test_claim_proof_an_equal_completion_loses_to_the_claimer() -> None:
    # Purple 7-8-9 against nothing: the best completion is another 7-8-9 colour run, equal.
    verdict = brute_judge(pos("purple 7, purple 8, purple 9", ""))
    assert (verdict.reason, verdict.theirs) == ("unbeatable", ("colour-run", 24))
    assert verdict.completions == 20825  # every 3 cards of the 51 unseen


def test_claim_proof_the_discard_pile_is_out_of_the_pool() -> None:
    mine, theirs = "red 4, green 4, blue 4", "red 5, green 5"
    assert brute_judge(pos(mine, theirs)).theirs == ("same-value", 15)
    # Every other 5 face up elsewhere: 5-5-x is no run, no colour, no same value: a sum at best
    # (5 + 5 + 9), below three 4s.
    seen = parse_cards(["yellow 5", "orange 5", "purple 5", "blue 5"])
    verdict = brute_judge(pos(mine, theirs, elsewhere_mine=seen))
    assert (verdict.reason, verdict.theirs) == ("unbeatable", ("sum", 19))


def test_complete_sides_tie_goes_to_the_side_completed_first() -> None:
    mine, theirs = "red 1, red 2, red 3", "orange 1, orange 2, orange 3"
    assert brute_judge(pos(mine, theirs, mine_first=True)).reason == "tie-completed-first"
    assert brute_judge(pos(mine, theirs, mine_first=False)).reason == "tie-completed-later"
    assert brute_judge(pos(mine, "red 9, green 9, blue 1", mine_first=False)).reason == "stronger"


def test_joker_may_copy_a_card_on_the_table() -> None:
    # Blue 9 is on the claimer's side; the unseen Joker beside blue 8, blue 7 may be a blue 9.
    verdict = brute_judge(pos("blue 9, green 9, red 9", "blue 8, blue 7", "tactical"))
    assert (verdict.reason, verdict.theirs) == ("opponent-can-beat", ("colour-run", 24))
    assert completion_strength(
        pos("blue 9, green 9, red 9", "blue 8, blue 7", "tactical"), [Tactic.JOKER]
    ) == ("colour-run", 24)


def test_opponent_who_played_a_joker_never_gets_the_other() -> None:
    mine, theirs = "red 6, red 7, red 8", "blue 9, blue 8"
    seen = parse_cards(["blue 7", "spy"])  # no blue 7 and no Spy for them
    base = pos(mine, theirs, "tactical", elsewhere_mine=seen)
    assert base.variant == "tactical"
    assert brute_judge(base).theirs == ("colour-run", 24)  # the Joker as blue 7
    barred = BrutePosition(
        "tactical",
        base.mine,
        base.theirs,
        elsewhere_mine=seen,
        elsewhere_theirs=(Tactic.JOKER,),
    )
    verdict = brute_judge(barred)
    # Without a wild 7: blue 9, blue 8 and blue 6 make a colour (23), below a colour run.
    assert (verdict.reason, verdict.theirs) == ("unbeatable", ("colour", 23))


def test_spy_is_a_seven_and_shield_bearer_at_most_a_three() -> None:
    spy = brute_judge(pos("red 1, green 1, spy", "", "tactical", mine_first=None))
    assert spy.mine == ("sum", 9)
    shield = brute_judge(pos("red 1, red 2, shield-bearer", "", "tactical"))
    assert shield.mine == ("colour-run", 6)  # the Shield Bearer as red 3
    both = brute_judge(
        pos("blue 5, shield-bearer, spy", "red 1, red 2, red 3", "tactical", mine_first=True)
    )
    assert both.mine == ("colour", 15)  # blue 5, a blue 3 and a blue 7


def test_mud_fight_four_cards_and_blind_mans_bluff_totals() -> None:
    mud = brute_judge(
        pos("red 1, green 1, blue 1, purple 1", "red 2, green 2, blue 2", "tactical", mud=True)
    )
    # Yellow 2, orange 2, or a wild card as a 2 (Joker, Shield Bearer): four 2s.
    assert (mud.reason, mud.theirs) == ("opponent-can-beat", ("same-value", 8))
    blind = brute_judge(pos("red 9, green 9, blue 9", "purple 9, yellow 9", "tactical", blind=True))
    # Orange 9 or a Joker: a total of 27, equal, and an equal completion loses.
    assert (blind.reason, blind.theirs) == ("unbeatable", ("total", 27))


def _random_position(rng: random.Random) -> BrutePosition:
    tactical = rng.random() < 0.6
    mud = tactical and rng.random() < 0.3
    blind = tactical and not mud and rng.random() < 0.3
    size = 4 if mud else 3
    deck: list[Card] = [*CLAN_CARDS]
    if tactical:
        deck += [Tactic.JOKER, Tactic.SPY, Tactic.SHIELD_BEARER]
    rng.shuffle(deck)
    mine = tuple(deck.pop() for _ in range(size))
    theirs_count = rng.choice([size - 1, size - 1, size - 2, size])
    theirs = tuple(deck.pop() for _ in range(theirs_count))
    seen = tuple(deck.pop() for _ in range(rng.randrange(8)))
    return BrutePosition(
        "tactical" if tactical else "base",
        mine,
        theirs,
        mud=mud,
        blind=blind,
        mine_first=rng.random() < 0.5 if theirs_count == size else None,
        elsewhere_theirs=seen,
    )


def test_agrees_with_the_test_reference_on_random_positions() -> None:
    rng = random.Random(2024)
    for _ in range(100):
        position = _random_position(rng)
        board = one_stone_board(position)
        expected = reference_judge(board, Player.FIRST, 1)
        got = brute_judge(position)
        assert got.reason == str(expected.reason), position
        if expected.best_theirs is not None:
            assert got.theirs == (expected.best_theirs.kind.key, expected.best_theirs.total)


@pytest.mark.parametrize("bad", [["red 1"], ["blue 8"], ["spy", "spy"]])
def test_a_witness_not_from_the_pool_reaches_nothing(bad: list[str]) -> None:
    position = pos(
        "red 1, green 1, blue 1", "red 3, green 3", elsewhere_mine=parse_cards(["blue 8"])
    )
    assert completion_strength(position, parse_cards(bad)) is None


def test_mud_fight_and_blind_mans_bluff_together_count_four_cards_by_their_total() -> None:
    position = pos(
        "red 9, green 9, blue 1, purple 1",
        "red 8, green 8, blue 8",
        "tactical",
        mud=True,
        blind=True,
    )
    verdict = brute_judge(position)
    # Mine: 20. Theirs: 24 and one more card: any unseen card or a wild card beats 20.
    assert (verdict.reason, verdict.mine, verdict.theirs) == (
        "opponent-can-beat",
        ("total", 20),
        ("total", 33),  # 8 + 8 + 8 + a Joker as a 9
    )
    # 47 unseen Clan cards, the Joker as each of 54 cards, the Spy as each 7, the Shield Bearer
    # as each 1, 2 and 3.
    assert verdict.completions == 47 + 54 + 6 + 18


def test_every_wild_value_is_one_completion() -> None:
    # Two cards against three: 49 unseen Clan cards, then each wild card at every value.
    verdict = brute_judge(pos("red 1, green 1, blue 1", "red 3, green 3", "tactical"))
    assert verdict.completions == 49 + 54 + 6 + 18


def test_a_side_that_no_pool_can_complete_is_beaten_by_nothing() -> None:
    # Every Clan card but three is seen elsewhere and there is no wild card (base game): the
    # opponent's empty side needs three cards from a pool of one.
    mine = parse_cards(["red 1", "green 1", "blue 1"])
    seen = tuple(c for c in CLAN_CARDS if c not in mine and str(c) != "purple 9")
    verdict = brute_judge(BrutePosition("base", mine, (), elsewhere_theirs=seen))
    assert (verdict.reason, verdict.theirs, verdict.completions) == ("unbeatable", None, 0)


def test_a_block_judges_each_position_as_it_is_judged_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random(7)
    positions = [_random_position(rng) for _ in range(60)]
    alone = [brute_judge(p) for p in positions]
    monkeypatch.setattr(ranks, "_BLOCK", 64)  # many small blocks of rows instead of one
    assert brute_judge_many(positions) == alone
    for block, members in blocks(positions):
        assert judge_block(block) == [alone[k] for k in members]


def test_blocks_of_different_templates_judged_together_as_each_alone() -> None:
    # Positions of a sampled kind: each its own cards seen elsewhere, wild cards on either side,
    # complete and incomplete sides; judge_blocks joins the blocks the tables read alike.
    rng = random.Random(8)
    found = blocks([_random_position(rng) for _ in range(80)])
    together = judge_blocks([block for block, _ in found])
    assert together == [judge_block(block) for block, _ in found]
    assert len(found) > len({(b.template.size, b.template.blind) for b, _ in found})


@pytest.mark.parametrize("n_clan", [1, 2])
def test_a_completion_read_as_a_row_of_the_table_is_the_best_of_its_sets(n_clan: int) -> None:
    # One or two Clan cards of a completion are read as whole rows of the table (every order,
    # the cards out of the pool masked); the same best as every set of unseen cards. The side:
    # one Clan card on the stone, then a Shield Bearer (one card to complete) or nothing (two).
    rng = np.random.default_rng(n_clan)
    count = 40
    placed = rng.integers(0, 54, count)
    unseen = rng.random((count, 54)) < rng.random((count, 1))  # from almost none to almost all
    unseen[np.arange(count), placed] = False
    unseen[0] = False  # a pool with no Clan card: no completion
    table, bases = rank_table(3, False), placed * 54**2
    heads = ranks.wild_heads((Tactic.SHIELD_BEARER,) if n_clan == 1 else (), 1, 3)
    allowed = ranks._allowed(unseen, n_clan)
    rows = ranks._completion_ranks(table, bases, heads, n_clan, unseen, allowed)
    sets = ranks._set_ranks(table, bases, heads, n_clan, unseen)
    assert rows.tolist() == sets.tolist()
    assert rows[0] == 0 and rows.max() > 0
