"""How often each formation comes up: exact counts over the 54 Clan cards.

Two questions, both answered by enumerating hands and judging each one with
:func:`schotten.formations.evaluate`, the engine's own evaluation (no formula to get wrong):

* **Whole hands.** Among all ``C(54, 3) = 24,804`` sets of three Clan cards (``C(54, 4) =
  316,251`` sets of four, for Mud Fight), how many make each formation.
* **Partial sides.** A side already holds some cards and nothing else is known. Among all the
  ways to complete it from the remaining Clan cards of the deck (every other card equally
  likely), the share that makes each formation. For a side holding ``k`` cards of ``n`` that is
  ``C(54 - k, n - k)`` completions: 1,378 for one card of three, 52 for two cards of three. The
  shares of one side add up to 1, because every completion makes exactly one formation.

Elite troops and combat modes other than Mud Fight are left out: the odds are those of the
Clan deck alone.

>>> counts = hand_counts(3)
>>> counts[FormationKind.COLOUR_RUN], counts[FormationKind.SAME_VALUE]
(42, 180)
>>> sum(counts.values()) == math.comb(54, 3)
True
>>> [kind.name for kind in rarity_order(3)]
['COLOUR_RUN', 'SAME_VALUE', 'COLOUR', 'RUN', 'SUM']
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from schotten.cards import CLAN_CARDS, ClanCard, parse_cards
from schotten.formations import FormationKind, evaluate

HAND_SIZES = (3, 4)  # a side of three cards, or four under Mud Fight

# The ladder on an ordinary stone, strongest first (TOTAL exists only under Blind-Man's Bluff).
LADDER: tuple[FormationKind, ...] = tuple(
    sorted((k for k in FormationKind if k is not FormationKind.TOTAL), reverse=True)
)


@dataclass(frozen=True)
class FormationOdds:
    """How many hands (or completions) make one formation, out of how many."""

    kind: FormationKind
    count: int
    out_of: int

    @property
    def probability(self) -> Fraction:
        return Fraction(self.count, self.out_of)


@dataclass(frozen=True)
class PartialSide:
    """A typical side still being built, with the cards standing for it.

    ``key`` names the situation (the site's labels describe it); ``cards`` is one side in that
    situation. Sides in the same situation have the same odds (colours are symmetric), so one
    example stands for all of them.
    """

    key: str
    cards: tuple[ClanCard, ...]
    size: int

    @classmethod
    def of(cls, key: str, cards: str, size: int = 3) -> PartialSide:
        clan = tuple(c for c in parse_cards(cards.split(",")) if isinstance(c, ClanCard))
        return cls(key, clan, size)


# The rows of the partial-odds tables. One card of value 3 to 7 can still join three runs; a 2 or
# an 8, two; a 1 or a 9, one: so the middle and the edge are shown apart.
PARTIAL_SIDES: tuple[PartialSide, ...] = (
    PartialSide.of("one-middle", "blue 5"),
    PartialSide.of("one-edge", "blue 9"),
    PartialSide.of("pair-suited-connected", "blue 5, blue 6"),
    PartialSide.of("pair-suited-connected-edge", "blue 8, blue 9"),
    PartialSide.of("pair-suited-gap", "blue 5, blue 7"),
    PartialSide.of("pair-suited-apart", "blue 2, blue 7"),
    PartialSide.of("pair-same-value", "blue 5, red 5"),
    PartialSide.of("pair-connected", "blue 5, red 6"),
    PartialSide.of("pair-gap", "blue 5, red 7"),
    PartialSide.of("pair-apart", "blue 2, red 7"),
)

MUD_PARTIAL_SIDES: tuple[PartialSide, ...] = (
    PartialSide.of("one-middle", "blue 5", 4),
    PartialSide.of("pair-suited-connected", "blue 5, blue 6", 4),
    PartialSide.of("pair-suited-wide-gap", "blue 5, blue 8", 4),
    PartialSide.of("pair-same-value", "blue 5, red 5", 4),
    PartialSide.of("pair-connected", "blue 5, red 6", 4),
    PartialSide.of("triple-suited-connected", "blue 4, blue 5, blue 6", 4),
    PartialSide.of("triple-suited-apart", "blue 1, blue 5, blue 9", 4),
    PartialSide.of("triple-same-value", "blue 5, red 5, green 5", 4),
    PartialSide.of("triple-connected", "blue 4, red 5, green 6", 4),
    PartialSide.of("triple-apart", "blue 1, red 5, green 9", 4),
)


def _check_size(size: int) -> None:
    if size not in HAND_SIZES:
        raise ValueError(f"a side holds 3 cards, or 4 under Mud Fight, not {size}")


@cache
def hand_counts(size: int = 3) -> dict[FormationKind, int]:
    """How many sets of ``size`` Clan cards make each formation (every ladder kind is a key)."""
    _check_size(size)
    counts = Counter(evaluate(hand).kind for hand in itertools.combinations(CLAN_CARDS, size))
    return {kind: counts[kind] for kind in LADDER}


def hand_odds(size: int = 3) -> tuple[FormationOdds, ...]:
    """Each formation's share of all hands of ``size`` Clan cards, strongest first."""
    total = math.comb(len(CLAN_CARDS), size)
    return tuple(FormationOdds(kind, n, total) for kind, n in hand_counts(size).items())


def rarity_order(size: int = 3) -> tuple[FormationKind, ...]:
    """The formations from the rarest to the most common hand of ``size`` cards."""
    counts = hand_counts(size)
    return tuple(sorted(LADDER, key=lambda kind: counts[kind]))


def completion_odds(
    cards: Sequence[ClanCard], size: int = 3, seen: Sequence[ClanCard] = ()
) -> tuple[FormationOdds, ...]:
    """Each formation's share of the completions of a partial side, strongest first.

    The side holds ``cards``; it is completed to ``size`` cards from every Clan card that is
    neither on it nor in ``seen`` (cards known to be elsewhere), all completions counted once.

    >>> [(o.kind.name, o.count) for o in completion_odds(parse_cards(["red 5", "red 6"]))][:2]
    [('COLOUR_RUN', 2), ('SAME_VALUE', 0)]
    """
    _check_size(size)
    if len(cards) >= size:
        raise ValueError(f"a partial side has fewer than {size} cards, not {len(cards)}")
    out = set(cards) | set(seen)
    if len(out) < len(cards) + len(seen):
        raise ValueError("a card appears twice among the side and the cards seen")
    rest = [c for c in CLAN_CARDS if c not in out]
    counts: Counter[FormationKind] = Counter(
        evaluate((*cards, *more)).kind for more in itertools.combinations(rest, size - len(cards))
    )
    total = math.comb(len(rest), size - len(cards))
    return tuple(FormationOdds(kind, counts[kind], total) for kind in LADDER)
