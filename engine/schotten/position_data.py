"""Positions as JSON-safe data: a position written out and read back, every problem named.

This module reads and writes the data only; :meth:`schotten.game.Game.from_dict` then checks the
position against the rules (``Game.from_position``).

>>> from schotten.game import Game
>>> data = Game(Variant.TACTICAL, seed=5).to_dict()
>>> data["phase"], data["to_move"], len(data["decks"]["tactic"])
('play', 'first', 10)
>>> position_from_data({**data, "phase": "lunch"})
Traceback (most recent call last):
...
schotten.errors.InvalidPositionError: phase: expected one of play, return, claim, draw, not 'lunch'
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from schotten import json_input, tactics
from schotten.board import Board, Player, Side, Stone, Variant
from schotten.cards import Card, format_cards
from schotten.errors import InvalidNotationError, InvalidPositionError
from schotten.moves import Deck
from schotten.outcome import Outcome, Termination
from schotten.position import check_table
from schotten.turn import Phase

_E = TypeVar("_E", bound=enum.StrEnum)


@dataclass(frozen=True)
class GamePosition:
    """A whole position as read from data, before the rules check it: the table, both hands
    (first player's first), the decks (top first), whose turn and step, and the outcome."""

    board: Board
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    decks: Mapping[Deck, tuple[Card, ...]]
    to_move: Player
    phase: Phase
    step: int
    recruited: bool
    outcome: Outcome | None

    def __str__(self) -> str:
        """The position in a few lines, for a terminal: each stone, then each hand."""
        variant, step = self.board.variant, self.step
        lines = [f"{variant}, step {step}: {self.to_move} at the {self.phase} step"]
        if self.outcome is not None:
            lines[0] = f"{variant}, step {step}: {self.outcome}"
        for stone in self.board.stones:
            modes = [str(t) for t, p in tactics.modes(stone) if p is not None]
            held = f" claimed by {stone.claimed_by}" if stone.claimed_by is not None else ""
            mine, theirs = (format_cards(s.cards) for s in stone.sides)
            extra = f" [{', '.join(modes)}]" if modes else ""
            lines.append(f"  {stone.number}: {mine or '-'} | {theirs or '-'}{extra}{held}")
        for player in Player:
            lines.append(f"  {player} hand: {format_cards(self.hands[player]) or '-'}")
        return "\n".join(lines)


def position_to_data(position: GamePosition) -> dict[str, Any]:
    """The whole position as JSON-safe data, cards in notation."""
    outcome = position.outcome
    return {
        "variant": str(position.board.variant),
        "to_move": str(position.to_move),
        "phase": str(position.phase),
        "step": position.step,
        "recruited": position.recruited,
        "stones": [_stone_dict(s) for s in position.board.stones],
        "discard": {str(p): _cards(position.board.discard[p]) for p in Player},
        "hands": {str(p): _cards(position.hands[p]) for p in Player},
        "decks": {str(d): _cards(position.decks.get(d, ())) for d in Deck},
        "outcome": None
        if outcome is None
        else {
            "winner": None if outcome.winner is None else str(outcome.winner),
            "termination": str(outcome.termination),
        },
    }


def position_from_data(data: Any) -> GamePosition:
    """Read a position written by :func:`position_to_data`; malformed data raises
    :class:`InvalidPositionError` naming the key at fault (the rules are checked later)."""
    reader = _Reader(data)
    _no_unknown_keys(reader.data, _POSITION_KEYS, "")
    variant = reader.enum("variant", Variant)
    stones = tuple(reader.stone(item, n) for n, item in enumerate(reader.list("stones"), 1))
    if len(stones) != 9:
        raise InvalidPositionError(f"stones: expected the 9 stones, not {len(stones)}")
    discard = reader.by_player("discard")
    board = Board(variant, stones, (discard[0], discard[1]))
    hands = reader.by_player("hands")
    decks_data = reader.mapping("decks", {str(d) for d in Deck})
    decks = {d: reader.cards(decks_data, str(d), "decks") for d in Deck}
    outcome_data = reader.data.get("outcome")
    outcome = None
    if outcome_data is not None:
        if not isinstance(outcome_data, Mapping) or set(outcome_data) - _OUTCOME_KEYS:
            raise InvalidPositionError("outcome: expected null or {winner, termination}")
        winner = outcome_data.get("winner")
        outcome = Outcome(
            None if winner is None else _Reader.player(winner, "outcome.winner"),
            _Reader(outcome_data).enum("termination", Termination),
        )
    step = reader.data.get("step")
    recruited = reader.data.get("recruited", False)
    if not isinstance(step, int) or isinstance(step, bool) or step < 0:
        raise InvalidPositionError(f"step: expected a whole number, not {_short(step)}")
    if not isinstance(recruited, bool):
        raise InvalidPositionError(f"recruited: expected true or false, not {_short(recruited)}")
    return GamePosition(
        board,
        hands,
        decks,
        _Reader.player(reader.data.get("to_move"), "to_move"),
        reader.enum("phase", Phase),
        step,
        recruited,
        outcome,
    )


def board_from_data(data: Mapping[str, Any]) -> Board:
    """The table part of a position (``variant``, ``stones``, ``discard``), checked as a table
    (:func:`schotten.position.check_table`): everything a claim proof reads. The other keys of a
    whole position may be present; they are not read. A stone with nothing on it may be left out
    of ``stones`` (the others keep their numbers, in order).

    >>> from schotten.game import Game
    >>> data = Game(Variant.BASE, seed=5).to_dict()
    >>> board_from_data({"variant": "base", "stones": [], "discard": data["discard"]}).variant
    <Variant.BASE: 'base'>
    >>> board_from_data({"variant": "base", "stones": [{"number": 3}], "discard": {}})
    Traceback (most recent call last):
    ...
    schotten.errors.InvalidPositionError: stones[2].first: expected a list of cards
    """
    reader = _Reader(data)
    unknown = set(data) - _POSITION_KEYS
    if unknown:
        raise InvalidPositionError(f"unknown keys: {', '.join(sorted(unknown))}")
    variant = reader.enum("variant", Variant)
    stones = [Stone(n) for n in range(1, 10)]
    last = 0
    for item in reader.list("stones"):
        number = item.get("number") if isinstance(item, Mapping) else None
        if not isinstance(number, int) or isinstance(number, bool) or not last < number <= 9:
            raise InvalidPositionError(
                f"stones: expected stones numbered 1 to 9 in order, each once, not {number!r}"
            )
        stones[number - 1] = reader.stone(item, number)
        last = number
    discard = reader.by_player("discard")
    board = Board(variant, tuple(stones), discard)
    check_table(board)
    return board


def _cards(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def _stone_dict(stone: Stone) -> dict[str, Any]:
    def who(player: Player | None) -> str | None:
        return None if player is None else str(player)

    return {
        "number": stone.number,
        **{str(p): _cards(stone.sides[p].cards) for p in Player},
        "completed_at": {str(p): stone.sides[p].completed_at for p in Player},
        "claimed_by": who(stone.claimed_by),
        "mud_fight": who(stone.mud_fight),
        "blind_mans_bluff": who(stone.blind_mans_bluff),
    }


_POSITION_KEYS = frozenset(
    {"variant", "to_move", "phase", "step", "recruited", "stones", "discard", "hands", "decks"}
    | {"outcome"}
)
_OUTCOME_KEYS = frozenset({"winner", "termination"})
_PLAYER_KEYS = frozenset(str(p) for p in Player)


def _no_unknown_keys(data: Mapping[Any, Any], keys: Iterable[str], where: str) -> None:
    unknown = sorted(_key_name(k) for k in set(data) - set(keys))
    if unknown:
        prefix = f"{where}: " if where else ""
        names = ", ".join(unknown)
        names = names if len(names) <= 80 else f"{names[:80]}..."
        raise InvalidPositionError(f"{prefix}unknown keys: {names}")


def _key_name(key: Any) -> str:
    """A key as a message shows it: plain when it is a plain word, else quoted."""
    plain = isinstance(key, str) and key.isprintable() and key and key.split() == [key]
    return key if plain else repr(key)


def _short(value: Any) -> str:
    """A value of the data in a message, cut short (a list may hold anything)."""
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:60]}..."


_STONE_KEYS = frozenset(
    {"number", "first", "second", "completed_at", "claimed_by", "mud_fight", "blind_mans_bluff"}
)


class _Reader:
    """Reads the parts of a position dict, raising InvalidPositionError with the key's path."""

    def __init__(self, data: Any) -> None:
        if not isinstance(data, Mapping):
            raise InvalidPositionError(f"a position is a mapping, not {type(data).__name__}")
        self.data = data

    def get(self, key: str) -> Any:
        if key not in self.data:
            raise InvalidPositionError(f"{key}: missing")
        return self.data[key]

    def enum(self, key: str, kind: type[_E]) -> _E:
        value = self.get(key)
        names = {str(k): k for k in kind}
        if not isinstance(value, str) or value not in names:
            choices = ", ".join(names)
            raise InvalidPositionError(f"{key}: expected one of {choices}, not {_short(value)}")
        return names[value]

    def list(self, key: str) -> list[Any]:
        value = self.get(key)
        if not isinstance(value, list):
            raise InvalidPositionError(f"{key}: expected a list")
        return value

    def mapping(self, key: str, keys: Iterable[str]) -> Mapping[str, Any]:
        """The mapping at ``key``, whose keys must be among ``keys`` (none dropped silently)."""
        value = self.get(key)
        if not isinstance(value, Mapping):
            raise InvalidPositionError(f"{key}: expected a mapping")
        _no_unknown_keys(value, keys, key)
        return value

    @staticmethod
    def cards(data: Mapping[str, Any], key: str, where: str) -> tuple[Card, ...]:
        value = data.get(key)
        if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
            raise InvalidPositionError(f"{where}.{key}: expected a list of cards")
        try:
            return tuple(json_input.card_from_text(c) for c in value)
        except InvalidNotationError as error:
            raise InvalidPositionError(f"{where}.{key}: {error}") from None

    @staticmethod
    def player(value: Any, where: str) -> Player:
        names = {str(p): p for p in Player}
        if not isinstance(value, str) or value not in names:
            raise InvalidPositionError(
                f"{where}: expected 'first' or 'second', not {_short(value)}"
            )
        return names[value]

    def by_player(self, key: str) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        data = self.mapping(key, _PLAYER_KEYS)
        return self.cards(data, "first", key), self.cards(data, "second", key)

    def stone(self, item: Any, number: int) -> Stone:
        where = f"stones[{number - 1}]"
        if not isinstance(item, Mapping):
            raise InvalidPositionError(f"{where}: expected a mapping")
        _no_unknown_keys(item, _STONE_KEYS, where)
        if item.get("number") != number:
            raise InvalidPositionError(f"{where}: expected number {number}")
        times = item.get("completed_at", {})
        if not isinstance(times, Mapping):
            raise InvalidPositionError(f"{where}.completed_at: expected a mapping")
        _no_unknown_keys(times, _PLAYER_KEYS, f"{where}.completed_at")
        sides = []
        for player in Player:
            at = times.get(str(player))
            if at is not None and (not isinstance(at, int) or isinstance(at, bool) or at < 0):
                raise InvalidPositionError(f"{where}.completed_at.{player}: expected a step")
            sides.append(Side(self.cards(item, str(player), where), at))

        def who(key: str) -> Player | None:
            value = item.get(key)
            return None if value is None else self.player(value, f"{where}.{key}")

        return Stone(
            number,
            (sides[0], sides[1]),
            claimed_by=who("claimed_by"),
            mud_fight=who("mud_fight"),
            blind_mans_bluff=who("blind_mans_bluff"),
        )
