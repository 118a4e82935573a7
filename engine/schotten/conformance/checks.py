"""Comparing an engine's answers to one vector: each kind of the suite has its check.

A check asks the engine what the vector asks and returns its :class:`Finding` s (nothing when
the engine agrees); it raises :class:`~schotten.conformance.client.EngineFailure` when the engine
crashes, hangs or answers nothing readable, which :mod:`~schotten.conformance.runner` handles.
Claims agree at three levels: the verdict, then the reason, then the formations (the opponent's
best and the witness); each finding says the coarsest level it breaks.

>>> from schotten.conformance.client import LocalEngine
>>> vector = {"id": "f1", "pins": "-", "cards": ["red 1", "red 2", "red 3"],
...           "totals_only": False, "expect": "colour-run 6"}
>>> check_vector("formations", vector, LocalEngine())
[]
>>> [f.text for f in check_vector("formations", {**vector, "expect": "run 6"}, LocalEngine())]
['formation: expected run 6, engine colour-run 6']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from schotten.conformance.client import Engine, ask_many
from schotten.conformance.outcomes import differences
from schotten.conformance.shown import shown
from schotten.conformance.wire import dumps, game_data, moves_digest
from schotten.errors import InvalidNotationError, InvalidPositionError
from schotten.game import Game

LEVELS = ("verdict", "reason", "all")
"""The levels of agreement of a claim, from the coarsest; ``all`` adds the formations."""


@dataclass(frozen=True)
class Finding:
    """One thing the engine got wrong, with the exchange that shows it."""

    text: str
    signature: str  # what the finding has in common with others of the same bug
    level: str = "all"  # the coarsest level of agreement it breaks (claims)
    request: dict[str, Any] | None = None
    expected: dict[str, Any] | None = None
    answer: dict[str, Any] | None = None


def check_vector(
    kind: str, vector: dict[str, Any], engine: Engine, *, incremental: bool = False
) -> list[Finding]:
    """What the engine's answers to one vector get wrong (empty: it agrees); ``incremental``:
    the engine keeps a game between requests (``start``, ``step``), so a game is played on it."""
    if kind == "games" and incremental:
        return _check_games_kept(vector, engine)
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


def single_request(kind: str, vector: dict[str, Any]) -> dict[str, Any] | None:
    """The one request a vector of ``kind`` asks, when its kind asks one request a vector
    (claims, formations, provable); ``None`` for the others. Known before any answer, so a
    runner may send it ahead."""
    if kind == "claims":
        return {"type": "claim", **{k: vector[k] for k in ("position", "claimer", "stones")}}
    if kind == "formations":
        return {"type": "formation", "cards": vector["cards"], "totals_only": vector["totals_only"]}
    if kind == "provable":
        return {"type": "provable", "position": vector["position"], "claimer": vector["claimer"]}
    if kind == "outcomes":
        return {"type": "outcome", "position": vector["position"], "actions": vector["actions"]}
    return None


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
                # An engine that never gives it (a capability it lacks) is one group, whatever
                # the reason and the formation expected.
                signature = (
                    f"{words} not given"
                    if have.get(key) is None
                    else f"{want['reason']}: {words} {_formation_kind(want[key])} → "
                    f"{_formation_kind(have.get(key))}"
                )
                found.append(
                    finding(
                        f"stone {n} {words}: expected {want_text}, engine {have_text}",
                        signature,
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
    """A game on an engine that answers each request alone: the position sent at every move,
    the legal moves listed, the move applied, the position it answers sent next."""
    position = vector["position"]
    full = vector.get("legal")
    answer: dict[str, Any] = {}
    for step, move in enumerate(vector["moves"]):
        count, digest = vector["legal_counts"][step], vector["legal_digests"][step]
        expected: dict[str, Any] = (
            {"moves": full[step]} if full is not None else {"count": count, "digest": digest}
        )
        listed = _ask(engine, "games", {"type": "legal", "position": position}, expected)
        wrong = _legal_finding(listed, step, move, vector)
        if wrong is not None:
            return [wrong]
        request = {"type": "apply", "position": position, "move": move}
        applied = _ask(engine, "games", request, {"ok": True})
        answer = applied.answer
        if answer.get("ok") is not True or not isinstance(answer.get("position"), dict):
            return [_refused(applied, step, move)]
        position = answer["position"]
    return _ending(vector, position.get("outcome"), answer.get("points"))


def _refused(applied: _Exchange, step: int, move: str) -> Finding:
    error = _error(applied.answer)
    why = error[0] if error else f"refused it ({_text(applied.answer.get('rule'))})"
    return applied.finding(
        f"step {step}: '{move}' is legal: the engine {why}", "a legal move refused"
    )


def _legal_finding(
    asked: _Exchange, step: int, move: str, vector: dict[str, Any]
) -> Finding | None:
    """What is wrong with the legal moves listed before ``step`` (``None``: nothing)."""
    error = _error(asked.answer)
    if error:
        return asked.finding(f"step {step}: {error[0]}", error[1])
    moves = asked.answer.get("moves")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        return asked.finding(
            f"step {step}: nonsense answer: 'moves' is not a list of moves", "not a list of moves"
        )
    count, digest = vector["legal_counts"][step], vector["legal_digests"][step]
    if len(moves) == count and moves_digest(moves) == digest:
        return None
    problem = (
        f"step {step} (before '{move}'): {count} legal moves expected (digest {digest}), "
        f"the engine listed {len(moves)} (digest {moves_digest(moves)})"
    )
    full = vector.get("legal")
    if full is not None:
        missing = sorted(set(full[step]) - set(moves))
        extra = sorted(set(moves) - set(full[step]))
        problem += f"; missing {missing[:8]}, extra {shown(dumps(extra[:8]))}"
    # Grouped by the move's first word (play, claim, draw, pass, return): the step it is at.
    return asked.finding(problem, f"the legal moves before a {shown(move.split(' ')[0], 20)} move")


def _check_games_kept(vector: dict[str, Any], engine: Engine) -> list[Finding]:
    """A game on an engine that keeps it: ``start`` from the vector's position, then one
    ``step`` a move, all sent at once (each request is known before any answer: the moves are
    the vector's). The same checks as a game sent whole at every move: the legal moves before
    each move, the move accepted, the outcome and the points at the end."""
    moves = vector["moves"]
    full = vector.get("legal")
    requests = [
        {"type": "start", "position": vector["position"]},
        *({"type": "step", "move": move} for move in moves),
    ]
    answers = ask_many(engine, requests)
    last: dict[str, Any] = {}
    for step, move in enumerate(moves):
        expected: dict[str, Any] = (
            {"moves": full[step]}
            if full is not None
            else {"count": vector["legal_counts"][step], "digest": vector["legal_digests"][step]}
        )
        listed = _Exchange("games", requests[step], expected, answers[step])
        wrong = _legal_finding(listed, step, move, vector)
        if wrong is not None:
            return [wrong]
        applied = _Exchange("games", requests[step + 1], {"ok": True}, answers[step + 1])
        last = applied.answer
        if last.get("ok") is not True:
            return [_refused(applied, step, move)]
    return _ending(vector, last.get("outcome"), last.get("points"))


def _ending(vector: dict[str, Any], outcome: Any, points: Any) -> list[Finding]:
    found = []
    if outcome != vector["outcome"]:
        text = f"outcome: expected {dumps(vector['outcome'])}, engine {shown(dumps(outcome))}"
        found.append(Finding(text, "games: the outcome", "verdict"))
    if points != vector["points"]:
        text = f"points: expected {dumps(vector['points'])}, engine {shown(dumps(points))}"
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


def _check_outcomes(vector: dict[str, Any], engine: Engine) -> list[Finding]:
    request = {"type": "outcome", "position": vector["position"], "actions": vector["actions"]}
    asked = _ask(engine, "outcomes", request, vector["expect"])
    if asked.error is not None:
        return [asked.error]
    return [asked.finding(*found) for found in differences(vector["expect"], asked.answer)]


_CHECKS: dict[str, Callable[[dict[str, Any], Engine], list[Finding]]] = {
    "claims": _check_claims,
    "formations": _check_formations,
    "provable": _check_provable,
    "moves": _check_moves,
    "games": _check_games,
    "perft": _check_perft,
    "outcomes": _check_outcomes,
}
