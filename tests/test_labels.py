"""The label catalogue (:mod:`schotten.labels`): one per language, naming every colour, card,
formation and rule of the engine, in the booklet's words where RULES.md gives them."""

from __future__ import annotations

import pytest

from schotten.cards import Colour, Tactic, TacticKind
from schotten.conformance.wire import KINDS
from schotten.errors import SchottenError
from schotten.formations import FormationKind
from schotten.labels import LANGUAGES, LabelError, labels
from schotten.rules import Rule


def test_the_languages_are_french_then_spanish() -> None:
    assert LANGUAGES == ("fr", "es")
    assert [labels(lang)["language"] for lang in LANGUAGES] == ["Français", "Español"]


@pytest.mark.parametrize(
    ("lang", "names"),
    [
        ("fr", ["rouge", "orange", "jaune", "vert", "bleu", "violet"]),
        ("es", ["rojo", "naranja", "amarillo", "verde", "azul", "morado"]),
    ],
)
def test_colour_names_are_those_of_rules_md_in_its_order(lang: str, names: list[str]) -> None:
    colours = labels(lang)["colours"]
    assert list(colours) == [str(c) for c in Colour]
    assert list(colours.values()) == names


def test_french_tactic_names_are_the_booklets() -> None:
    tactics = labels("fr")["tactics"]
    assert tactics["blind-mans-bluff"] == "Colin-Maillard"
    assert tactics["mud-fight"] == "Combat de Boue"
    assert tactics["recruiter"] == "Chasseur de Tête"
    assert tactics["strategist"] == "Stratège"
    assert tactics["banshee"] == "Banshee"
    assert tactics["traitor"] == "Traître"


def test_spanish_names_given_by_rules_md() -> None:
    names = labels("es")
    assert names["tactics"]["joker"] == "Comodín"
    assert names["tactic_kinds"] == {
        "elite troop": "Tropa de élite",
        "combat mode": "Modalidad de combate",
        "ruse": "Treta",
    }


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_card_formation_and_rule_has_a_label(lang: str) -> None:
    names = labels(lang)
    assert set(names["tactics"]) == {str(t) for t in Tactic}
    assert set(names["tactic_kinds"]) == {k.value for k in TacticKind}
    kinds = {k.label_key(size) for k in FormationKind for size in (3, 4)}
    assert set(names["formations"]) == kinds
    assert set(names["rules"]) == {str(r) for r in Rule}


def test_a_language_without_a_catalogue_is_a_user_error() -> None:
    with pytest.raises(LabelError, match=r"no labels for language 'en' \(the site has"):
        labels("en")
    assert issubclass(LabelError, SchottenError)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_kind_of_the_conformance_suite_has_its_name(lang: str) -> None:

    assert set(labels(lang)["conformance"]["kinds"]) == set(KINDS)
