"""Cards and their one text notation.

A Clan card is written ``<colour> <value>`` (``red 7``), a tactic card by its kebab-case English
name (``joker``, ``shield-bearer``). The same notation is used in case files, game records, the
command line and every message.

>>> parse_card("blue 7")
ClanCard.parse('blue 7')
>>> parse_card("shield-bearer")
<Tactic.SHIELD_BEARER: 'shield-bearer'>
>>> str(parse_card("  Purple   1 "))
'purple 1'
>>> parse_card("pink 3")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
schotten.errors.InvalidNotationError: 'pink 3' is not a card: expected '<colour> <value>' ...
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from schotten.errors import InvalidNotationError

VALUES = range(1, 10)


class Colour(enum.IntEnum):
    """The six clan colours, in the rulebook's order."""

    RED = 0
    ORANGE = 1
    YELLOW = 2
    GREEN = 3
    BLUE = 4
    PURPLE = 5

    def __str__(self) -> str:
        return self.name.lower()


@dataclass(frozen=True, order=True)
class ClanCard:
    """One of the 54 Clan cards: a colour and a value from 1 to 9.

    >>> ClanCard(Colour.RED, 7)
    ClanCard.parse('red 7')
    >>> ClanCard(Colour.RED, 10)
    Traceback (most recent call last):
    ...
    ValueError: a Clan card's value is from 1 to 9, not 10
    """

    colour: Colour
    value: int

    def __post_init__(self) -> None:
        if self.value not in VALUES:
            raise ValueError(f"a Clan card's value is from 1 to 9, not {self.value}")

    def __hash__(self) -> int:
        # The generated hash would hash the Colour enum member, far slower; cards are dict keys
        # at every node of a search.
        return int(self.colour) * 9 + self.value

    @classmethod
    def parse(cls, text: str) -> ClanCard:
        card = parse_card(text)
        if not isinstance(card, ClanCard):
            raise InvalidNotationError(f"{text!r} is a tactic card, not a Clan card")
        return card

    def __str__(self) -> str:
        return f"{self.colour} {self.value}"

    def __repr__(self) -> str:
        return f"ClanCard.parse({str(self)!r})"


class TacticKind(enum.Enum):
    ELITE_TROOP = "elite troop"
    COMBAT_MODE = "combat mode"
    RUSE = "ruse"


class Tactic(enum.StrEnum):
    """The tactic cards; the Joker exists twice, every other card once."""

    JOKER = "joker"
    SPY = "spy"
    SHIELD_BEARER = "shield-bearer"
    BLIND_MANS_BLUFF = "blind-mans-bluff"
    MUD_FIGHT = "mud-fight"
    RECRUITER = "recruiter"
    STRATEGIST = "strategist"
    BANSHEE = "banshee"
    TRAITOR = "traitor"

    @property
    def kind(self) -> TacticKind:
        if self in WILD_VALUES:
            return TacticKind.ELITE_TROOP
        if self in (Tactic.BLIND_MANS_BLUFF, Tactic.MUD_FIGHT):
            return TacticKind.COMBAT_MODE
        return TacticKind.RUSE

    @property
    def copies(self) -> int:
        return 2 if self is Tactic.JOKER else 1

    @property
    def values(self) -> tuple[int, ...]:
        """The values an elite troop may take (any colour); empty for other tactic cards."""
        return WILD_VALUES.get(self, ())


# Elite troops keep no value on the table: each takes, at evaluation, the best colour and value
# of its range for its owner (RULES.md, Formations).
WILD_VALUES: dict[Tactic, tuple[int, ...]] = {
    Tactic.JOKER: tuple(VALUES),
    Tactic.SPY: (7,),
    Tactic.SHIELD_BEARER: (1, 2, 3),
}

Card = ClanCard | Tactic

CLAN_CARDS: tuple[ClanCard, ...] = tuple(ClanCard(c, v) for c in Colour for v in VALUES)
TACTIC_CARDS: tuple[Tactic, ...] = tuple(t for t in Tactic for _ in range(t.copies))


def is_wild(card: Card) -> bool:
    """True for an elite troop (Joker, Spy, Shield Bearer)."""
    return isinstance(card, Tactic) and card in WILD_VALUES


def parse_card(text: str) -> Card:
    """Read one card in the project's notation (case and extra spaces are forgiven).

    The value is one ASCII digit: ``red ７``, ``red ²`` and ``red 07`` are not cards.
    """
    if not isinstance(text, str):
        raise InvalidNotationError(f"{text!r} is not a card: a card is written as text")
    words = text.strip().lower().split()
    if len(words) == 1 and words[0] in _TACTICS:
        return _TACTICS[words[0]]
    if len(words) == 2 and words[0] in _COLOURS and words[1] in _VALUE_WORDS:
        return ClanCard(_COLOURS[words[0]], _VALUE_WORDS[words[1]])
    raise InvalidNotationError(f"{quoted(text)} is not a card: {_EXPECTED}")


def quoted(text: str, limit: int = 60) -> str:
    """``repr(text)`` for a message, cut to about ``limit`` characters (input may be huge)."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


def parse_cards(texts: Iterable[str]) -> tuple[Card, ...]:
    return tuple(parse_card(t) for t in texts)


def format_cards(cards: Iterable[Card]) -> str:
    """``red 1, green 1, joker``: the list as written in messages."""
    return ", ".join(str(c) for c in cards)


_COLOURS = {str(c): c for c in Colour}
_TACTICS = {t.value: t for t in Tactic}
_VALUE_WORDS = {str(v): v for v in VALUES}  # exact ASCII spellings only
_EXPECTED = (
    "expected '<colour> <value>' with a colour among "
    + ", ".join(_COLOURS)
    + " and a value from 1 to 9, or a tactic card name ("
    + ", ".join(t.value for t in Tactic)
    + ")"
)
