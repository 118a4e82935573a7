"""Pictures of a position as SVG, built with :mod:`xml.etree.ElementTree`: the layout of the
whole picture (which stones, the two sides, the discard pile, the hand) and its legend.

The picture shows the stones that matter to a claim: those under claim, those already held, and
any stone with a card or a combat mode on it. The opponent's side is above each stone, yours below,
cards in their clan colour with their value. Elements carry meaningful classes so that a page can
style them and a test can query them: ``class="card red v7"``, ``class="card tactic joker"``,
``class="stone s4 claimed mud-fight"``, ``class="stone s2 held p2"``. The position is also written
out in words in ``<title>`` and ``<desc>`` for screen readers (:mod:`schotten.svg_words`); each
card and stone is drawn by :mod:`schotten.svg_shapes`.

>>> from schotten.board import Board, Player, Variant
>>> from schotten.cards import parse_card
>>> board = Board.empty(Variant.BASE).place(Player.FIRST, 4, parse_card("red 7"), at=1)
>>> svg = position_svg(board, claim=(4,))
>>> 'class="card red v7"' in svg, 'class="stone s4 claimed"' in svg
(True, True)
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from typing import Any

from schotten.board import Board, Player, Stone
from schotten.cards import Card, ClanCard, Colour, Tactic
from schotten.svg_shapes import (
    BACKGROUND,
    CARD_H,
    CARD_W,
    CLAIMED_FILL,
    COLUMN,
    GAP_W,
    INK,
    STONE_FILL,
    STONE_H,
    TACTIC_FILL,
    TEXT,
    card_colours,
    draw_blind_bar,
    draw_card,
    draw_gap,
    draw_held_mark,
    draw_mark,
    draw_mud_bar,
    draw_stone,
    draw_stone_shape,
    draw_text,
    draw_upwards,
)
from schotten.svg_words import ENGLISH, capital, default_title, describe_position, shown, typography

STEP = 36  # cards overlap: the top STEP units of each covered card (value, mark) stay visible
LABEL_W = 40  # the players' names, written upwards beside their sides
GAP = 10
# A picture is never shown smaller than this scale of its size in units: on a phone, its
# smallest text stays at least MIN_TEXT_PX pixels high (wider pictures scroll sideways), and
# on a wide screen it grows to fill the column, up to MAX_SCALE.
MIN_TEXT_PX = 11
MAX_SCALE = 1.25
SVG_NS = "http://www.w3.org/2000/svg"


def position_svg(
    board: Board,
    claim: Sequence[int] = (),
    *,
    claimer: Player = Player.FIRST,
    labels: Mapping[str, Any] | None = None,
    ident: str = "position",
    hand: Sequence[Card] = (),
    title: str | None = None,
    description: str | None = None,
) -> str:
    """The position as an inline ``<svg>`` element (no XML declaration, no blank line).

    ``claim`` lists the stones claimed in the case (marked ``claimed``); ``hand`` is the claimer's
    hand when it matters (it is never proof: its cards are in the unseen pool); ``ident`` prefixes
    the ids of ``<title>`` and ``<desc>`` so that several pictures can share a page. ``title``
    and ``description`` are what screen readers announce (``<title>`` and ``<desc>``), written as
    given; without them the picture names the claimed stones and describes the position
    (:func:`describe_position`).
    """
    names = labels or ENGLISH
    stones = [s for s in board.stones if shown(s, claim)]
    depth = max([3, *(s.capacity for s in stones)])
    side_h = CARD_H + STEP * (depth - 1)
    xs = _stone_positions(stones)
    table_w = (xs[-1] + COLUMN) if xs else LABEL_W + COLUMN
    piles = [c for pile in board.discard for c in pile]
    discard_x = table_w + (GAP if piles else 0)
    width = discard_x + (_discard_width(board) if piles else 0)
    width = max(width, LABEL_W + (CARD_W + 8) * len(hand))
    top = GAP
    stone_y = top + side_h + GAP
    bottom = stone_y + STONE_H + GAP
    hand_y = bottom + side_h + 2 * GAP + (TEXT + GAP if hand else 0)
    legend_y = (hand_y + CARD_H + 2 * GAP) if hand else hand_y
    entries = _legend_entries(board, stones, claim, claimer, names, hand)
    width = max(width, *(_entry_width(text) for _, text in entries)) if entries else width
    rows = _legend_rows(entries, width)
    height = legend_y + len(rows) * (TEXT + GAP) + GAP

    root = ET.Element(
        "svg",
        {
            "xmlns": SVG_NS,
            "class": "position",
            "viewBox": f"0 0 {width} {height}",
            "width": str(width),
            "height": str(height),
            "style": (
                f"min-width: {width * MIN_TEXT_PX / TEXT:.0f}px; "
                f"max-width: {width * MAX_SCALE:.0f}px"
            ),
            "role": "img",
            "aria-labelledby": f"{ident}-title {ident}-desc",
        },
    )
    if title is None:
        title = typography(default_title(claim, names))
    if description is None:
        description = describe_position(board, claim, claimer=claimer, labels=names, hand=hand)
    ET.SubElement(root, "title", {"id": f"{ident}-title"}).text = title
    ET.SubElement(root, "desc", {"id": f"{ident}-desc"}).text = description
    ET.SubElement(
        root,
        "rect",
        {"class": "background", "width": str(width), "height": str(height), "fill": BACKGROUND},
    )

    opponent = claimer.other
    draw_upwards(root, LABEL_W / 2 + 8, top + side_h / 2, names["words"]["opponent"], "opponent")
    draw_upwards(root, LABEL_W / 2 + 8, bottom + side_h / 2, names["words"]["you"], "you")

    for i, (stone, x0) in enumerate(zip(stones, xs, strict=True)):
        if i and stone.number != stones[i - 1].number + 1:
            draw_gap(root, x0 - GAP_W, stone_y)
        x = x0 + (COLUMN - CARD_W) / 2
        group = ET.SubElement(root, "g", {"class": _stone_classes(stone, claim, claimer)})
        # The opponent's cards grow upwards from the stone: draw the farthest first so that
        # each nearer card covers only the lower part of the one above it.
        theirs = stone.side(opponent).cards
        side = ET.SubElement(group, "g", {"class": "side opponent"})
        for j in reversed(range(len(theirs))):
            draw_card(side, theirs[j], x, top + side_h - CARD_H - STEP * j, names)
        draw_stone(group, stone, x0 + 4, stone_y, names, claim, claimer)
        mine = stone.side(claimer).cards
        side = ET.SubElement(group, "g", {"class": "side you"})
        for j, card in enumerate(mine):
            draw_card(side, card, x, bottom + STEP * j, names)

    if piles:
        group = ET.SubElement(root, "g", {"class": "discard"})
        draw_text(group, discard_x, top + TEXT, capital(names["words"]["discard"]), "discard-label")
        for j, card in enumerate(piles):
            draw_card(
                group,
                card,
                discard_x + (j % 2) * (CARD_W + 8),
                top + TEXT + GAP + STEP * (j // 2),
                names,
            )
    if hand:
        group = ET.SubElement(root, "g", {"class": "hand you"})
        label_y = hand_y - GAP
        draw_text(group, LABEL_W, label_y, capital(names["words"]["hand"]), "player-label hand")
        for j, card in enumerate(hand):
            draw_card(group, card, LABEL_W + (CARD_W + 8) * j, hand_y, names)
    _legend(root, rows, legend_y)
    return ET.tostring(root, encoding="unicode")


def _stone_positions(stones: Sequence[Stone]) -> list[int]:
    """The left edge of each stone's column: side by side, with a gap where stones between
    them are not drawn (so that 3 and 5 never look adjacent)."""
    xs: list[int] = []
    x = LABEL_W
    for i, stone in enumerate(stones):
        if i and stone.number != stones[i - 1].number + 1:
            x += GAP_W
        xs.append(x)
        x += COLUMN
    return xs


def _discard_width(board: Board) -> int:
    return 2 * (CARD_W + 8) if any(board.discard) else 0


def _stone_classes(stone: Stone, claim: Sequence[int], claimer: Player) -> str:
    classes = ["stone", f"s{stone.number}"]
    if stone.number in claim:
        classes.append("claimed")
    if stone.claimed_by is not None:
        classes += ["held", "p1" if stone.claimed_by is claimer else "p2"]
    if stone.mud_fight is not None:
        classes.append("mud-fight")
    if stone.blind_mans_bluff is not None:
        classes.append("blind-mans-bluff")
    return " ".join(classes)


def _legend_entries(
    board: Board,
    stones: Sequence[Stone],
    claim: Sequence[int],
    claimer: Player,
    names: Mapping[str, Any],
    hand: Sequence[Card],
) -> list[tuple[str, str]]:
    """What the picture's marks mean, for the marks it shows: (kind, words)."""
    words = names["words"]
    stone_word = capital(words["stone"])
    entries = []
    if claim:
        entries.append(("claimed", f"{stone_word} {words['claimed']}"))
    holders = {s.claimed_by for s in stones if s.claimed_by is not None}
    for holder, key in ((claimer, "held_by_you"), (claimer.other, "held_by_opponent")):
        if holder in holders:
            entries.append((f"held-{key}", f"{stone_word} {words[key]}"))
    for mode in ("mud-fight", "blind-mans-bluff"):
        attribute = "mud_fight" if mode == "mud-fight" else "blind_mans_bluff"
        if any(getattr(s, attribute) is not None for s in stones):
            entries.append((mode, str(names["tactics"][mode])))
    cards = [c for s in stones for side in s.sides for c in side.cards]
    cards += [c for pile in board.discard for c in pile] + list(hand)
    seen = {c.colour for c in cards if isinstance(c, ClanCard)}
    for colour in Colour:
        if colour in seen:
            entries.append((f"colour-{colour}", str(names["colours"][str(colour)])))
    for tactic in Tactic:
        if tactic in cards:
            entries.append((f"tactic-{tactic.value}", str(names["tactics"][tactic.value])))
    return entries


def _entry_width(text: str) -> int:
    # Room for the sample and the words at about 0.55 em a letter (sans-serif).
    return 36 + GAP + math.ceil(len(text) * TEXT * 0.55) + 2 * GAP


def _legend_rows(entries: Sequence[tuple[str, str]], width: int) -> list[list[tuple[str, str]]]:
    rows: list[list[tuple[str, str]]] = []
    used = width
    for entry in entries:
        size = _entry_width(entry[1])
        if used + size > width:
            rows.append([])
            used = GAP
        rows[-1].append(entry)
        used += size
    return rows


def _legend(parent: ET.Element, rows: Sequence[Sequence[tuple[str, str]]], top: float) -> None:
    if not rows:
        return
    group = ET.SubElement(parent, "g", {"class": "legend"})
    for r, row in enumerate(rows):
        y = top + r * (TEXT + GAP)
        x = float(GAP)
        for kind, text in row:
            item = ET.SubElement(group, "g", {"class": f"legend-item {kind}"})
            _sample(item, kind, text, x, y)
            draw_text(item, x + 36 + GAP, y + TEXT * 0.8, typography(capital(text)), "legend-text")
            x += _entry_width(text)


def _sample(parent: ET.Element, kind: str, text: str, x: float, y: float) -> None:
    """The mark a legend entry explains, drawn small."""
    if kind == "claimed":
        draw_stone_shape(parent, x, y, 36, TEXT, CLAIMED_FILL, True)
    elif kind.startswith("held-"):
        draw_stone_shape(parent, x, y + 4, 36, TEXT - 4, STONE_FILL, False)
        draw_held_mark(parent, x + 28, y + (TEXT if kind == "held-held_by_you" else 4))
    elif kind == "mud-fight":
        draw_stone_shape(parent, x, y, 36, TEXT, STONE_FILL, False)
        draw_mud_bar(parent, x, y + TEXT - 9, 36)
    elif kind == "blind-mans-bluff":
        draw_stone_shape(parent, x, y, 36, TEXT, STONE_FILL, False)
        draw_blind_bar(parent, x, y, 36)
    elif kind.startswith("tactic-"):
        sample = {"x": f"{x + 6:g}", "y": f"{y - 2:g}", "width": "24", "height": f"{TEXT + 4}"}
        ET.SubElement(parent, "rect", {**sample, "rx": "3", "fill": TACTIC_FILL, "stroke": INK})
        letter = text[:1]
        draw_text(parent, x + 18, y + TEXT * 0.8, letter, "value", anchor="middle", weight="bold")
    else:
        colour = Colour[kind.removeprefix("colour-").upper()]
        fill, ink = card_colours(ClanCard(colour, 1))
        sample = {"x": f"{x + 6:g}", "y": f"{y - 2:g}", "width": "24", "height": f"{TEXT + 4}"}
        ET.SubElement(parent, "rect", {**sample, "rx": "3", "fill": fill, "stroke": INK})
        draw_mark(parent, colour, x + 18, y + TEXT / 2, ink)
