"""The brute force the prover is checked against: every completion, every value of every wild card.

It shares nothing with :mod:`schotten.completion`, :mod:`schotten.formations` or
:mod:`schotten.claims` but the card definitions (:mod:`schotten.cards`). It reads RULES.md
directly: a side's strength is its formation (colour run, same value, colour, run, sum; then the
total), an elite troop tries every colour and value of its range, and the claim of a stone whose
opponent side is incomplete is proven only if no completion of that side from the unseen pool is
strictly stronger.

It owns the positions, their pool and their verdicts; the ranks of sides are read from the
tables of :mod:`schotten.verify.ranks` (array code, NumPy, from the ``verify`` extra). The best
completion is the maximum of a block of rows. Positions that share a shape (their sides' sizes
and elite troops, the wild cards of the pool) are judged together, one block for the lot.

>>> from schotten.cards import parse_cards
>>> position = BrutePosition("base", parse_cards(["red 1", "green 1", "blue 1"]),
...                     parse_cards(["red 3", "green 3"]))
>>> verdict = brute_judge(position)
>>> verdict.reason, verdict.mine, verdict.theirs
('opponent-can-beat', ('same-value', 3), ('same-value', 9))
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from schotten.cards import Card, Tactic
from schotten.verify.ranks import (
    N_CARDS,
    NO_RANK,
    STRENGTHS,
    Array,
    Strength,
    best_completions,
    card_rows,
    rank_table,
    side_bases,
    side_ranks,
    split_cards,
    wild_heads,
)


@dataclass(frozen=True)
class BrutePosition:
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


def wild_pool(position: BrutePosition) -> list[Tactic]:
    """The wild cards the opponent could still get: each one unseen, and a Joker only if two
    are not seen and the opponent never played one (RULES.md, site ruling claim-wild-pool)."""
    theirs = split_cards((*position.theirs, *position.elsewhere_theirs))[1]
    mine = split_cards((*position.mine, *position.elsewhere_mine))[1]
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


# Judging positions -------------------------------------------------------------------------


@dataclass(frozen=True)
class Block:
    """Positions that differ only in the Clan cards on the stone, judged together.

    ``template`` is what they share: the elite troops on each side, the combat modes, the cards
    seen elsewhere, the completion order; it has no Clan card on the stone. Position ``k`` is the
    template with the Clan cards ``mine[k]`` added to the claimer's side and ``theirs[k]`` to the
    opponent's, as card numbers (0 for red 1 ... 53 for purple 9), all of one count each.
    """

    template: BrutePosition
    mine: Sequence[tuple[int, ...]]
    theirs: Sequence[tuple[int, ...]]


def blocks(positions: Sequence[BrutePosition]) -> list[tuple[Block, list[int]]]:
    """The positions as blocks, each with the indices of its positions in ``positions``."""
    found: dict[tuple[Any, ...], tuple[BrutePosition, list[tuple[int, ...]], list[tuple[int, ...]]]]
    found = {}
    members: dict[tuple[Any, ...], list[int]] = {}
    for k, position in enumerate(positions):
        mine_clan, mine_tactics = split_cards(position.mine)
        theirs_clan, theirs_tactics = split_cards(position.theirs)
        template = replace(position, mine=mine_tactics, theirs=theirs_tactics)
        key = (template, len(mine_clan), len(theirs_clan))
        entry = found.setdefault(key, (template, [], []))
        entry[1].append(mine_clan)
        entry[2].append(theirs_clan)
        members.setdefault(key, []).append(k)
    return [(Block(t, m, th), members[key]) for key, (t, m, th) in found.items()]


def brute_judge(position: BrutePosition) -> BruteVerdict:
    """The verdict on the claim of the stone by ``mine``'s player, by exhaustive search."""
    return brute_judge_many([position])[0]


def brute_judge_many(positions: Sequence[BrutePosition]) -> list[BruteVerdict]:
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


def _kind(template: BrutePosition) -> _Kind:
    # Read in one pass over each list: a template of a sampled game holds a whole board.
    mine_clan, mine_tactics = split_cards(template.elsewhere_mine)
    theirs_clan, theirs_tactics = split_cards(template.elsewhere_theirs)
    mine_wilds, theirs_wilds = split_cards(template.mine)[1], split_cards(template.theirs)[1]
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
    mine, theirs = card_rows(block.mine, n_mine), card_rows(block.theirs, n_theirs)
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
        lambda s: (side_bases(s.mine, s.n_mine, s.size),),
        lambda key, bases: (
            side_ranks(rank_table(key[0], key[1]), bases, wild_heads(key[3], key[2], key[0])),
        ),
    )
    theirs = _grouped(
        judged,
        lambda s: (s.size, s.kind.blind, s.n_theirs, s.kind.theirs_wilds, s.kind.pool_wilds),
        # A complete side needs no pool (the key tells: every side of a group is alike).
        lambda s: (side_bases(s.theirs, s.n_theirs, s.size), *((s.unseen,) if s.need else ())),
        best_completions,
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
        np.where(t > m, 4, np.where(t == NO_RANK, 6, 5)),
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


_TIES = ("tie-completed-first", "tie-completed-later")
_REASONS = ("stronger", "weaker", *_TIES, "opponent-can-beat", "unbeatable", "unbeatable")


@functools.lru_cache(maxsize=1 << 16)  # the same verdicts come back chunk after chunk
def _verdict(key: int) -> BruteVerdict:
    """A verdict from its key: ((completions * 256 + mine) * 256 + theirs) * 8 + reason."""
    reason, theirs, mine, count = key % 8, key // 8 % 256, key // 2048 % 256, key // 524288
    return BruteVerdict(
        _REASONS[reason], STRENGTHS[mine], None if reason == 6 else STRENGTHS[theirs], count
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


def completion_strength(position: BrutePosition, added: Sequence[Card]) -> Strength | None:
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
        added_clan, added_wilds = split_cards(cards)
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
        bases = side_bases([clan for _, clan in members], n_clan, s.size)
        ranks = side_ranks(s.table, bases, wild_heads(tuple(wilds), n_clan, s.size))
        for (k, _), value in zip(members, ranks.tolist(), strict=True):
            found[k] = STRENGTHS[value]
    return found
