"""Pictures of positions (schotten.svg), checked by structure: parsed, then queried by class."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest

from schotten import svg
from schotten.board import Board, Player, Variant
from schotten.cards import parse_card
from schotten.site import labels
from schotten.site.words import card_name
from schotten.svg import position_svg

NS = {"svg": "http://www.w3.org/2000/svg"}


def _board(variant: Variant, placements: list[tuple[Player, int, str]]) -> Board:
    board = Board.empty(variant)
    for step, (player, stone, card) in enumerate(placements):
        board = board.place(player, stone, parse_card(card), at=step)
    return board


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def _classes(root: ET.Element) -> list[str]:
    return [e.get("class", "") for e in root.iter() if e.get("class")]


def _group(root: ET.Element, classes: str) -> ET.Element:
    matches = [e for e in root.iter(f"{{{NS['svg']}}}g") if e.get("class") == classes]
    assert len(matches) == 1, f"{classes!r}: {len(matches)} groups in {_classes(root)}"
    return matches[0]


HAND_IS_NOT_PROOF = _board(
    Variant.BASE,
    [
        (Player.FIRST, 4, "red 1"),
        (Player.FIRST, 4, "green 1"),
        (Player.FIRST, 4, "blue 1"),
        (Player.SECOND, 4, "red 3"),
        (Player.SECOND, 4, "green 3"),
        (Player.SECOND, 6, "blue 3"),
    ],
)


def test_claim_proof_picture_shows_both_sides_in_their_colours() -> None:
    root = _parse(position_svg(HAND_IS_NOT_PROOF, claim=(4,)))
    stone = _group(root, "stone s4 claimed")
    yours = _group(stone, "side you")
    theirs = _group(stone, "side opponent")
    assert sorted(g.get("class") for g in yours.findall("svg:g", NS)) == [
        "card blue v1",
        "card green v1",
        "card red v1",
    ]
    assert sorted(g.get("class") for g in theirs.findall("svg:g", NS)) == [
        "card green v3",
        "card red v3",
    ]
    red = _group(yours, "card red v1")
    assert red.find("svg:rect", NS).get("fill") == "#c62828"  # type: ignore[union-attr]
    # A stone with a card but not under claim is drawn, unmarked.
    assert "stone s6" in _classes(root)
    assert not any(c.startswith("stone s1") for c in _classes(root))  # empty stones are left out


def test_claim_together_marks_every_claimed_stone() -> None:
    board = _board(
        Variant.BASE,
        [
            (Player.FIRST, n, f"{colour} {v}")
            for n, colour in ((3, "red"), (5, "blue"))
            for v in (6, 7, 8)
        ],
    )
    root = _parse(position_svg(board, claim=(3, 5)))
    assert "stone s3 claimed" in _classes(root)
    assert "stone s5 claimed" in _classes(root)


def test_mud_fight_and_blind_mans_bluff_are_marked_on_their_stone() -> None:
    board = _board(Variant.TACTICAL, [(Player.FIRST, 7, c) for c in ("green 7", "green 8")])
    stone = replace(board.stone(7), mud_fight=Player.SECOND, blind_mans_bluff=Player.FIRST)
    root = _parse(position_svg(board.with_stone(stone), claim=(7,), labels=labels("fr")))
    group = _group(root, "stone s7 claimed mud-fight blind-mans-bluff")
    mud = _group(group, "mode mud-fight")
    assert mud.find("svg:title", NS).text == "Combat de Boue"  # type: ignore[union-attr]
    bluff = _group(group, "mode blind-mans-bluff")
    assert bluff.find("svg:title", NS).text == "Colin-Maillard"  # type: ignore[union-attr]


def test_mud_fight_makes_room_for_four_cards() -> None:
    board = _board(Variant.TACTICAL, [(Player.FIRST, 2, f"red {v}") for v in (1, 2, 3, 4)])
    mud = board.with_stone(replace(board.stone(2), mud_fight=Player.FIRST))
    plain = _board(Variant.TACTICAL, [(Player.FIRST, 2, f"red {v}") for v in (1, 2, 3)])
    tall = int(_parse(position_svg(mud, claim=(2,))).get("height", "0"))
    short = int(_parse(position_svg(plain, claim=(2,))).get("height", "0"))
    assert tall > short


def test_stones_already_held_are_marked_by_holder() -> None:
    board = HAND_IS_NOT_PROOF.with_stone(
        replace(HAND_IS_NOT_PROOF.stone(9), claimed_by=Player.SECOND)
    )
    root = _parse(position_svg(board, claim=(4,)))
    assert "stone s9 held p2" in _classes(root)


def test_elite_troops_are_tactic_cards_named_in_the_language() -> None:
    board = _board(
        Variant.TACTICAL, [(Player.FIRST, 1, "joker"), (Player.SECOND, 1, "shield-bearer")]
    )
    root = _parse(position_svg(board, claim=(1,), labels=labels("es")))
    joker = _group(root, "card tactic joker")
    assert joker.find("svg:title", NS).text == "Comodín"  # type: ignore[union-attr]
    shield = _group(root, "card tactic shield-bearer")
    assert shield.find("svg:title", NS).text == "Portaescudos"  # type: ignore[union-attr]


def test_position_is_described_in_words_for_screen_readers() -> None:
    svg = position_svg(
        HAND_IS_NOT_PROOF,
        claim=(4,),
        labels=labels("fr"),
        ident="case-x-fr",
        hand=(parse_card("yellow 3"),),
    )
    root = _parse(svg)
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
    _group(root, "hand you")


def test_discard_pile_is_drawn_when_it_matters() -> None:
    board = HAND_IS_NOT_PROOF.discard_card(Player.SECOND, parse_card("purple 3"))
    root = _parse(position_svg(board, claim=(4,), labels=labels("es")))
    pile = _group(root, "discard")
    assert [g.get("class") for g in pile.findall("svg:g", NS)] == ["card purple v3"]
    assert "Pila de descartes: 3 morado." in (root.find("svg:desc", NS).text or "")  # type: ignore[union-attr]


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
    root = _parse(position_svg(board, claim=(4,), labels=labels(lang)))
    desc = root.find("svg:desc", NS)
    assert desc is not None
    text = desc.text or ""
    assert you in text
    assert opponent in text
    assert discard in text
    titles = [t.text for t in _group(root, "card red v1").findall("svg:title", NS)]
    assert titles == [card_name(parse_card("red 1"), lang)]  # the site's own name for the card


def test_picture_has_no_blank_line_so_markdown_keeps_it_whole() -> None:
    svg = position_svg(HAND_IS_NOT_PROOF, claim=(4,), labels=labels("fr"))
    assert "\n" not in svg
    assert svg.startswith("<svg ")


def test_a_picture_given_its_title_and_description_announces_them_as_given() -> None:
    given = position_svg(
        HAND_IS_NOT_PROOF,
        claim=(4,),
        labels=labels("fr"),
        ident="case-x-fr",
        title="Position\u00a0: tu revendiques la Borne 4 <& rien d’autre>",
        description="Ta Borne 4 face à la sienne.",
    )
    root = _parse(given)
    title = root.find("svg:title", NS)
    desc = root.find("svg:desc", NS)
    assert title is not None and desc is not None
    assert title.text == "Position\u00a0: tu revendiques la Borne 4 <& rien d’autre>"
    assert desc.text == "Ta Borne 4 face à la sienne."
    assert title.get("id") == "case-x-fr-title" and desc.get("id") == "case-x-fr-desc"
    assert root.get("aria-labelledby") == "case-x-fr-title case-x-fr-desc"
    # Without them the picture names the claimed stones and describes the position itself.
    default = _parse(position_svg(HAND_IS_NOT_PROOF, claim=(4,), labels=labels("fr")))
    default_desc = default.find("svg:desc", NS)
    assert default_desc is not None
    assert default_desc.text == svg.describe_position(HAND_IS_NOT_PROOF, (4,), labels=labels("fr"))


SVG = f"{{{NS['svg']}}}"
SPREAD = _board(
    Variant.TACTICAL,
    [
        (Player.FIRST, 2, "red 9"),
        (Player.FIRST, 4, "orange 8"),
        (Player.FIRST, 5, "yellow 7"),
        (Player.SECOND, 4, "green 6"),
        (Player.SECOND, 5, "blue 5"),
        (Player.SECOND, 9, "purple 4"),
        (Player.SECOND, 9, "joker"),
    ],
)


def _luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    """The WCAG 2.1 contrast ratio of two #rrggbb colours."""
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_contrast_is_computed_as_wcag_defines_it() -> None:
    assert round(contrast("#ffffff", "#000000"), 1) == 21.0
    assert round(contrast("#ffffff", "#ef6c00"), 1) == 3.1  # the old orange: too pale


def _under(root: ET.Element, text: ET.Element) -> str:
    """The fill of the shape a text is written on: its card, its stone, a legend sample, or
    the picture's background."""
    parents = {child: parent for parent in root.iter() for child in parent}
    group = parents[text]
    if group.get("class", "").startswith(("card", "stone")) or text.get("class") == "value":
        shape = group.find("svg:rect", NS)
    else:
        shape = root.find("svg:rect[@class='background']", NS)
    assert shape is not None
    return shape.get("fill", "")


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_every_text_has_a_contrast_of_at_least_4_5(lang: str) -> None:
    board = SPREAD.with_stone(replace(SPREAD.stone(7), claimed_by=Player.FIRST))
    root = _parse(
        position_svg(board, claim=(5,), labels=labels(lang), hand=SPREAD.stone(2).sides[0].cards)
    )
    texts = list(root.iter(f"{SVG}text"))
    assert len(texts) > 15
    for text in texts:
        ratio = contrast(text.get("fill", ""), _under(root, text))
        assert ratio >= 4.5, f"{text.text!r}: {ratio:.2f}"


def test_each_colour_has_a_mark_of_its_own_shape() -> None:
    root = _parse(position_svg(SPREAD, claim=(4,)))
    shapes = {}
    for group in root.iter(f"{SVG}g"):
        classes = group.get("class", "").split()
        if classes[:1] == ["card"] and classes[1] in {str(c) for c in svg.MARKS}:
            marks = group.findall("svg:path", NS)
            assert len(marks) == 1, classes
            shapes[classes[1]] = marks[0].get("class")
            assert marks[0].get("d")
    assert shapes == {
        "red": "mark circle",
        "orange": "mark square",
        "yellow": "mark triangle",
        "green": "mark diamond",
        "blue": "mark cross",
        "purple": "mark hexagon",
    }
    assert len(set(shapes.values())) == 6


def test_legend_explains_the_claimed_stone_the_marks_and_the_colours() -> None:
    board = SPREAD.with_stone(replace(SPREAD.stone(9), mud_fight=Player.FIRST))
    root = _parse(position_svg(board, claim=(4,), labels=labels("fr")))
    legend = _group(root, "legend")
    items = {g.get("class"): "".join(g.itertext()) for g in legend.findall("svg:g", NS)}
    assert items["legend-item claimed"] == "Borne que tu revendiques"
    assert items["legend-item mud-fight"] == "Combat de Boue"
    assert items["legend-item colour-green"] == "Vert"
    assert items["legend-item tactic-joker"] == "JJoker"  # the card's letter, then its name
    assert len([k for k in items if "colour-" in k]) == 6
    sample = _group(legend, "legend-item colour-green").find("svg:path", NS)
    assert sample is not None and sample.get("class") == "mark diamond"


def test_stones_that_are_not_neighbours_are_drawn_apart() -> None:
    root = _parse(position_svg(SPREAD, claim=(4,)))
    # Stones 2, 4, 5 and 9 are drawn: a gap before 4 and before 9, none between 4 and 5.
    gaps = [g for g in root.iter(f"{SVG}g") if g.get("class") == "gap"]
    assert len(gaps) == 2

    def left(number: int) -> float:
        group = next(
            g for g in root.iter(f"{SVG}g") if g.get("class", "").startswith(f"stone s{number}")
        )
        shape = next(r for r in group.iter(f"{SVG}rect") if r.get("class") == "stone-shape")
        return float(shape.get("x", "0"))

    step = left(5) - left(4)
    assert left(4) - left(2) > step
    assert left(9) - left(5) > step
    # Stones 4, 5 and 6 drawn side by side: no gap at all.
    held = replace(HAND_IS_NOT_PROOF.stone(5), claimed_by=Player.FIRST)
    neighbours = _parse(position_svg(HAND_IS_NOT_PROOF.with_stone(held), claim=(4,)))
    assert [g for g in neighbours.iter(f"{SVG}g") if g.get("class") == "gap"] == []


def test_text_stays_legible_when_the_picture_is_shrunk_for_a_phone() -> None:
    root = _parse(position_svg(SPREAD, claim=(4,), labels=labels("es")))
    width = float(root.get("width", "0"))
    style = dict(
        part.split(":") for part in (root.get("style") or "").replace(" ", "").split(";") if part
    )
    smallest_scale = float(style["min-width"].removesuffix("px")) / width
    sizes = [float(t.get("font-size", "0")) for t in root.iter(f"{SVG}text")]
    assert min(sizes) * smallest_scale >= 11 - 0.05
    assert float(style["max-width"].removesuffix("px")) > width  # fills a wide column


def test_french_text_in_pictures_follows_french_typography() -> None:
    board = SPREAD.discard_card(Player.SECOND, parse_card("purple 3"))
    root = _parse(position_svg(board, claim=(4,), labels=labels("fr"), hand=(parse_card("red 1"),)))
    written = [
        e.text or "" for e in root.iter() if e.tag in (f"{SVG}text", f"{SVG}title", f"{SVG}desc")
    ]
    assert any("\u00a0:" in text for text in written)
    assert any("\u202f;" in text for text in written)
    for text in written:
        assert not re.search(r" [;:?!]", text), text
