"""Cards and their notation."""

from __future__ import annotations

import pytest

from schotten.cards import CLAN_CARDS, TACTIC_CARDS, ClanCard, Colour, Tactic, parse_card
from schotten.errors import InvalidNotationError


def test_material_54_clan_cards_each_once() -> None:
    assert len(CLAN_CARDS) == len(set(CLAN_CARDS)) == 54
    assert {c.colour for c in CLAN_CARDS} == set(Colour)
    assert {c.value for c in CLAN_CARDS} == set(range(1, 10))


def test_material_ten_tactic_cards_two_jokers() -> None:
    assert len(TACTIC_CARDS) == 10
    assert TACTIC_CARDS.count(Tactic.JOKER) == 2


@pytest.mark.parametrize("card", [*CLAN_CARDS, *Tactic])
def test_notation_round_trips(card: ClanCard | Tactic) -> None:
    assert parse_card(str(card)) == card


@pytest.mark.parametrize("text", ["", "red", "red 0", "red 10", "pink 3", "7 red", "jokers", "r7"])
def test_notation_rejects_anything_else(text: str) -> None:
    with pytest.raises(InvalidNotationError, match="expected"):
        parse_card(text)


def test_colours_in_rulebook_order() -> None:
    assert [str(c) for c in Colour] == ["red", "orange", "yellow", "green", "blue", "purple"]


# Regression: non-ASCII digits passed isdigit() and then int() raised a bare ValueError (or were
# silently read as the ASCII digit); a value of thousands of digits hit int()'s length limit.
@pytest.mark.parametrize(
    "text",
    ["red ²", "red ⑦", "red ７", "red ٣", "red 07", "red +7", "red 7.0", "red " + "1" * 5000],
)
def test_notation_values_are_one_ascii_digit(text: str) -> None:
    with pytest.raises(InvalidNotationError, match="is not a card"):
        parse_card(text)


def test_notation_error_quotes_a_long_text_shortened() -> None:
    with pytest.raises(InvalidNotationError) as error:
        parse_card("red " + "1" * 5000)
    assert len(str(error.value)) < 600
