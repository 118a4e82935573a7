"""The brute force the prover is checked against: every completion, every value of every wild card.

It shares nothing with :mod:`schotten.completion`, :mod:`schotten.formations` or
:mod:`schotten.claims` but the card definitions (:mod:`schotten.cards`). It reads RULES.md
directly: a side's strength is its formation (colour run, same value, colour, run, sum; then the
total), an elite troop tries every colour and value of its range, and the claim of a stone whose
opponent side is incomplete is proven only if no completion of that side from the unseen pool is
strictly stronger.

It is array code (NumPy, from the ``verify`` extra). A side is a row of card numbers read as one
index into a table that holds the rank of every ordered row (repetitions included, so that a
Joker may copy a card on the table, and in any order, so that no row is sorted): every value of
every wild card is one more row, and every completion of the opponent's side from the unseen pool
is a row of a block. The best completion is the maximum of a block. Positions that share a shape
(their sides' sizes and elite troops, the wild cards of the pool) are judged together, one block
for the lot.

>>> from schotten.cards import parse_cards
>>> position = Position("base", parse_cards(["red 1", "green 1", "blue 1"]),
...                     parse_cards(["red 3", "green 3"]))
>>> verdict = brute_judge(position)
>>> verdict.reason, verdict.mine, verdict.theirs
('opponent-can-beat', ('same-value', 3), ('same-value', 9))
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from schotten.cards import Card, ClanCard, Colour, Tactic

N_CARDS = 54
KIND_NAMES = ("total", "sum", "run", "colour", "same-value", "colour-run")  # weakest first
_KIND_STEP = 40  # a rank is kind * 40 + total: totals never reach 40, ranks fit in a byte
_NONE = 0  # below every rank (a total is 3 at least): "no completion"
_BLOCK = 1 << 20  # table reads per NumPy operation: large enough to pay, small in memory

# Each wild card stands for any card of its range (RULES.md, Formations).
WILD_RANGES: dict[Tactic, tuple[int, ...]] = {
    Tactic.JOKER: tuple(range(1, 10)),
    Tactic.SPY: (7,),
    Tactic.SHIELD_BEARER: (1, 2, 3),
}

Strength = tuple[str, int]  # (formation kind, total), as written in case files: ("run", 15)
Array = np.ndarray[Any, Any]


def card_index(card: ClanCard) -> int:
    """0 for red 1 ... 53 for purple 9."""
    return int(card.colour) * 9 + card.value - 1


def index_card(index: int) -> ClanCard:
    return ClanCard(Colour(index // 9), index % 9 + 1)


def wild_options(wild: Tactic) -> tuple[int, ...]:
    """Every card a wild card may stand for, as card indices."""
    return tuple(c * 9 + v - 1 for c in range(6) for v in WILD_RANGES[wild])


def rank(indices: Sequence[int], *, totals_only: bool = False) -> int:
    """The strength of a complete side of Clan cards (repetitions allowed), as one integer.

    >>> strength(rank([card_index(ClanCard.parse(t)) for t in ("red 8", "green 9", "blue 1")]))
    ('sum', 18)
    """
    values = sorted(i % 9 + 1 for i in indices)
    total = sum(values)
    if totals_only:
        return total
    one_colour = len({i // 9 for i in indices}) == 1
    run = all(values[k + 1] == values[k] + 1 for k in range(len(values) - 1))
    if run and one_colour:
        kind = 5
    elif values[0] == values[-1]:
        kind = 4
    elif one_colour:
        kind = 3
    elif run:
        kind = 2
    else:
        kind = 1
    return kind * _KIND_STEP + total


def strength(value: int) -> Strength:
    return KIND_NAMES[value // _KIND_STEP], value % _KIND_STEP


_STRENGTHS = tuple(strength(v) for v in range(len(KIND_NAMES) * _KIND_STEP))


@functools.cache  # one table per process and kind of side: built once, read millions of times
def rank_table(size: int, totals_only: bool) -> Array:
    """``table[a*54**(size-1) + ... + z]``: the rank of the side (a, ..., z), in any order.

    A rank depends only on the values of the cards and on whether they share one colour, so
    :func:`rank` is called once for each row of values (9**size of them) in one colour and in
    several, and the table is that small table read at every row of cards.
    """
    values = np.arange(N_CARDS, dtype=np.int16) % 9
    colours = np.arange(N_CARDS, dtype=np.int8) // 9
    small = np.zeros((9**size, 2), dtype=np.uint8)
    for row, picked in enumerate(itertools.product(range(9), repeat=size)):
        several = [picked[0], *(9 + v for v in picked[1:])]  # the first card red, the rest orange
        small[row, 0] = rank(several, totals_only=totals_only)
        small[row, 1] = rank(list(picked), totals_only=totals_only)  # every card red
    grid = np.ix_(*[np.arange(N_CARDS)] * size)
    row_of_values = sum(values[g] * 9 ** (size - 1 - k) for k, g in enumerate(grid))
    one_colour = functools.reduce(np.logical_and, (colours[g] == colours[grid[0]] for g in grid))
    return np.ascontiguousarray(small[row_of_values, one_colour.astype(np.intp)].ravel())


@functools.cache
def clan_blocks(n: int) -> tuple[Array, Array]:
    """Every set of ``n`` Clan cards: its index in the lowest ``n`` digits of a side, and the
    set as a bit mask (bit ``i`` for card ``i``), to tell the ones that touch a seen card."""
    combos = np.array(list(itertools.combinations(range(N_CARDS), n)), dtype=np.int64)
    combos = combos.reshape(-1, n)
    digits = N_CARDS ** np.arange(n - 1, -1, -1, dtype=np.int64)
    masks = np.bitwise_or.reduce(np.left_shift(np.uint64(1), combos.astype(np.uint64)), axis=1)
    return combos @ digits, masks.reshape(-1)


@dataclass(frozen=True)
class Position:
    """One stone at the claim step of ``mine``'s player, and what is face up elsewhere.

    ``elsewhere_mine`` / ``elsewhere_theirs``: cards each player put into play away from this
    stone (other stones, the discard pile); they are out of the pool, and a Joker among the
    opponent's bars the other Joker from it.
    """

    variant: str  # "base" or "tactical"
    mine: tuple[Card, ...]
    theirs: tuple[Card, ...]
    mud: bool = False
    blind: bool = False
    mine_first: bool | None = None  # both sides complete: did the claimer complete first?
    elsewhere_mine: tuple[Card, ...] = ()
    elsewhere_theirs: tuple[Card, ...] = ()

    @property
    def size(self) -> int:
        return 4 if self.mud else 3


@dataclass(frozen=True)
class BruteVerdict:
    reason: str
    mine: Strength | None = None
    theirs: Strength | None = None  # their formation, or their best over every completion
    completions: int = 0  # completions tried, wild values expanded


def wild_pool(position: Position) -> list[Tactic]:
    """The wild cards the opponent could still get: each one unseen, and a Joker only if two
    are not seen and the opponent never played one (RULES.md, site ruling claim-wild-pool)."""
    theirs = _split((*position.theirs, *position.elsewhere_theirs))[1]
    mine = _split((*position.mine, *position.elsewhere_mine))[1]
    return _wild_pool(position.variant, mine, theirs)


def _wild_pool(variant: str, mine: Sequence[Tactic], theirs: Sequence[Tactic]) -> list[Tactic]:
    """:func:`wild_pool` from the tactic cards each player put into play."""
    if variant != "tactical":
        return []
    seen = [*theirs, *mine]
    wilds = [w for w in (Tactic.SPY, Tactic.SHIELD_BEARER) if w not in seen]
    if seen.count(Tactic.JOKER) < 2 and Tactic.JOKER not in theirs:
        wilds.insert(0, Tactic.JOKER)
    return wilds


# Sides as the tables read them ---------------------------------------------------------------


def _split(cards: Iterable[Card]) -> tuple[tuple[int, ...], tuple[Tactic, ...]]:
    """The Clan cards (indices) and the tactic cards of a list of cards."""
    clan: list[int] = []
    tactics: list[Tactic] = []
    for card in cards:
        if isinstance(card, Tactic):
            tactics.append(card)
        else:
            clan.append(card.colour * 9 + card.value - 1)
    return tuple(clan), tuple(tactics)


def _bases(clan: Sequence[Sequence[int]] | Array, width: int, size: int) -> Array:
    """The index part of each row of Clan cards, in the top ``width`` digits of a side."""
    rows = _rows(clan, width)
    return rows @ (N_CARDS ** np.arange(size - 1, size - 1 - width, -1, dtype=np.int64))


def _rows(clan: Sequence[Sequence[int]] | Array, width: int) -> Array:
    """Rows of card numbers as an array of ``width`` columns (read from tuples in one pass)."""
    if isinstance(clan, np.ndarray):
        return clan.astype(np.int64, copy=False).reshape(len(clan), width)
    flat = np.frombuffer(bytes(itertools.chain.from_iterable(clan)), dtype=np.uint8)
    return flat.astype(np.int64).reshape(len(clan), width)


@functools.cache  # a few hundred kinds of side per space: each one's wild values made once
def _heads(wilds: tuple[Tactic, ...], first_digit: int, size: int) -> Array:
    """Every choice of values of ``wilds`` (digits ``first_digit`` on), as index parts."""
    heads = np.zeros(1, dtype=np.int64)
    for k, wild in enumerate(wilds):
        weight = N_CARDS ** (size - 1 - first_digit - k)
        options = np.array(wild_options(wild), dtype=np.int64) * weight
        heads = (heads[:, None] + options[None, :]).ravel()
    heads.flags.writeable = False
    return heads


def _side_ranks(table: Array, bases: Array, heads: Array) -> Array:
    """The best rank of each complete side (a base each) over every choice of its wild cards."""
    if len(heads) == 1:
        ranks: Array = table[bases + heads[0]]
        return ranks
    best = np.empty(len(bases), dtype=np.uint8)
    step = max(1, _BLOCK // len(heads))
    for s in range(0, len(bases), step):
        best[s : s + step] = table[bases[s : s + step, None] + heads[None, :]].max(axis=1)
    return best


@functools.cache
def _distinct_pairs() -> Array:
    """``[a * 54 + b]``: a and b two different cards (a card is never drawn twice)."""
    return ~np.eye(N_CARDS, dtype=bool).ravel()


def _completion_ranks(
    table: Array, bases: Array, heads: Array, n_clan: int, unseen: Array, allowed: Array
) -> Array:
    """The best rank of each side (a base each) completed by every choice of ``heads`` and
    every ``n_clan`` unseen Clan cards (``unseen``: a row of 54 booleans a side), 0 if none.
    ``allowed``: :func:`_allowed` of ``unseen`` and ``n_clan``.

    The Clan cards of a completion are the lowest digits of an index, so for one or two of them
    the ranks of every completion of one head are one contiguous row of the table (54 or 54 x 54
    ranks, every order): a row is read whole and the cards that are not in the pool are masked
    out. Three cards and more are read as sets (:func:`clan_blocks`), which is less work.
    """
    if n_clan == 0:
        return _side_ranks(table, bases, heads)
    if n_clan > 2:
        return _set_ranks(table, bases, heads, n_clan, unseen)
    width = N_CARDS**n_clan
    rows_of = table.reshape(-1, width)
    best = np.empty(len(bases), dtype=np.uint8)
    step = max(1, _BLOCK // (len(heads) * width))
    for s in range(0, len(bases), step):
        part = slice(s, s + step)
        rows = (bases[part, None] + heads[None, :]) // width
        # Masked by a product (a rank times 0 is _NONE): far faster than a reduction's where=.
        ranks = rows_of[rows]
        ranks *= allowed[part, None, :]
        best[part] = ranks.reshape(len(ranks), -1).max(axis=1)
    return best


def _allowed(unseen: Array, n_clan: int) -> Array:
    """For one or two Clan cards, the completions of a row of the table that the pool holds:
    the unseen cards, or the pairs of two different unseen cards (in both orders)."""
    if n_clan != 2:
        return unseen
    pairs = (unseen[:, :, None] & unseen[:, None, :]).reshape(len(unseen), -1)
    pairs &= _distinct_pairs()
    return pairs


def _set_ranks(table: Array, bases: Array, heads: Array, n_clan: int, unseen: Array) -> Array:
    """:func:`_completion_ranks` for three Clan cards or more: every set of them, those that
    touch a card out of the pool masked out."""
    offsets, masks = clan_blocks(n_clan)
    bits = np.left_shift(np.uint64(1), np.arange(N_CARDS, dtype=np.uint64))
    seen = np.bitwise_or.reduce(np.where(unseen, np.uint64(0), bits), axis=1)
    best = np.zeros(len(bases), dtype=np.uint8)
    if len(heads) * len(offsets) <= _BLOCK // 4:
        # A block of several positions: every set of n Clan cards, those touching a seen one
        # masked out.
        step = max(1, _BLOCK // (len(heads) * len(offsets)))
        for s in range(0, len(bases), step):
            part = slice(s, s + step)
            free = (masks[None, :] & seen[part, None]) == 0
            rows = bases[part, None, None] + heads[None, :, None] + offsets[None, None, :]
            ranks = table[rows].max(axis=1)
            best[part] = (ranks * free).max(axis=1)
        return best
    # One position at a time: its own unseen sets only, read in blocks of rows.
    for p in range(len(bases)):
        mine = offsets[(masks & seen[p]) == 0]
        if not len(mine):
            continue
        step = max(1, _BLOCK // len(mine))
        for h in range(0, len(heads), step):
            rows = bases[p] + heads[h : h + step, None] + mine[None, :]
            best[p] = max(best[p], table[rows].max())
    return best


# Judging positions -------------------------------------------------------------------------


@dataclass(frozen=True)
class Block:
    """Positions that differ only in the Clan cards on the stone, judged together.

    ``template`` is what they share: the elite troops on each side, the combat modes, the cards
    seen elsewhere, the completion order; it has no Clan card on the stone. Position ``k`` is the
    template with the Clan cards ``mine[k]`` added to the claimer's side and ``theirs[k]`` to the
    opponent's, as card numbers (0 for red 1 ... 53 for purple 9), all of one count each.
    """

    template: Position
    mine: Sequence[tuple[int, ...]]
    theirs: Sequence[tuple[int, ...]]


def blocks(positions: Sequence[Position]) -> list[tuple[Block, list[int]]]:
    """The positions as blocks, each with the indices of its positions in ``positions``."""
    found: dict[tuple[Any, ...], tuple[Position, list[tuple[int, ...]], list[tuple[int, ...]]]]
    found = {}
    members: dict[tuple[Any, ...], list[int]] = {}
    for k, position in enumerate(positions):
        mine_clan, mine_tactics = _split(position.mine)
        theirs_clan, theirs_tactics = _split(position.theirs)
        template = replace(position, mine=mine_tactics, theirs=theirs_tactics)
        key = (template, len(mine_clan), len(theirs_clan))
        entry = found.setdefault(key, (template, [], []))
        entry[1].append(mine_clan)
        entry[2].append(theirs_clan)
        members.setdefault(key, []).append(k)
    return [(Block(t, m, th), members[key]) for key, (t, m, th) in found.items()]


def brute_judge(position: Position) -> BruteVerdict:
    """The verdict on the claim of the stone by ``mine``'s player, by exhaustive search."""
    return brute_judge_many([position])[0]


def brute_judge_many(positions: Sequence[Position]) -> list[BruteVerdict]:
    """:func:`brute_judge` of each position, every position judged in one pass."""
    verdicts: list[BruteVerdict] = [BruteVerdict("side-incomplete")] * len(positions)
    found = blocks(positions)
    judged = judge_blocks([block for block, _ in found])
    for (_, members), block_verdicts in zip(found, judged, strict=True):
        for k, verdict in zip(members, block_verdicts, strict=True):
            verdicts[k] = verdict
    return verdicts


@dataclass(frozen=True)
class _Kind:
    """What the positions of a block share, as the tables read it (made once per template)."""

    size: int
    blind: bool
    mine_wilds: tuple[Tactic, ...]
    theirs_wilds: tuple[Tactic, ...]
    pool_wilds: tuple[Tactic, ...]
    elsewhere: tuple[int, ...]  # Clan cards seen away from the stone
    tie: str  # the reason of equal complete sides


def _kind(template: Position) -> _Kind:
    # Read in one pass over each list: a template of a sampled game holds a whole board.
    mine_clan, mine_tactics = _split(template.elsewhere_mine)
    theirs_clan, theirs_tactics = _split(template.elsewhere_theirs)
    mine_wilds, theirs_wilds = _split(template.mine)[1], _split(template.theirs)[1]
    pool = _wild_pool(
        template.variant, (*mine_wilds, *mine_tactics), (*theirs_wilds, *theirs_tactics)
    )
    return _Kind(
        template.size,
        template.blind,
        mine_wilds,
        theirs_wilds,
        tuple(pool),
        (*mine_clan, *theirs_clan),
        "tie-completed-first" if template.mine_first else "tie-completed-later",
    )


@dataclass(frozen=True)
class _Sides:
    """A block as the tables read it."""

    kind: _Kind
    n_mine: int  # Clan cards on each side, in the top digits of its rows
    n_theirs: int
    mine: Array  # the claimer's Clan cards, a row each
    theirs: Array

    @property
    def size(self) -> int:
        return self.kind.size

    @property
    def table(self) -> Array:
        return rank_table(self.kind.size, self.kind.blind)

    @property
    def need(self) -> int:
        """The cards the opponent's side lacks."""
        return self.kind.size - self.n_theirs - len(self.kind.theirs_wilds)

    @functools.cached_property  # complete sides never read it: made only when asked for
    def unseen(self) -> Array:
        """Each position's Clan cards in the pool, a row of 54 booleans each."""
        unseen = np.ones((len(self.mine), N_CARDS), dtype=bool)
        if self.kind.elsewhere:
            unseen[:, self.kind.elsewhere] = False
        rows = np.arange(len(self.mine))[:, None]
        unseen[rows, self.mine] = False
        unseen[rows, self.theirs] = False
        return unseen


def _sides(block: Block) -> _Sides:
    count = len(block.mine)
    n_mine = len(block.mine[0]) if count else 0
    n_theirs = len(block.theirs[0]) if count else 0
    mine, theirs = _rows(block.mine, n_mine), _rows(block.theirs, n_theirs)
    return _Sides(_kind(block.template), n_mine, n_theirs, mine, theirs)


def judge_block(block: Block) -> list[BruteVerdict]:
    """:func:`brute_judge` of each position of the block."""
    return judge_blocks([block])[0]


def judge_blocks(some: Sequence[Block]) -> list[list[BruteVerdict]]:
    """:func:`judge_block` of each block, the blocks whose sides the tables read alike judged
    together: the same sizes of side, wild cards on each side and wild cards in the pool, what
    ever else their templates hold (the cards seen elsewhere only change the pool's rows)."""
    sides = [_sides(block) for block in some]
    judged = [s for s in sides if len(s.mine) and s.n_mine + len(s.kind.mine_wilds) >= s.size]
    mine = _grouped(
        judged,
        lambda s: (s.size, s.kind.blind, s.n_mine, s.kind.mine_wilds),
        lambda s: (_bases(s.mine, s.n_mine, s.size),),
        lambda key, bases: (
            _side_ranks(rank_table(key[0], key[1]), bases, _heads(key[3], key[2], key[0])),
        ),
    )
    theirs = _grouped(
        judged,
        lambda s: (s.size, s.kind.blind, s.n_theirs, s.kind.theirs_wilds, s.kind.pool_wilds),
        # A complete side needs no pool (the key tells: every side of a group is alike).
        lambda s: (_bases(s.theirs, s.n_theirs, s.size), *((s.unseen,) if s.need else ())),
        _best_completions,
    )
    if not judged:
        return [[BruteVerdict("side-incomplete")] * len(s.mine) for s in sides]
    # Every verdict at once: a reason of 7 (for complete sides: stronger, weaker, a tie, the
    # other tie; else can beat, unbeatable, unbeatable with no completion at all).
    sizes = [len(s.mine) for s in judged]
    complete = np.repeat([s.need == 0 for s in judged], sizes)
    first = np.repeat([s.kind.tie == _TIES[0] for s in judged], sizes)
    m = np.concatenate([ranks for (ranks,) in mine]).astype(np.int64)
    t = np.concatenate([ranks for ranks, _ in theirs]).astype(np.int64)
    c = np.concatenate([count for _, count in theirs])
    reason = np.where(
        complete,
        np.where(m > t, 0, np.where(m < t, 1, np.where(first, 2, 3))),
        np.where(t > m, 4, np.where(t == _NONE, 6, 5)),
    )
    keys = ((c * 256 + m) * 256 + t) * 8 + reason
    distinct, where = np.unique(keys, return_inverse=True)
    made = [_verdict(key) for key in distinct.tolist()]
    found = [made[k] for k in where.tolist()]
    verdicts = {}
    start = 0
    for s, size in zip(judged, sizes, strict=True):
        verdicts[id(s)] = found[start : start + size]
        start += size
    return [verdicts.get(id(s)) or [BruteVerdict("side-incomplete")] * len(s.mine) for s in sides]


@functools.cache
def _pool_heads(
    theirs_wilds: tuple[Tactic, ...],
    pool_wilds: tuple[Tactic, ...],
    n_wild: int,
    n_theirs: int,
    size: int,
) -> Array:
    """The wild values of the opponent's side with every choice of ``n_wild`` wild cards of the
    pool (each once, at every value), as index parts: the completions that take that many wild
    cards all leave the same Clan digits to fill, so they are read as one block."""
    heads = np.concatenate(
        [
            _heads((*theirs_wilds, *chosen), n_theirs, size)
            for chosen in itertools.combinations(pool_wilds, n_wild)
        ]
    )
    heads.flags.writeable = False
    return heads


_TIES = ("tie-completed-first", "tie-completed-later")
_REASONS = ("stronger", "weaker", *_TIES, "opponent-can-beat", "unbeatable", "unbeatable")


@functools.lru_cache(maxsize=1 << 16)  # the same verdicts come back chunk after chunk
def _verdict(key: int) -> BruteVerdict:
    """A verdict from its key: ((completions * 256 + mine) * 256 + theirs) * 8 + reason."""
    reason, theirs, mine, count = key % 8, key // 8 % 256, key // 2048 % 256, key // 524288
    return BruteVerdict(
        _REASONS[reason], _STRENGTHS[mine], None if reason == 6 else _STRENGTHS[theirs], count
    )


def _grouped(sides: Sequence[_Sides], key: Any, arrays: Any, judge: Any) -> list[Any]:
    """``judge(key, *arrays)`` of every group of sides with one ``key``, the arrays of a group
    joined; its results (a tuple of arrays) split back into one tuple per side, in order."""
    groups: dict[Any, list[int]] = {}
    for k, s in enumerate(sides):
        groups.setdefault(key(s), []).append(k)
    found: list[Any] = [None] * len(sides)
    for group_key, members in groups.items():
        parts = [arrays(sides[k]) for k in members]
        if len(parts) == 1:
            joined = parts[0]
        else:
            joined = tuple(np.concatenate(column) for column in zip(*parts, strict=True))
        results = judge(group_key, *joined)
        start = 0
        for k, part in zip(members, parts, strict=True):
            end = start + len(part[0])
            found[k] = tuple(r[start:end] for r in results)
            start = end
    return found


_CHOOSE = np.array(
    [[math.comb(u, n) for u in range(N_CARDS + 1)] for n in range(5)], dtype=np.int64
)


def _best_completions(
    key: tuple[int, bool, int, tuple[Tactic, ...], tuple[Tactic, ...]],
    bases: Array,
    unseen: Array | None = None,
) -> tuple[Array, Array]:
    """The opponent's best rank (0: no completion) and the completions tried, for each side:
    theirs as it is if complete, else over every completion from the pool, which is some wild
    cards of the pool (each once, at every value) and Clan cards (``unseen``: the pool's Clan
    cards of each side, a row of 54 booleans; ``None`` for complete sides)."""
    size, blind, n_theirs, theirs_wilds, pool_wilds = key
    table = rank_table(size, blind)
    need = size - n_theirs - len(theirs_wilds)
    if need == 0:
        ranks = _side_ranks(table, bases, _heads(theirs_wilds, n_theirs, size))
        return ranks, np.ones(len(bases), dtype=np.int64)
    assert unseen is not None
    best = np.zeros(len(bases), dtype=np.uint8)
    count = np.zeros(len(bases), dtype=np.int64)
    pool_clan = unseen.sum(axis=1)
    allowed = {n: _allowed(unseen, n) for n in range(max(0, need - len(pool_wilds)), need + 1)}
    for n_wild in range(min(need, len(pool_wilds)) + 1):
        n_clan = need - n_wild
        heads = _pool_heads(theirs_wilds, pool_wilds, n_wild, n_theirs, size)
        ranks = _completion_ranks(table, bases, heads, n_clan, unseen, allowed[n_clan])
        np.maximum(best, ranks, out=best)
        count += len(heads) * _CHOOSE[n_clan][pool_clan]
    return best, count


def completion_strength(position: Position, added: Sequence[Card]) -> Strength | None:
    """The strength the opponent's side would have with ``added``, or ``None`` if ``added`` is
    not a completion from the pool (a card seen, a wild card not in the pool, a wrong count)."""
    ((block, _),) = blocks([position])
    return block_strengths(block, [added])[0]


def block_strengths(block: Block, added: Sequence[Sequence[Card] | None]) -> list[Strength | None]:
    """:func:`completion_strength` of each position of the block with its ``added`` cards
    (``None``: nothing to measure), computed together."""
    found: list[Strength | None] = [None] * len(added)
    if not block.mine:
        return found
    s = _sides(block)
    need = s.need
    unseen = s.unseen
    groups: dict[tuple[Tactic, ...], list[tuple[int, tuple[int, ...]]]] = {}
    for k, cards in enumerate(added):
        if cards is None:
            continue
        added_clan, added_wilds = _split(cards)
        if (
            len(cards) != need
            or len(set(cards)) != len(cards)
            or not all(unseen[k, i] for i in added_clan)
            or not set(added_wilds) <= set(s.kind.pool_wilds)
        ):
            continue
        key = (*s.kind.theirs_wilds, *added_wilds)
        groups.setdefault(key, []).append((k, (*block.theirs[k], *added_clan)))
    for wilds, members in groups.items():
        n_clan = s.size - len(wilds)
        bases = _bases([clan for _, clan in members], n_clan, s.size)
        ranks = _side_ranks(s.table, bases, _heads(tuple(wilds), n_clan, s.size))
        for (k, _), value in zip(members, ranks.tolist(), strict=True):
            found[k] = _STRENGTHS[value]
    return found
