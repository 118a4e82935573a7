"""Position pictures for the tests of :mod:`schotten.svg` and its parts: boards built from short
text, and the parsed picture queried by class."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from schotten.board import Board, Player, Variant
from schotten.cards import parse_card

NS = {"svg": "http://www.w3.org/2000/svg"}
SVG = f"{{{NS['svg']}}}"


def placed_board(variant: Variant, placements: list[tuple[Player, int, str]]) -> Board:
    board = Board.empty(variant)
    for step, (player, stone, card) in enumerate(placements):
        board = board.place(player, stone, parse_card(card), at=step)
    return board


def parse_svg(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def classes_of(root: ET.Element) -> list[str]:
    return [e.get("class", "") for e in root.iter() if e.get("class")]


def group_of(root: ET.Element, classes: str) -> ET.Element:
    matches = [e for e in root.iter(f"{{{NS['svg']}}}g") if e.get("class") == classes]
    assert len(matches) == 1, f"{classes!r}: {len(matches)} groups in {classes_of(root)}"
    return matches[0]


HAND_IS_NOT_PROOF = placed_board(
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


SPREAD = placed_board(
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
