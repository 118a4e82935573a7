"""Pictures of a position as SVG, built with :mod:`xml.etree.ElementTree`.

The picture shows the stones that matter to a claim: those under claim, those already held, and
any stone with a card or a combat mode on it. The opponent's side is above each stone, yours below,
cards in their clan colour with their value. Elements carry meaningful classes so that a page can
style them and a test can query them: ``class="card red v7"``, ``class="card tactic joker"``,
``class="stone s4 claimed mud-fight"``, ``class="stone s2 held p2"``. The position is also written
out in words in ``<title>`` and ``<desc>`` for screen readers.

Names come from a label catalogue shaped like ``schotten/site/locales/*.json`` (colours, tactics,
words); without one the picture is labelled in English.

>>> from schotten.board import Board, Player, Variant
>>> from schotten.cards import parse_card
>>> board = Board.empty(Variant.BASE).place(Player.FIRST, 4, parse_card("red 7"), at=1)
>>> svg = position_svg(board, claim=(4,))
>>> 'class="card red v7"' in svg, 'class="stone s4 claimed"' in svg
(True, True)
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from schotten.board import Board, Player, Stone
from schotten.cards import Card, ClanCard, Colour, Tactic  # noqa: F401  (Tactic: doctests)

ENGLISH: Mapping[str, Any] = {
    "colours": {str(c): str(c) for c in Colour},
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

# Card fills; yellow carries dark text, the rest white. Chosen to stay distinct in print.
FILLS = {
    Colour.RED: "#c62828",
    Colour.ORANGE: "#ef6c00",
    Colour.YELLOW: "#fbc02d",
    Colour.GREEN: "#2e7d32",
    Colour.BLUE: "#1565c0",
    Colour.PURPLE: "#6a1b9a",
}
TACTIC_FILL = "#f5f0e1"
INK = "#212121"

CARD_W, CARD_H = 44, 58
STEP = 24  # cards overlap: the top STEP pixels of each covered card stay visible
COLUMN = 62
LABEL_W = 92
STONE_H = 34
GAP = 8
SVG_NS = "http://www.w3.org/2000/svg"


def position_svg(
    board: Board,
    claim: Sequence[int] = (),
    *,
    claimer: Player = Player.FIRST,
    labels: Mapping[str, Any] | None = None,
    ident: str = "position",
    hand: Sequence[Card] = (),
) -> str:
    """The position as an inline ``<svg>`` element (no XML declaration, no blank line).

    ``claim`` lists the stones claimed in the case (marked ``claimed``); ``hand`` is the claimer's
    hand when it matters (it is never proof: its cards are in the unseen pool); ``ident`` prefixes
    the ids of ``<title>`` and ``<desc>`` so that several pictures can share a page.
    """
    names = labels or ENGLISH
    stones = [s for s in board.stones if _shown(s, claim)]
    depth = max([3, *(s.capacity for s in stones)])
    side_h = CARD_H + STEP * (depth - 1)
    width = LABEL_W + COLUMN * max(len(stones), 1) + _discard_width(board)
    width = max(width, LABEL_W + (CARD_W + 4) * len(hand))
    top = GAP
    stone_y = top + side_h + GAP
    bottom = stone_y + STONE_H + GAP
    hand_y = bottom + side_h + 2 * GAP
    height = hand_y + (CARD_H + GAP if hand else 0)

    root = ET.Element(
        "svg",
        {
            "xmlns": SVG_NS,
            "class": "position",
            "viewBox": f"0 0 {width} {height}",
            "width": str(width),
            "height": str(height),
            "role": "img",
            "aria-labelledby": f"{ident}-title {ident}-desc",
        },
    )
    title = ET.SubElement(root, "title", {"id": f"{ident}-title"})
    title.text = _title(claim, names)
    desc = ET.SubElement(root, "desc", {"id": f"{ident}-desc"})
    desc.text = describe_position(board, claim, claimer=claimer, labels=names, hand=hand)

    opponent = claimer.other
    _text(root, 4, top + side_h / 2, _capital(names["words"]["opponent"]), "player-label opponent")
    _text(root, 4, bottom + side_h / 2, _capital(names["words"]["you"]), "player-label you")

    for i, stone in enumerate(stones):
        x = LABEL_W + COLUMN * i + (COLUMN - CARD_W) / 2
        group = ET.SubElement(root, "g", {"class": _stone_classes(stone, claim, claimer)})
        # The opponent's cards grow upwards from the stone: draw the farthest first so that
        # each nearer card covers only the lower part of the one above it.
        theirs = stone.side(opponent).cards
        side = ET.SubElement(group, "g", {"class": "side opponent"})
        for j in reversed(range(len(theirs))):
            _card(side, theirs[j], x, top + side_h - CARD_H - STEP * j, names)
        _stone(group, stone, LABEL_W + COLUMN * i + 3, stone_y, names, claim, claimer)
        mine = stone.side(claimer).cards
        side = ET.SubElement(group, "g", {"class": "side you"})
        for j, card in enumerate(mine):
            _card(side, card, x, bottom + STEP * j, names)

    discard_x = LABEL_W + COLUMN * max(len(stones), 1)
    piles = [c for pile in board.discard for c in pile]
    if piles:
        group = ET.SubElement(root, "g", {"class": "discard"})
        _text(group, discard_x + 8, top + 12, _capital(names["words"]["discard"]), "discard-label")
        for j, card in enumerate(piles):
            _card(
                group,
                card,
                discard_x + 8 + (j % 2) * (CARD_W + 4),
                top + 20 + STEP * (j // 2),
                names,
            )
    if hand:
        group = ET.SubElement(root, "g", {"class": "hand you"})
        _text(group, 4, hand_y + 20, _capital(names["words"]["hand"]), "player-label hand")
        for j, card in enumerate(hand):
            _card(group, card, LABEL_W + (CARD_W + 4) * j, hand_y, names)
    return ET.tostring(root, encoding="unicode")


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
    return " ".join(sentences)


def card_name(card: Card, labels: Mapping[str, Any] | None = None) -> str:
    """A card's name in the catalogue's language: ``rouge 7``, ``Porte-Bouclier``.

    >>> card_name(ClanCard(Colour.RED, 7)), card_name(Tactic.SHIELD_BEARER)
    ('red 7', 'Shield Bearer')
    """
    names = labels or ENGLISH
    if isinstance(card, ClanCard):
        return f"{names['colours'][str(card.colour)]} {card.value}"
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
    return 2 * (CARD_W + 4) + 16 if any(board.discard) else 0


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
    width = COLUMN - 6
    claimed = stone.number in claim
    ET.SubElement(
        parent,
        "rect",
        {
            "class": "stone-shape",
            "x": str(x),
            "y": str(y),
            "width": str(width),
            "height": str(STONE_H),
            "rx": "8",
            "fill": "#8d8d8d" if stone.claimed_by is None else "#5d5d5d",
            "stroke": "#ffb300" if claimed else "#616161",
            "stroke-width": "4" if claimed else "1",
        },
    )
    _text(
        parent,
        x + width / 2,
        y + STONE_H / 2 + 6,
        str(stone.number),
        "stone-number",
        anchor="middle",
        size=17,
        fill="#ffffff",
        weight="bold",
    )
    if stone.mud_fight is not None:
        mark = ET.SubElement(parent, "g", {"class": "mode mud-fight"})
        ET.SubElement(mark, "title").text = names["tactics"]["mud-fight"]
        ET.SubElement(
            mark,
            "rect",
            {
                "x": str(x),
                "y": str(y + STONE_H - 8),
                "width": str(width),
                "height": "8",
                "rx": "3",
                "fill": "#6d4c41",
            },
        )
    if stone.blind_mans_bluff is not None:
        mark = ET.SubElement(parent, "g", {"class": "mode blind-mans-bluff"})
        ET.SubElement(mark, "title").text = names["tactics"]["blind-mans-bluff"]
        ET.SubElement(
            mark,
            "rect",
            {"x": str(x), "y": str(y), "width": str(width), "height": "8", "rx": "3", "fill": INK},
        )
    if stone.claimed_by is not None:
        owner = "held_by_you" if stone.claimed_by is claimer else "held_by_opponent"
        mark = ET.SubElement(parent, "g", {"class": "mode held"})
        ET.SubElement(mark, "title").text = names["words"][owner]
        cy = y + STONE_H + 2 if stone.claimed_by is claimer else y - 2
        ET.SubElement(
            mark,
            "circle",
            {"cx": str(x + width - 6), "cy": str(cy), "r": "5", "fill": "#ffb300", "stroke": INK},
        )


def _card(parent: ET.Element, card: Card, x: float, y: float, names: Mapping[str, Any]) -> None:
    if isinstance(card, ClanCard):
        classes = f"card {card.colour} v{card.value}"
        fill, ink = FILLS[card.colour], INK if card.colour is Colour.YELLOW else "#ffffff"
        big, small = str(card.value), names["colours"][str(card.colour)]
    else:
        classes = f"card tactic {card.value}"
        fill, ink = TACTIC_FILL, INK
        name = str(names["tactics"][card.value])
        big, small = name[:1], name
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
            "rx": "5",
            "fill": fill,
            "stroke": INK,
            "stroke-width": "1",
        },
    )
    _text(group, x + 5, y + 17, big, "value", size=15, fill=ink, weight="bold")
    _text(group, x + CARD_W - 4, y + 17, _short(small), "name", anchor="end", size=7.5, fill=ink)


def _text(
    parent: ET.Element,
    x: float,
    y: float,
    text: str,
    classes: str,
    *,
    anchor: str = "start",
    size: float = 12,
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


def _short(name: str) -> str:
    """Room for about six letters beside the value."""
    return name if len(name) <= 6 else name[:5] + "."


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _title(claim: Sequence[int], names: Mapping[str, Any]) -> str:
    words = names["words"]
    if not claim:
        return str(words["position"])
    stones = ", ".join(str(n) for n in claim)
    colon = names["punctuation"]["colon"]
    return f"{words['position']}{colon}{words['stone']} {stones} ({words['claimed']})"
