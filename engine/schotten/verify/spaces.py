"""The position spaces: every claim position of one stone of a kind, enumerated in chunks.

A space is a list of *shapes* (how many Clan cards each side holds, which elite troops lie where,
the completion orders), and each shape is every choice of those Clan cards, one per class of
colour permutations (:mod:`schotten.verify.symmetry`). The claimer is ``you`` (``Player.FIRST``),
at their claim step, claiming stone 1; nothing else is on the table unless the shape says so.

The enumeration is split into *units* (a shape, the claimer's Clan cards, the opponent's lowest
card) listed in a fixed order; chunk ``i`` of ``n`` is every ``n``-th unit from the ``i``-th. So
any chunk can be computed alone, anywhere, and always holds the same positions.

>>> space = SPACES["base-one-stone"]
>>> space.raw_size()
32914908
>>> items = list(space.chunk(0, 500))
>>> sum(1 for _ in items) > 0
True
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from schotten.board import STONES, Board, Player, Side, Stone, Variant
from schotten.cards import Card, Tactic
from schotten.verify.brute import Block, BrutePosition, blocks
from schotten.verify.ranks import N_CARDS, Array, index_card
from schotten.verify.symmetry import (
    canonical_sets,
    class_count,
    seconds_fixed,
    value_cards,
    value_class_count,
    value_class_size,
    value_sets,
)

STONE = 1  # the stone claimed in every one-stone space
RUSES = (Tactic.RECRUITER, Tactic.STRATEGIST, Tactic.BANSHEE, Tactic.TRAITOR)
_CLAN = tuple(index_card(i) for i in range(N_CARDS))  # made once: positions are made by millions
_EMPTY_STONES = tuple(Stone(n) for n in STONES)
_CLAIMER = Player.FIRST


@dataclass(frozen=True)
class Item:
    """One position to check: its description for the brute force, its board for the engine,
    and how many positions of the raw space it stands for (its class size)."""

    position: BrutePosition
    board: Board
    stone: int
    weight: int
    claimer: Player = Player.FIRST


@dataclass(frozen=True)
class Shape:
    mine_clan: int
    theirs_clan: int
    mine_elites: tuple[Tactic, ...] = ()
    theirs_elites: tuple[Tactic, ...] = ()
    discard_mine: tuple[Tactic, ...] = ()
    discard_theirs: tuple[Tactic, ...] = ()
    orders: tuple[bool | None, ...] = (None,)  # both sides complete: (True, False)

    def raw_size(self) -> int:
        return math.comb(54, self.mine_clan) * math.comb(54 - self.mine_clan, self.theirs_clan)


# The engine's modules whose code decides what a space's check compares, so that its report
# stays a proof about the engine exactly while they are unchanged (a test runs a chunk of each
# space and fails if code of any other module of the engine runs). A claim on one stone is
# decided by the board's modules; the positions met in games also depend on how a game is played.
BOARD_RULE_MODULES = (
    "cards.py",
    "board.py",
    "formations.py",
    "completion.py",
    "claims.py",
    "rules.py",
)
GAME_RULE_MODULES = (
    *BOARD_RULE_MODULES,
    "game.py",
    "state.py",
    "moves.py",
    "tactics.py",
    "outcome.py",
    "turn.py",
    "refusals.py",
)


@dataclass(frozen=True)
class Space:
    """A space of one-stone claim positions (see verification/README.md for each definition)."""

    rule_modules: ClassVar[tuple[str, ...]] = BOARD_RULE_MODULES
    name: str
    variant: Variant
    shapes: tuple[Shape, ...]
    chunks: int  # the default number of chunks
    mud: bool = False
    blind: bool = False
    # Classes are the values of each side (Blind-Man's Bluff only: colours play no part),
    # not the orbits of the colour permutations.
    by_values: bool = False

    def raw_size(self) -> int:
        """Positions in the space before the colour symmetry is used."""
        return sum(s.raw_size() * len(s.orders) for s in self.shapes)

    def class_count(self) -> int:
        """Positions checked: one per class (per completion order), by Burnside's lemma (or by
        counting value multisets)."""
        count = value_class_count if self.by_values else class_count
        return sum(count(s.mine_clan, s.theirs_clan) * len(s.orders) for s in self.shapes)

    def units(self) -> tuple[tuple[int, int, int], ...]:
        return _units(self)

    def chunk(self, index: int, count: int) -> Iterator[Item]:
        """The class representatives of chunk ``index`` of ``count``, in a fixed order."""
        for _, items in self.blocks(index, count):
            yield from items

    def chunk_counts(self, index: int, count: int) -> tuple[int, int]:
        """The positions chunk ``index`` of ``count`` checks (one per class and completion order)
        and the positions they stand for: what its items count, without making them."""
        checked = represented = 0
        for shape, _, _, weight in self.classes(index, count):
            checked += len(shape.orders)
            represented += weight * len(shape.orders)
        return checked, represented

    def blocks(self, index: int, count: int) -> list[tuple[Block, list[Item]]]:
        """The items of chunk ``index`` of ``count`` in blocks for the brute force: one block
        per shape and completion order."""
        found: dict[tuple[int, bool | None], tuple[_Maker, list[Any], list[Any], list[Item]]]
        found = {}
        for shape, mine, theirs, weight in self.classes(index, count):
            for order in shape.orders:
                key = (id(shape), order)
                block = found.get(key)
                if block is None:
                    block = found[key] = (_Maker(self, shape, order), [], [], [])
                block[1].append(mine)
                block[2].append(theirs)
                block[3].append(block[0].item(mine, theirs, weight))
        return [
            (Block(m.template, mine, theirs), items) for m, mine, theirs, items in found.values()
        ]

    def classes(
        self, index: int, count: int
    ) -> Iterator[tuple[Shape, tuple[int, ...], tuple[int, ...], int]]:
        """The classes of chunk ``index`` of ``count``: shape, the claimer's and the opponent's
        Clan cards (smallest image) and the class size (positions per completion order)."""
        if not 0 <= index < count:
            raise ValueError(f"chunk {index} of {count} does not exist")
        for shape_no, a_no, low in self.units()[index::count]:
            shape = self.shapes[shape_no]
            if self.by_values:
                mine_values = value_sets(shape.mine_clan)[a_no]
                mine = value_cards(mine_values)
                for theirs_values in value_sets(shape.theirs_clan):
                    weight = value_class_size(mine_values, theirs_values)
                    if weight:
                        yield shape, mine, value_cards(theirs_values, mine_values), weight
                continue
            mine = canonical_sets(shape.mine_clan)[a_no]
            seconds = _seconds(mine, shape.theirs_clan, low)
            fixed = seconds_fixed(mine, seconds)
            kept = np.flatnonzero(fixed)
            weights = (720 // fixed[kept]).tolist()  # 720 permutations, ``fixed`` keep each
            for theirs, weight in zip(map(tuple, seconds[kept].tolist()), weights, strict=True):
                yield shape, mine, theirs, weight


class _Maker:
    """The items of one shape and completion order (made by millions: the parts they share are
    made once)."""

    def __init__(self, space: Space, shape: Shape, order: bool | None) -> None:
        self.template = BrutePosition(
            variant=str(space.variant),
            mine=shape.mine_elites,
            theirs=shape.theirs_elites,
            mud=space.mud,
            blind=space.blind,
            mine_first=order,
            elsewhere_mine=shape.discard_mine,
            elsewhere_theirs=shape.discard_theirs,
        )
        size = self.template.size
        self.variant = space.variant
        self.complete = (
            shape.mine_clan + len(shape.mine_elites) >= size,
            shape.theirs_clan + len(shape.theirs_elites) >= size,
        )
        self._last: tuple[tuple[int, ...], tuple[Card, ...]] = ((-1,), ())

    def item(self, mine: tuple[int, ...], theirs: tuple[int, ...], weight: int) -> Item:
        t = self.template
        if mine != self._last[0]:  # the classes of one claimer set come one after another
            self._last = (mine, (*map(_CLAN.__getitem__, mine), *t.mine))
        position = BrutePosition(
            t.variant,
            self._last[1],
            (*map(_CLAN.__getitem__, theirs), *t.theirs),
            t.mud,
            t.blind,
            t.mine_first,
            t.elsewhere_mine,
            t.elsewhere_theirs,
        )
        board = _board(self.variant, position, *self.complete)
        return Item(position, board, STONE, weight)


def _seconds(mine: tuple[int, ...], size: int, low: int) -> Array:
    """The opponent's Clan cards of one unit, a sorted row each: ``size`` cards not in
    ``mine``, the lowest ``low``."""
    if size == 0:
        return np.zeros((1, 0), dtype=np.int64)
    rest = np.array([i for i in range(low + 1, 54) if i not in mine], dtype=np.int64)
    tails = rest[_combinations(len(rest), size - 1)]
    return np.concatenate([np.full((len(tails), 1), low, dtype=np.int64), tails], axis=1)


@functools.lru_cache(maxsize=256)
def _combinations(n: int, k: int) -> Array:
    """Every set of ``k`` of ``n`` places, a sorted row each, in lexicographic order."""
    if k == 0:
        return np.zeros((1, 0), dtype=np.intp)
    return np.array(list(itertools.combinations(range(n), k)), dtype=np.intp).reshape(-1, k)


@functools.cache  # the unit list of a space never changes; every chunk reads it
def _units(space: Space) -> tuple[tuple[int, int, int], ...]:
    units: list[tuple[int, int, int]] = []
    for shape_no, shape in enumerate(space.shapes):
        if space.by_values:  # one unit for each claimer's multiset of values
            units += ((shape_no, a_no, -1) for a_no in range(len(value_sets(shape.mine_clan))))
            continue
        for a_no, mine in enumerate(canonical_sets(shape.mine_clan)):
            if shape.theirs_clan == 0:
                units.append((shape_no, a_no, -1))
                continue
            free = [i for i in range(54) if i not in mine]
            for k, low in enumerate(free):
                if len(free) - k >= shape.theirs_clan:
                    units.append((shape_no, a_no, low))
    return tuple(units)


def one_stone_board(position: BrutePosition) -> Board:
    """The engine's board for a one-stone position: stone 1 holds both sides, the cards played
    elsewhere lie in the discard pile of the player who played them. The claimer played the
    combat mode on the stone; with both, the opponent played Blind-Man's Bluff (one tactic card
    each, as the tactic count allows)."""
    size = position.size
    complete = (len(position.mine) >= size, len(position.theirs) >= size)
    return _board(Variant(position.variant), position, *complete)


def _board(
    variant: Variant, position: BrutePosition, mine_complete: bool, theirs_complete: bool
) -> Board:
    mine_at = (1 if position.mine_first in (None, True) else 2) if mine_complete else None
    theirs_at = (2 if position.mine_first else 1) if theirs_complete else None
    stone = Stone(
        STONE,
        (Side(position.mine, mine_at), Side(position.theirs, theirs_at)),
        None,
        _CLAIMER if position.mud else None,
        (_CLAIMER.other if position.mud else _CLAIMER) if position.blind else None,
    )
    return Board(
        variant,
        (*_EMPTY_STONES[: STONE - 1], stone, *_EMPTY_STONES[STONE:]),
        (position.elsewhere_mine, position.elsewhere_theirs),
    )


# The spaces --------------------------------------------------------------------------------


def _base_shapes() -> tuple[Shape, ...]:
    return tuple(Shape(3, b) for b in range(3))


def _complete_shapes() -> tuple[Shape, ...]:
    return (Shape(3, 3, orders=(True, False)),)


def _mud_shapes() -> tuple[Shape, ...]:
    return tuple(Shape(4, b) for b in range(4))


# Where each elite troop may be: unseen, on a side of the stone, or seen elsewhere (discarded).
# The Joker is two copies and each player plays one at most, so its states are pairs.
_JOKER_STATES: tuple[tuple[str, ...], ...] = (
    (),
    ("mine",),
    ("theirs",),
    ("discard-mine",),
    ("discard-theirs",),
    ("mine", "theirs"),
    ("mine", "discard-theirs"),
    ("discard-mine", "theirs"),
    ("discard-mine", "discard-theirs"),
)
_SINGLE_STATES = ((), ("mine",), ("theirs",), ("discard-mine",))


def _elite_shapes() -> tuple[Shape, ...]:
    shapes: list[Shape] = []
    for jokers, spy, shield in itertools.product(_JOKER_STATES, _SINGLE_STATES, _SINGLE_STATES):
        where: dict[str, list[Tactic]] = {
            "mine": [],
            "theirs": [],
            "discard-mine": [],
            "discard-theirs": [],
        }
        for place in jokers:
            where[place].append(Tactic.JOKER)
        for place in spy:
            where[place].append(Tactic.SPY)
        for place in shield:
            where[place].append(Tactic.SHIELD_BEARER)
        if len(where["mine"]) > 3:
            continue
        # The tactic count: the player behind has played ruses, discarded (no part in a proof).
        lead = len(where["mine"]) + len(where["discard-mine"])
        lead -= len(where["theirs"]) + len(where["discard-theirs"])
        if lead > 1:
            where["discard-theirs"] += RUSES[: lead - 1]
        elif lead < -1:
            where["discard-mine"] += RUSES[: -lead - 1]
        for theirs_total in range(len(where["theirs"]), 3):
            shapes.append(
                Shape(
                    3 - len(where["mine"]),
                    theirs_total - len(where["theirs"]),
                    tuple(where["mine"]),
                    tuple(where["theirs"]),
                    tuple(where["discard-mine"]),
                    tuple(where["discard-theirs"]),
                )
            )
    return tuple(shapes)


@dataclass(frozen=True)
class SampledSpace:
    """Positions met in seeded random games (both variants): every stone a player could claim
    at a claim step, on the whole board (other stones, discard pile, claimed stones)."""

    rule_modules: ClassVar[tuple[str, ...]] = GAME_RULE_MODULES
    name: str
    chunks: int  # one game per chunk

    def raw_size(self) -> int | None:
        return None

    def class_count(self) -> int | None:
        return None

    def blocks(self, index: int, count: int) -> list[tuple[Block, list[Item]]]:
        """The items of chunk ``index`` of ``count`` in blocks for the brute force."""
        items = list(self.chunk(index, count))
        found = blocks([item.position for item in items])
        return [(block, [items[k] for k in members]) for block, members in found]

    def chunk_counts(self, index: int, count: int) -> tuple[int, int]:
        items = list(self.chunk(index, count))
        return len(items), sum(item.weight for item in items)

    def chunk(self, index: int, count: int) -> Iterator[Item]:
        from schotten.game import Game, Phase
        from schotten.moves import Claim

        for seed in range(index, self.chunks, count):
            variant = Variant.TACTICAL if seed % 2 else Variant.BASE
            game = Game(variant, seed=seed)
            rng = random.Random(f"{seed} verify")
            while game.outcome is None:
                if game.phase is Phase.CLAIM:
                    claimer = game.to_move
                    for stone in game.board.stones:
                        if stone.claimed_by is None and stone.is_complete(claimer):
                            yield board_item(game.board, claimer, stone.number)
                    game.apply(Claim(game.provable_stones()))
                else:
                    game.apply(rng.choice(game.legal_moves()))


def board_item(board: Board, claimer: Player, number: int) -> Item:
    """A position of a whole board, described for the brute force by reading the table."""
    opponent = claimer.other
    stone = board.stones[number - 1]
    elsewhere: dict[Player, list[Card]] = {claimer: [], opponent: []}
    for other in board.stones:
        if other.number != number:
            for player in (claimer, opponent):
                elsewhere[player] += other.sides[player].cards
    for player in (claimer, opponent):
        elsewhere[player] += board.discard[player]
    mine_at = stone.sides[claimer].completed_at
    theirs_at = stone.sides[opponent].completed_at
    position = BrutePosition(
        variant=str(board.variant),
        mine=stone.sides[claimer].cards,
        theirs=stone.sides[opponent].cards,
        mud=stone.mud_fight is not None,
        blind=stone.blind_mans_bluff is not None,
        mine_first=None if mine_at is None or theirs_at is None else mine_at < theirs_at,
        elsewhere_mine=tuple(elsewhere[claimer]),
        elsewhere_theirs=tuple(elsewhere[opponent]),
    )
    return Item(position, board, number, 1, claimer)


AnySpace = Space | SampledSpace

SPACES: dict[str, AnySpace] = {
    s.name: s
    for s in (
        Space("base-one-stone", Variant.BASE, _base_shapes(), chunks=200),
        Space("base-one-stone-complete", Variant.BASE, _complete_shapes(), chunks=2000),
        Space("mud-one-stone", Variant.TACTICAL, _mud_shapes(), chunks=20000, mud=True),
        Space("blind-one-stone", Variant.TACTICAL, _base_shapes(), chunks=200, blind=True),
        Space(
            "mud-blind-one-stone",
            Variant.TACTICAL,
            _mud_shapes(),
            chunks=200,
            mud=True,
            blind=True,
            by_values=True,
        ),
        Space("elite-one-stone", Variant.TACTICAL, _elite_shapes(), chunks=5000),
        SampledSpace("sampled", chunks=400),
    )
}
