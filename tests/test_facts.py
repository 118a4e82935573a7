"""Examples, facts and the ladder written in the pages (schotten.site.facts): true ones render in
the page's language, false ones stop the build (SiteCheckError naming the statement)."""

from __future__ import annotations

import pytest

from schotten.formations import FormationKind
from schotten.labels import LabelError
from schotten.odds import hand_counts
from schotten.site import SiteCheckError, facts
from schotten.site.facts import jinja_functions

FR, ES = jinja_functions("fr"), jinja_functions("es")


@pytest.mark.parametrize(
    ("cards", "kind", "total", "fr", "es"),
    [
        (
            "blue 5, blue 6, blue 7",
            "colour-run",
            18,
            "5 bleu, 6 bleu et 7 bleu",
            "5 azul, 6 azul y 7 azul",
        ),
        (
            "red 2, green 2, blue 2",
            "same-value",
            6,
            "2 rouge, 2 vert et 2 bleu",
            "2 rojo, 2 verde y 2 azul",
        ),
        (
            "purple 9, purple 8, purple 6",
            "colour",
            23,
            "9 violet, 8 violet et 6 violet",
            "9 morado, 8 morado y 6 morado",
        ),
        (
            "red 1, green 2, blue 3",
            "run",
            6,
            "1 rouge, 2 vert et 3 bleu",
            "1 rojo, 2 verde y 3 azul",
        ),
        (
            "red 8, green 9, blue 1",
            "sum",
            18,
            "8 rouge, 9 vert et 1 bleu",
            "8 rojo, 9 verde y 1 azul",
        ),
    ],
)
def test_formation_ladder_examples_render_in_each_language(
    cards: str, kind: str, total: int, fr: str, es: str
) -> None:
    assert FR["example"](cards, kind) == fr
    assert ES["example"](cards, kind, total=total) == es


def test_no_wrap_around_example_that_claims_a_run_fails() -> None:
    with pytest.raises(SiteCheckError) as error:
        FR["example"]("red 8, green 9, blue 1", "run")
    assert str(error.value) == "example 'red 8, green 9, blue 1' is a sum of 18, not a run"


@pytest.mark.parametrize(
    ("cards", "kind", "message"),
    [
        ("red 2, green 2, blue 3", "same-value", "is a sum of 7, not a same value"),
        ("red 9, red 8, red 6", "colour-run", "is a colour of 23, not a colour run"),
        ("red 9, red 8, red 7", "colour", "is a colour run of 24, not a colour"),
        ("red 4, green 5, blue 6", "sum", "is a run of 15, not a sum"),
        ("red 1, red 2", "sum", "has 2 cards, not 3 on a side"),
        ("red 1, red 1, red 2", "sum", "uses the same card twice"),
        ("red 1, pink 2, red 3", "sum", "'pink 2' is not a card"),
        ("red 1, red 2, red 3", "straight", "unknown kind 'straight'"),
        ("red 1, red 2, banshee", "sum", "only Clan cards and elite troops"),
    ],
)
def test_false_examples_stop_the_build(cards: str, kind: str, message: str) -> None:
    with pytest.raises(SiteCheckError, match=message) as error:
        ES["example"](cards, kind)
    assert repr(cards) in str(error.value)


def test_example_total_is_checked() -> None:
    with pytest.raises(SiteCheckError, match="is a colour run of 18, not of 19"):
        FR["example"]("blue 5, blue 6, blue 7", "colour-run", total=19)


def test_mud_fight_examples_have_four_cards() -> None:
    assert FR["example"]("red 5, green 5, blue 5, purple 5", "same-value", total=20, mud=True) == (
        "5 rouge, 5 vert, 5 bleu et 5 violet"
    )
    with pytest.raises(SiteCheckError, match="has 3 cards, not 4 under Mud Fight"):
        FR["example"]("red 5, green 5, blue 5", "same-value", mud=True)
    with pytest.raises(SiteCheckError, match="is a run of 22, not a colour run"):
        FR["example"]("red 4, red 5, red 6, blue 7", "colour-run", mud=True)


def test_blind_mans_bluff_examples_count_the_total_only() -> None:
    # The cards still name what they would make elsewhere, or "total" for what they are here.
    assert ES["example"]("green 1, green 2, green 3", "colour-run", total=6, bluff=True)
    assert ES["example"]("red 9, blue 9, yellow 8", "total", total=26, bluff=True)
    with pytest.raises(SiteCheckError, match="only with bluff=True"):
        ES["example"]("red 9, blue 9, yellow 8", "total")
    with pytest.raises(SiteCheckError, match="not of 25"):
        ES["example"]("red 9, blue 9, yellow 8", "total", total=25, bluff=True)


def test_elite_troop_examples_take_their_best_value() -> None:
    said = FR["example"]("red 9, joker, red 7", "colour-run", total=24)
    assert said == "9 rouge, Joker et 7 rouge"
    assert ES["example"]("spy, red 7, blue 7", "same-value", total=21) == "Espía, 7 rojo y 7 azul"
    with pytest.raises(SiteCheckError, match="is a sum of"):
        FR["example"]("shield-bearer, red 6, blue 7", "run")


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("clan-cards", 54),
        ("tactic-cards", 10),
        ("colours", 6),
        ("values", 9),
        ("stones", 9),
        ("hand-base", 6),
        ("hand-tactical", 7),
        ("cards-per-value", 6),
        ("cards-per-colour", 9),
        ("side-size", 3),
        ("side-size-mud", 4),
        ("stones-to-win", 5),
        ("adjacent-to-win", 3),
        ("jokers", 2),
    ],
)
def test_facts_render_when_the_engine_agrees(name: str, value: int) -> None:
    assert FR["fact"](name, value) == str(value)
    with pytest.raises(SiteCheckError, match=f"fact '{name}' is {value}, not {value + 1}"):
        ES["fact"](name, value + 1)


def test_fact_numbers_use_the_language_of_the_page() -> None:
    assert FR["fact"]("hands", 24804) == "24\u202f804"
    assert ES["fact"]("hands-mud", 316251) == "316\u202f251"


def test_unknown_or_non_numeric_facts_stop_the_build() -> None:
    with pytest.raises(SiteCheckError, match="fact 'players' is unknown"):
        FR["fact"]("players", 2)
    with pytest.raises(SiteCheckError, match="is not a number"):
        FR["fact"]("stones", "9")


def test_formation_ladder_renders_strongest_first() -> None:
    assert FR["ladder"]() == "Suite couleur > Brelan > Couleur > Suite > Somme"
    assert ES["ladder"]() == "Escalera de color > Trío > Color > Escalera > Suma"
    assert FR["ladder"](mud=True) == "Suite couleur > Carré > Couleur > Suite > Somme"


def test_rarer_renders_nothing_when_true_and_fails_when_false() -> None:
    assert FR["rarer"]("same-value", "colour") == ""
    assert FR["rarer"]("colour-run", "sum", mud=True) == ""
    with pytest.raises(SiteCheckError, match=r"rarer\('colour', 'same-value'\) is false"):
        FR["rarer"]("colour", "same-value")
    with pytest.raises(SiteCheckError, match="is false"):
        FR["rarer"]("run", "run")
    with pytest.raises(SiteCheckError, match="unknown formation 'flush'"):
        FR["rarer"]("flush", "run")


def test_formation_ladder_out_of_rarity_order_stops_the_build(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Were a colour rarer than three of a kind, the ladder the pages state would be wrong.
    counts = dict(hand_counts(3))
    counts[FormationKind.COLOUR] = counts[FormationKind.SAME_VALUE] - 1
    monkeypatch.setattr(facts, "hand_counts", lambda size: counts)
    with pytest.raises(SiteCheckError, match=r"rarer\('same-value', 'colour'\) is false"):
        FR["ladder"]()
    with pytest.raises(SiteCheckError):
        FR["rarer"]("same-value", "colour")


def test_unknown_language_has_no_functions() -> None:
    with pytest.raises(LabelError, match="no labels for language 'de'"):
        jinja_functions("de")
