"""The strongest completion of a side (RULES.md, Formations): from the pool of unseen Clan cards
and the elite troops still to come, a formation and one way to reach it, checked on examples
worked out by hand and against the brute-force reference."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import cards
from reference import brute_side
from strength import examples

from schotten.cards import CLAN_CARDS, Card, ClanCard, Tactic
from schotten.completion import ALL_CLAN_MASK, best_completion, pool_mask
from schotten.formations import Formation, FormationKind, evaluate

K = FormationKind


@pytest.mark.parametrize(
    "text",
    [
        "red 9, joker, red 8",
        "joker, spy, shield-bearer",
        "red 7, spy, green 7",
        "shield-bearer, red 2, red 3",
        "joker, blue 4, blue 6, blue 7",
        "shield-bearer, joker, red 1, spy",
    ],
)
@pytest.mark.parametrize("totals_only", [False, True])
def test_elite_troop_value_best_for_its_owner(text: str, totals_only: bool) -> None:
    side = cards(text)
    best = best_completion(side, len(side), totals_only=totals_only)
    assert best is not None
    assert best.formation == brute_side(side, totals_only=totals_only)
    assert evaluate(best.resolved, totals_only=totals_only) == best.formation


@given(
    st.permutations(CLAN_CARDS).map(lambda p: p[:4]),
    st.lists(st.sampled_from([Tactic.JOKER, Tactic.SPY, Tactic.SHIELD_BEARER]), unique=True),
    st.sampled_from([3, 4]),
    st.booleans(),
)
def test_elite_troops_on_random_sides_match_brute_force(
    clan: list, wilds: list, size: int, totals_only: bool
) -> None:
    side = [*wilds, *clan][:size]
    best = best_completion(side, size, totals_only=totals_only)
    assert best is not None
    assert best.formation == brute_side(side, totals_only=totals_only)


# --- Completions worked out by hand -----------------------------------------------------------


def test_completion_of_a_full_side_is_its_own_formation_rule_formation_ladder() -> None:
    best = best_completion(cards("blue 5, red 6, green 7"), 3)
    assert best is not None
    assert best.formation == Formation(K.RUN, 18)
    assert best.added == ()
    assert best.resolved == cards("blue 5, red 6, green 7")


def test_completion_takes_the_strongest_kind_then_the_highest_total_rule_formation_ladder() -> None:
    # Red 5-6 with red 4, red 7 and green 9 to come: 5-6-7 (18) beats 4-5-6 (15), and any colour
    # run beats the colour red 5-6 + nothing higher, or the sum with the green 9.
    best = best_completion(cards("red 5, red 6"), 3, pool=cards("red 4, red 7, green 9"))
    assert best is not None
    assert best.formation == Formation(K.COLOUR_RUN, 18)
    assert best.added == cards("red 7")


def test_completion_never_runs_past_nine_rule_no_wrap_around() -> None:
    # Red 9 and red 1 with red 2 and red 8 to come: 8-9-1 and 9-1-2 are no runs, so the best is
    # the colour red 9 + 1 + 8.
    best = best_completion(cards("red 9, red 1"), 3, pool=cards("red 2, red 8"))
    assert best is not None
    assert best.formation == Formation(K.COLOUR, 18)
    assert best.added == cards("red 8")


def test_completion_under_mud_fight_needs_a_fourth_card_rule_mud_fight() -> None:
    side = cards("red 2, green 2, blue 2")
    best = best_completion(side, 4, pool=cards("yellow 2, red 3"))
    assert best is not None
    assert best.formation == Formation(K.SAME_VALUE, 8)
    assert best.added == cards("yellow 2")
    assert best_completion(side, 4) is None  # nothing left to add: the side stays incomplete


def test_completion_under_blind_mans_bluff_adds_the_highest_cards_rule_blind_mans_bluff() -> None:
    pool = cards("red 3, green 9, blue 8")
    best = best_completion(cards("red 1, red 2"), 3, totals_only=True, pool=pool)
    assert best is not None
    assert best.formation == Formation(K.TOTAL, 12)  # 1 + 2 + 9, not the colour run 1-2-3
    assert best.added == cards("green 9")


def test_completion_is_none_when_too_few_cards_are_left() -> None:
    assert best_completion(cards("red 5"), 3, pool=cards("red 6")) is None
    assert best_completion(cards("red 5"), 3, pool=cards("red 6"), wilds=[Tactic.JOKER]) is not None


def test_completion_uses_each_elite_troop_at_most_once_rule_claim_wild_pool() -> None:
    assert best_completion(cards("red 9"), 3, wilds=[Tactic.JOKER]) is None
    best = best_completion(cards("red 9"), 3, wilds=[Tactic.JOKER, Tactic.SPY])
    assert best is not None
    assert best.formation == Formation(K.COLOUR_RUN, 24)  # the Spy as a red 7, the Joker an 8
    assert sorted(best.added, key=str) == [Tactic.JOKER, Tactic.SPY]


def test_completion_with_an_elite_troop_from_the_pool_rule_elite_troop_value() -> None:
    # A Joker or a Spy to come makes red 8-9 a colour run 7-8-9; a Shield-Bearer, at most a 3,
    # only a colour: 9 + 8 + 3.
    for troop in (Tactic.JOKER, Tactic.SPY):
        best = best_completion(cards("red 8, red 9"), 3, wilds=[troop])
        assert best is not None
        assert (best.formation, best.added) == (Formation(K.COLOUR_RUN, 24), (troop,))
        assert sorted(best.resolved) == sorted(cards("red 7, red 8, red 9"))
    best = best_completion(cards("red 8, red 9"), 3, wilds=[Tactic.SHIELD_BEARER])
    assert best is not None
    assert best.formation == Formation(K.COLOUR, 20)


def test_completion_refuses_a_side_that_cannot_be() -> None:
    with pytest.raises(ValueError, match="only Clan cards and elite troops"):
        best_completion(cards("red 1, traitor"), 3)
    with pytest.raises(ValueError, match="4 cards on a side of 3"):
        best_completion(cards("red 1, red 2, red 3, red 4"), 3)


def test_pool_mask_has_one_bit_per_clan_card_in_card_order() -> None:
    assert pool_mask(cards("red 1")) == 1
    assert pool_mask(cards("red 9")) == 1 << 8
    assert pool_mask(cards("orange 1")) == 1 << 9
    assert pool_mask(cards("purple 9, joker")) == 1 << 53  # elite troops are not in the mask
    assert pool_mask(CLAN_CARDS) == ALL_CLAN_MASK == 2**54 - 1


def test_completion_reads_the_pool_as_cards_or_as_a_mask() -> None:
    pool = cards("red 4, red 7, green 9")
    side = cards("red 5, red 6")
    assert best_completion(side, 3, pool=pool) == best_completion(side, 3, pool=pool_mask(pool))


ELITE_TROOPS = (Tactic.JOKER, Tactic.SPY, Tactic.SHIELD_BEARER)


@settings(max_examples=examples(300), deadline=None)
@given(
    st.permutations(CLAN_CARDS).map(lambda p: p[:10]),
    st.permutations(ELITE_TROOPS),
    st.integers(0, 4),
    st.integers(0, 2),
    st.integers(0, 2),
    st.sampled_from([3, 4]),
    st.booleans(),
)
def test_completion_is_the_best_of_every_completion_from_the_pool(
    clan: list[ClanCard],
    troops: list[Tactic],
    placed_clan: int,
    placed_troops: int,
    troops_to_come: int,
    size: int,
    totals_only: bool,
) -> None:
    placed_troops = min(placed_troops, size - min(placed_clan, size))
    placed: list[Card] = [*clan[: min(placed_clan, size - placed_troops)], *troops[:placed_troops]]
    pool = clan[len(placed) - placed_troops :][:6]
    wilds = troops[placed_troops:][: min(troops_to_come, 2 - placed_troops)]
    best = best_completion(placed, size, totals_only=totals_only, pool=pool, wilds=wilds)
    need = size - len(placed)
    ways = [
        brute_side([*placed, *added], totals_only=totals_only)
        for added in itertools.combinations([*pool, *wilds], need)
    ]
    if not ways:
        assert best is None
        return
    assert best is not None
    assert best.formation == max(ways)
    # The way it names is one of them: cards from the pool and the troops to come, each once.
    assert len(placed) + len(best.added) == size
    assert not Counter(best.added) - Counter([*pool, *wilds])
    assert brute_side([*placed, *best.added], totals_only=totals_only) == best.formation
    assert evaluate(best.resolved, totals_only=totals_only) == best.formation
