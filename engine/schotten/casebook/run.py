"""Replaying cases: the engine's verdicts on each case, compared with what the file recorded.

The comparison is leaf by leaf on the ``expect:`` data, so a mismatch names exactly what changed
(a reason, a witness card, one play-on step) and the line where the file records it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from schotten.board import Board, Player
from schotten.casebook.errors import (
    CaseError,
    CaseFileError,
    KeyPath,
    command_path,
    format_key_path,
    shown_path,
)
from schotten.casebook.hints import next_step
from schotten.casebook.model import (
    NAME_OF,
    Case,
    Expectation,
    ExpectedPlayOn,
    ExpectedStone,
    ExpectedWitness,
)
from schotten.casebook.playon import Answer, PlayOnError, played, start_game
from schotten.claims import StoneVerdict, judge_claim, stones_taken
from schotten.formations import Formation
from schotten.outcome import winning_condition


@dataclass(frozen=True)
class Mismatch:
    """One recorded value the engine no longer agrees with."""

    file: Path
    line: int  # of the recorded value (or of the nearest recorded parent)
    key_path: KeyPath  # of the value, e.g. ``("expect", "stones", 4, "reason")``
    recorded: str
    computed: str

    @property
    def what(self) -> str:
        """The key path as messages write it: ``expect.stones.4.reason``."""
        return format_key_path(self.key_path)

    @property
    def stone(self) -> int | None:
        """The stone whose recorded verdict this is (under ``expect.stones``), if it is one."""
        path = self.key_path
        if len(path) >= 3 and path[:2] == ("expect", "stones") and isinstance(path[2], int):
            return path[2]
        return None

    @property
    def detail(self) -> str:
        """``expect.stones.4.reason: recorded weaker, engine stronger``: the mismatch in words,
        without its place."""
        return f"{self.what}: recorded {self.recorded}, engine {self.computed}"

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.detail}"


@dataclass(frozen=True)
class CaseResult:
    """The engine's answer on one case and how it compares with the file."""

    case: Case
    verdicts: tuple[StoneVerdict, ...]
    game: str | None  # the game state after the claim (with ``claim``): see claim_outcome
    computed: Expectation  # the engine's results in the shape of ``expect:``
    mismatches: tuple[Mismatch, ...]
    answer: Answer | None = None  # a play-on's: the engine's answer to the case's question

    @property
    def ok(self) -> bool:
        return not self.mismatches

    def report(self) -> str:
        """The mismatches, then the engine's reasoning on each claimed stone."""
        lines = [str(m) for m in self.mismatches]
        lines += [f"  engine: {v.explain()}" for v in self.verdicts]
        if self.computed.play_on is not None:
            p = self.computed.play_on
            steps = ", ".join(f"{i}: {s}" for i, s in enumerate(p.steps, 1))
            lines.append(f"  engine play-on: {steps}; game {p.game}")
        if self.mismatches:
            lines.append(f"  {self.next_step()}")
        return "\n".join(lines)

    def next_step(self) -> str:
        """What to do about the mismatches: approve if the engine is right, else fix the case."""
        case = self.case
        return next_step(
            command_path(case.path), case.line_of("stones"), case.published is not None
        )

    def as_data(self) -> dict[str, Any]:
        """The result as plain data (``schotten check --json``): each claimed stone's verdict
        against the recorded one, the game and the play-on both ways, and the mismatches."""
        expected = self.case.expect.as_data() if self.case.expect is not None else None
        recorded_stones = (expected or {}).get("stones", {})
        stones = []
        for v in self.verdicts:
            computed = self.computed.as_data()["stones"][v.stone]
            stones.append(
                {
                    "stone": v.stone,
                    "verdict": computed["verdict"],
                    "reason": computed["reason"],
                    "witness": computed.get("witness"),
                    "expected": recorded_stones.get(v.stone),
                    "ok": recorded_stones.get(v.stone) == computed,
                }
            )
        computed_data = self.computed.as_data()
        return {
            "id": self.case.id,
            "file": shown_path(self.case.path),
            "published": (
                {"table": self.case.published.table, "row": self.case.published.row}
                if self.case.published is not None
                else None
            ),
            "rules": [str(rule) for rule in self.case.rules],
            "stones": stones,
            "game": self.game,
            "expected_game": (expected or {}).get("game"),
            "play_on": computed_data.get("play_on"),
            "expected_play_on": (expected or {}).get("play_on"),
            "ok": self.ok,
            "mismatches": [
                {
                    "file": shown_path(m.file),
                    "line": m.line,
                    "what": m.what,
                    "recorded": m.recorded,
                    "computed": m.computed,
                }
                for m in self.mismatches
            ],
        }


def check_report(results: Sequence[CaseResult], errors: Sequence[CaseError]) -> dict[str, Any]:
    """What ``schotten check --json`` prints: every result, and every invalid file's problems."""
    cases = [r.as_data() for r in results]
    invalid = [
        {"file": shown_path(e.path), "line": e.line, "column": e.column, "message": str(e)}
        for e in errors
    ]
    return {
        "ok": not errors and all(r.ok for r in results),
        "cases": cases,
        "errors": invalid,
    }


def run_case(case: Case) -> CaseResult:
    """Judge the case's claim (and play on, if it does) and compare with ``expect:``;
    :class:`CaseFileError` if a move of the play-on names the wrong player."""
    verdicts: tuple[StoneVerdict, ...] = ()
    game = None
    if case.claim:
        verdicts = judge_claim(case.board, Player.FIRST, case.claim)
        game = claim_outcome(case.board, verdicts)
    play_on, answer = _play_on(case) if case.play_on is not None else (None, None)
    computed = Expectation(tuple(expected_stone(v) for v in verdicts), game, play_on)
    return CaseResult(case, verdicts, game, computed, tuple(compare(case, computed)), answer)


def _play_on(case: Case) -> tuple[ExpectedPlayOn, Answer | None]:
    """The case's play-on, played once; a move that names the wrong player makes the file
    invalid (:class:`CaseFileError` at that move), as a mistake in its notation would."""
    assert case.play_on is not None
    spec = case.play_on
    game = start_game(case.board, case.hands, spec.decks, spec.start)
    try:
        return played(game, spec.moves, spec.question)
    except PlayOnError as exc:
        mover = NAME_OF[spec.moves[exc.move][0]]
        key_path = ("play_on", "moves", exc.move, mover)
        line, column = case.line_of(*key_path), case.column_of(*key_path)
        raise CaseFileError([CaseError(case.path, line, column, key_path, str(exc))]) from None


def claim_outcome(board: Board, verdicts: tuple[StoneVerdict, ...]) -> str:
    """``won-by-you`` if the stones the claim takes make ``you`` win, else ``ongoing``.

    The claim takes its stones as the game does (rule ``claim-together``): all of them, when
    every one is proven; none, when any one is refused. Each stone's verdict is still reported.
    """
    for number in stones_taken(verdicts):
        board = board.with_stone(replace(board.stone(number), claimed_by=Player.FIRST))
    return (
        f"won-by-{NAME_OF[Player.FIRST]}" if winning_condition(board, Player.FIRST) else "ongoing"
    )


def formation_text(formation: Formation) -> str:
    """``same-value 9``: a formation as written in case files."""
    # The kind's key, as schema.formation_name writes it (schema needs jsonschema; this does not).
    return f"{formation.kind.key} {formation.total}"


def expected_stone(verdict: StoneVerdict) -> ExpectedStone:
    witness = None
    if verdict.witness is not None:
        w = verdict.witness
        witness = ExpectedWitness(w.cards, formation_text(w.formation))
    word = "granted" if verdict.granted else "refused"
    return ExpectedStone(verdict.stone, word, verdict.reason, witness)


def compare(case: Case, computed: Expectation) -> Iterator[Mismatch]:
    """Every leaf of ``expect:`` where the file and the engine differ (missing ones included)."""
    if case.expect is None:
        yield Mismatch(
            case.path,
            case.line_of("expect"),
            ("expect",),
            "nothing",
            f"{show(computed.as_data())} (run `schotten approve {command_path(case.path)}`)",
        )
        return
    recorded = dict(_leaves(case.expect.as_data(), ("expect",)))
    engine = dict(_leaves(computed.as_data(), ("expect",)))
    for key_path in sorted(recorded.keys() | engine.keys(), key=_sort_key):
        mine, theirs = recorded.get(key_path, _ABSENT), engine.get(key_path, _ABSENT)
        if mine != theirs:
            yield Mismatch(
                case.path,
                case.line_of(*key_path),
                key_path,
                show(mine),
                show(theirs),
            )


class _Absent:
    def __repr__(self) -> str:
        return "absent"


_ABSENT = _Absent()


def _leaves(data: Any, key_path: KeyPath) -> Iterator[tuple[KeyPath, Any]]:
    # Play-on steps are compared one by one, so that a mismatch points at its step's line.
    if isinstance(data, Mapping):
        for key, value in data.items():
            yield from _leaves(value, (*key_path, key))
    elif isinstance(data, list) and key_path[-1] == "steps":
        for i, value in enumerate(data):
            yield (*key_path, i), value
    else:
        yield key_path, data


def _sort_key(key_path: KeyPath) -> tuple[tuple[int, str], ...]:
    return tuple((0, f"{k:04d}") if isinstance(k, int) else (1, k) for k in key_path)


def show(value: Any) -> str:
    """A recorded or computed value as it would be written in the file."""
    if value is _ABSENT:
        return "(absent)"
    if isinstance(value, list):
        return "[" + ", ".join(show(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {show(v)}" for k, v in value.items()) + "}"
    return str(value)


__all__ = [
    "CaseResult",
    "Mismatch",
    "check_report",
    "claim_outcome",
    "compare",
    "formation_text",
    "run_case",
]
