"""Game records: a deal (seed, variant, first player) or a starting position, and the moves.

A record is JSON. Replaying it checks every move again, so a record that breaks a rule fails
with the number of the move and the rule:

>>> record = Record(Variant.BASE, seed=1, moves=("play red 3 at 5", "claim none", "draw clan"))
>>> Record.loads(record.dumps()) == record
True
>>> record.replay().to_move
<Player.SECOND: 1>
>>> Record(Variant.BASE, seed=1, moves=("play red 3 at 5", "claim 5")).replay()
Traceback (most recent call last):
...
schotten.errors.IllegalActionError: [claim-complete-side] move 2 ('claim 5'): stone 5: refused \
(side-incomplete)

Random self-play writes such records: :func:`random_game` plays a uniformly random legal move at
every step, except that it claims every provable stone at once (:func:`play_random` gives the
finished game itself).

>>> record = random_game(3, Variant.TACTICAL)
>>> record.seed, record.moves[:3]
(3, ('play red 4 at 7', 'claim none', 'draw clan'))
>>> record.replay().outcome == play_random(3, Variant.TACTICAL).outcome
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from schotten import json_input
from schotten.board import Player, Variant
from schotten.errors import IllegalActionError, InvalidNotationError, InvalidPositionError
from schotten.game import Game, Phase
from schotten.moves import Claim, Move

FORMAT = "schotten-record/1"


@dataclass(frozen=True)
class Record:
    """A game as data: how it started and its moves, in the move notation.

    ``start`` is a position (:meth:`Game.to_dict`) for a game that did not start from a deal;
    then ``seed`` is ``None``.
    """

    variant: Variant
    moves: tuple[str, ...] = ()
    seed: int | None = 0
    first: Player = Player.FIRST
    start: Mapping[str, Any] | None = field(default=None, hash=False)

    @classmethod
    def from_game(cls, game: Game) -> Record:
        moves = tuple(str(action.move) for action in game.history)
        if game.seed is not None:
            return cls(game.variant, moves, game.seed, game.first)
        # A position says who is to move: ``first`` (of a deal) means nothing here.
        return cls(game.variant, moves, None, Player.FIRST, game.start)

    def new_game(self) -> Game:
        """The game before the first move; a start position must be of the record's variant."""
        if self.start is not None:
            game = Game.from_dict(self.start)
            if game.variant is not self.variant:
                raise InvalidNotationError(
                    f'the record says "variant": "{self.variant}" but its start position '
                    f"is of the {game.variant} game"
                )
            return game
        if self.seed is None:
            raise InvalidNotationError("a record needs a seed or a start position")
        return Game(self.variant, seed=self.seed, first=self.first)

    def replay(self, source: str = "") -> Game:
        """Play every move again, checking each; a bad move fails naming its number.

        ``source`` (a file name) starts the messages.
        """
        game = self.new_game()
        where = f"{source}: " if source else ""
        for number, text in enumerate(self.moves, 1):
            try:
                game.apply(text)
            except IllegalActionError as error:
                raise IllegalActionError(
                    error.rule, f"{where}move {number} ({text!r}): {error.detail}"
                ) from None
            except InvalidNotationError as error:
                raise InvalidNotationError(f"{where}move {number}: {error}") from None
        return game

    def dumps(self) -> str:
        """The record as JSON, one move per line."""
        head: dict[str, Any] = {"format": FORMAT, "variant": str(self.variant)}
        if self.start is not None:
            head["start"] = self.start
        else:
            head["seed"] = self.seed
            head["first"] = str(self.first)
        lines = [json.dumps(head)[:-1] + ', "moves": [']
        lines += [f"  {json.dumps(m)}," for m in self.moves]
        if self.moves:
            lines[-1] = lines[-1][:-1]
        lines.append("]}")
        return "\n".join(lines) + "\n"

    @classmethod
    def loads(cls, text: str | bytes, source: str = "<record>") -> Record:
        """Read a record; a malformed one raises :class:`InvalidNotationError` naming ``source``
        (and the line and column, for bad JSON). Every key must mean something: a record has a
        ``seed`` (and ``first``) or a ``start`` position of its ``variant``, never both."""
        try:
            data = json_input.loads(text)
        except json_input.JsonInputError as error:
            if error.line:
                raise InvalidNotationError(
                    f"{source}, line {error.line}: {error.message} (column {error.column})"
                ) from None
            raise InvalidNotationError(f"{source}: {error}") from None
        if not isinstance(data, dict):
            raise InvalidNotationError(f"{source}: a record is a JSON object")
        if data.get("format") != FORMAT:
            raise InvalidNotationError(f'{source}: expected "format": "{FORMAT}"')
        unknown = sorted(set(data) - {"format", "variant", "seed", "first", "start", "moves"})
        if unknown:
            names = ", ".join(
                k if k.isprintable() and k.split() == [k] else repr(k) for k in unknown
            )
            names = names if len(names) <= 80 else f"{names[:80]}..."
            raise InvalidNotationError(f"{source}: unknown keys {names}")
        variant = _VARIANTS.get(_text(data.get("variant")))
        if variant is None:
            raise InvalidNotationError(f"{source}: \"variant\" is 'base' or 'tactical'")
        moves = data.get("moves")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise InvalidNotationError(f'{source}: "moves" is a list of moves in notation')
        for number, text_move in enumerate(moves, 1):
            problem = json_input.not_ascii(text_move)
            if problem is not None:
                raise InvalidNotationError(f"{source}: move {number}: {problem}")
            try:
                Move.parse(text_move)
            except InvalidNotationError as error:
                raise InvalidNotationError(f"{source}: move {number}: {error}") from None
        if "start" in data:
            both = sorted({"seed", "first"} & set(data))
            if both:
                raise InvalidNotationError(
                    f'{source}: a record starts from a position ("start") or from a deal '
                    f'("seed", "first"), not both: remove {" and ".join(map(repr, both))}'
                )
            record = cls(variant, tuple(moves), None, Player.FIRST, data["start"])
            try:
                record.new_game()
            except InvalidPositionError as error:
                raise InvalidNotationError(f"{source}: start position: {error}") from None
            except InvalidNotationError as error:
                raise InvalidNotationError(f"{source}: {error}") from None
            return record
        seed = data.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
            raise InvalidNotationError(f'{source}: "seed" is a whole number from 0 to 2**64 - 1')
        first = _PLAYERS.get(_text(data.get("first", "first")))
        if first is None:
            raise InvalidNotationError(f"{source}: \"first\" is 'first' or 'second'")
        return cls(variant, tuple(moves), seed, first)


def _text(value: object) -> str:
    """A JSON value looked up by name: anything but a string matches no name."""
    return value if isinstance(value, str) else ""


_VARIANTS = {str(v): v for v in Variant}
_PLAYERS = {str(p): p for p in Player}
# A record of the longest possible game is a few hundred kilobytes.
MAX_BYTES = 4 * 1024 * 1024


def random_game(seed: int, variant: Variant = Variant.TACTICAL) -> Record:
    """The record of a whole game of random self-play (see :func:`play_random`)."""
    return Record.from_game(play_random(seed, variant))


def play_random(
    seed: int,
    variant: Variant = Variant.TACTICAL,
    *,
    max_moves: int = 10_000,
    watch: Callable[[Game], None] | None = None,
) -> Game:
    """A whole game of random self-play, dealt and played from ``seed``: the finished game.

    Every move is a uniformly random legal move, except the claim step, which claims every
    provable stone. Every move is checked as it is applied; ``watch`` (if given) sees the game
    after each one.
    """
    game = Game(variant, seed=seed)
    rng = random.Random(f"{seed} moves")
    while game.outcome is None:
        if len(game.history) >= max_moves:
            raise RuntimeError(f"random game {seed} ({variant}) did not end in {max_moves} moves")
        if game.phase is Phase.CLAIM:
            game.apply(Claim(game.provable_stones()))
        else:
            game.apply(rng.choice(game.legal_moves()))
        if watch is not None:
            watch(game)
    return game
