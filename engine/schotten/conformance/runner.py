"""Driving an engine through the suite: every vector asked, every answer compared.

Each kind has its check; a check returns what disagrees (nothing when the engine agrees) and
raises :class:`~schotten.conformance.client.EngineFailure` when the engine crashes, hangs or
speaks out of step, which ends the run (what was not asked is counted as not run).

>>> from schotten.conformance.client import LocalEngine
>>> vector = {"id": "f1", "pins": "-", "cards": ["red 1", "red 2", "red 3"],
...           "totals_only": False, "expect": "colour-run 6"}
>>> check_vector("formations", vector, LocalEngine())
[]
>>> check_vector("formations", {**vector, "expect": "run 6"}, LocalEngine())
['formation: expected run 6, engine colour-run 6']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from schotten.board import Player
from schotten.cards import parse_card
from schotten.claims import Reason
from schotten.conformance.casefile import claim_case, move_case
from schotten.conformance.client import Engine, EngineFailure
from schotten.conformance.wire import dumps, moves_digest
from schotten.errors import InvalidNotationError, InvalidPositionError, SchottenError
from schotten.game import Game
from schotten.position_data import board_from_data


class MalformedVector(SchottenError, ValueError):
    """A vector of the suite that lacks what its kind needs (a damaged or foreign file)."""


@dataclass(frozen=True)
class Disagreement:
    kind: str
    vector: str
    pins: str
    problems: tuple[str, ...]
    case: str | None  # the position as a case file, when it can be one
    position: str | None  # the position as one line of JSON, when it cannot

    def report(self) -> str:
        lines = [f"DISAGREE {self.kind} {self.vector}: {self.pins}"]
        lines += [f"  - {p}" for p in self.problems]
        if self.case is not None:
            name = self.vector.replace(":", "-").replace("#", "-")
            lines.append(f"  as a case (cases/{name}.yaml; then `schotten approve {name}`):")
            lines += [f"    {line}" for line in self.case.splitlines()]
        elif self.position is not None:
            lines.append(f"  position: {self.position}")
        return "\n".join(lines)


@dataclass
class KindTally:
    kind: str
    vectors: int
    agreed: int = 0
    disagreed: int = 0

    @property
    def not_run(self) -> int:
        return self.vectors - self.agreed - self.disagreed


@dataclass
class RunReport:
    engine: str
    tallies: list[KindTally] = field(default_factory=list)
    disagreements: list[Disagreement] = field(default_factory=list)
    failure: EngineFailure | None = None
    failed_vector: str | None = None

    @property
    def ok(self) -> bool:
        return self.failure is None and not self.disagreements

    def table(self) -> str:
        rows = [("kind", "vectors", "agree", "disagree", "not run")]
        for t in self.tallies:
            rows.append((t.kind, str(t.vectors), str(t.agreed), str(t.disagreed), str(t.not_run)))
        widths = [max(len(r[i]) for r in rows) for i in range(5)]
        lines = []
        for row in rows:
            cells = [row[0].ljust(widths[0])] + [
                c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=False)
            ]
            lines.append("  ".join(cells))
        return "\n".join(lines)


def run(
    engine: Engine,
    suite: Sequence[tuple[str, Sequence[dict[str, Any]]]],
    progress: Callable[[str, int, int], None] | None = None,
) -> RunReport:
    """Ask ``engine`` every vector of each ``(kind, vectors)``; never raises for the engine."""
    report = RunReport(engine.name)
    report.tallies = [KindTally(kind, len(vs)) for kind, vs in suite]
    for tally, (kind, vectors) in zip(report.tallies, suite, strict=True):
        for done, vector in enumerate(vectors, 1):
            try:
                problems = check_vector(kind, vector, engine)
            except EngineFailure as failure:
                report.failure, report.failed_vector = failure, f"{kind} {vector['id']}"
                return report
            except (KeyError, TypeError, IndexError, AttributeError) as error:
                ident = vector.get("id") if isinstance(vector, dict) else None
                raise MalformedVector(f"{kind} vector {ident}: malformed ({error!r})") from None
            if problems:
                tally.disagreed += 1
                report.disagreements.append(_disagreement(kind, vector, problems))
            else:
                tally.agreed += 1
            if progress is not None:
                progress(kind, done, len(vectors))
    return report


def check_vector(kind: str, vector: dict[str, Any], engine: Engine) -> list[str]:
    """What the engine's answers to one vector get wrong (empty: it agrees)."""
    return _CHECKS[kind](vector, engine)


# -- the checks --------------------------------------------------------------------------------


def _error(answer: dict[str, Any]) -> str | None:
    if "error" in answer:
        return f"the engine answered an error: {answer.get('error')} ({answer.get('message', '')})"
    return None


def _text(formation: Any) -> str:
    if isinstance(formation, str):
        return formation
    return "none" if formation is None else f"nonsense {dumps(formation)[:80]}"


def _check_claims(vector: dict[str, Any], engine: Engine) -> list[str]:
    request = {k: vector[k] for k in ("position", "claimer", "stones")}
    answer = engine.ask({"type": "claim", **request})
    error = _error(answer)
    if error:
        return [error]
    got = answer.get("stones")
    expect = vector["expect"]
    if not isinstance(got, list) or not all(isinstance(v, dict) for v in got):
        return [f"nonsense answer: 'stones' is not a list of verdicts: {dumps(answer)[:200]}"]
    if len(got) != len(expect):
        return [f"{len(expect)} verdicts expected, the engine gave {len(got)}"]
    problems = []
    for want, have in zip(expect, got, strict=True):
        n = want["stone"]
        if have.get("stone") != n:
            problems.append(f"verdicts out of order: stone {n} expected, {have.get('stone')!r}")
            continue
        for key in ("verdict", "reason"):
            if have.get(key) != want[key]:
                problems.append(f"stone {n} {key}: expected {want[key]}, engine {have.get(key)}")
        for key, words in (("theirs", "opponent's best"), ("witness", "witness formation")):
            if have.get(key) != want[key]:
                problems.append(
                    f"stone {n} {words}: expected {_text(want[key])}, engine {_text(have.get(key))}"
                )
    return problems


def _check_formations(vector: dict[str, Any], engine: Engine) -> list[str]:
    answer = engine.ask(
        {"type": "formation", "cards": vector["cards"], "totals_only": vector["totals_only"]}
    )
    error = _error(answer)
    if error:
        return [error]
    if answer.get("formation") != vector["expect"]:
        got = _text(answer.get("formation"))
        return [f"formation: expected {_text(vector['expect'])}, engine {got}"]
    return []


def _check_moves(vector: dict[str, Any], engine: Engine) -> list[str]:
    problems = []
    position = vector["position"]
    for move in vector["accepted"]:
        answer = engine.ask({"type": "apply", "position": position, "move": move})
        if answer.get("ok") is not True:
            why = _error(answer) or f"refused it ({answer.get('rule')})"
            problems.append(f"'{move}' is legal: the engine {why}")
    for item in vector["refused"]:
        move, rule = item["move"], item["rule"]
        answer = engine.ask({"type": "apply", "position": position, "move": move})
        if answer.get("ok") is not False:
            why = _error(answer) or "accepted it"
            problems.append(f"'{move}' breaks rule {rule}: the engine {why}")
        elif answer.get("rule") != rule:
            problems.append(f"'{move}' breaks rule {rule}: the engine named {answer.get('rule')}")
    return problems


def _check_games(vector: dict[str, Any], engine: Engine) -> list[str]:
    position = vector["position"]
    full = vector.get("legal")
    answer: dict[str, Any] = {}
    for step, move in enumerate(vector["moves"]):
        listed = engine.ask({"type": "legal", "position": position})
        error = _error(listed)
        if error:
            return [f"step {step}: {error}"]
        moves = listed.get("moves")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            return [f"step {step}: nonsense answer: 'moves' is not a list of moves"]
        count, digest = vector["legal_counts"][step], vector["legal_digests"][step]
        if len(moves) != count or moves_digest(moves) != digest:
            problem = (
                f"step {step} (before '{move}'): {count} legal moves expected (digest {digest}), "
                f"the engine listed {len(moves)} (digest {moves_digest(moves)})"
            )
            if full is not None:
                missing = sorted(set(full[step]) - set(moves))
                extra = sorted(set(moves) - set(full[step]))
                problem += f"; missing {missing[:8]}, extra {extra[:8]}"
            return [problem]
        answer = engine.ask({"type": "apply", "position": position, "move": move})
        if answer.get("ok") is not True or not isinstance(answer.get("position"), dict):
            why = _error(answer) or f"refused it ({answer.get('rule')})"
            return [f"step {step}: '{move}' is legal: the engine {why}"]
        position = answer["position"]
    problems = []
    outcome = position.get("outcome")
    if outcome != vector["outcome"]:
        problems.append(f"outcome: expected {vector['outcome']}, engine {outcome}")
    if answer.get("points") != vector["points"]:
        problems.append(f"points: expected {vector['points']}, engine {answer.get('points')}")
    return problems


def _check_perft(vector: dict[str, Any], engine: Engine) -> list[str]:
    problems = []
    deepest = len(vector["nodes"])
    for depth, nodes in enumerate(vector["nodes"], 1):
        split = depth == deepest
        answer = engine.ask(
            {"type": "perft", "position": vector["position"], "depth": depth, "divide": split}
        )
        error = _error(answer)
        if error:
            return [f"perft {depth}: {error}"]
        if answer.get("nodes") != nodes:
            problems.append(f"perft {depth}: expected {nodes}, engine {answer.get('nodes')}")
        if split and answer.get("divide") != vector["divide"]:
            got = answer.get("divide")
            got = got if isinstance(got, dict) else {}
            wrong = [
                f"{m}: {n} != {got.get(m)}" for m, n in vector["divide"].items() if got.get(m) != n
            ]
            extra = sorted(set(got) - set(vector["divide"]))
            problems.append(f"divide {depth}: first moves differing {wrong[:6]}, extra {extra[:6]}")
    return problems


_CHECKS: dict[str, Callable[[dict[str, Any], Engine], list[str]]] = {
    "claims": _check_claims,
    "formations": _check_formations,
    "moves": _check_moves,
    "games": _check_games,
    "perft": _check_perft,
}


# -- disagreements as case files ---------------------------------------------------------------


def _disagreement(kind: str, vector: dict[str, Any], problems: list[str]) -> Disagreement:
    case = None
    position = vector.get("position")
    what = "; ".join(problems)
    try:
        if kind == "claims":
            board = board_from_data(vector["position"])
            claimer = Player.FIRST if vector["claimer"] == "first" else Player.SECOND
            hand = vector["position"].get("hands", {}).get(str(claimer), [])
            rules = sorted({str(Reason(v["reason"]).rule) for v in vector["expect"]})
            case = claim_case(
                vector["id"],
                board,
                claimer,
                vector["stones"],
                [parse_card(c) for c in hand],
                what,
                rules,
            )
        elif kind == "moves":
            game = Game.from_dict(vector["position"])
            # A play-on plays its moves in turn: the refused ones first (they change nothing),
            # then the first legal move the engine refused, if any.
            moves = [r["move"] for r in vector["refused"]]
            moves += [m for m in vector["accepted"] if f"'{m}' is legal" in what][:1]
            rules = sorted({r["rule"] for r in vector["refused"]}) or ["turn-order"]
            case = move_case(vector["id"], game, moves, what, ", ".join(rules))
    except (InvalidPositionError, InvalidNotationError, KeyError, ValueError):
        case = None
    return Disagreement(
        kind,
        vector["id"],
        vector["pins"],
        tuple(problems),
        case,
        None if case is not None or position is None else dumps(position),
    )
