"""The words of a position picture: card names, the position told in sentences (the picture's
``<desc>``, for screen readers), its default title, and the typography its texts follow.

Names come from a label catalogue shaped like ``schotten/locales/*.json`` (colours, tactics,
words, and the ``card`` pattern that names a Clan card as a player says it, value first: ``7 red``,
``7 rouge``); without one the words are English (:data:`ENGLISH`). Which stones a picture shows is
decided here too (:func:`shown`), since its words and its drawing must name the same stones.

>>> from schotten.board import Board, Player, Variant
>>> from schotten.cards import parse_card
>>> board = Board.empty(Variant.BASE).place(Player.FIRST, 4, parse_card("red 7"), at=1)
>>> describe_position(board, claim=(4,))
'Stone 4 (claimed): you 7 red; opponent no card.'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from schotten.board import Board, Player, Stone
from schotten.cards import Card, ClanCard, Colour

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
        if not shown(stone, claim):
            continue
        head = f"{capital(words['stone'])} {stone.number}"
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
        sentences.append(f"{capital(words['discard'])}{colon}{card_names(piles, names)}.")
    if hand:
        sentences.append(f"{capital(words['hand'])}{colon}{card_names(hand, names)}.")
    return typography(" ".join(sentences))


def card_name(card: Card, labels: Mapping[str, Any] | None = None) -> str:
    """A card's name in the catalogue's language, by its ``card`` pattern: ``7 rouge``,
    ``Porte-Bouclier``.

    >>> from schotten.cards import Tactic
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


def shown(stone: Stone, claim: Sequence[int]) -> bool:
    """Whether the picture shows ``stone``: claimed, held, under a combat mode or with a card."""
    return bool(
        stone.number in claim
        or stone.claimed_by is not None
        or stone.mud_fight is not None
        or stone.blind_mans_bluff is not None
        or any(side.cards for side in stone.sides)
    )


def default_title(claim: Sequence[int], names: Mapping[str, Any]) -> str:
    """The picture's title when none is given: the position and the stones it claims."""
    words = names["words"]
    if not claim:
        return str(words["position"])
    stones = ", ".join(str(n) for n in claim)
    colon = names["punctuation"]["colon"]
    return f"{words['position']}{colon}{words['stone']} {stones} ({words['claimed']})"


def typography(text: str) -> str:
    """A space written before ``; : ? !`` or inside « » becomes the no-break space French
    typography puts there (narrow before ``; ? !``); languages without such spaces are
    unchanged.

    >>> typography("Borne 4 : toi ; lui ?") == "Borne 4\\u00a0: toi\\u202f; lui\\u202f?"
    True
    """
    text = re.sub(r"[ \u00a0\u202f]([;?!])", "\u202f\\1", text)
    text = re.sub(r"[ \u202f]:", "\u00a0:", text)
    return text.replace("« ", "«\u00a0").replace(" »", "\u00a0»")


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]
