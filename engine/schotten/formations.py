"""Formations: what a complete side is worth.

Strongest first: colour run, same value, colour, run, sum; then the higher total
(RULES.md, Formations). Under Blind-Man's Bluff only the total counts.

>>> evaluate(parse_cards(["blue 5", "blue 6", "blue 7"]))
Formation(kind=FormationKind.COLOUR_RUN, total=18)
>>> evaluate(parse_cards(["red 8", "green 9", "blue 1"]))  # no wrap-around
Formation(kind=FormationKind.SUM, total=18)
>>> evaluate(parse_cards(["red 2", "green 2", "blue 2"])) > evaluate(
...     parse_cards(["red 9", "red 8", "red 6"]))
True
>>> evaluate(parse_cards(["red 1", "red 2", "red 3"]), totals_only=True)
Formation(kind=FormationKind.TOTAL, total=6)
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from schotten.cards import ClanCard, parse_cards  # noqa: F401  (parse_cards: doctests)


class FormationKind(enum.IntEnum):
    """The ladder, weakest first so that comparison follows strength.

    ``TOTAL`` is what every side is under Blind-Man's Bluff: only the total counts there.
    """

    TOTAL = 0
    SUM = 1
    RUN = 2
    COLOUR = 3
    SAME_VALUE = 4
    COLOUR_RUN = 5

    def __repr__(self) -> str:
        return f"FormationKind.{self.name}"

    @property
    def key(self) -> str:
        """The kind as written in case files, labels and pages: ``colour-run``."""
        return self.name.lower().replace("_", "-")

    @property
    def words(self) -> str:
        """The kind in English messages: ``colour run``."""
        return self.name.lower().replace("_", " ")

    def label_key(self, size: int = 3) -> str:
        """The labels' key; four of a kind has a name of its own (Carré, Póker).

        >>> FormationKind.SAME_VALUE.label_key(4), FormationKind.COLOUR_RUN.label_key(4)
        ('same-value-4', 'colour-run')
        """
        return f"{self.key}-4" if self is FormationKind.SAME_VALUE and size == 4 else self.key


@dataclass(frozen=True, order=True)
class Formation:
    """A complete side's strength: compared by kind, then by total."""

    kind: FormationKind
    total: int


def evaluate(cards: Sequence[ClanCard], *, totals_only: bool = False) -> Formation:
    """The formation of a complete side made of Clan cards only (3 cards, or 4 under Mud Fight)."""
    total = sum(c.value for c in cards)
    if totals_only:
        return Formation(FormationKind.TOTAL, total)
    values = sorted(c.value for c in cards)
    one_colour = len({c.colour for c in cards}) == 1
    consecutive = all(b == a + 1 for a, b in itertools.pairwise(values))
    if consecutive and one_colour:
        kind = FormationKind.COLOUR_RUN
    elif len(set(values)) == 1:
        kind = FormationKind.SAME_VALUE
    elif one_colour:
        kind = FormationKind.COLOUR
    elif consecutive:
        kind = FormationKind.RUN
    else:
        kind = FormationKind.SUM
    return Formation(kind, total)
