"""The shapes of position pictures (schotten.svg_shapes): the colours of cards and stones, their
contrast, the clan marks and the combat modes drawn on a stone."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest
from svg_boards import NS, SPREAD, SVG, group_of, parse_svg, placed_board

from schotten.board import Player, Variant
from schotten.site import labels
from schotten.svg import position_svg
from schotten.svg_shapes import MARKS


def test_mud_fight_and_blind_mans_bluff_are_marked_on_their_stone() -> None:
    board = placed_board(Variant.TACTICAL, [(Player.FIRST, 7, c) for c in ("green 7", "green 8")])
    stone = replace(board.stone(7), mud_fight=Player.SECOND, blind_mans_bluff=Player.FIRST)
    root = parse_svg(position_svg(board.with_stone(stone), claim=(7,), labels=labels("fr")))
    group = group_of(root, "stone s7 claimed mud-fight blind-mans-bluff")
    mud = group_of(group, "mode mud-fight")
    assert mud.find("svg:title", NS).text == "Combat de Boue"  # type: ignore[union-attr]
    bluff = group_of(group, "mode blind-mans-bluff")
    assert bluff.find("svg:title", NS).text == "Colin-Maillard"  # type: ignore[union-attr]


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
    root = parse_svg(
        position_svg(board, claim=(5,), labels=labels(lang), hand=SPREAD.stone(2).sides[0].cards)
    )
    texts = list(root.iter(f"{SVG}text"))
    assert len(texts) > 15
    for text in texts:
        ratio = contrast(text.get("fill", ""), _under(root, text))
        assert ratio >= 4.5, f"{text.text!r}: {ratio:.2f}"


def test_each_colour_has_a_mark_of_its_own_shape() -> None:
    root = parse_svg(position_svg(SPREAD, claim=(4,)))
    shapes = {}
    for group in root.iter(f"{SVG}g"):
        classes = group.get("class", "").split()
        if classes[:1] == ["card"] and classes[1] in {str(c) for c in MARKS}:
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
