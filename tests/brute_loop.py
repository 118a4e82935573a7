"""The brute force of schotten.verify as it was before its array version (completions one
Python tuple at a time), kept to show that the two agree on a sample of every space.

It shares nothing with :mod:`schotten.completion`, :mod:`schotten.formations` or
:mod:`schotten.claims` but the card definitions (:mod:`schotten.cards`). It reads RULES.md
directly: a side's strength is its formation (colour run, same value, colour, run, sum; then the
total), an elite troop tries every colour and value of its range, and the claim of a stone whose
opponent side is incomplete is proven only if no completion of that side from the unseen pool is
strictly stronger.

Speed comes from one table per side size, built once per process: the rank of every ordered
tuple of card indices (repetitions included, so that a Joker may copy a card on the table), so
that each completion costs one index sum and one lookup.

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
import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from schotten.cards import Card, ClanCard, Colour, Tactic
from schotten.verify.brute import Position

N_CARDS = 54
KIND_NAMES = ("total", "sum", "run", "colour", "same-value", "colour-run")  # weakest first
_KIND_STEP = 40  # a rank is kind * 40 + total: totals never reach 40, ranks fit in a byte

# Each wild card stands for any card of its range (RULES.md, Formations).
WILD_RANGES: dict[Tactic, tuple[int, ...]] = {
    Tactic.JOKER: tuple(range(1, 10)),
    Tactic.SPY: (7,),
    Tactic.SHIELD_BEARER: (1, 2, 3),
}

Strength = tuple[str, int]  # (formation kind, total), as written in case files: ("run", 15)


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


@functools.cache  # one table per process and kind of side: built once, read millions of times
def rank_table(size: int, totals_only: bool) -> bytes:
    """``table[a*54**(size-1) + ... + z]``: the rank of the side (a, ..., z), in any order.

    Built row by row: the ranks of (a, ..., y, z) over every last card z depend only on the
    values of a..y and on whether they share one colour, so each distinct row is computed once.
    """
    rows: dict[tuple[tuple[int, ...], int], bytes] = {}
    parts: list[bytes] = []
    for head in itertools.product(range(N_CARDS), repeat=size - 1):
        colours = {i // 9 for i in head}
        key = (tuple(sorted(i % 9 for i in head)), colours.pop() if len(colours) == 1 else -1)
        row = rows.get(key)
        if row is None:
            row = bytes(rank([*head, z], totals_only=totals_only) for z in range(N_CARDS))
            rows[key] = row
        parts.append(row)
    return b"".join(parts)


@dataclass(frozen=True)
class BruteVerdict:
    reason: str
    mine: Strength | None = None
    theirs: Strength | None = None  # their formation, or their best over every completion
    completions: int = 0  # completions tried, wild values expanded


def pool(position: Position) -> tuple[list[int], list[Tactic]]:
    """The unseen Clan cards (indices) and the wild cards the opponent could still get."""
    seen = [*position.mine, *position.theirs, *position.elsewhere_mine, *position.elsewhere_theirs]
    clan_seen = {card_index(c) for c in seen if isinstance(c, ClanCard)}
    clan = [i for i in range(N_CARDS) if i not in clan_seen]
    wilds: list[Tactic] = []
    if position.variant == "tactical":
        wilds = [w for w in (Tactic.SPY, Tactic.SHIELD_BEARER) if w not in seen]
        theirs_joker = Tactic.JOKER in (*position.theirs, *position.elsewhere_theirs)
        if seen.count(Tactic.JOKER) < 2 and not theirs_joker:
            wilds.insert(0, Tactic.JOKER)
    return clan, wilds


def side_choices(cards: Iterable[Card]) -> list[tuple[int, ...]]:
    """For each card of a side, the card indices it may stand for."""
    return [(card_index(c),) if isinstance(c, ClanCard) else wild_options(c) for c in cards]


def best_rank(choices: Sequence[Sequence[int]], totals_only: bool) -> tuple[int, int]:
    """The best rank of a complete side over every value of its wild cards, and the count."""
    table = rank_table(len(choices), totals_only)
    weights = [N_CARDS ** (len(choices) - 1 - k) for k in range(len(choices))]
    best = -1
    count = 0
    for pick in itertools.product(*choices):
        count += 1
        value = table[sum(w * i for w, i in zip(weights, pick, strict=True))]
        best = max(best, value)
    return best, count


def best_completion_rank(
    theirs: Sequence[Card],
    size: int,
    clan: Sequence[int],
    wilds: Sequence[Tactic],
    totals_only: bool,
) -> tuple[int, int]:
    """The best rank over every completion of ``theirs`` from the pool, and the number tried.

    A completion takes ``need`` cards from the pool: some wild cards (each at most once, each at
    every card of its range) and the rest Clan cards, every combination of them.
    """
    need = size - len(theirs)
    table = memoryview(rank_table(size, totals_only))
    best = -1
    count = 0
    fixed = side_choices(theirs)
    for n_wild in range(min(need, len(wilds)) + 1):
        n_clan = need - n_wild
        if n_clan > len(clan):
            continue
        # The Clan cards fill the lowest digits of the index: one offset per combination, and
        # the rest of the side (placed cards, wild cards at one of their values) gives a base.
        offsets = _offsets(clan, n_clan)
        lookup = operator.itemgetter(*offsets)
        span = N_CARDS**n_clan
        for chosen in itertools.combinations(wilds, n_wild):
            head = [*fixed, *(wild_options(w) for w in chosen)]
            for pick in itertools.product(*head):
                base = 0
                for i in pick:
                    base = base * N_CARDS + i
                base *= span
                window = table[base : base + span]
                value = max(lookup(window)) if len(offsets) > 1 else lookup(window)
                count += len(offsets)
                best = max(best, value)
    return best, count


def _offsets(clan: Sequence[int], n: int) -> list[int]:
    if n == 0:
        return [0]
    if n == 1:
        return list(clan)
    if n == 2:
        return [a * 54 + b for a, b in itertools.combinations(clan, 2)]
    if n == 3:
        return [(a * 54 + b) * 54 + c for a, b, c in itertools.combinations(clan, 3)]
    return [
        sum(i * N_CARDS ** (n - 1 - k) for k, i in enumerate(combo))
        for combo in itertools.combinations(clan, n)
    ]


def brute_judge(position: Position) -> BruteVerdict:
    """The verdict on the claim of the stone by ``mine``'s player, by exhaustive search."""
    size = position.size
    totals_only = position.blind
    if len(position.mine) < size:
        return BruteVerdict("side-incomplete")
    mine, _ = best_rank(side_choices(position.mine), totals_only)
    if len(position.theirs) == size:
        theirs, _ = best_rank(side_choices(position.theirs), totals_only)
        if mine != theirs:
            reason = "stronger" if mine > theirs else "weaker"
        else:
            reason = "tie-completed-first" if position.mine_first else "tie-completed-later"
        return BruteVerdict(reason, strength(mine), strength(theirs), 1)
    clan, wilds = pool(position)
    best, count = best_completion_rank(position.theirs, size, clan, wilds, totals_only)
    if best < 0:
        return BruteVerdict("unbeatable", strength(mine), None, count)
    reason = "opponent-can-beat" if best > mine else "unbeatable"
    return BruteVerdict(reason, strength(mine), strength(best), count)


def completion_strength(position: Position, added: Sequence[Card]) -> Strength | None:
    """The strength the opponent's side would have with ``added``, or ``None`` if ``added`` is
    not a completion from the pool (a card seen, a wild card not in the pool, a wrong count)."""
    clan, wilds = pool(position)
    unseen = set(clan)
    need = position.size - len(position.theirs)
    if len(added) != need or len(set(added)) != len(added):
        return None
    for card in added:
        if isinstance(card, ClanCard) and card_index(card) not in unseen:
            return None
        if isinstance(card, Tactic) and card not in wilds:
            return None
    value, _ = best_rank(side_choices([*position.theirs, *added]), position.blind)
    return strength(value)
