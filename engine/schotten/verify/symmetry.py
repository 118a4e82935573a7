"""The six colours play the same part in every rule, so the 720 colour permutations map a claim
position to positions with the same verdict. A space is checked one position per class.

The representative of a class is its **smallest image**: Clan cards are numbered 0 (red 1) to 53
(purple 9), colour first; a set of cards is its sorted tuple of numbers; a position ``(A, B)``
(the claimer's Clan cards, then the opponent's) is compared as ``A`` first, then ``B``. Its
smallest image over the 720 permutations is the representative.

``A`` alone is at its smallest image when its colour groups (the values it holds in each
colour) come in the order of :func:`_group_key`, on colours 0, 1, 2...: the cards of colour
``c`` are all numbered below those of colour ``c + 1``, so the first group decides first, and a
group that holds one more value is smaller (its next card is below any card of the next colour).
Given that smallest ``A``, the permutations that keep ``A`` (its stabiliser) are the only ones
left to choose from, so ``B`` is at its smallest among their images.

>>> [len(canonical_sets(n)) for n in range(4)]  # two cards: 36 of one colour, 45 of two
[1, 9, 81, 573]
>>> stabiliser_size((0, 1, 2))  # red 1, 2, 3: any permutation of the five other colours
120
"""

from __future__ import annotations

import functools
import itertools
import math
from typing import Any

import numpy as np

N_COLOURS = 6
Perm = tuple[int, ...]  # the image of each card number 0..53


@functools.cache  # computed once per process, used by every chunk
def colour_perms() -> tuple[Perm, ...]:
    """The 720 permutations of the colours, as maps of card numbers (identity first)."""
    return tuple(
        tuple(perm[i // 9] * 9 + i % 9 for i in range(54))
        for perm in itertools.permutations(range(N_COLOURS))
    )


def image(perm: Perm, cards: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(perm[i] for i in cards))


def _group_key(values: tuple[int, ...]) -> tuple[int, ...]:
    # 99: a group that stops is larger than one that goes on (see the module's docstring).
    return (*values, 99)


def smallest(cards: tuple[int, ...]) -> tuple[int, ...]:
    """The smallest image of a set of cards under the colour permutations.

    >>> smallest((45, 46, 9))  # purple 1, purple 2, orange 1 -> red 1, red 2, orange 1
    (0, 1, 9)
    """
    groups: dict[int, list[int]] = {}
    for i in sorted(cards):
        groups.setdefault(i // 9, []).append(i % 9)
    ordered = sorted((tuple(vs) for vs in groups.values()), key=_group_key)
    return tuple(c * 9 + v for c, values in enumerate(ordered) for v in values)


@functools.cache
def canonical_sets(size: int) -> tuple[tuple[int, ...], ...]:
    """Every set of ``size`` Clan cards that is its own smallest image, sorted."""
    colours_needed = min(size, N_COLOURS)
    found = [
        combo
        for combo in itertools.combinations(range(9 * colours_needed), size)
        if smallest(combo) == combo
    ]
    return tuple(sorted(found))


def _signature(cards: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The values each colour holds in this set (an empty tuple for an unused colour)."""
    groups: list[list[int]] = [[] for _ in range(N_COLOURS)]
    for i in cards:
        groups[i // 9].append(i % 9)
    return [tuple(sorted(g)) for g in groups]


@functools.cache
def swappable(cards: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The classes of colours that hold the same values in this set (two colours or more each).

    The stabiliser of the set is every permutation within these classes.
    """
    by_values: dict[tuple[int, ...], list[int]] = {}
    for colour, values in enumerate(_signature(cards)):
        by_values.setdefault(values, []).append(colour)
    return tuple(tuple(cs) for cs in by_values.values() if len(cs) > 1)


def stabiliser_size(cards: tuple[int, ...]) -> int:
    return math.prod(math.factorial(len(cs)) for cs in swappable(cards))


def orbit_size(cards: tuple[int, ...]) -> int:
    return len(colour_perms()) // stabiliser_size(cards)


def second_fixed(first: tuple[int, ...], second: tuple[int, ...]) -> int:
    """0 unless ``second`` is at its smallest image under the stabiliser of ``first`` (which
    must be its own smallest image); then the number of permutations that keep both.

    Within each class of :func:`swappable` colours, ``second``'s colour groups must come in the
    order of :func:`_group_key`; equal groups may be swapped.

    Red 1, 2, 3 against orange 1 and yellow 1: orange and yellow may be swapped, and green, blue
    and purple put in any order, so 2 x 6 permutations keep both.

    >>> second_fixed((0, 1, 2), (9, 18))
    12
    >>> second_fixed((0, 1, 2), (9, 27))   # ... vs orange 1, green 1: green before yellow
    0
    """
    classes = swappable(first)
    if not classes:
        return 1
    groups: dict[int, list[int]] = {}
    for i in sorted(second):
        groups.setdefault(i // 9, []).append(i % 9)
    fixed = 1
    for colours in classes:
        previous: tuple[int, ...] | None = None
        run = 1
        for colour in colours:
            key = _group_key(tuple(groups.get(colour, ())))
            if previous is not None:
                if key < previous:
                    return 0
                run = run + 1 if key == previous else 1
                fixed *= run
            previous = key
    return fixed


@functools.cache
def class_count(first: int, second: int) -> int:
    """The number of classes of pairs (A, B) of disjoint sets of ``first`` and ``second`` Clan
    cards, by Burnside's lemma: the average over the 720 permutations of the pairs each keeps.

    A permutation keeps a pair when A and B are unions of its cycles on the cards; a colour
    cycle of length L makes 9 card cycles of length L, each in A, in B, or in neither.

    >>> class_count(3, 0), class_count(1, 1)  # one card each: 72 of one colour, 81 of two
    (573, 153)
    """
    types: dict[tuple[int, ...], int] = {}
    for perm in itertools.permutations(range(N_COLOURS)):
        lengths = tuple(sorted(_cycle_lengths(perm)))
        types[lengths] = types.get(lengths, 0) + 1
    kept = 0
    for lengths, perms in types.items():  # permutations of one cycle type keep as many pairs
        # poly[(i, j)]: the ways to pick A of i cards and B of j cards from the cycles so far.
        poly: dict[tuple[int, int], int] = {(0, 0): 1}
        for length in lengths:
            for _ in range(9):
                grown: dict[tuple[int, int], int] = {}
                for (i, j), ways in poly.items():
                    for di, dj in ((0, 0), (length, 0), (0, length)):
                        key = (i + di, j + dj)
                        if key[0] <= first and key[1] <= second:
                            grown[key] = grown.get(key, 0) + ways
                poly = grown
        kept += perms * poly.get((first, second), 0)
    return kept // len(colour_perms())


def _cycle_lengths(perm: tuple[int, ...]) -> list[int]:
    lengths: list[int] = []
    seen: set[int] = set()
    for start in range(len(perm)):
        length = 0
        at = start
        while at not in seen:
            seen.add(at)
            at = perm[at]
            length += 1
        if length:
            lengths.append(length)
    return lengths


# Under Blind-Man's Bluff only totals count: colours play no part at all, not even by being
# alike, so a position's class is the values each side holds (a multiset each).


@functools.cache
def value_sets(size: int) -> tuple[tuple[int, ...], ...]:
    """Every multiset of ``size`` values (0 for a 1 ... 8 for a 9), as sorted tuples.

    >>> len(value_sets(3)), value_sets(2)[:3]
    (165, ((0, 0), (0, 1), (0, 2)))
    """
    return tuple(
        vs
        for vs in itertools.combinations_with_replacement(range(9), size)
        if all(vs.count(v) <= N_COLOURS for v in vs)
    )


def value_cards(values: tuple[int, ...], taken: tuple[int, ...] = ()) -> tuple[int, ...]:
    """The representative cards of a multiset of values: each value's copies in the first
    colours after the copies of that value in ``taken`` (the claimer's values), sorted.

    >>> value_cards((0, 0, 8)), value_cards((0,), taken=(0, 0))
    ((0, 8, 9), (18,))
    """
    cards: list[int] = []
    for v in sorted(set(values)):
        first = taken.count(v)
        cards += ((first + k) * 9 + v for k in range(values.count(v)))
    return tuple(sorted(cards))


def value_class_size(first: tuple[int, ...], second: tuple[int, ...]) -> int:
    """The positions (A, B) of disjoint card sets whose values are ``first`` and ``second``:
    for each value, the colours of A's copies, then of B's among the colours left."""
    size = 1
    for v in set(first) | set(second):
        a, b = first.count(v), second.count(v)
        size *= math.comb(N_COLOURS, a) * math.comb(N_COLOURS - a, b)
    return size


@functools.cache
def value_class_count(first: int, second: int) -> int:
    """The number of pairs of value multisets of ``first`` and ``second`` values that some
    position has (no value more than six times in all), counted by a generating function: each
    of the 9 values is in A ``i`` times and in B ``j`` times, ``i + j <= 6``.

    >>> value_class_count(1, 0), value_class_count(1, 1)
    (9, 81)
    """
    poly: dict[tuple[int, int], int] = {(0, 0): 1}
    for _ in range(9):
        grown: dict[tuple[int, int], int] = {}
        for (i, j), ways in poly.items():
            for di in range(N_COLOURS + 1):
                for dj in range(N_COLOURS + 1 - di):
                    key = (i + di, j + dj)
                    if key[0] <= first and key[1] <= second:
                        grown[key] = grown.get(key, 0) + ways
        poly = grown
    return poly.get((first, second), 0)


# The same test for every opponent set of a unit at once (the enumeration of a space makes
# millions of them): a colour group's key as one number, so keys compare as integers.

_STOP = 99  # as in _group_key: a group that stops is larger than one that goes on
_DIGITS = 4  # up to 3 values of one colour (a side holds 3 Clan cards at most), then the stop


def seconds_fixed(first: tuple[int, ...], seconds: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """:func:`second_fixed` of ``first`` with each row of ``seconds`` (sorted card numbers, at
    most 3 a row), computed together.

    >>> seconds_fixed((0, 1, 2), np.array([[9, 18], [9, 27]])).tolist()
    [12, 0]
    """
    rows = len(seconds)
    fixed = np.ones(rows, dtype=np.int64)
    classes = swappable(first)
    if not classes or not rows:
        return fixed
    if seconds.shape[1] >= _DIGITS:
        raise ValueError("seconds_fixed reads at most 3 cards a row")
    # keys[r, c]: the group key of colour c in row r, (v1, v2, ..., 99, 99...) in base 100.
    weights = 100 ** np.arange(_DIGITS - 1, -1, -1, dtype=np.int64)
    keys = np.full((rows, N_COLOURS), _STOP * int(weights.sum()), dtype=np.int64)
    colours, values = seconds // 9, seconds % 9
    place = np.zeros(rows, dtype=np.int64)
    for k in range(seconds.shape[1]):
        # The cards are sorted, so a colour's values come in order: the k-th card is the
        # colour's next value after those of the cards before it of the same colour.
        place = (colours[:, :k] == colours[:, k : k + 1]).sum(axis=1)
        keys[np.arange(rows), colours[:, k]] += (values[:, k] - _STOP) * weights[place]
    for group in classes:
        run = np.ones(rows, dtype=np.int64)
        for previous, colour in itertools.pairwise(group):
            before, key = keys[:, previous], keys[:, colour]
            fixed[key < before] = 0
            run = np.where(key == before, run + 1, 1)
            fixed *= run
    return fixed
