"""Positions as JSON-safe data: a game written out and read back, every problem named.

>>> from schotten.game import Game
>>> from schotten.board import Variant
>>> data = game_to_data(Game(Variant.TACTICAL, seed=5))
>>> data["phase"], data["to_move"], len(data["decks"]["tactic"])
('play', 'first', 10)
>>> game_from_data({**data, "phase": "lunch"})
Traceback (most recent call last):
...
schotten.errors.InvalidPositionError: phase: expected one of play, return, claim, draw, not 'lunch'
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from schotten.board import Board, Player, Side, Stone, Variant
from schotten.cards import Card, parse_card
from schotten.errors import InvalidNotationError, InvalidPositionError
from schotten.game import Game, Phase
from schotten.moves import Deck
from schotten.outcome import Outcome, Termination

_E = TypeVar("_E", bound=enum.StrEnum)


def game_to_data(game: Game) -> dict[str, Any]:
    """The whole position: board, hands, decks (top first), whose turn and step, outcome."""
    return {
        "variant": str(game.variant),
        "to_move": str(game.to_move),
        "phase": str(game.phase),
        "step": game.step,
        "recruited": game.recruited,
        "stones": [_stone_dict(s) for s in game.board.stones],
        "discard": {str(p): _cards(game.board.discard[p]) for p in Player},
        "hands": {str(p): _cards(game.hand(p)) for p in Player},
        "decks": {str(d): _cards(game.deck(d)) for d in Deck},
        "outcome": None
        if game.outcome is None
        else {
            "winner": None if game.outcome.winner is None else str(game.outcome.winner),
            "termination": str(game.outcome.termination),
        },
    }


def game_from_data(data: Mapping[str, Any]) -> Game:
    """Read a position written by :func:`game_to_data`, checked as ``Game.from_position`` does."""
    reader = _Reader(data)
    variant = reader.enum("variant", Variant)
    stones = tuple(reader.stone(item, n) for n, item in enumerate(reader.list("stones"), 1))
    discard = reader.by_player("discard")
    board = Board(variant, stones, (discard[0], discard[1]))
    hands = reader.by_player("hands")
    decks_data = reader.mapping("decks")
    decks = {d: reader.cards(decks_data, str(d), "decks") for d in Deck}
    outcome_data = data.get("outcome")
    outcome = None
    if outcome_data is not None:
        if not isinstance(outcome_data, Mapping):
            raise InvalidPositionError("outcome: expected null or {winner, termination}")
        winner = outcome_data.get("winner")
        outcome = Outcome(
            None if winner is None else _Reader.player(winner, "outcome.winner"),
            _Reader(outcome_data).enum("termination", Termination),
        )
    if len(stones) != 9:
        raise InvalidPositionError(f"stones: expected the 9 stones, not {len(stones)}")
    step = data.get("step")
    recruited = data.get("recruited", False)
    if not isinstance(step, int) or isinstance(step, bool) or step < 0:
        raise InvalidPositionError(f"step: expected a whole number, not {step!r}")
    if not isinstance(recruited, bool):
        raise InvalidPositionError(f"recruited: expected true or false, not {recruited!r}")
    unknown = set(data) - _POSITION_KEYS
    if unknown:
        raise InvalidPositionError(f"unknown keys: {', '.join(sorted(unknown))}")
    return Game.from_position(
        board,
        hands,
        decks,
        to_move=_Reader.player(data.get("to_move"), "to_move"),
        phase=reader.enum("phase", Phase),
        step=step,
        recruited=recruited,
        outcome=outcome,
    )


def board_from_data(data: Mapping[str, Any]) -> Board:
    """The table part of a position (``variant``, ``stones``, ``discard``), checked as a table
    (:meth:`Board.check`): everything a claim proof reads. The other keys of a whole position may
    be present; they are not read. A stone with nothing on it may be left out of ``stones`` (the
    others keep their numbers, in order).

    >>> data = game_to_data(Game(Variant.BASE, seed=5))
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
    board.check()
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
        try:
            return kind(value)
        except ValueError:
            choices = ", ".join(str(k) for k in kind)
            raise InvalidPositionError(f"{key}: expected one of {choices}, not {value!r}") from None

    def list(self, key: str) -> list[Any]:
        value = self.get(key)
        if not isinstance(value, list):
            raise InvalidPositionError(f"{key}: expected a list")
        return value

    def mapping(self, key: str) -> Mapping[str, Any]:
        value = self.get(key)
        if not isinstance(value, Mapping):
            raise InvalidPositionError(f"{key}: expected a mapping")
        return value

    @staticmethod
    def cards(data: Mapping[str, Any], key: str, where: str) -> tuple[Card, ...]:
        value = data.get(key)
        if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
            raise InvalidPositionError(f"{where}.{key}: expected a list of cards")
        try:
            return tuple(parse_card(c) for c in value)
        except InvalidNotationError as error:
            raise InvalidPositionError(f"{where}.{key}: {error}") from None

    @staticmethod
    def player(value: Any, where: str) -> Player:
        names = {str(p): p for p in Player}
        if value not in names:
            raise InvalidPositionError(f"{where}: expected 'first' or 'second', not {value!r}")
        return names[value]

    def by_player(self, key: str) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        data = self.mapping(key)
        return self.cards(data, "first", key), self.cards(data, "second", key)

    def stone(self, item: Any, number: int) -> Stone:
        where = f"stones[{number - 1}]"
        if not isinstance(item, Mapping):
            raise InvalidPositionError(f"{where}: expected a mapping")
        unknown = set(item) - _STONE_KEYS
        if unknown:
            raise InvalidPositionError(f"{where}: unknown keys {', '.join(sorted(unknown))}")
        if item.get("number") != number:
            raise InvalidPositionError(f"{where}: expected number {number}")
        times = item.get("completed_at", {})
        if not isinstance(times, Mapping):
            raise InvalidPositionError(f"{where}.completed_at: expected a mapping")
        sides = []
        for player in Player:
            at = times.get(str(player))
            if at is not None and (not isinstance(at, int) or isinstance(at, bool)):
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
