"""What each elite troop of a side becomes (:mod:`schotten.troops`), paired with the engine's own
resolution of that side (RULES.md, elite-troop-value)."""

from __future__ import annotations

import random

import pytest
from positions import cards

from schotten.cards import CLAN_CARDS, ClanCard, Colour, Tactic
from schotten.completion import best_completion
from schotten.formations import Formation, FormationKind, evaluate
from schotten.troops import troops_as


def test_a_clan_card_stands_for_itself() -> None:
    side = cards("red 1, green 5, blue 9")
    assert troops_as(side, side) == tuple((c, None) for c in side)


def test_the_spy_takes_the_seven_and_the_joker_the_rest_rule_elite_troop_value() -> None:
    side = cards("red 8, spy, joker")
    best = best_completion(side, 3)
    assert best is not None and best.formation == Formation(FormationKind.COLOUR_RUN, 24)
    expected = (
        (ClanCard(Colour.RED, 8), None),
        (Tactic.SPY, ClanCard(Colour.RED, 7)),
        (Tactic.JOKER, ClanCard(Colour.RED, 9)),
    )
    # Whatever order the resolution lists its cards in.
    for resolved in (cards("red 8, red 7, red 9"), cards("red 9, red 8, red 7")):
        assert troops_as(side, resolved) == expected  # type: ignore[arg-type]


def test_the_shield_bearer_takes_a_low_card_rule_elite_troop_value() -> None:
    # The Shield-Bearer as a 3 and the Joker as a 4 make red 2-3-4 (9), better than 1-2-3 (6).
    side = cards("joker, red 2, shield-bearer")
    best = best_completion(side, 3)
    assert best is not None and best.formation == Formation(FormationKind.COLOUR_RUN, 9)
    for resolved in (cards("red 2, red 3, red 4"), cards("red 4, red 3, red 2")):
        pairs = dict(troops_as(side, resolved))  # type: ignore[arg-type]
        assert (pairs[Tactic.SHIELD_BEARER], pairs[Tactic.JOKER]) == (
            ClanCard(Colour.RED, 3),
            ClanCard(Colour.RED, 4),
        )


def test_in_a_same_value_a_troop_never_shows_a_card_of_its_side_rule_elite_troop_value() -> None:
    # Red 7, the Spy and a Joker: three 7s (21) beat the colour red 7-7-9 (23).
    side = cards("red 7, spy, joker")
    best = best_completion(side, 3)
    assert best is not None and best.formation == Formation(FormationKind.SAME_VALUE, 21)
    pairs = troops_as(side, best.resolved)
    shown = [ClanCard(Colour.RED, 7), *(becomes for _, becomes in pairs if becomes is not None)]
    assert [c.value for c in shown] == [7, 7, 7]
    assert len({c.colour for c in shown}) == 3  # three colours: no card twice


def test_a_troop_that_the_resolution_cannot_hold_is_an_error() -> None:
    with pytest.raises(ValueError, match="no resolution of spy"):
        troops_as(cards("spy, red 3"), cards("red 3, red 4"))  # type: ignore[arg-type]


def test_a_troop_keeps_the_colour_its_formation_needs_rule_elite_troop_value() -> None:
    # 9 red, 1 red and the Joker: a red 9 makes a Colour of 19; any other 9 would make a Sum.
    side = cards("red 9, red 1, joker")
    best = best_completion(side, 3)
    assert best is not None and best.formation == Formation(FormationKind.COLOUR, 19)
    pairs = dict(troops_as(side, best.resolved))
    assert pairs[Tactic.JOKER] == ClanCard(Colour.RED, 9)


def test_the_cards_shown_make_the_formation_of_the_resolution() -> None:
    # Every side of three or four cards with one or two elite troops: the cards as shown (each
    # troop as the card it becomes) make the very formation the engine resolved.
    rng = random.Random(27)
    troops = [Tactic.JOKER, Tactic.SPY, Tactic.SHIELD_BEARER]
    for _ in range(3000):
        size = rng.choice((3, 4))
        wild = rng.sample(troops, rng.choice((1, 2)))
        side = [*rng.sample(CLAN_CARDS, size - len(wild)), *wild]
        rng.shuffle(side)
        totals_only = rng.random() < 0.1
        best = best_completion(side, size, totals_only=totals_only)
        assert best is not None
        shown = [c if becomes is None else becomes for c, becomes in troops_as(side, best.resolved)]
        assert all(isinstance(c, ClanCard) for c in shown)
        assert evaluate(shown, totals_only=totals_only) == best.formation, side  # type: ignore[arg-type]
