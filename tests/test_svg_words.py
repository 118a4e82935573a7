"""The words of position pictures (schotten.svg_words): card names, the position described for
screen readers, the title, and French typography."""

from __future__ import annotations

import re

import pytest
from svg_boards import HAND_IS_NOT_PROOF, NS, SPREAD, SVG, group_of, parse_svg, placed_board

from schotten.board import Player, Variant
from schotten.cards import parse_card
from schotten.site import labels
from schotten.site.words import card_name
from schotten.svg import position_svg
from schotten.svg_words import describe_position


def test_elite_troops_are_tactic_cards_named_in_the_language() -> None:
    board = placed_board(
        Variant.TACTICAL, [(Player.FIRST, 1, "joker"), (Player.SECOND, 1, "shield-bearer")]
    )
    root = parse_svg(position_svg(board, claim=(1,), labels=labels("es")))
    joker = group_of(root, "card tactic joker")
    assert joker.find("svg:title", NS).text == "Comodín"  # type: ignore[union-attr]
    shield = group_of(root, "card tactic shield-bearer")
    assert shield.find("svg:title", NS).text == "Portaescudos"  # type: ignore[union-attr]


def test_position_is_described_in_words_for_screen_readers() -> None:
    svg = position_svg(
        HAND_IS_NOT_PROOF,
        claim=(4,),
        labels=labels("fr"),
        ident="case-x-fr",
        hand=(parse_card("yellow 3"),),
    )
    root = parse_svg(svg)
    assert root.get("role") == "img"
    assert root.get("aria-labelledby") == "case-x-fr-title case-x-fr-desc"
    title = root.find("svg:title", NS)
    desc = root.find("svg:desc", NS)
    assert title is not None and title.get("id") == "case-x-fr-title"
    assert desc is not None and desc.get("id") == "case-x-fr-desc"
    assert "Borne 4 (que tu revendiques)" in (desc.text or "")
    text = desc.text or ""
    assert "toi 1 rouge, 1 vert, 1 bleu" in text
    assert "l’adversaire 3 rouge, 3 vert" in text
    assert "Ta main\u00a0: 3 jaune." in text  # French typography: a no-break space
    group_of(root, "hand you")


@pytest.mark.parametrize(
    ("lang", "you", "opponent", "discard"),
    [
        ("fr", "toi 1 rouge, 1 vert, 1 bleu", "l’adversaire 3 rouge, 3 vert", "3 violet"),
        ("es", "tú 1 rojo, 1 verde, 1 azul", "tu oponente 3 rojo, 3 verde", "3 morado"),
    ],
    ids=["fr", "es"],
)
def test_picture_names_cards_value_then_colour_as_the_site_does(
    lang: str, you: str, opponent: str, discard: str
) -> None:
    board = HAND_IS_NOT_PROOF.discard_card(Player.SECOND, parse_card("purple 3"))
    root = parse_svg(position_svg(board, claim=(4,), labels=labels(lang)))
    desc = root.find("svg:desc", NS)
    assert desc is not None
    text = desc.text or ""
    assert you in text
    assert opponent in text
    assert discard in text
    titles = [t.text for t in group_of(root, "card red v1").findall("svg:title", NS)]
    assert titles == [card_name(parse_card("red 1"), lang)]  # the site's own name for the card


def test_a_picture_given_its_title_and_description_announces_them_as_given() -> None:
    given = position_svg(
        HAND_IS_NOT_PROOF,
        claim=(4,),
        labels=labels("fr"),
        ident="case-x-fr",
        title="Position\u00a0: tu revendiques la Borne 4 <& rien d’autre>",
        description="Ta Borne 4 face à la sienne.",
    )
    root = parse_svg(given)
    title = root.find("svg:title", NS)
    desc = root.find("svg:desc", NS)
    assert title is not None and desc is not None
    assert title.text == "Position\u00a0: tu revendiques la Borne 4 <& rien d’autre>"
    assert desc.text == "Ta Borne 4 face à la sienne."
    assert title.get("id") == "case-x-fr-title" and desc.get("id") == "case-x-fr-desc"
    assert root.get("aria-labelledby") == "case-x-fr-title case-x-fr-desc"
    # Without them the picture names the claimed stones and describes the position itself.
    default = parse_svg(position_svg(HAND_IS_NOT_PROOF, claim=(4,), labels=labels("fr")))
    default_desc = default.find("svg:desc", NS)
    assert default_desc is not None
    assert default_desc.text == describe_position(HAND_IS_NOT_PROOF, (4,), labels=labels("fr"))


def test_french_text_in_pictures_follows_french_typography() -> None:
    board = SPREAD.discard_card(Player.SECOND, parse_card("purple 3"))
    root = parse_svg(
        position_svg(board, claim=(4,), labels=labels("fr"), hand=(parse_card("red 1"),))
    )
    written = [
        e.text or "" for e in root.iter() if e.tag in (f"{SVG}text", f"{SVG}title", f"{SVG}desc")
    ]
    assert any("\u00a0:" in text for text in written)
    assert any("\u202f;" in text for text in written)
    for text in written:
        assert not re.search(r" [;:?!]", text), text
