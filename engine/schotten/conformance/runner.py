"""Driving an engine through the suite: every vector asked, its answers tallied.

Each vector goes to its check (:func:`~schotten.conformance.checks.check_vector`). When the engine
crashes, hangs or answers nothing readable, that vector is marked ``hung``, ``crashed`` or
``nonsense``, the engine is started again and the run goes on, up to a number of restarts; past
it, or when the engine cannot be started again, the run stops (what was not asked is counted as
not run).

A vector the engine does not declare it supports (:mod:`~schotten.conformance.capabilities`) is
"not claimed", never a disagreement. ``fail_on`` says which level of agreement of a claim
(:data:`~schotten.conformance.checks.LEVELS`) a disagreement must reach to count (``all``: any
difference).
"""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from schotten.conformance.capabilities import Capabilities
from schotten.conformance.checks import LEVELS, Finding, check_vector, single_request
from schotten.conformance.client import (
    STRAY_SHOWN,
    Engine,
    EngineFailure,
    ProcessEngine,
    ask_many,
)
from schotten.conformance.divide import Divide, chosen, divide_claim
from schotten.conformance.shown import shown
from schotten.conformance.wire import dumps
from schotten.errors import SchottenError

FAILED = ("hung", "crashed", "nonsense")


NOTHING_CHECKED = "nothing checked"
"""Why a run stopped that asked no vector: it could not be done (exit 2), never a pass."""


class MalformedVector(SchottenError, ValueError):
    """A vector of the suite that lacks what its kind needs (a damaged or foreign file)."""


class Interrupted(Exception):
    """The run was asked to stop (a signal): it ends with what it has."""


@dataclass(frozen=True)
class Outcome:
    """A vector that did not agree: disagreed, or the engine failed on it."""

    kind: str
    vector: str
    pins: str
    status: str  # disagree | hung | crashed | nonsense
    findings: tuple[Finding, ...]
    vector_data: dict[str, Any] = field(repr=False, compare=False, default_factory=dict)

    @property
    def level(self) -> str:
        """The coarsest level this vector breaks."""
        return min((f.level for f in self.findings), key=LEVELS.index, default="verdict")

    @property
    def signature(self) -> str:
        return self.findings[0].signature if self.findings else self.status

    @property
    def size(self) -> int:
        """The length of its request line: the smallest example of a group is shown."""
        request = self.findings[0].request if self.findings else None
        return len(dumps(request)) if request is not None else 1 << 40

    def counts_at(self, fail_on: str) -> bool:
        """Whether it is a disagreement when ``fail_on`` is the level that fails a run."""
        return self.status != "disagree" or LEVELS.index(self.level) <= LEVELS.index(fail_on)


@dataclass
class KindTally:
    kind: str
    vectors: int
    agreed: int = 0
    disagreed: int = 0
    failed: int = 0  # hung, crashed or nonsense
    not_claimed: int = 0
    skipped: int = 0  # named by a skip file
    levels: dict[str, int] = field(default_factory=dict)  # agreed at each level (claims)
    asked: list[str] = field(default_factory=list)  # the ids of the vectors asked
    passed_over: list[str] = field(default_factory=list)  # the ids of those not claimed

    @property
    def not_run(self) -> int:
        done = self.agreed + self.disagreed + self.failed + self.not_claimed + self.skipped
        return self.vectors - done


@dataclass
class RunReport:
    engine: str
    tallies: list[KindTally] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    failure: EngineFailure | None = None
    failed_vector: str | None = None
    stopped: str | None = None  # why the run stopped early, when it did
    restarts: int = 0
    stray_lines: int = 0
    stray_examples: list[str] = field(default_factory=list)
    capabilities: Capabilities = field(default_factory=Capabilities)
    fail_on: str = "all"
    divides: dict[str, Divide] = field(default_factory=dict)  # claim vectors taken apart, by id

    @property
    def complete(self) -> bool:
        """Whether the run could be done: every claimed vector asked."""
        return self.failure is None and self.stopped is None

    @property
    def disagreements(self) -> list[Outcome]:
        """The vectors that count against the engine at the chosen level."""
        return [o for o in self.outcomes if o.counts_at(self.fail_on)]

    @property
    def ok(self) -> bool:
        return self.complete and not self.disagreements


def run(
    engine: Engine,
    suite: Sequence[tuple[str, Sequence[dict[str, Any]]]],
    progress: Callable[[str, int, int], None] | None = None,
    *,
    capabilities: Capabilities | None = None,
    restart: Callable[[], Engine] | None = None,
    max_restarts: int = 5,
    fail_on: str = "all",
    skip: frozenset[str] = frozenset(),
    declared: Capabilities | None = None,
) -> RunReport:
    """Ask ``engine`` every vector of each ``(kind, vectors)`` it covers; never raises for the
    engine. ``restart()`` starts a fresh engine after a failure (none: a failure ends the
    run); the engines it starts are closed here, ``engine`` is the caller's to close.
    ``declared``: what the engine declares before a run narrows it (default:
    ``capabilities``), for the follow-up requests of the divides of claims."""
    report = RunReport(engine.name, capabilities=capabilities or Capabilities(), fail_on=fail_on)
    report.tallies = [KindTally(kind, len(vs)) for kind, vs in suite]
    started: list[Engine] = []
    try:
        live = _run(report, engine, suite, progress, restart, max_restarts, started, skip)
        if live is not None:
            # Every vector was asked: a stop now only cuts the divides short.
            with contextlib.suppress(Interrupted, KeyboardInterrupt):
                attach_divides(report, live, declared or report.capabilities)
    except (Interrupted, KeyboardInterrupt):
        report.stopped = "interrupted"
    else:
        if report.complete and not any(t.asked for t in report.tallies):
            report.stopped = NOTHING_CHECKED
    finally:
        for each in (engine, *started):
            _gather_strays(report, each)
        for extra in started:
            extra.close()
    return report


def _run(
    report: RunReport,
    engine: Engine,
    suite: Sequence[tuple[str, Sequence[dict[str, Any]]]],
    progress: Callable[[str, int, int], None] | None,
    restart: Callable[[], Engine] | None,
    max_restarts: int,
    started: list[Engine],
    skip: frozenset[str] = frozenset(),
) -> Engine | None:
    """Every vector asked; the engine still running at the end (``None``: the run stopped)."""

    def covers(kind: str, vector: dict[str, Any]) -> bool:
        return vector.get("id") not in skip and report.capabilities.covers(kind, vector)

    for tally, (kind, vectors) in zip(report.tallies, suite, strict=True):
        if kind == "claims":
            tally.levels = dict.fromkeys(LEVELS, 0)
        ahead = _Ahead.over(engine)
        queued = 0  # the vectors up to this index are sent ahead (when they can be)
        for done, vector in enumerate(vectors, 1):
            if not covers(kind, vector):
                if vector.get("id") in skip:
                    tally.skipped += 1
                else:
                    tally.not_claimed += 1
                tally.passed_over.append(str(vector.get("id")))
                continue
            if ahead is not None:
                queued = ahead.send_ahead(kind, vectors, max(queued, done - 1), covers)
            tracked = _Tracked(ahead or engine)
            tally.asked.append(vector["id"])
            try:
                findings = check_vector(
                    kind, vector, tracked, incremental=report.capabilities.incremental
                )
            except EngineFailure as failure:
                tally.failed += 1
                report.outcomes.append(_failed(kind, vector, failure, tracked.last_request))
                if restart is None or report.restarts >= max_restarts:
                    report.failure, report.failed_vector = failure, f"{kind} {vector['id']}"
                    if restart is not None:
                        report.stopped = f"the engine failed {report.restarts + 1} time(s)"
                    return None
                report.restarts += 1
                try:
                    engine = restart()
                except EngineFailure as again:
                    report.failure, report.failed_vector = again, "restart"
                    return None
                started.append(engine)
                ahead, queued = _Ahead.over(engine), done  # the rest is sent again, to it
                continue
            except (KeyError, TypeError, IndexError, AttributeError) as error:
                ident = vector.get("id") if isinstance(vector, dict) else None
                raise MalformedVector(f"{kind} vector {ident}: malformed ({error!r})") from None
            _tally(tally, kind, vector, findings, report)
            if progress is not None:
                progress(kind, done, len(vectors))
    return engine


def attach_divides(report: RunReport, engine: Engine, declared: Capabilities) -> None:
    """Take apart the smallest claim disagreements with ``engine``, still running
    (:mod:`~schotten.conformance.divide`): each divide made is kept in ``report.divides`` by
    vector id. An engine that fails on a follow-up request ends the divides, never the run."""
    for outcome in chosen(report.outcomes):
        finding = outcome.findings[0] if outcome.findings else None
        answer = finding.answer if finding is not None else None
        try:
            made = divide_claim(outcome.vector_data, answer, engine, declared)
        except EngineFailure:
            return
        except (KeyError, TypeError, ValueError, AttributeError):
            continue  # a vector without what a claim needs: its own check said so
        if made is not None:
            report.divides[outcome.vector] = made


def _tally(
    tally: KindTally,
    kind: str,
    vector: dict[str, Any],
    findings: list[Finding],
    report: RunReport,
) -> None:
    outcome = None
    if findings:
        outcome = Outcome(kind, vector["id"], vector["pins"], "disagree", tuple(findings), vector)
        report.outcomes.append(outcome)
    if tally.levels:
        broken = LEVELS.index(outcome.level) if outcome is not None else len(LEVELS)
        for index, level in enumerate(LEVELS):
            tally.levels[level] += index < broken
    if outcome is not None and outcome.counts_at(report.fail_on):
        tally.disagreed += 1
    else:
        tally.agreed += 1


def _failed(
    kind: str, vector: dict[str, Any], failure: EngineFailure, request: dict[str, Any] | None
) -> Outcome:
    asked = shown(str(request.get("type")), 20) if request else "first"
    finding = Finding(
        str(failure), f"engine {failure.what} on a {asked} request", "verdict", request
    )
    return Outcome(kind, vector["id"], vector["pins"], failure.what, (finding,), vector)


def _gather_strays(report: RunReport, engine: Engine) -> None:
    if isinstance(engine, ProcessEngine):
        count, examples = engine.stray_lines, engine.stray_examples
        report.stray_lines += count
        report.stray_examples += examples[: max(0, STRAY_SHOWN - len(report.stray_examples))]


WINDOW = 32
"""Requests sent ahead of the answer awaited, for kinds of one request a vector: the engine
works while the runner checks, and no round trip is waited for between vectors."""


class _Ahead:
    """A process engine to which the requests of the next vectors are sent before their turn;
    :meth:`ask` takes the answer of the first one sent when it is the one asked (any other
    request drains what was sent, then is asked alone)."""

    def __init__(self, engine: ProcessEngine) -> None:
        self.engine = engine
        self.name = engine.name
        self._sent: deque[tuple[dict[str, Any], int]] = deque()

    @classmethod
    def over(cls, engine: Engine) -> _Ahead | None:
        return cls(engine) if isinstance(engine, ProcessEngine) else None

    def send_ahead(
        self,
        kind: str,
        vectors: Sequence[dict[str, Any]],
        start: int,
        covers: Callable[[str, dict[str, Any]], bool],
    ) -> int:
        """Send the requests of the vectors from ``start`` up to a window past the first not
        answered; the index sent up to."""
        index = start
        while len(self._sent) < WINDOW and index < len(vectors):
            vector = vectors[index]
            if not covers(kind, vector):
                index += 1
                continue
            try:
                request = single_request(kind, vector)
            except (KeyError, TypeError, IndexError, AttributeError):
                return index  # a damaged vector: its own check says so, in its turn
            if request is None:
                return start
            self._sent.append((request, self.engine.send(request)))
            index += 1
        return index

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        if self._sent and self._sent[0][0] == request:
            sent, ident = self._sent.popleft()
            return self.engine.receive(ident, sent)
        while self._sent:
            self.engine.receive(*reversed(self._sent.popleft()))
        return self.engine.ask(request)

    def close(self) -> None:
        self.engine.close()


class _Tracked:
    """An engine whose last request is remembered, for the report of a failure."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.name = engine.name
        self.last_request: dict[str, Any] | None = None

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        self.last_request = request
        return self.engine.ask(request)

    def ask_many(self, requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
        try:
            return ask_many(self.engine, requests)
        except EngineFailure as failure:
            # Sent at once: the request blamed is the one whose answer did not come.
            self.last_request = failure.request
            raise

    def close(self) -> None:
        self.engine.close()
