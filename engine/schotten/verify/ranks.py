"""Sides of Clan cards as numbers, ranked by reading tables: the array half of the brute force.

A card is a number (0 for red 1 ... 53 for purple 9), a side of ``size`` cards is a row of card
numbers read as one index in base 54 into a table that holds the rank of every ordered row
(repetitions included, so that a Joker may copy a card on the table, and in any order, so that
no row is sorted): every value of every wild card is one more row, and every completion of a
side from the unseen pool is a row of a block, whose maximum is the best completion. A rank is
one byte: the formation (colour run, same value, colour, run, sum; then the total, RULES.md), the
stronger the higher.

It shares nothing with :mod:`schotten.completion`, :mod:`schotten.formations` or
:mod:`schotten.claims` but the card definitions (:mod:`schotten.cards`), and knows nothing of
positions or verdicts (:mod:`schotten.verify.brute`). It is array code (NumPy, from the
``verify`` extra).

>>> side = [card_index(ClanCard.parse(text)) for text in ("red 7", "red 9", "red 8")]
>>> strength(int(rank_table(3, False)[side_bases([side], 3, 3)[0]]))
('colour-run', 24)
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from schotten.cards import Card, ClanCard, Colour, Tactic

N_CARDS = 54
KIND_NAMES = ("total", "sum", "run", "colour", "same-value", "colour-run")  # weakest first
_KIND_STEP = 40  # a rank is kind * 40 + total: totals never reach 40, ranks fit in a byte
NO_RANK = 0  # below every rank (a total is 3 at least): "no completion"
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


STRENGTHS = tuple(strength(v) for v in range(len(KIND_NAMES) * _KIND_STEP))


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


# Sides as the tables read them ---------------------------------------------------------------


def split_cards(cards: Iterable[Card]) -> tuple[tuple[int, ...], tuple[Tactic, ...]]:
    """The Clan cards (indices) and the tactic cards of a list of cards."""
    clan: list[int] = []
    tactics: list[Tactic] = []
    for card in cards:
        if isinstance(card, Tactic):
            tactics.append(card)
        else:
            clan.append(card.colour * 9 + card.value - 1)
    return tuple(clan), tuple(tactics)


def side_bases(clan: Sequence[Sequence[int]] | Array, width: int, size: int) -> Array:
    """The index part of each row of Clan cards, in the top ``width`` digits of a side."""
    rows = card_rows(clan, width)
    return rows @ (N_CARDS ** np.arange(size - 1, size - 1 - width, -1, dtype=np.int64))


def card_rows(clan: Sequence[Sequence[int]] | Array, width: int) -> Array:
    """Rows of card numbers as an array of ``width`` columns (read from tuples in one pass)."""
    if isinstance(clan, np.ndarray):
        return clan.astype(np.int64, copy=False).reshape(len(clan), width)
    flat = np.frombuffer(bytes(itertools.chain.from_iterable(clan)), dtype=np.uint8)
    return flat.astype(np.int64).reshape(len(clan), width)


@functools.cache  # a few hundred kinds of side per space: each one's wild values made once
def wild_heads(wilds: tuple[Tactic, ...], first_digit: int, size: int) -> Array:
    """Every choice of values of ``wilds`` (digits ``first_digit`` on), as index parts."""
    heads = np.zeros(1, dtype=np.int64)
    for k, wild in enumerate(wilds):
        weight = N_CARDS ** (size - 1 - first_digit - k)
        options = np.array(wild_options(wild), dtype=np.int64) * weight
        heads = (heads[:, None] + options[None, :]).ravel()
    heads.flags.writeable = False
    return heads


def side_ranks(table: Array, bases: Array, heads: Array) -> Array:
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
        return side_ranks(table, bases, heads)
    if n_clan > 2:
        return _set_ranks(table, bases, heads, n_clan, unseen)
    width = N_CARDS**n_clan
    rows_of = table.reshape(-1, width)
    best = np.empty(len(bases), dtype=np.uint8)
    step = max(1, _BLOCK // (len(heads) * width))
    for s in range(0, len(bases), step):
        part = slice(s, s + step)
        rows = (bases[part, None] + heads[None, :]) // width
        # Masked by a product (a rank times 0 is NO_RANK): far faster than a reduction's where=.
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


# Completions from the pool ------------------------------------------------------------------


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
            wild_heads((*theirs_wilds, *chosen), n_theirs, size)
            for chosen in itertools.combinations(pool_wilds, n_wild)
        ]
    )
    heads.flags.writeable = False
    return heads


_CHOOSE = np.array(
    [[math.comb(u, n) for u in range(N_CARDS + 1)] for n in range(5)], dtype=np.int64
)


def best_completions(
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
        ranks = side_ranks(table, bases, wild_heads(theirs_wilds, n_theirs, size))
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
