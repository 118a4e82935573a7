"""The odds page: formation counts by the engine against a direct count written here, and their
rendering (tables in each language's number format, the SVG chart)."""

from __future__ import annotations

import itertools
import math
import xml.etree.ElementTree as ET
from collections import Counter
from fractions import Fraction

import pytest

from schotten.cards import CLAN_CARDS, ClanCard, Colour
from schotten.formations import FormationKind
from schotten.odds import (
    LADDER,
    MUD_PARTIAL_SIDES,
    PARTIAL_SIDES,
    PartialSide,
    completion_odds,
    hand_counts,
    hand_odds,
    rarity_order,
)
from schotten.site.widgets import odds_chart, odds_table, partial_odds_table
from schotten.site.words import format_percent

K = FormationKind


def clan(*texts: str) -> tuple[ClanCard, ...]:
    return tuple(ClanCard.parse(t) for t in texts)


def direct_kind(hand: tuple[ClanCard, ...]) -> FormationKind:
    """The formation of a hand, from the rule's words (RULES.md, Formations), not the engine."""
    values = sorted(c.value for c in hand)
    suited = len({c.colour for c in hand}) == 1
    straight = values == list(range(values[0], values[0] + len(hand)))
    if suited and straight:
        return K.COLOUR_RUN
    if len(set(values)) == 1:
        return K.SAME_VALUE
    if suited:
        return K.COLOUR
    if straight:
        return K.RUN
    return K.SUM


def direct_counts(size: int) -> Counter[FormationKind]:
    return Counter(direct_kind(h) for h in itertools.combinations(CLAN_CARDS, size))


@pytest.mark.parametrize("size", [3, 4])
def test_formation_ladder_counts_match_a_direct_enumeration(size: int) -> None:
    assert hand_counts(size) == dict(direct_counts(size))


@pytest.mark.parametrize("size", [3, 4])
def test_formation_ladder_counts_match_closed_forms(size: int) -> None:
    counts = hand_counts(size)
    colour_runs = 6 * (10 - size)  # six colours, windows 1.. (10 - size)
    assert counts[K.COLOUR_RUN] == colour_runs
    assert counts[K.SAME_VALUE] == 9 * math.comb(6, size)
    assert counts[K.COLOUR] == 6 * math.comb(9, size) - colour_runs
    assert counts[K.RUN] == (10 - size) * 6**size - colour_runs
    assert sum(counts.values()) == math.comb(54, size)


def test_hand_totals_are_the_numbers_of_hands() -> None:
    assert sum(hand_counts(3).values()) == 24_804
    assert sum(hand_counts(4).values()) == 316_251
    for size in (3, 4):
        assert sum(o.probability for o in hand_odds(size)) == 1


@pytest.mark.parametrize("size", [3, 4])
def test_formation_ladder_follows_rarity(size: int) -> None:
    assert rarity_order(size) == LADDER
    counts = [hand_counts(size)[k] for k in LADDER]
    assert counts == sorted(counts) and len(set(counts)) == len(counts)


@pytest.mark.parametrize("side", PARTIAL_SIDES + MUD_PARTIAL_SIDES, ids=lambda s: s.key)
def test_partial_side_odds_match_a_direct_enumeration(side: PartialSide) -> None:
    rest = [c for c in CLAN_CARDS if c not in side.cards]
    direct = Counter(
        direct_kind((*side.cards, *more))
        for more in itertools.combinations(rest, side.size - len(side.cards))
    )
    odds = completion_odds(side.cards, side.size)
    assert {o.kind: o.count for o in odds if o.count} == dict(direct)
    assert all(
        o.out_of == math.comb(54 - len(side.cards), side.size - len(side.cards)) for o in odds
    )
    assert sum(o.probability for o in odds) == 1


def test_one_middle_card_stands_for_values_three_to_seven() -> None:
    expected = completion_odds(clan("blue 5"))
    for colour in Colour:
        for value in range(3, 8):
            assert completion_odds([ClanCard(colour, value)]) == expected
    edge = completion_odds(clan("blue 9"))
    assert completion_odds([ClanCard(Colour.RED, 1)]) == edge
    assert completion_odds([ClanCard(Colour.RED, 2)]) != edge != expected


def test_cards_seen_elsewhere_leave_the_completions() -> None:
    pair = clan("red 5", "red 6")
    seen = clan("red 4", "red 7")
    odds = {o.kind: o for o in completion_odds(pair, seen=seen)}
    assert odds[K.COLOUR_RUN].count == 0
    assert odds[K.COLOUR_RUN].out_of == 50


def test_partial_odds_refuse_impossible_sides() -> None:
    with pytest.raises(ValueError, match="fewer than 3"):
        completion_odds(clan("red 1", "red 2", "red 3"))
    with pytest.raises(ValueError, match="twice"):
        completion_odds(clan("red 1"), seen=clan("red 1"))
    with pytest.raises(ValueError, match="not 5"):
        hand_counts(5)


def test_percentages_use_the_language_of_the_page() -> None:
    assert format_percent(Fraction(123, 10000), "fr") == "1,23\u00a0%"
    assert format_percent(Fraction(123, 10000), "es") == "1,23\u00a0%"
    assert format_percent(Fraction(22650, 24804), "fr") == "91,3\u00a0%"


def _table(html: str) -> ET.Element:
    return ET.fromstring(html.replace("<br>", "<br/>"))


def test_odds_table_in_french_shows_counts_and_shares() -> None:
    table = _table(odds_table("fr"))
    rows = [[cell.text for cell in row] for row in table.iter("tr")]
    assert rows[0] == [
        "Combinaison",
        "Mains de 3 cartes",
        "Part",
        "Mains de 4 cartes (Combat de Boue)",
        "Part",
    ]
    assert rows[1] == ["Suite couleur", "42", "0,169\u00a0%", "36", "0,0114\u00a0%"]
    assert rows[2][0] == "Brelan / Carré"
    assert rows[5] == ["Somme", "22\u202f650", "91,3\u00a0%", "307\u202f620", "97,3\u00a0%"]
    assert rows[6] == ["Total", "24\u202f804", "100\u00a0%", "316\u202f251", "100\u00a0%"]
    assert table.find("table/caption") is not None


def test_odds_table_in_spanish_names_the_formations_in_spanish() -> None:
    rows = [[cell.text for cell in row] for row in _table(odds_table("es")).iter("tr")]
    assert [r[0] for r in rows[1:6]] == [
        "Escalera de color",
        "Trío / Póker",
        "Color",
        "Escalera",
        "Suma",
    ]
    assert rows[6][1:] == ["24\u202f804", "100\u00a0%", "316\u202f251", "100\u00a0%"]


@pytest.mark.parametrize("mud", [False, True])
def test_partial_odds_table_has_a_row_per_typical_side(mud: bool) -> None:
    table = _table(partial_odds_table("es", mud))
    body = table.findall("table/tbody/tr")
    sides = MUD_PARTIAL_SIDES if mud else PARTIAL_SIDES
    assert len(body) == len(sides)
    first = body[0]
    assert first[0][0].text == "5 azul"
    assert first[1].text == ("23\u202f426" if mud else "1378")
    header = [th.text for th in table.findall("table/thead/tr/th")]
    assert ("Póker" in header) is mud and ("Trío" in header) is not mud


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_odds_chart_is_an_accessible_svg(lang: str) -> None:
    figure = ET.fromstring(odds_chart(lang))
    ns = {"svg": "http://www.w3.org/2000/svg"}
    svg = figure.find("svg:svg", ns)
    assert svg is not None and svg.get("role") == "img"
    title, desc = svg.find("svg:title", ns), svg.find("svg:desc", ns)
    assert title is not None and desc is not None
    assert svg.get("aria-labelledby") == f"{title.get('id')} {desc.get('id')}"
    bars = svg.findall("svg:rect[@class]", ns)
    assert len(bars) == 10  # five formations, hands of three and of four
    texts = [t.text for t in svg.iter("{http://www.w3.org/2000/svg}text")]
    colour_run = "Suite couleur" if lang == "fr" else "Escalera de color"
    assert colour_run in texts and "0,169\u00a0%" in texts
    assert "0,169\u00a0%" in (desc.text or "")
    assert "href" not in odds_chart(lang)  # nothing loaded from anywhere
