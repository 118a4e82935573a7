"""What an engine declares it supports, in its answer to ``hello``, and which vectors that
covers.

``"supports"`` in the answer to ``hello``: ``variants`` (``base``, ``tactical``), ``kinds``
(the suite's kinds it answers), ``claim_step`` (whether it plays the claim step as a move: the
kinds ``moves``, ``games`` and ``perft`` presuppose the turn of this engine, play, claim, draw;
an engine that claims otherwise is not asked them), ``incremental`` (whether it keeps a game
between ``start`` and ``step`` requests: then a game of the suite is played move by move on it,
not sent whole at every move), ``claims`` (what its claim answers carry: ``verdict``,
``reason`` or ``all``, the formations too; a run fails on claims at that level at most) and
``complete_sides_only`` (it judges claims only where both sides of each stone claimed are
complete). An engine that declares nothing is asked everything. A vector it does not cover is
"not claimed", never a disagreement.

>>> base = Capabilities.from_hello(
...     {"supports": {"variants": ["base"], "kinds": ["claims", "formations"]}})
>>> base.covers("formations", {"cards": ["red 1", "red 2", "red 3"]})
True
>>> base.covers("formations", {"cards": ["red 1", "red 2", "joker"]})
False
>>> base.describe()
'base claims and formations'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from schotten.conformance.wire import KINDS

VARIANTS = ("base", "tactical")
TURN_KINDS = ("moves", "games", "perft")
"""The kinds that presuppose this engine's turn: play, claim step, draw, each a move."""


@dataclass(frozen=True)
class Capabilities:
    variants: frozenset[str] = frozenset(VARIANTS)
    kinds: frozenset[str] = frozenset(KINDS)
    claim_step: bool = True
    declared: bool = False  # whether the engine said anything (else: asked everything)
    incremental: bool = False  # whether it keeps a game between start and step requests
    claim_level: str = "all"  # what its claim answers carry: verdict, reason, or all
    complete_sides_only: bool = False  # claims judged only where both sides are complete

    @classmethod
    def from_hello(cls, answer: Mapping[str, Any]) -> Capabilities:
        """Read ``supports`` from a hello answer; ``ValueError`` saying what is wrong."""
        supports = answer.get("supports")
        if supports is None:
            return cls()
        if not isinstance(supports, Mapping):
            raise ValueError("'supports' is an object: variants, kinds, claim_step")
        variants = _names(supports.get("variants", list(VARIANTS)), VARIANTS, "variants")
        kinds = _names(supports.get("kinds", list(KINDS)), KINDS, "kinds")
        claim_step = supports.get("claim_step", True)
        if not isinstance(claim_step, bool):
            raise ValueError("'supports.claim_step' is true or false")
        incremental = supports.get("incremental", False)
        complete = supports.get("complete_sides_only", False)
        for key, value in (("incremental", incremental), ("complete_sides_only", complete)):
            if not isinstance(value, bool):
                raise ValueError(f"'supports.{key}' is true or false")
        level = supports.get("claims", "all")
        if level not in CLAIM_LEVELS:
            raise ValueError(f"'supports.claims' is one of {', '.join(CLAIM_LEVELS)}")
        return cls(variants, kinds, claim_step, True, incremental, level, complete)

    def narrowed(self, variants: Iterable[str] | None, kinds: Iterable[str] | None) -> Capabilities:
        """Only these variants and kinds too (the command line's ``--variant``/``--kind``)."""
        return Capabilities(
            self.variants & frozenset(variants or VARIANTS),
            self.kinds & frozenset(kinds or KINDS),
            self.claim_step,
            self.declared or bool(variants or kinds),
            self.incremental,
            self.claim_level,
            self.complete_sides_only,
        )

    def runs(self, kind: str) -> bool:
        return kind in self.kinds and (self.claim_step or kind not in TURN_KINDS)

    def covers(self, kind: str, vector: Mapping[str, Any]) -> bool:
        """Whether ``vector`` of ``kind`` is within what the engine declares."""
        if kind == "claims" and self.complete_sides_only and not _complete_sides(vector):
            return False
        return self.runs(kind) and vector_variant(kind, vector) in self.variants

    def describe(self) -> str:
        """``base claims and formations``: what a run covers, for its verdict line."""
        kinds = [k for k in KINDS if self.runs(k)]
        variants = (
            ""
            if self.variants >= frozenset(VARIANTS)
            else " and ".join(v for v in VARIANTS if v in self.variants) + " "
        )
        if not kinds:
            return "nothing"
        listed = kinds[0] if len(kinds) == 1 else ", ".join(kinds[:-1]) + " and " + kinds[-1]
        return f"{variants}{listed}"


CLAIM_LEVELS = ("verdict", "reason", "all")
"""What an engine's claim answers carry (``supports.claims``): the verdict only, the reason too,
or all (the formations too); a run fails on claims at that level at most."""


def _complete_sides(vector: Mapping[str, Any]) -> bool:
    """Whether every stone claimed has both sides complete (3 cards, 4 in a Mud Fight)."""
    position = vector.get("position")
    stones = position.get("stones", []) if isinstance(position, Mapping) else []
    by_number = {s.get("number"): s for s in stones if isinstance(s, Mapping)}
    for number in vector.get("stones", ()):
        stone = by_number.get(number, {})
        size = 4 if stone.get("mud_fight") else 3
        if any(len(stone.get(p, ())) < size for p in ("first", "second")):
            return False
    return True


def vector_variant(kind: str, vector: Mapping[str, Any]) -> str:
    """The variant a vector needs: its position's; for a formation, ``tactical`` when it has an
    elite troop, four cards (Mud Fight) or counts totals only (Blind-Man's Bluff), else
    ``base``."""
    if kind == "formations":
        cards = vector.get("cards", ())
        tactical = (
            len(cards) == 4
            or any(" " not in str(c) for c in cards)
            or vector.get("totals_only") is True
        )
        return "tactical" if tactical else "base"
    position = vector.get("position")
    variant = position.get("variant") if isinstance(position, Mapping) else None
    return variant if isinstance(variant, str) else "base"


def _names(value: Any, known: tuple[str, ...], key: str) -> frozenset[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"'supports.{key}' is a list of names among {', '.join(known)}")
    unknown = [v for v in value if v not in known]
    if unknown:
        raise ValueError(f"'supports.{key}': unknown {unknown[0]!r} (known: {', '.join(known)})")
    return frozenset(value)
