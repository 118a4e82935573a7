"""Moves and their one text notation.

The mover is implicit: it is whoever's turn it is. Every move of a game record, of a case's
play-on, of the command line and of the error messages is written this way:

- ``play <card> at <stone>``: a Clan card or an elite troop on your side, or a combat mode
  (``play mud-fight at 4``) on the stone;
- ``play strategist: <card> from <stone> to <stone>`` or ``... to discard``;
- ``play banshee: <card> at <stone>``;
- ``play traitor: <card> from <stone> to <stone>``;
- ``play recruiter: draw <deck>, <deck>, <deck>``, then ``return <card>, <card>``;
- ``pass``; ``claim <stone> ...`` or ``claim none``; ``draw clan`` or ``draw tactic``.

>>> Move.parse("play red 7 at 4")
Move.parse('play red 7 at 4')
>>> Move.parse("Play  Traitor:  blue 3 from 2 to 2")
Move.parse('play traitor: blue 3 from 2 to 2')
>>> Move.parse("claim 5 3").stones
(3, 5)
>>> Move.parse("play banshee at 4")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
schotten.errors.InvalidNotationError: 'play banshee at 4' is not a move: the Banshee is written ...
"""

from __future__ import annotations

import abc
import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, NamedTuple, TypeVar

from schotten.board import STONES, Player
from schotten.cards import (
    CLAN_CARDS,
    Card,
    Tactic,
    TacticKind,
    format_cards,
    parse_card,
    quoted,
)
from schotten.errors import InvalidNotationError


class Deck(enum.StrEnum):
    """The two draw piles; the base game has only the Clan deck."""

    CLAN = "clan"
    TACTIC = "tactic"

    @staticmethod
    def of(card: Card) -> Deck:
        """The deck a card belongs to (where the Recruiter returns it)."""
        return Deck.TACTIC if isinstance(card, Tactic) else Deck.CLAN


_M = TypeVar("_M", bound="Move")


@dataclass(frozen=True)
class Move(abc.ABC):
    """A move in the project's notation; ``str(move)`` writes it, :meth:`parse` reads it."""

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @abc.abstractmethod
    def __str__(self) -> str:
        """Every kind of move writes itself in the notation."""

    @classmethod
    def parse(cls: type[_M], text: str) -> _M:
        """Read a move; on a subclass, the move must also be of that kind.

        >>> Play.parse("pass")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        schotten.errors.InvalidNotationError: 'pass' is a pass, not a play move: ...
        """
        move = _parse(text)
        if not isinstance(move, cls):
            raise InvalidNotationError(
                f"{quoted(text)} is a {move.kind}, not a {cls.kind} move: expected {cls.syntax}"
            )
        return move

    kind: ClassVar[str] = "move"
    syntax: ClassVar[str] = (
        "'play <card> at <stone>', 'play strategist: ...', 'play banshee: ...', "
        "'play traitor: ...', 'play recruiter: ...', 'return ...', 'pass', 'claim ...' "
        "or 'draw clan|tactic'"
    )


@dataclass(frozen=True, repr=False)
class Play(Move):
    """A Clan card or elite troop on the mover's side of a stone, or a combat mode on a stone."""

    card: Card
    stone: int

    kind: ClassVar[str] = "play"
    syntax: ClassVar[str] = "'play <card> at <stone>'"

    def __post_init__(self) -> None:
        _check_stone(self.stone)
        if isinstance(self.card, Tactic) and self.card.kind is TacticKind.RUSE:
            raise InvalidNotationError(
                f"the {_name(self.card)} is written {_RUSE_SYNTAX[self.card]}, "
                f"not 'play {self.card} at <stone>'"
            )

    def __str__(self) -> str:
        return f"play {self.card} at {self.stone}"


@dataclass(frozen=True, repr=False)
class Strategist(Move):
    """Move a card of your side to another stone (``target``), or discard it (``target`` None)."""

    card: Card
    source: int
    target: int | None

    kind: ClassVar[str] = "strategist"
    syntax: ClassVar[str] = "'play strategist: <card> from <stone> to <stone|discard>'"

    def __post_init__(self) -> None:
        _check_stone(self.source)
        if self.target is not None:
            _check_stone(self.target)

    def __str__(self) -> str:
        target = "discard" if self.target is None else self.target
        return f"play strategist: {self.card} from {self.source} to {target}"


@dataclass(frozen=True, repr=False)
class Banshee(Move):
    """Discard a card of the opponent's side of a stone, face up."""

    card: Card
    stone: int

    kind: ClassVar[str] = "banshee"
    syntax: ClassVar[str] = "'play banshee: <card> at <stone>'"

    def __post_init__(self) -> None:
        _check_stone(self.stone)

    def __str__(self) -> str:
        return f"play banshee: {self.card} at {self.stone}"


@dataclass(frozen=True, repr=False)
class Traitor(Move):
    """Take an opponent's Clan card from ``source`` to your side of ``target``.

    The notation takes any card; the rules (``traitor``) refuse anything but a Clan card.
    """

    card: Card
    source: int
    target: int

    kind: ClassVar[str] = "traitor"
    syntax: ClassVar[str] = "'play traitor: <card> from <stone> to <stone>'"

    def __post_init__(self) -> None:
        _check_stone(self.source)
        _check_stone(self.target)

    def __str__(self) -> str:
        return f"play traitor: {self.card} from {self.source} to {self.target}"


@dataclass(frozen=True, repr=False)
class Recruiter(Move):
    """Draw up to three cards; the order of the decks does not matter (Clan draws are listed
    first)."""

    decks: tuple[Deck, ...]

    kind: ClassVar[str] = "recruiter"
    syntax: ClassVar[str] = "'play recruiter: draw <deck>, <deck>, <deck>' (deck: clan or tactic)"

    def __post_init__(self) -> None:
        if not 1 <= len(self.decks) <= 3:
            raise InvalidNotationError(
                f"the Recruiter draws 1 to 3 cards, not {len(self.decks)}: expected {self.syntax}"
            )
        object.__setattr__(self, "decks", tuple(sorted(self.decks, key=_DECK_ORDER.index)))

    def __str__(self) -> str:
        return "play recruiter: draw " + ", ".join(self.decks)


@dataclass(frozen=True, repr=False)
class Return(Move):
    """The Recruiter's second half: cards from hand to the bottom of their decks, in order."""

    cards: tuple[Card, ...]

    kind: ClassVar[str] = "return"
    syntax: ClassVar[str] = "'return <card>, <card>'"

    def __post_init__(self) -> None:
        if not 1 <= len(self.cards) <= 2:
            raise InvalidNotationError(
                f"the Recruiter returns 2 cards (1 if the hand holds only one), not "
                f"{len(self.cards)}: expected {self.syntax}"
            )

    def __str__(self) -> str:
        return f"return {format_cards(self.cards)}"


@dataclass(frozen=True, repr=False)
class Pass(Move):
    """The play step without a card (site ruling ``pass``)."""

    kind: ClassVar[str] = "pass"
    syntax: ClassVar[str] = "'pass'"

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, repr=False)
class Claim(Move):
    """The claim step: the stones claimed together, ascending; none is ``claim none``."""

    stones: tuple[int, ...] = ()

    kind: ClassVar[str] = "claim"
    syntax: ClassVar[str] = "'claim <stone> ...' or 'claim none'"

    def __post_init__(self) -> None:
        for number in self.stones:
            _check_stone(number)
        if len(set(self.stones)) != len(self.stones):
            raise InvalidNotationError(f"a stone is claimed twice: expected {self.syntax}")
        object.__setattr__(self, "stones", tuple(sorted(self.stones)))

    def __str__(self) -> str:
        return "claim " + (" ".join(map(str, self.stones)) or "none")


@dataclass(frozen=True, repr=False)
class Draw(Move):
    """The draw step, from the chosen deck."""

    deck: Deck

    kind: ClassVar[str] = "draw"
    syntax: ClassVar[str] = "'draw clan' or 'draw tactic'"

    def __str__(self) -> str:
        return f"draw {self.deck}"


_DECK_ORDER = (Deck.CLAN, Deck.TACTIC)
_RUSE_SYNTAX = {
    Tactic.STRATEGIST: Strategist.syntax,
    Tactic.BANSHEE: Banshee.syntax,
    Tactic.TRAITOR: Traitor.syntax,
    Tactic.RECRUITER: Recruiter.syntax,
}
# Numbers are ASCII digits only (re.ASCII: a bare \d would match any Unicode digit); how many
# digits is left to _number, which names a number out of range.
_CARD = r"([a-z-]+(?: \d+)?)"
_STONE = r"(\d+)"
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern, re.ASCII))
    for name, pattern in (
        ("strategist", rf"play strategist: ?{_CARD} from {_STONE} to (\d+|discard)"),
        ("banshee", rf"play banshee: ?{_CARD} at {_STONE}"),
        ("traitor", rf"play traitor: ?{_CARD} from {_STONE} to {_STONE}"),
        ("recruiter", r"play recruiter: ?draw ([a-z]+(?:, ?[a-z]+)*)"),
        ("play", rf"play {_CARD} at {_STONE}"),
        ("return", r"return (.+)"),
        ("pass", r"pass"),
        ("claim", r"claim (none|\d+(?: \d+)*)"),
        ("draw", r"draw ([a-z]+)"),
    )
)
_RUSE_WORDS = {"strategist": Tactic.STRATEGIST, "banshee": Tactic.BANSHEE}
_RUSE_WORDS |= {"traitor": Tactic.TRAITOR, "recruiter": Tactic.RECRUITER}


def _parse(text: str) -> Move:
    if not isinstance(text, str):
        raise InvalidNotationError(f"{text!r} is not a move: a move is written as text")
    line = " ".join(text.strip().lower().split())
    try:
        for name, pattern in _PATTERNS:
            match = pattern.fullmatch(line)
            if match is not None:
                return _build(name, match.groups())
    except InvalidNotationError as error:
        raise InvalidNotationError(f"{quoted(text)} is not a move: {error}") from None
    words = line.replace(":", " ").split()
    head = words[1] if len(words) > 1 and words[0] == "play" else ""
    if head in _RUSE_WORDS:
        ruse = _RUSE_WORDS[head]
        raise InvalidNotationError(
            f"{quoted(text)} is not a move: the {_name(ruse)} is written {_RUSE_SYNTAX[ruse]}"
        )
    first = words[0] if words else ""
    for cls in (Play, Pass, Claim, Draw, Return):
        if first == cls.kind:
            raise InvalidNotationError(f"{quoted(text)} is not a move: expected {cls.syntax}")
    raise InvalidNotationError(f"{quoted(text)} is not a move: expected {Move.syntax}")


def _build(name: str, groups: tuple[str, ...]) -> Move:
    match name:
        case "strategist":
            card, source, target = groups
            to = None if target == "discard" else _number(target)
            return Strategist(parse_card(card), _number(source), to)
        case "banshee":
            return Banshee(parse_card(groups[0]), _number(groups[1]))
        case "traitor":
            return Traitor(parse_card(groups[0]), _number(groups[1]), _number(groups[2]))
        case "recruiter":
            return Recruiter(tuple(_deck(word) for word in groups[0].replace(" ", "").split(",")))
        case "play":
            return Play(parse_card(groups[0]), _number(groups[1]))
        case "return":
            return Return(tuple(parse_card(word) for word in groups[0].split(",")))
        case "pass":
            return Pass()
        case "claim":
            words = groups[0].split()
            return Claim(() if words == ["none"] else tuple(_number(w) for w in words))
        case "draw":
            return Draw(_deck(groups[0]))
    raise AssertionError(name)  # pragma: no cover - every pattern has a case


def _deck(word: str) -> Deck:
    try:
        return Deck(word)
    except ValueError:
        raise InvalidNotationError(f"{word!r} is not a deck: expected 'clan' or 'tactic'") from None


def _number(digits: str) -> int:
    """A stone number as written: ``05`` and a number of a thousand digits are no stones."""
    if digits not in _STONE_WORDS:
        shown = digits if len(digits) <= 12 else f"{digits[:12]}... ({len(digits)} digits)"
        raise InvalidNotationError(f"there is no stone {shown}: stones are numbered 1 to 9")
    return _STONE_WORDS[digits]


_STONE_WORDS = {str(n): n for n in STONES}


def _check_stone(number: int) -> None:
    if number not in STONES:
        raise InvalidNotationError(f"there is no stone {number}: stones are numbered 1 to 9")


def _name(card: Tactic) -> str:
    return card.value.replace("-", " ").title()


_EVERY_CARD: tuple[Card, ...] = (*CLAN_CARDS, *Tactic)  # each card once (two Jokers, one member)
# Every play of a card at a stone, made once: legal move lists hand them out at every node of a
# search (by card, then stone; ruses are not played at a stone).
PLAYS: Mapping[Card, Mapping[int, Play]] = {
    card: {n: Play(card, n) for n in STONES}
    for card in _EVERY_CARD
    if not (isinstance(card, Tactic) and card.kind is TacticKind.RUSE)
}


class Action(NamedTuple):
    """One move of a game's history: who made it, the move, and the cards it drew (a draw, the
    Recruiter). A named tuple rather than a dataclass: search makes one at every node."""

    player: Player
    move: Move
    drawn: tuple[Card, ...] = ()

    def __str__(self) -> str:
        return str(self.move)
