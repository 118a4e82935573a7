"""The drawing primitives of a position picture: its palette and sizes, and the SVG elements
of one card (its clan colour, value and mark), one stone (its number, combat modes and holder),
the dots between stones drawn apart, and the picture's texts.

Each card colour has a fill with an ink that reads on it and a mark of its own shape; the layout
of a whole picture, which places these, is :mod:`schotten.svg`.

>>> import xml.etree.ElementTree as ET
>>> from schotten.cards import parse_card
>>> from schotten.svg_words import ENGLISH
>>> group = ET.Element("g")
>>> draw_card(group, parse_card("red 7"), 0, 0, ENGLISH)
>>> [e.get("class") for e in group.iter() if e.get("class")]
['card red v7', 'value', 'mark circle']
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from schotten.board import Player, Stone
from schotten.cards import Card, ClanCard, Colour
from schotten.svg_words import capital, card_name, typography

# Card fills, each with its ink (yellow carries dark text, the rest white): every text is at
# 4.5:1 at least against what is under it. Each colour also has a mark of its own shape, so that
# no reader needs to tell the hues apart (red and green look alike to many).
FILLS = {
    Colour.RED: "#c62828",
    Colour.ORANGE: "#b35c00",
    Colour.YELLOW: "#fbc02d",
    Colour.GREEN: "#2e7d32",
    Colour.BLUE: "#1565c0",
    Colour.PURPLE: "#6a1b9a",
}
MARKS = {
    Colour.RED: "circle",
    Colour.ORANGE: "square",
    Colour.YELLOW: "triangle",
    Colour.GREEN: "diamond",
    Colour.BLUE: "cross",
    Colour.PURPLE: "hexagon",
}
TACTIC_FILL = "#f5f0e1"
INK = "#212121"
WHITE = "#ffffff"
BACKGROUND = WHITE
STONE_FILL = "#616161"
HELD_FILL = "#3d3d3d"
CLAIMED_FILL = "#ffb300"  # the stone under claim: amber, outlined, its number in ink
MUD_FILL = "#6d4c41"

CARD_W, CARD_H = 64, 84
COLUMN = 80
GAP_W = 40  # between two stones drawn side by side that are not next to each other
STONE_H = 44
TEXT = 24  # every text of the picture, in picture units
VALUE_TEXT = 28


def draw_card(parent: ET.Element, card: Card, x: float, y: float, names: Mapping[str, Any]) -> None:
    if isinstance(card, ClanCard):
        classes = f"card {card.colour} v{card.value}"
        big = str(card.value)
    else:
        classes = f"card tactic {card.value}"
        big = str(names["tactics"][card.value])[:1]
    fill, ink = card_colours(card)
    group = ET.SubElement(parent, "g", {"class": classes})
    ET.SubElement(group, "title").text = card_name(card, names)
    ET.SubElement(
        group,
        "rect",
        {
            "x": f"{x:g}",
            "y": f"{y:g}",
            "width": str(CARD_W),
            "height": str(CARD_H),
            "rx": "6",
            "fill": fill,
            "stroke": INK,
            "stroke-width": "1",
        },
    )
    draw_text(group, x + 7, y + VALUE_TEXT, big, "value", size=VALUE_TEXT, fill=ink, weight="bold")
    if isinstance(card, ClanCard):
        draw_mark(group, card.colour, x + CARD_W - 15, y + 17, ink)


def card_colours(card: Card) -> tuple[str, str]:
    """A card's fill and the ink of its text and mark."""
    if isinstance(card, ClanCard):
        return FILLS[card.colour], INK if card.colour is Colour.YELLOW else WHITE
    return TACTIC_FILL, INK


def draw_mark(parent: ET.Element, colour: Colour, cx: float, cy: float, ink: str) -> None:
    shape = MARKS[colour]
    ET.SubElement(
        parent,
        "path",
        {"class": f"mark {shape}", "d": _mark_path(shape, cx, cy, 8), "fill": ink},
    )


def _mark_path(shape: str, cx: float, cy: float, r: float) -> str:
    """An SVG path of the colour's mark, centred on (cx, cy), about 2r wide."""

    def poly(points: Iterable[tuple[float, float]]) -> str:
        return "M" + " L".join(f"{cx + px * r:.1f},{cy + py * r:.1f}" for px, py in points) + " Z"

    if shape == "circle":
        return (
            f"M{cx - r:.1f},{cy:.1f} a{r:g},{r:g} 0 1,0 {2 * r:g},0 "
            f"a{r:g},{r:g} 0 1,0 {-2 * r:g},0 Z"
        )
    if shape == "square":
        return poly([(-0.85, -0.85), (0.85, -0.85), (0.85, 0.85), (-0.85, 0.85)])
    if shape == "triangle":
        return poly([(0, -1), (1, 0.8), (-1, 0.8)])
    if shape == "diamond":
        return poly([(0, -1.1), (1, 0), (0, 1.1), (-1, 0)])
    if shape == "cross":
        t = 0.35
        return poly(
            [
                *((-t, -1), (t, -1), (t, -t), (1, -t), (1, t), (t, t)),
                *((t, 1), (-t, 1), (-t, t), (-1, t), (-1, -t), (-t, -t)),
            ]
        )
    if shape == "hexagon":
        return poly([(0.5, -0.9), (1, 0), (0.5, 0.9), (-0.5, 0.9), (-1, 0), (-0.5, -0.9)])
    raise ValueError(f"no mark {shape!r}")


def draw_stone(
    parent: ET.Element,
    stone: Stone,
    x: float,
    y: float,
    names: Mapping[str, Any],
    claim: Sequence[int],
    claimer: Player,
) -> None:
    width = COLUMN - 8
    fill, ink = _stone_colours(stone, claim)
    draw_stone_shape(parent, x, y, width, STONE_H, fill, stone.number in claim)
    draw_text(
        parent,
        x + width / 2,
        y + STONE_H / 2 + VALUE_TEXT * 0.35,
        str(stone.number),
        "stone-number",
        anchor="middle",
        size=VALUE_TEXT,
        fill=ink,
        weight="bold",
    )
    if stone.mud_fight is not None:
        mark = ET.SubElement(parent, "g", {"class": "mode mud-fight"})
        ET.SubElement(mark, "title").text = names["tactics"]["mud-fight"]
        draw_mud_bar(mark, x, y + STONE_H - 9, width)
    if stone.blind_mans_bluff is not None:
        mark = ET.SubElement(parent, "g", {"class": "mode blind-mans-bluff"})
        ET.SubElement(mark, "title").text = names["tactics"]["blind-mans-bluff"]
        draw_blind_bar(mark, x, y, width)
    if stone.claimed_by is not None:
        owner = "held_by_you" if stone.claimed_by is claimer else "held_by_opponent"
        mark = ET.SubElement(parent, "g", {"class": "mode held"})
        ET.SubElement(mark, "title").text = names["words"][owner]
        cy = y + STONE_H if stone.claimed_by is claimer else y
        draw_held_mark(mark, x + width - 8, cy)


def _stone_colours(stone: Stone, claim: Sequence[int]) -> tuple[str, str]:
    """The stone's fill and the ink of its number."""
    if stone.number in claim:
        return CLAIMED_FILL, INK
    return (STONE_FILL if stone.claimed_by is None else HELD_FILL), WHITE


def draw_stone_shape(
    parent: ET.Element, x: float, y: float, w: float, h: float, fill: str, claimed: bool
) -> None:
    ET.SubElement(
        parent,
        "rect",
        {
            "class": "stone-shape",
            "x": f"{x:g}",
            "y": f"{y:g}",
            "width": f"{w:g}",
            "height": f"{h:g}",
            "rx": "8",
            "fill": fill,
            "stroke": INK,
            "stroke-width": "4" if claimed else "1",
        },
    )


def draw_mud_bar(parent: ET.Element, x: float, y: float, w: float) -> None:
    bar = {"x": f"{x:g}", "y": f"{y:g}", "width": f"{w:g}", "height": "9", "rx": "3"}
    ET.SubElement(parent, "rect", {**bar, "fill": MUD_FILL, "stroke": INK})


def draw_blind_bar(parent: ET.Element, x: float, y: float, w: float) -> None:
    bar = {"x": f"{x:g}", "y": f"{y:g}", "width": f"{w:g}", "height": "9", "rx": "3"}
    ET.SubElement(parent, "rect", {**bar, "fill": INK})


def draw_held_mark(parent: ET.Element, cx: float, cy: float) -> None:
    circle = {"cx": f"{cx:g}", "cy": f"{cy:g}", "r": "7", "fill": CLAIMED_FILL, "stroke": INK}
    ET.SubElement(parent, "circle", {**circle, "stroke-width": "2"})


def draw_gap(parent: ET.Element, x: float, y: float) -> None:
    """Three dots between two stones drawn side by side that are not next to each other."""
    group = ET.SubElement(parent, "g", {"class": "gap", "aria-hidden": "true"})
    for k in (-1, 0, 1):
        ET.SubElement(
            group,
            "circle",
            {"cx": f"{x + GAP_W / 2 + 10 * k:g}", "cy": f"{y + STONE_H / 2:g}", "r": "3"},
        ).set("fill", STONE_FILL)


def draw_upwards(parent: ET.Element, x: float, y: float, text: str, who: str) -> None:
    """A player's name written upwards, centred beside their side."""
    words = typography(capital(text))
    element = draw_text(parent, x, y, words, f"player-label {who}", anchor="middle")
    element.set("transform", f"rotate(-90 {x:g} {y:g})")


def draw_text(
    parent: ET.Element,
    x: float,
    y: float,
    text: str,
    classes: str,
    *,
    anchor: str = "start",
    size: float = TEXT,
    fill: str = INK,
    weight: str = "normal",
) -> ET.Element:
    element = ET.SubElement(
        parent,
        "text",
        {
            "class": classes,
            "x": f"{x:g}",
            "y": f"{y:g}",
            "text-anchor": anchor,
            "font-size": f"{size:g}",
            "font-family": "sans-serif",
            "font-weight": weight,
            "fill": fill,
        },
    )
    element.text = text
    return element
