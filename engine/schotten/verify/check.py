"""One chunk of a space, checked: the engine's verdict against the brute force, position by
position. A disagreement comes back as a case file (cases/README.md) ready for ``schotten
explain``.

>>> result = check_chunk("base-one-stone", 0, 2000)
>>> result.classes > 0, result.disagreements
(True, ())
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from schotten.board import Board, Player
from schotten.casebook.writer import disagreement_case
from schotten.claims import Reason, StoneVerdict, judge_stone
from schotten.formations import Formation
from schotten.verify.brute import BruteVerdict, block_strengths, judge_blocks
from schotten.verify.ranks import Strength
from schotten.verify.spaces import SPACES, Item

Judge = Callable[[Board, Player, int], StoneVerdict]


@dataclass(frozen=True)
class Disagreement:
    case_id: str
    summary: str  # one line: what each side said
    case_text: str  # the position as a case file


@dataclass(frozen=True)
class ChunkResult:
    space: str
    index: int
    count: int
    classes: int = 0  # positions checked (one per class)
    positions: int = 0  # positions of the raw space they stand for
    reasons: dict[str, list[int]] = field(default_factory=dict)  # reason: [classes, positions]
    completions: int = 0  # completions the brute force tried
    disagreements: tuple[Disagreement, ...] = ()
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        data["disagreements"] = [d.__dict__ for d in self.disagreements]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ChunkResult:
        found = tuple(Disagreement(**d) for d in data["disagreements"])
        return cls(**{**data, "disagreements": found})


def check_chunk(space_name: str, index: int, count: int, judge: Judge = judge_stone) -> ChunkResult:
    """Check chunk ``index`` of ``count`` of a space (a Dask task: plain arguments and result).

    The brute force judges the positions of the chunk together (array code pays by the block),
    the engine judges each, and the brute force measures the witnesses it names together.
    """
    start = time.perf_counter()
    classes = positions = completions = 0
    reasons: dict[str, list[int]] = {}
    found: list[Disagreement] = []
    chunk = SPACES[space_name].blocks(index, count)
    judged = judge_blocks([block for block, _ in chunk])
    for (block, items), brutes in zip(chunk, judged, strict=True):
        verdicts = [judge(item.board, item.claimer, item.stone) for item in items]
        reached = block_strengths(
            block, [None if v.witness is None else v.witness.cards for v in verdicts]
        )
        for item, verdict, brute, witness in zip(items, verdicts, brutes, reached, strict=True):
            classes += 1
            positions += item.weight
            completions += brute.completions
            tally = reasons.setdefault(brute.reason, [0, 0])
            tally[0] += 1
            tally[1] += item.weight
            problem = compare(verdict, brute, witness)
            if problem is not None:
                found.append(disagreement(space_name, item, problem))
    return ChunkResult(
        space_name,
        index,
        count,
        classes,
        positions,
        dict(sorted(reasons.items())),
        completions,
        tuple(found),
        time.perf_counter() - start,
    )


def _strength(formation: Formation | None) -> Strength | None:
    return None if formation is None else (formation.kind.key, formation.total)


def compare(verdict: StoneVerdict, brute: BruteVerdict, reached: Strength | None) -> str | None:
    """``None`` when the engine and the brute force agree, else what differs, in one line.

    ``reached``: the strength the brute force gives the opponent's side completed by the
    engine's witness (:func:`completion_strength`), ``None`` if it is no completion from the pool.
    """
    engine = (str(verdict.reason), _strength(verdict.mine), _strength(verdict.theirs))
    expected = (brute.reason, brute.mine, brute.theirs)
    if engine != expected:
        return f"engine says {_said(*engine)}; brute force says {_said(*expected)}"
    if verdict.witness is None:
        if verdict.reason is Reason.OPPONENT_CAN_BEAT:
            return "engine names no witness for opponent-can-beat"
        return None
    if reached != brute.theirs or reached != _strength(verdict.witness.formation):
        cards = ", ".join(str(c) for c in verdict.witness.cards)
        return (
            f"engine's witness [{cards}] ({_said_strength(_strength(verdict.witness.formation))})"
            f" reaches {_said_strength(reached) if reached else 'no completion from the pool'}"
            f"; the best is {_said_strength(brute.theirs)}"
        )
    return None


def _said_strength(strength: Strength | None) -> str:
    return "none" if strength is None else f"{strength[0]} {strength[1]}"


def _said(reason: str, mine: Strength | None, theirs: Strength | None) -> str:
    return f"{reason} (yours {_said_strength(mine)}, theirs {_said_strength(theirs)})"


def disagreement(space_name: str, item: Item, problem: str) -> Disagreement:
    text = disagreement_case(space_name, item.board, item.claimer, item.stone, problem)
    digest = hashlib.sha256(text.encode()).hexdigest()[:10]
    return Disagreement(f"verify-{space_name}-{digest}", problem, text)
