"""Pictures of a position as SVG, built with :mod:`xml.etree.ElementTree`.

The picture shows the stones that matter to a claim: those under claim, those already held, and
any stone with a card or a combat mode on it. The opponent's side is above each stone, yours below,
cards in their clan colour with their value. Elements carry meaningful classes so that a page can
style them and a test can query them: ``class="card red v7"``, ``class="card tactic joker"``,
``class="stone s4 claimed mud-fight"``, ``class="stone s2 held p2"``. The position is also written
out in words in ``<title>`` and ``<desc>`` for screen readers.

Names come from a label catalogue shaped like ``schotten/locales/*.json`` (colours, tactics,
words, and the ``card`` pattern that names a Clan card as a player says it, value first: ``7 red``,
``7 rouge``); without one the picture is labelled in English.

>>> from schotten.board import Board, Player, Variant
>>> from schotten.cards import parse_card
>>> board = Board.empty(Variant.BASE).place(Player.FIRST, 4, parse_card("red 7"), at=1)
>>> svg = position_svg(board, claim=(4,))
>>> 'class="card red v7"' in svg, 'class="stone s4 claimed"' in svg
(True, True)
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from schotten.board import Board, Player, Stone
from schotten.cards import Card, ClanCard, Colour, Tactic

ENGLISH: Mapping[str, Any] = {
    "colours": {str(c): str(c) for c in Colour},
    "card": "{value} {colour}",
    "tactics": {
        "joker": "Joker",
        "spy": "Spy",
        "shield-bearer": "Shield Bearer",
        "blind-mans-bluff": "Blind-Man's Bluff",
        "mud-fight": "Mud Fight",
        "recruiter": "Recruiter",
        "strategist": "Strategist",
        "banshee": "Banshee",
        "traitor": "Traitor",
    },
    "words": {
        "stone": "stone",
        "you": "you",
        "opponent": "opponent",
        "discard": "discard pile",
        "claimed": "claimed",
        "held_by_you": "held by you",
        "held_by_opponent": "held by the opponent",
        "position": "Position",
        "empty_side": "no card",
        "hand": "your hand",
    },
    "punctuation": {"colon": ": ", "semicolon": "; "},
}

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
STEP = 36  # cards overlap: the top STEP units of each covered card (value, mark) stay visible
COLUMN = 80
GAP_W = 40  # between two stones drawn side by side that are not next to each other
LABEL_W = 40  # the players' names, written upwards beside their sides
STONE_H = 44
GAP = 10
TEXT = 24  # every text of the picture, in picture units
VALUE_TEXT = 28
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
    stones = [s for s in board.stones if _shown(s, claim)]
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
        title = _typography(_title(claim, names))
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
    _upwards(root, LABEL_W / 2 + 8, top + side_h / 2, names["words"]["opponent"], "opponent")
    _upwards(root, LABEL_W / 2 + 8, bottom + side_h / 2, names["words"]["you"], "you")

    for i, (stone, x0) in enumerate(zip(stones, xs, strict=True)):
        if i and stone.number != stones[i - 1].number + 1:
            _gap(root, x0 - GAP_W, stone_y)
        x = x0 + (COLUMN - CARD_W) / 2
        group = ET.SubElement(root, "g", {"class": _stone_classes(stone, claim, claimer)})
        # The opponent's cards grow upwards from the stone: draw the farthest first so that
        # each nearer card covers only the lower part of the one above it.
        theirs = stone.side(opponent).cards
        side = ET.SubElement(group, "g", {"class": "side opponent"})
        for j in reversed(range(len(theirs))):
            _card(side, theirs[j], x, top + side_h - CARD_H - STEP * j, names)
        _stone(group, stone, x0 + 4, stone_y, names, claim, claimer)
        mine = stone.side(claimer).cards
        side = ET.SubElement(group, "g", {"class": "side you"})
        for j, card in enumerate(mine):
            _card(side, card, x, bottom + STEP * j, names)

    if piles:
        group = ET.SubElement(root, "g", {"class": "discard"})
        _text(group, discard_x, top + TEXT, _capital(names["words"]["discard"]), "discard-label")
        for j, card in enumerate(piles):
            _card(
                group,
                card,
                discard_x + (j % 2) * (CARD_W + 8),
                top + TEXT + GAP + STEP * (j // 2),
                names,
            )
    if hand:
        group = ET.SubElement(root, "g", {"class": "hand you"})
        label_y = hand_y - GAP
        _text(group, LABEL_W, label_y, _capital(names["words"]["hand"]), "player-label hand")
        for j, card in enumerate(hand):
            _card(group, card, LABEL_W + (CARD_W + 8) * j, hand_y, names)
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


def describe_position(
    board: Board,
    claim: Sequence[int] = (),
    *,
    claimer: Player = Player.FIRST,
    labels: Mapping[str, Any] | None = None,
    hand: Sequence[Card] = (),
) -> str:
    """The position in words, one sentence per stone shown (the picture's ``<desc>``)."""
    names = labels or ENGLISH
    words = names["words"]
    colon, semicolon = names["punctuation"]["colon"], names["punctuation"]["semicolon"]
    sentences = []
    for stone in board.stones:
        if not _shown(stone, claim):
            continue
        head = f"{_capital(words['stone'])} {stone.number}"
        marks = []
        if stone.number in claim:
            marks.append(words["claimed"])
        if stone.claimed_by is not None:
            marks.append(
                words["held_by_you" if stone.claimed_by is claimer else "held_by_opponent"]
            )
        for mode, tactic in (
            (stone.mud_fight, "mud-fight"),
            (stone.blind_mans_bluff, "blind-mans-bluff"),
        ):
            if mode is not None:
                marks.append(names["tactics"][tactic])
        if marks:
            head += f" ({', '.join(marks)})"
        you = card_names(stone.side(claimer).cards, names) or words["empty_side"]
        them = card_names(stone.side(claimer.other).cards, names) or words["empty_side"]
        sentences.append(f"{head}{colon}{words['you']} {you}{semicolon}{words['opponent']} {them}.")
    piles = [c for pile in board.discard for c in pile]
    if piles:
        sentences.append(f"{_capital(words['discard'])}{colon}{card_names(piles, names)}.")
    if hand:
        sentences.append(f"{_capital(words['hand'])}{colon}{card_names(hand, names)}.")
    return _typography(" ".join(sentences))


def card_name(card: Card, labels: Mapping[str, Any] | None = None) -> str:
    """A card's name in the catalogue's language, by its ``card`` pattern: ``7 rouge``,
    ``Porte-Bouclier``.

    >>> card_name(ClanCard(Colour.RED, 7)), card_name(Tactic.SHIELD_BEARER)
    ('7 red', 'Shield Bearer')
    """
    names = labels or ENGLISH
    if isinstance(card, ClanCard):
        colour = names["colours"][str(card.colour)]
        return str(names["card"]).format(value=card.value, colour=colour)
    return str(names["tactics"][card.value])


def card_names(cards: Iterable[Card], labels: Mapping[str, Any] | None = None) -> str:
    return ", ".join(card_name(c, labels) for c in cards)


def _shown(stone: Stone, claim: Sequence[int]) -> bool:
    return bool(
        stone.number in claim
        or stone.claimed_by is not None
        or stone.mud_fight is not None
        or stone.blind_mans_bluff is not None
        or any(side.cards for side in stone.sides)
    )


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


def _stone(
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
    _stone_shape(parent, x, y, width, STONE_H, fill, stone.number in claim)
    _text(
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
        _mud_bar(mark, x, y + STONE_H - 9, width)
    if stone.blind_mans_bluff is not None:
        mark = ET.SubElement(parent, "g", {"class": "mode blind-mans-bluff"})
        ET.SubElement(mark, "title").text = names["tactics"]["blind-mans-bluff"]
        _blind_bar(mark, x, y, width)
    if stone.claimed_by is not None:
        owner = "held_by_you" if stone.claimed_by is claimer else "held_by_opponent"
        mark = ET.SubElement(parent, "g", {"class": "mode held"})
        ET.SubElement(mark, "title").text = names["words"][owner]
        cy = y + STONE_H if stone.claimed_by is claimer else y
        _held_mark(mark, x + width - 8, cy)


def _stone_colours(stone: Stone, claim: Sequence[int]) -> tuple[str, str]:
    """The stone's fill and the ink of its number."""
    if stone.number in claim:
        return CLAIMED_FILL, INK
    return (STONE_FILL if stone.claimed_by is None else HELD_FILL), WHITE


def _stone_shape(
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


def _mud_bar(parent: ET.Element, x: float, y: float, w: float) -> None:
    bar = {"x": f"{x:g}", "y": f"{y:g}", "width": f"{w:g}", "height": "9", "rx": "3"}
    ET.SubElement(parent, "rect", {**bar, "fill": MUD_FILL, "stroke": INK})


def _blind_bar(parent: ET.Element, x: float, y: float, w: float) -> None:
    bar = {"x": f"{x:g}", "y": f"{y:g}", "width": f"{w:g}", "height": "9", "rx": "3"}
    ET.SubElement(parent, "rect", {**bar, "fill": INK})


def _held_mark(parent: ET.Element, cx: float, cy: float) -> None:
    circle = {"cx": f"{cx:g}", "cy": f"{cy:g}", "r": "7", "fill": CLAIMED_FILL, "stroke": INK}
    ET.SubElement(parent, "circle", {**circle, "stroke-width": "2"})


def _gap(parent: ET.Element, x: float, y: float) -> None:
    """Three dots between two stones drawn side by side that are not next to each other."""
    group = ET.SubElement(parent, "g", {"class": "gap", "aria-hidden": "true"})
    for k in (-1, 0, 1):
        ET.SubElement(
            group,
            "circle",
            {"cx": f"{x + GAP_W / 2 + 10 * k:g}", "cy": f"{y + STONE_H / 2:g}", "r": "3"},
        ).set("fill", STONE_FILL)


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


def _mark(parent: ET.Element, colour: Colour, cx: float, cy: float, ink: str) -> None:
    shape = MARKS[colour]
    ET.SubElement(
        parent,
        "path",
        {"class": f"mark {shape}", "d": _mark_path(shape, cx, cy, 8), "fill": ink},
    )


def _card(parent: ET.Element, card: Card, x: float, y: float, names: Mapping[str, Any]) -> None:
    if isinstance(card, ClanCard):
        classes = f"card {card.colour} v{card.value}"
        big = str(card.value)
    else:
        classes = f"card tactic {card.value}"
        big = str(names["tactics"][card.value])[:1]
    fill, ink = _card_colours(card)
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
    _text(group, x + 7, y + VALUE_TEXT, big, "value", size=VALUE_TEXT, fill=ink, weight="bold")
    if isinstance(card, ClanCard):
        _mark(group, card.colour, x + CARD_W - 15, y + 17, ink)


def _card_colours(card: Card) -> tuple[str, str]:
    """A card's fill and the ink of its text and mark."""
    if isinstance(card, ClanCard):
        return FILLS[card.colour], INK if card.colour is Colour.YELLOW else WHITE
    return TACTIC_FILL, INK


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
    stone_word = _capital(words["stone"])
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
            _text(item, x + 36 + GAP, y + TEXT * 0.8, _typography(_capital(text)), "legend-text")
            x += _entry_width(text)


def _sample(parent: ET.Element, kind: str, text: str, x: float, y: float) -> None:
    """The mark a legend entry explains, drawn small."""
    if kind == "claimed":
        _stone_shape(parent, x, y, 36, TEXT, CLAIMED_FILL, True)
    elif kind.startswith("held-"):
        _stone_shape(parent, x, y + 4, 36, TEXT - 4, STONE_FILL, False)
        _held_mark(parent, x + 28, y + (TEXT if kind == "held-held_by_you" else 4))
    elif kind == "mud-fight":
        _stone_shape(parent, x, y, 36, TEXT, STONE_FILL, False)
        _mud_bar(parent, x, y + TEXT - 9, 36)
    elif kind == "blind-mans-bluff":
        _stone_shape(parent, x, y, 36, TEXT, STONE_FILL, False)
        _blind_bar(parent, x, y, 36)
    elif kind.startswith("tactic-"):
        sample = {"x": f"{x + 6:g}", "y": f"{y - 2:g}", "width": "24", "height": f"{TEXT + 4}"}
        ET.SubElement(parent, "rect", {**sample, "rx": "3", "fill": TACTIC_FILL, "stroke": INK})
        letter = text[:1]
        _text(parent, x + 18, y + TEXT * 0.8, letter, "value", anchor="middle", weight="bold")
    else:
        colour = Colour[kind.removeprefix("colour-").upper()]
        fill, ink = _card_colours(ClanCard(colour, 1))
        sample = {"x": f"{x + 6:g}", "y": f"{y - 2:g}", "width": "24", "height": f"{TEXT + 4}"}
        ET.SubElement(parent, "rect", {**sample, "rx": "3", "fill": fill, "stroke": INK})
        _mark(parent, colour, x + 18, y + TEXT / 2, ink)


def _upwards(parent: ET.Element, x: float, y: float, text: str, who: str) -> None:
    """A player's name written upwards, centred beside their side."""
    words = _typography(_capital(text))
    element = _text(parent, x, y, words, f"player-label {who}", anchor="middle")
    element.set("transform", f"rotate(-90 {x:g} {y:g})")


def _text(
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


def _typography(text: str) -> str:
    """A space written before ``; : ? !`` or inside « » becomes the no-break space French
    typography puts there (narrow before ``; ? !``); languages without such spaces are
    unchanged.

    >>> _typography("Borne 4 : toi ; lui ?") == "Borne 4\\u00a0: toi\\u202f; lui\\u202f?"
    True
    """
    text = re.sub(r"[ \u00a0\u202f]([;?!])", "\u202f\\1", text)
    text = re.sub(r"[ \u202f]:", "\u00a0:", text)
    return text.replace("« ", "«\u00a0").replace(" »", "\u00a0»")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _title(claim: Sequence[int], names: Mapping[str, Any]) -> str:
    words = names["words"]
    if not claim:
        return str(words["position"])
    stones = ", ".join(str(n) for n in claim)
    colon = names["punctuation"]["colon"]
    return f"{words['position']}{colon}{words['stone']} {stones} ({words['claimed']})"
