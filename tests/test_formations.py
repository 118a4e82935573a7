"""Formations (RULES.md, Formations): the ladder, runs without wrap-around, elite troops."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st
from positions import cards

from schotten.cards import CLAN_CARDS
from schotten.formations import Formation, FormationKind, evaluate

K = FormationKind


@pytest.mark.parametrize(
    ("text", "kind", "total"),
    [
        ("blue 5, blue 6, blue 7", K.COLOUR_RUN, 18),
        ("red 5, green 5, blue 5", K.SAME_VALUE, 15),
        ("blue 1, blue 4, blue 9", K.COLOUR, 14),
        ("blue 5, red 6, green 7", K.RUN, 18),
        ("blue 2, red 5, green 9", K.SUM, 16),
        ("red 1, green 2, blue 3", K.RUN, 6),
        ("red 8, green 9, blue 1", K.SUM, 18),
        ("red 9, green 1, blue 2", K.SUM, 12),
        ("red 6, red 7, red 8, red 9", K.COLOUR_RUN, 30),
        ("red 4, green 4, blue 4, purple 4", K.SAME_VALUE, 16),
        ("red 1, red 3, red 5, red 9", K.COLOUR, 18),
        ("red 1, green 2, blue 3, red 4", K.RUN, 10),
        ("red 1, green 2, blue 3, red 5", K.SUM, 11),
    ],
)
def test_formation_ladder_examples(text: str, kind: FormationKind, total: int) -> None:
    assert evaluate(cards(text)) == Formation(kind, total)  # type: ignore[arg-type]


def test_formation_ladder_order_is_strongest_first() -> None:
    ladder = [K.COLOUR_RUN, K.SAME_VALUE, K.COLOUR, K.RUN, K.SUM]
    assert sorted(ladder, reverse=True) == ladder
    # Kind first, then total: a weak three of a kind beats a strong colour.
    assert Formation(K.SAME_VALUE, 3) > Formation(K.COLOUR, 24)


def test_no_wrap_around_for_any_window() -> None:
    for values in ((8, 9, 1), (9, 1, 2)):
        for colours in itertools.product(range(6), repeat=3):
            side = [CLAN_CARDS[c * 9 + v - 1] for c, v in zip(colours, values, strict=True)]
            assert evaluate(side).kind in (K.SUM, K.COLOUR)


def test_blind_mans_bluff_compares_totals_only() -> None:
    assert evaluate(cards("red 1, red 2, red 3"), totals_only=True) < evaluate(
        cards("green 9, blue 9, yellow 8"), totals_only=True
    )


@given(st.permutations(CLAN_CARDS).map(lambda p: p[:4]), st.booleans())
def test_formation_ignores_the_order_cards_were_placed_in(side: list, four: bool) -> None:
    side = side if four else side[:3]
    expected = evaluate(side)
    for order in itertools.permutations(side):
        assert evaluate(order) == expected
