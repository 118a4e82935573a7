"""``schotten conformance run``: the reference engine passes through the protocol; engines with
one classic bug each fail on the vector made for it; crashing, hanging and babbling engines are
reported within the time limit, never with a traceback of ours."""

from __future__ import annotations

import functools
import hashlib
import io
import json
import re
import shlex
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from committed_suite import committed
from hypothesis import given, settings
from hypothesis import strategies as st
from strength import fuzz_examples

from schotten.casebook import run_case
from schotten.casebook.approve import approve
from schotten.casebook.build import load_case
from schotten.cli import EXIT_FAILED, EXIT_OK, main
from schotten.cli.conformance import select
from schotten.cli.progress import Progress
from schotten.conformance.cases import case_text
from schotten.conformance.client import LocalEngine
from schotten.conformance.runner import run
from schotten.conformance.wire import dumps

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "conformance"
ENGINES = Path(__file__).parent / "conformance_engines"
SERVE = f"{shlex.quote(sys.executable)} -m schotten conformance serve"
EXAMPLES = fuzz_examples(60)  # a long campaign: 20000


def engine(name: str) -> str:
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(ENGINES / f'{name}.py'))}"


EXIT_INCOMPLETE = 2


def conformance(*argv: str) -> int:
    return main(["conformance", "run", "--suite", str(SUITE), *argv])


@pytest.fixture(autouse=True)
def _no_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)


def test_the_reference_engine_passes_through_the_protocol(
    capsys: pytest.CaptureFixture[str],
) -> None:
    kinds = ["--kind", "claims", "--kind", "formations", "--kind", "moves"]
    status = conformance("--engine", SERVE, *kinds, "--limit", "40", "--timeout", "30")
    out, err = capsys.readouterr()
    assert status == EXIT_OK, out
    assert "PASS: conformant on claims, formations and moves: 120/120 vectors agree (" in out
    assert "did not agree" not in out
    assert "engine: schotten (reference)" in err
    assert "claims: 40/40" in err  # not a terminal: plain progress lines
    # Whole games and perft cost more: two of each; the provable stones, forty.
    kinds = ["--kind", "games", "--kind", "perft", "--kind", "provable"]
    status = conformance("--engine", SERVE, *kinds, "--limit", "2")
    out = capsys.readouterr().out
    assert status == EXIT_OK, out
    assert "PASS: conformant on provable, games and perft: 6/6 vectors agree" in out


# (engine, its bug's vectors, vectors it gets right, what it is told)
CLASSIC_BUGS = [
    (
        "hand_left_out",
        "case:hand-is-not-proof",
        "case:two-stones-in-one-claim",
        "stone 4 verdict: expected refused (opponent-can-beat), engine granted (unbeatable)",
    ),
    (
        "ties_to_claimer",
        "case:equal-sums-opponent-completed-first",
        "case:equal-sums-you-completed-first",
        "verdict: expected refused (tie-completed-later), engine granted (tie-completed-first)",
    ),
    (
        "greedy_colour",
        "case:mud-fight-three-cards-against-you",
        "case:colour-beats-run",
        "opponent's best: expected colour",
    ),
    (
        "cards_left_off_by_one",
        "case:four-of-a-kind-with-exactly-two-fives-unseen",
        "case:four-of-a-kind-with-one-five-unseen",
        "verdict: expected refused (opponent-can-beat), engine granted (unbeatable)",
    ),
]


@pytest.mark.parametrize(("name", "caught", "right", "problem"), CLASSIC_BUGS)
def test_each_classic_bug_is_caught_by_its_vector(
    capsys: pytest.CaptureFixture[str], name: str, caught: str, right: str, problem: str
) -> None:
    status = conformance(
        "--engine", engine(name), "--kind", "claims", "--vector", caught, "--vector", right
    )
    out = capsys.readouterr().out
    assert status == EXIT_FAILED
    assert f"  smallest: claims {caught} (" in out
    assert right not in out
    assert problem in out
    assert "FAIL on claims: 1/2 vectors agree" in out
    # The reference engine agrees with both vectors: the disagreement is the bug's.
    vectors = [v for v in committed("claims") if v["id"] in (caught, right)]
    assert run(LocalEngine(), [("claims", vectors)]).ok


def test_runs_that_wrap_from_9_to_1_are_caught_by_the_formations(
    capsys: pytest.CaptureFixture[str],
) -> None:
    wrap = engine("wrap_around")
    status = conformance("--engine", wrap, "--kind", "formations", "--limit", "150")
    out = capsys.readouterr().out
    assert status == EXIT_FAILED
    examples = [line for line in out.splitlines() if line.startswith("  smallest: formations")]
    assert examples
    assert all("no run wraps from 9 to 1" in line for line in examples)


def test_a_disagreement_is_written_as_a_case_on_request(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "cases"
    bug = engine("hand_left_out")
    conformance("--engine", bug, "--vector", "case:hand-is-not-proof", "--cases", str(folder))
    assert "yaml" not in capsys.readouterr().out  # printed only as a request line
    text = (folder / "case-hand-is-not-proof.yaml").read_text(encoding="utf-8")
    assert not re.search("^ *(fr|es):", text, re.M)  # facts only: the texts are an editor's
    # An editor writes the texts; then it is a case like any other.
    texts = "situation:\n  fr: Trois 1.\n  es: Tres 1.\nwhy:\n  fr: La main.\n  es: La mano.\n"
    path = tmp_path / "case.yaml"
    path.write_text(texts + text, encoding="utf-8")
    approve(load_case(path))
    result = run_case(load_case(path))
    assert result.ok
    assert [str(v.reason) for v in result.verdicts] == ["opponent-can-beat"]


def test_a_move_disagreement_becomes_a_play_on_case(tmp_path: Path) -> None:
    vectors = [v for v in committed("moves") if v["refused"] and v["id"].startswith("m")]
    vector = vectors[0]
    wrong = {**vector, "refused": [{**vector["refused"][0], "rule": "game-over"}]}
    (outcome,) = run(LocalEngine(), [("moves", [wrong])]).disagreements
    text = case_text(outcome)
    assert text is not None
    path = tmp_path / "move.yaml"
    texts = (
        "situation:\n  fr: Un coup.\n  es: Una jugada.\nwhy:\n  fr: La règle.\n  es: La regla.\n"
    )
    path.write_text(texts + text + "\n", encoding="utf-8")
    approve(load_case(path))
    steps = run_case(load_case(path)).computed.play_on
    assert steps is not None
    assert list(steps.steps) == [f"illegal {vector['refused'][0]['rule']}"]


@pytest.mark.parametrize(
    ("name", "what", "detail"),
    [
        ("hangs", "HUNG", "no answer within 1 s to a claim request"),
        ("crashes", "CRASHED", "engine bug: claims are not implemented"),
        ("nonsense", "NONSENSE", "not JSON (not JSON (Expecting value)): GRANTED!!"),
    ],
)
def test_broken_engines_are_reported_within_the_time_limit(
    capsys: pytest.CaptureFixture[str], name: str, what: str, detail: str
) -> None:
    start = time.monotonic()
    status = conformance(
        "--engine", engine(name), "--kind", "claims", "--timeout", "1", "--max-restarts", "1"
    )
    elapsed = time.monotonic() - start
    out = capsys.readouterr().out
    assert status == EXIT_INCOMPLETE
    assert f"ENGINE {what} at claims case:" in out
    assert detail in out
    assert "Traceback" not in out
    assert elapsed < 20


def test_an_engine_silent_at_start_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    silent = f"{shlex.quote(sys.executable)} -c 'import time; time.sleep(60)'"
    status = conformance("--engine", silent, "--start-timeout", "1")
    out = capsys.readouterr().out
    assert status == EXIT_INCOMPLETE
    assert "ENGINE HUNG at hello: no answer within 1 s to a hello request" in out


def test_an_engine_that_cannot_start_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert conformance("--engine", "/no/such/engine --flag") == EXIT_INCOMPLETE
    assert "cannot start the engine '/no/such/engine --flag'" in capsys.readouterr().err


def test_an_unknown_vector_or_suite_is_an_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert conformance("--engine", SERVE, "--vector", "c99999999") == EXIT_INCOMPLETE
    assert "no vector c99999999" in capsys.readouterr().err
    assert main(["conformance", "run", "--engine", SERVE, "--suite", str(tmp_path)]) == 2
    assert "is this a suite folder?" in capsys.readouterr().err


def test_usage_errors_exit_with_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    run_with = ["conformance", "run", "--engine", "x"]
    for argv in (
        ["conformance"],
        ["conformance", "run"],
        [*run_with, "--limit", "0"],
        [*run_with, "--timeout", "-1"],
        [*run_with, "--timeout", "soon"],
        [*run_with, "--show", "-2"],
    ):
        with pytest.raises(SystemExit) as exit_info:
            main(argv)
        assert exit_info.value.code == 2
    assert "--engine" in capsys.readouterr().err


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_one_redrawn_line_on_a_terminal_and_plain_lines_otherwise() -> None:
    terminal, log = _Terminal(), io.StringIO()
    for stream in (terminal, log):
        bar = Progress("claims", 50, stream)
        for done in range(1, 51):
            bar.update(done)
        bar.finish(50)
    assert terminal.getvalue().startswith("\rclaims ")
    assert terminal.getvalue().count("\n") == 1 and "50/50" in terminal.getvalue()
    assert "\r" not in log.getvalue()
    assert log.getvalue().splitlines()[-1].startswith("claims: 50/50 (")


def _suite_with(folder: Path, kind: str, text: str) -> None:
    """A copy of the suite whose file of ``kind`` is ``text``, its manifest agreeing with it."""
    manifest = json.loads((SUITE / "manifest.json").read_text())
    for other in manifest["kinds"]:
        (folder / f"{other}.jsonl").write_bytes((SUITE / f"{other}.jsonl").read_bytes())
    (folder / f"{kind}.jsonl").write_text(text)
    manifest["kinds"][kind].update(
        vectors=len(text.splitlines()), sha256=hashlib.sha256(text.encode()).hexdigest()
    )
    (folder / "manifest.json").write_text(json.dumps(manifest))


def test_a_damaged_suite_is_an_error_not_a_traceback(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    vector = {"id": "f1", "pins": "a formation without its cards", "expect": "sum 6"}
    _suite_with(tmp_path, "formations", json.dumps(vector) + "\n")
    argv = ["conformance", "run", "--suite", str(tmp_path), "--engine", SERVE]
    assert main([*argv, "--kind", "formations"]) == EXIT_INCOMPLETE
    assert "formations vector f1: malformed (KeyError('cards'))" in capsys.readouterr().err
    _suite_with(tmp_path, "formations", "{not json\n")
    assert main([*argv, "--kind", "formations"]) == EXIT_INCOMPLETE
    assert "formations.jsonl:1: not JSON" in capsys.readouterr().err


def test_a_run_decodes_only_the_vectors_it_asks_for(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    formations = (SUITE / "formations.jsonl").read_text().splitlines(keepends=True)
    # The second vector's line cut in half (its id whole), its manifest agreeing.
    formations[1] = formations[1][: len(formations[1]) // 2] + "\n"
    _suite_with(tmp_path, "formations", "".join(formations))
    argv = ["conformance", "run", "--suite", str(tmp_path), "--engine", SERVE]
    first = json.loads(formations[0])["id"]
    assert main([*argv, "--kind", "formations", "--vector", first]) == EXIT_OK
    assert main([*argv, "--kind", "formations", "--limit", "1"]) == EXIT_OK
    capsys.readouterr()
    # Asked for, the line is read as strictly as ever, by its number.
    assert main([*argv, "--kind", "formations", "--limit", "2000"]) == EXIT_INCOMPLETE
    assert "formations.jsonl:2: not JSON" in capsys.readouterr().err


def test_a_cut_or_edited_suite_is_refused_naming_the_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = ["conformance", "run", "--suite", str(tmp_path), "--engine", SERVE]
    _suite_with(tmp_path, "formations", (SUITE / "formations.jsonl").read_text())
    claims = (SUITE / "claims.jsonl").read_text().splitlines(keepends=True)
    (tmp_path / "claims.jsonl").write_text("".join(claims[:50]))  # cut to 50 lines
    assert main([*argv, "--kind", "claims"]) == EXIT_INCOMPLETE
    err = capsys.readouterr().err
    assert f"error: {tmp_path / 'claims.jsonl'}: its SHA-256 is not the one of manifest.json" in err
    # A manifest that lists no kind would pass any engine.
    manifest = json.loads((SUITE / "manifest.json").read_text())
    (tmp_path / "manifest.json").write_text(json.dumps({**manifest, "kinds": {}}))
    assert main([*argv, "--kind", "formations"]) == EXIT_INCOMPLETE
    err = capsys.readouterr().err
    assert f"{tmp_path / 'manifest.json'}: the kinds claims, formations" in err
    # A count that does not match the file.
    _suite_with(tmp_path, "formations", (SUITE / "formations.jsonl").read_text())
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    manifest["kinds"]["formations"]["vectors"] = 1999
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    assert main([*argv, "--kind", "formations"]) == EXIT_INCOMPLETE
    assert "2000 vectors, where manifest.json says 1999" in capsys.readouterr().err


_ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=8,
)
_KEYS = ["stones", "formation", "moves", "ok", "position", "rule", "points", "nodes", "divide"]
_KEYS += ["error", "message"]


class _Babbler:
    """An engine whose answers are JSON objects with the protocol's keys and any values."""

    name = "babbler"

    def __init__(self, answers: list[dict[str, object]]) -> None:
        self.answers = answers
        self.asked = 0

    def ask(self, request: dict[str, object]) -> dict[str, object]:
        self.asked += 1
        return self.answers[self.asked % len(self.answers)]

    def close(self) -> None:
        pass


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    answers=st.lists(
        st.dictionaries(st.sampled_from(_KEYS), _ANY_JSON, max_size=4), min_size=1, max_size=4
    )
)
def test_answers_of_any_shape_are_disagreements_never_a_crash(
    answers: list[dict[str, object]],
) -> None:
    chosen = list(few_vectors().items())
    report = run(_Babbler(answers), chosen)
    assert report.failure is None
    assert all(t.agreed + t.disagreed == t.vectors for t in report.tallies)
    assert all(o.status == "disagree" and o.findings for o in report.outcomes)


@functools.cache
def few_vectors() -> dict[str, list[dict[str, object]]]:
    """Three vectors of each kind, spread over the suite (read when a test first asks: reading
    the whole suite at collection would cost every run of any test a second)."""
    return {
        kind: committed(kind)[:: {"claims": 2000, "games": 200}.get(kind, 150)][:3]
        for kind in ("claims", "formations", "provable", "moves", "games", "perft")
    }


# -- what an engine declares, the groups, the levels, the report files ---------------------------


def report_of(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def row(out: str, kind: str) -> list[str]:
    """The table's row of ``kind``: vectors, agree, disagree, failed, not claimed, not run."""
    line = next(line for line in out.splitlines() if line.split()[:1] == [kind])
    return line.split()[1:]


def test_a_base_only_engine_passes_with_the_rest_not_claimed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    report = tmp_path / "report.jsonl"
    status = conformance("--engine", engine("base_only"), "--limit", "60", "--report", str(report))
    out = capsys.readouterr().out
    assert status == EXIT_OK, out
    claims = [v for v in select(committed("claims"), 60, None)]
    base = sum(1 for v in claims if v["position"]["variant"] == "base")
    assert row(out, "claims") == ["60", str(base), "0", "0", str(60 - base), "0"]
    for kind in ("provable", "moves", "games"):
        assert row(out, kind) == ["60", "0", "0", "0", "60", "0"]
    assert "did not agree" not in out
    assert "PASS: conformant on base claims and formations: " in out
    assert report.read_text() == ""


def test_an_engine_echoing_the_position_is_caught_on_moves(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    report = tmp_path / "report.jsonl"
    status = conformance(
        "--engine", engine("echo"), "--kind", "moves", "--limit", "20", "--report", str(report)
    )
    out = capsys.readouterr().out
    assert status == EXIT_FAILED
    asked = select(committed("moves"), 20, None)
    with_moves = sum(1 for v in asked if v["accepted"])
    assert row(out, "moves")[:3] == ["20", str(20 - with_moves), str(with_moves)]
    assert f"[1] moves: the position after a move: step differs: {with_moves} vector(s)" in out
    assert "in 1 group(s)" in out
    lines = report_of(report)
    assert len(lines) == with_moves
    assert all(line["expected"]["ok"] is True for line in lines)  # type: ignore[index]


def test_a_tie_bug_is_one_group_with_its_count(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    report, junit = tmp_path / "report.jsonl", tmp_path / "junit.xml"
    argv = ["--engine", engine("ties_to_claimer"), "--kind", "claims", "--limit", "400"]
    status = conformance(*argv, "--report", str(report), "--junit", str(junit))
    out = capsys.readouterr().out
    assert status == EXIT_FAILED
    asked = select(committed("claims"), 400, None)
    ties = [v for v in asked if any(e["reason"] == "tie-completed-later" for e in v["expect"])]
    assert ties
    assert row(out, "claims") == ["400", str(400 - len(ties)), str(len(ties)), "0", "0", "0"]
    assert "in 1 group(s)" in out
    group = f"[1] claims: tie-completed-later → granted tie-completed-first: {len(ties)} vector(s)"
    assert group in out

    def size(vector: dict[str, Any]) -> tuple[int, str]:
        keys = ("position", "claimer", "stones")
        return len(dumps({"type": "claim", **{k: vector[k] for k in keys}})), vector["id"]

    smallest = min(ties, key=size)
    assert '  echo \'{"type":"claim","id":1,' in out and 'expected: {"id":1,"stones":' in out
    assert {line["vector"] for line in report_of(report)} == {v["id"] for v in ties}
    assert f"  smallest: claims {smallest['id']} (" in out
    assert junit.read_text().count("<failure ") == len(ties)
    # The earlier report, run again: only its vectors.
    status = conformance("--engine", SERVE, "--rerun", str(report))
    out = capsys.readouterr().out
    assert status == EXIT_OK
    assert f"{len(ties)}/{len(ties)} vectors agree" in out


def test_the_level_that_fails_a_run_is_chosen(capsys: pytest.CaptureFixture[str]) -> None:
    greedy = ["--engine", engine("greedy_colour"), "--kind", "claims"]
    one = ["--vector", "case:mud-fight-three-cards-against-you"]
    assert conformance(*greedy, *one) == EXIT_FAILED
    out = capsys.readouterr().out
    assert "verdict 1, reason 1, all 0" in out
    # Its verdict and reason are right: only its formations differ.
    assert conformance(*greedy, *one, "--fail-on", "reason") == EXIT_OK
    out = capsys.readouterr().out
    assert "(not failing at reason)" in out and "PASS: conformant on claims: 1/1" in out


def test_a_variant_filter_leaves_the_other_variant_not_claimed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = conformance(
        "--engine", SERVE, "--kind", "formations", "--limit", "50", "--variant", "base"
    )
    out = capsys.readouterr().out
    assert status == EXIT_OK
    asked = select(committed("formations"), 50, None)
    # Totals only is Blind-Man's Bluff, a Tactical card: such formations are Tactical.
    base = sum(
        1
        for v in asked
        if len(v["cards"]) == 3 and all(" " in c for c in v["cards"]) and not v["totals_only"]
    )
    assert row(out, "formations") == ["50", str(base), "0", "0", str(50 - base), "0"]
    assert "PASS: conformant on base formations" in out


@pytest.mark.parametrize("adapter", ["skeleton.py", "skeleton.mjs"])
def test_the_skeleton_adapters_of_the_readme_speak_the_protocol(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, adapter: str
) -> None:
    path = SUITE / "adapters" / adapter
    runner = shutil.which("node") if adapter.endswith(".mjs") else sys.executable
    assert runner is not None, "node is needed (scripts/setup installs it with npm)"
    report = tmp_path / "report.jsonl"
    command = shlex.join([runner, str(path)])
    status = conformance("--engine", command, "--limit", "5", "--report", str(report))
    out = capsys.readouterr().out
    # Hello only: every claim is answered unsupported, one group; the rest is not claimed.
    assert status == EXIT_FAILED
    assert row(out, "claims") == ["5", "0", "5", "0", "0", "0"]
    assert row(out, "formations") == ["5", "0", "0", "0", "5", "0"]
    assert "[1] claims: error unsupported: 5 vector(s)" in out and "in 1 group(s)" in out
    assert "FAIL on claims: 0/5 vectors agree (my engine (skeleton))" in out
    assert [line["status"] for line in report_of(report)] == ["disagree"] * 5
