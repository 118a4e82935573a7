"""Driving an engine through the suite: every vector asked, every answer compared.

Each kind has its check; a check returns its :class:`Finding` s (nothing when the engine agrees)
and raises :class:`~schotten.conformance.client.EngineFailure` when the engine crashes, hangs or
answers nothing readable. That vector is then marked ``hung``, ``crashed`` or ``nonsense``, the
engine is started again and the run goes on, up to a number of restarts; past it, or when the
engine cannot be started again, the run stops (what was not asked is counted as not run).

A vector the engine does not declare it supports (:mod:`~schotten.conformance.capabilities`) is
"not claimed", never a disagreement. Claims agree at three levels: the verdict, then the reason,
then the formations (the opponent's best and the witness): ``fail_on`` says which level a
disagreement must reach to count (``all``: any difference).

>>> from schotten.conformance.client import LocalEngine
>>> vector = {"id": "f1", "pins": "-", "cards": ["red 1", "red 2", "red 3"],
...           "totals_only": False, "expect": "colour-run 6"}
>>> check_vector("formations", vector, LocalEngine())
[]
>>> [f.text for f in check_vector("formations", {**vector, "expect": "run 6"}, LocalEngine())]
['formation: expected run 6, engine colour-run 6']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from schotten.conformance.capabilities import Capabilities
from schotten.conformance.client import STRAY_SHOWN, Engine, EngineFailure, ProcessEngine
from schotten.conformance.shown import shown
from schotten.conformance.wire import dumps, game_data, moves_digest
from schotten.errors import InvalidNotationError, InvalidPositionError, SchottenError
from schotten.game import Game

LEVELS = ("verdict", "reason", "all")
"""The levels of agreement of a claim, from the coarsest; ``all`` adds the formations."""

FAILED = ("hung", "crashed", "nonsense")


class MalformedVector(SchottenError, ValueError):
    """A vector of the suite that lacks what its kind needs (a damaged or foreign file)."""


class Interrupted(Exception):
    """The run was asked to stop (a signal): it ends with what it has."""


@dataclass(frozen=True)
class Finding:
    """One thing the engine got wrong, with the exchange that shows it."""

    text: str
    signature: str  # what the finding has in common with others of the same bug
    level: str = "all"  # the coarsest level of agreement it breaks (claims)
    request: dict[str, Any] | None = None
    expected: dict[str, Any] | None = None
    answer: dict[str, Any] | None = None


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
    levels: dict[str, int] = field(default_factory=dict)  # agreed at each level (claims)
    asked: list[str] = field(default_factory=list)  # the ids of the vectors asked

    @property
    def not_run(self) -> int:
        return self.vectors - self.agreed - self.disagreed - self.failed - self.not_claimed


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
) -> RunReport:
    """Ask ``engine`` every vector of each ``(kind, vectors)`` it covers; never raises for the
    engine. ``restart()`` starts a fresh engine after a failure (none: a failure ends the
    run); the engines it starts are closed here, ``engine`` is the caller's to close."""
    report = RunReport(engine.name, capabilities=capabilities or Capabilities(), fail_on=fail_on)
    report.tallies = [KindTally(kind, len(vs)) for kind, vs in suite]
    started: list[Engine] = []
    try:
        _run(report, engine, suite, progress, restart, max_restarts, started)
    except (Interrupted, KeyboardInterrupt):
        report.stopped = "interrupted"
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
) -> None:
    covers = report.capabilities.covers
    for tally, (kind, vectors) in zip(report.tallies, suite, strict=True):
        if kind == "claims":
            tally.levels = dict.fromkeys(LEVELS, 0)
        for done, vector in enumerate(vectors, 1):
            if not covers(kind, vector):
                tally.not_claimed += 1
                continue
            tracked = _Tracked(engine)
            tally.asked.append(vector["id"])
            try:
                findings = check_vector(kind, vector, tracked)
            except EngineFailure as failure:
                tally.failed += 1
                report.outcomes.append(_failed(kind, vector, failure, tracked.last_request))
                if restart is None or report.restarts >= max_restarts:
                    report.failure, report.failed_vector = failure, f"{kind} {vector['id']}"
                    if restart is not None:
                        report.stopped = f"the engine failed {report.restarts + 1} time(s)"
                    return
                report.restarts += 1
                try:
                    engine = restart()
                except EngineFailure as again:
                    report.failure, report.failed_vector = again, "restart"
                    return
                started.append(engine)
                continue
            except (KeyError, TypeError, IndexError, AttributeError) as error:
                ident = vector.get("id") if isinstance(vector, dict) else None
                raise MalformedVector(f"{kind} vector {ident}: malformed ({error!r})") from None
            _tally(tally, kind, vector, findings, report)
            if progress is not None:
                progress(kind, done, len(vectors))


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


class _Tracked:
    """An engine whose last request is remembered, for the report of a failure."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.name = engine.name
        self.last_request: dict[str, Any] | None = None

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        self.last_request = request
        return self.engine.ask(request)

    def close(self) -> None:
        self.engine.close()


def check_vector(kind: str, vector: dict[str, Any], engine: Engine) -> list[Finding]:
    """What the engine's answers to one vector get wrong (empty: it agrees)."""
    return _CHECKS[kind](vector, engine)


# -- the checks --------------------------------------------------------------------------------


def _error(answer: dict[str, Any]) -> tuple[str, str] | None:
    """``(text, signature)`` when the answer is an error answer."""
    if "error" in answer:
        raw = answer.get("error")
        code = shown(raw if isinstance(raw, str) else dumps(raw), 40)
        message = shown(str(answer.get("message", "")), 200)
        return f"the engine answered an error: {code} ({message})", f"error {code}"
    return None


def _text(formation: Any) -> str:
    if isinstance(formation, str):
        return shown(formation, 40)
    return "none" if formation is None else f"nonsense {shown(dumps(formation), 80)}"


def _formation_kind(formation: Any) -> str:
    return _text(formation).split(" ")[0]


@dataclass(frozen=True)
class _Exchange:
    """One request to the engine and its answer, with what the vector expected of it."""

    kind: str
    request: dict[str, Any]
    expected: dict[str, Any]
    answer: dict[str, Any]

    def finding(self, text: str, signature: str, level: str = "verdict") -> Finding:
        """A finding on this exchange; ``signature`` is prefixed with the vector's kind."""
        signature = f"{self.kind}: {signature}"
        return Finding(text, signature, level, self.request, self.expected, self.answer)

    @property
    def error(self) -> Finding | None:
        """The finding of an answer that is an error (or not an answer), if it is one."""
        error = _error(self.answer)
        return None if error is None else self.finding(*error)


def _ask(engine: Engine, kind: str, request: dict[str, Any], expected: dict[str, Any]) -> _Exchange:
    return _Exchange(kind, request, expected, engine.ask(request))


def _check_claims(vector: dict[str, Any], engine: Engine) -> list[Finding]:
    request = {"type": "claim", **{k: vector[k] for k in ("position", "claimer", "stones")}}
    expect = vector["expect"]
    asked = _ask(engine, "claims", request, {"stones": expect})
    answer, finding = asked.answer, asked.finding
    if asked.error is not None:
        return [asked.error]
    got = answer.get("stones")
    if not isinstance(got, list) or not all(isinstance(v, dict) for v in got):
        return [
            finding(
                f"nonsense answer: 'stones' is not a list of verdicts: {shown(dumps(answer))}",
                "not a list of verdicts",
            )
        ]
    if len(got) != len(expect):
        return [
            finding(
                f"{len(expect)} verdicts expected, the engine gave {len(got)}",
                "wrong number of verdicts",
            )
        ]
    found = []
    for want, have in zip(expect, got, strict=True):
        n = want["stone"]
        if have.get("stone") != n:
            text = f"verdicts out of order: stone {n} expected, {_text(have.get('stone'))}"
            found.append(finding(text, "verdicts out of order"))
            continue
        verdict, reason = _text(have.get("verdict")), _text(have.get("reason"))
        if have.get("verdict") != want["verdict"]:
            found.append(
                finding(
                    f"stone {n} verdict: expected {want['verdict']} ({want['reason']}), "
                    f"engine {verdict} ({reason})",
                    f"{want['reason']} → {verdict} {reason}",
                )
            )
        elif have.get("reason") != want["reason"]:
            found.append(
                finding(
                    f"stone {n} reason: expected {want['reason']}, engine {reason}",
                    f"{want['reason']} → {reason}",
                    "reason",
                )
            )
        for key, words in (("theirs", "opponent's best"), ("witness", "witness formation")):
            if have.get(key) != want[key]:
                want_text, have_text = _text(want[key]), _text(have.get(key))
                found.append(
                    finding(
                        f"stone {n} {words}: expected {want_text}, engine {have_text}",
                        f"{want['reason']}: {words} {_formation_kind(want[key])} → "
                        f"{_formation_kind(have.get(key))}",
                        "all",
                    )
                )
    return sorted(found, key=lambda f: LEVELS.index(f.level))


def _check_formations(vector: dict[str, Any], engine: Engine) -> list[Finding]:
    request = {"type": "formation", "cards": vector["cards"], "totals_only": vector["totals_only"]}
    asked = _ask(engine, "formations", request, {"formation": vector["expect"]})
    if asked.error is not None:
        return [asked.error]
    if asked.answer.get("formation") != vector["expect"]:
        got = _text(asked.answer.get("formation"))
        text = f"formation: expected {_text(vector['expect'])}, engine {got}"
        return [
            asked.finding(text, f"{_formation_kind(vector['expect'])} → {_formation_kind(got)}")
        ]
    return []


def _check_provable(vector: dict[str, Any], engine: Engine) -> list[Finding]:
    request = {"type": "provable", "position": vector["position"], "claimer": vector["claimer"]}
    asked = _ask(engine, "provable", request, {"stones": vector["expect"]})
    if asked.error is not None:
        return [asked.error]
    got = asked.answer.get("stones")
    if not isinstance(got, list) or not all(type(n) is int for n in got):
        text = f"nonsense answer: 'stones' is not a list of stones: {shown(dumps(asked.answer))}"
        return [asked.finding(text, "not a list of stones")]
    if sorted(got) == vector["expect"]:
        return []
    missing = sorted(set(vector["expect"]) - set(got))
    extra = sorted(set(got) - set(vector["expect"]))
    parts = ([f"provable but not listed: {missing}"] if missing else []) + (
        [f"listed but not provable: {extra}"] if extra else []
    )
    signature = " and ".join(
        w for w, s in (("a provable stone missed", missing), ("a stone wrongly listed", extra)) if s
    )
    return [asked.finding(f"stones {'; '.join(parts)}", signature or "stones listed twice")]


def position_differences(expected: dict[str, Any], got: Any) -> list[str]:
    """What differs between a position and the one an engine returned (empty: nothing); the
    engine's is read as any position is, so that only its content counts, not its layout."""
    if not isinstance(got, dict):
        return ["no position"]
    try:
        have = game_data(Game.from_dict(got))
    except (InvalidPositionError, InvalidNotationError, TypeError, ValueError, KeyError) as error:
        return [f"an unreadable position ({shown(str(error), 120)})"]
    differs = [
        key
        # The turn's counters first: an engine that plays no move at all differs there first.
        for key in ("step", "phase", "to_move", "variant", "recruited", "discard", "hands", "decks")
        if have.get(key) != expected.get(key)
    ]
    stones = list(zip(expected.get("stones", []), have.get("stones", []), strict=False))
    aspects = (
        ("cards on the stones", ("first", "second")),
        ("completion order", ("completed_at",)),
        ("claimed stones", ("claimed_by",)),
        ("combat modes", ("mud_fight", "blind_mans_bluff")),
    )
    for words, keys in aspects:
        if any(want.get(k) != own.get(k) for want, own in stones for k in keys):
            differs.append(words)
    if have.get("outcome") != expected.get("outcome"):
        differs.append("outcome")
    return differs


def _check_moves(vector: dict[str, Any], engine: Engine) -> list[Finding]:
    found = []
    position = vector["position"]
    after = vector.get("after") or [None] * len(vector["accepted"])
    for move, then in zip(vector["accepted"], after, strict=True):
        request = {"type": "apply", "position": position, "move": move}
        asked = _ask(engine, "moves", request, {"ok": True, **(then or {})})
        answer = asked.answer
        if answer.get("ok") is not True:
            error = _error(answer)
            why = error[0] if error else f"refused it ({_text(answer.get('rule'))})"
            signature = error[1] if error else f"a legal move refused ({_text(answer.get('rule'))})"
            found.append(asked.finding(f"'{move}' is legal: the engine {why}", signature))
            continue
        if then is None:
            continue
        differs = position_differences(then["position"], answer.get("position"))
        if answer.get("points") != then["points"]:
            differs.append("points")
        if differs:
            text = f"'{move}': the position the engine returned differs in {', '.join(differs)}"
            # The first difference only: one bug, one group, whatever else follows.
            found.append(asked.finding(text, f"the position after a move: {differs[0]} differs"))
    for item in vector["refused"]:
        move, rule = item["move"], item["rule"]
        request = {"type": "apply", "position": position, "move": move}
        asked = _ask(engine, "moves", request, {"ok": False, "rule": rule})
        if asked.answer.get("ok") is not False:
            error = _error(asked.answer)
            why = error[0] if error else "accepted it"
            text = f"'{move}' breaks rule {rule}: the engine {why}"
            found.append(asked.finding(text, f"{rule} → {error[1] if error else 'accepted'}"))
        elif asked.answer.get("rule") != rule:
            named = _text(asked.answer.get("rule"))
            text = f"'{move}' breaks rule {rule}: the engine named {named}"
            found.append(asked.finding(text, f"{rule} → {named}"))
    return found


def _check_games(vector: dict[str, Any], engine: Engine) -> list[Finding]:
    position = vector["position"]
    full = vector.get("legal")
    answer: dict[str, Any] = {}
    for step, move in enumerate(vector["moves"]):
        count, digest = vector["legal_counts"][step], vector["legal_digests"][step]
        expected: dict[str, Any] = (
            {"moves": full[step]} if full is not None else {"count": count, "digest": digest}
        )
        listed = _ask(engine, "games", {"type": "legal", "position": position}, expected)
        error = _error(listed.answer)
        if error:
            return [listed.finding(f"step {step}: {error[0]}", error[1])]
        moves = listed.answer.get("moves")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            text = f"step {step}: nonsense answer: 'moves' is not a list of moves"
            return [listed.finding(text, "not a list of moves")]
        if len(moves) != count or moves_digest(moves) != digest:
            problem = (
                f"step {step} (before '{move}'): {count} legal moves expected (digest {digest}), "
                f"the engine listed {len(moves)} (digest {moves_digest(moves)})"
            )
            if full is not None:
                missing = sorted(set(full[step]) - set(moves))
                extra = sorted(set(moves) - set(full[step]))
                problem += f"; missing {missing[:8]}, extra {shown(dumps(extra[:8]))}"
            phase = position.get("phase") if isinstance(position, dict) else None
            return [listed.finding(problem, f"the legal moves at a {_text(phase)} step")]
        request = {"type": "apply", "position": position, "move": move}
        applied = _ask(engine, "games", request, {"ok": True})
        answer = applied.answer
        if answer.get("ok") is not True or not isinstance(answer.get("position"), dict):
            error = _error(answer)
            why = error[0] if error else f"refused it ({_text(answer.get('rule'))})"
            text = f"step {step}: '{move}' is legal: the engine {why}"
            return [applied.finding(text, "a legal move refused")]
        position = answer["position"]
    found = []
    outcome = position.get("outcome")
    if outcome != vector["outcome"]:
        text = f"outcome: expected {dumps(vector['outcome'])}, engine {shown(dumps(outcome))}"
        found.append(Finding(text, "games: the outcome", "verdict"))
    if answer.get("points") != vector["points"]:
        text = (
            f"points: expected {dumps(vector['points'])}, engine "
            f"{shown(dumps(answer.get('points')))}"
        )
        found.append(Finding(text, "games: the points", "verdict"))
    return found


def _check_perft(vector: dict[str, Any], engine: Engine) -> list[Finding]:
    found = []
    deepest = len(vector["nodes"])
    for depth, nodes in enumerate(vector["nodes"], 1):
        split = depth == deepest
        request = {"type": "perft", "position": vector["position"], "depth": depth, "divide": split}
        expected: dict[str, Any] = {
            "nodes": nodes,
            **({"divide": vector["divide"]} if split else {}),
        }
        asked = _ask(engine, "perft", request, expected)
        answer = asked.answer
        error = _error(answer)
        if error:
            return [asked.finding(f"perft {depth}: {error[0]}", error[1])]
        if answer.get("nodes") != nodes:
            text = f"perft {depth}: expected {nodes}, engine {_text(answer.get('nodes'))}"
            found.append(asked.finding(text, f"depth {depth}"))
        if split and answer.get("divide") != vector["divide"]:
            got = answer.get("divide")
            got = got if isinstance(got, dict) else {}
            wrong = [
                f"{m}: {n} != {_text(got.get(m))}"
                for m, n in vector["divide"].items()
                if got.get(m) != n
            ]
            extra = sorted(shown(m, 60) for m in set(got) - set(vector["divide"]))
            text = f"divide {depth}: first moves differing {wrong[:6]}, extra {extra[:6]}"
            found.append(asked.finding(text, f"divide {depth}"))
    return found


_CHECKS: dict[str, Callable[[dict[str, Any], Engine], list[Finding]]] = {
    "claims": _check_claims,
    "formations": _check_formations,
    "provable": _check_provable,
    "moves": _check_moves,
    "games": _check_games,
    "perft": _check_perft,
}
