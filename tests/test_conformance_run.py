"""``schotten conformance run``: the reference engine passes through the protocol; engines with
one classic bug each fail on the vector made for it; crashing, hanging and babbling engines are
reported within the time limit, never with a traceback of ours."""

from __future__ import annotations

import io
import json
import shlex
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schotten.casebook import load_case, run_case
from schotten.casebook.approve import approve
from schotten.cli import EXIT_FAILED, EXIT_OK, main
from schotten.cli.progress import Progress
from schotten.conformance import suite
from schotten.conformance.client import LocalEngine
from schotten.conformance.runner import run

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "conformance"
ENGINES = Path(__file__).parent / "conformance_engines"
SERVE = f"{shlex.quote(sys.executable)} -m schotten conformance serve"


def engine(name: str) -> str:
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(ENGINES / f'{name}.py'))}"


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
    assert "PASS: 120/120 vectors agree (" in out and "DISAGREE" not in out
    assert "engine: schotten (reference)" in err
    assert "claims: 40/40" in err  # not a terminal: plain progress lines
    # Whole games and perft cost more: two of each.
    status = conformance("--engine", SERVE, "--kind", "games", "--kind", "perft", "--limit", "2")
    out = capsys.readouterr().out
    assert status == EXIT_OK, out
    assert "PASS: 4/4 vectors agree" in out


# (engine, its bug's vectors, vectors it gets right, what it is told)
CLASSIC_BUGS = [
    (
        "hand_left_out",
        "case:hand-is-not-proof",
        "case:two-stones-in-one-claim",
        "stone 4 reason: expected opponent-can-beat, engine unbeatable",
    ),
    (
        "ties_to_claimer",
        "case:equal-sums-opponent-completed-first",
        "case:equal-sums-you-completed-first",
        "reason: expected tie-completed-later, engine tie-completed-first",
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
        "reason: expected opponent-can-beat, engine unbeatable",
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
    assert f"DISAGREE claims {caught}:" in out
    assert f"DISAGREE claims {right}" not in out
    assert problem in out
    assert "FAIL: 1/2 vectors agree" in out
    # The reference engine agrees with both vectors: the disagreement is the bug's.
    vectors = [v for v in suite.load(SUITE, "claims") if v["id"] in (caught, right)]
    assert run(LocalEngine(), [("claims", vectors)]).ok


def test_runs_that_wrap_from_9_to_1_are_caught_by_the_formations(
    capsys: pytest.CaptureFixture[str],
) -> None:
    wrap = engine("wrap_around")
    status = conformance("--engine", wrap, "--kind", "formations", "--limit", "150")
    out = capsys.readouterr().out
    assert status == EXIT_FAILED
    reports = [line for line in out.splitlines() if line.startswith("DISAGREE formations")]
    assert reports
    assert all("no run wraps from 9 to 1" in line for line in reports)


def test_a_disagreement_is_printed_as_a_case_ready_for_the_casebook(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    conformance("--engine", engine("hand_left_out"), "--vector", "case:hand-is-not-proof")
    out = capsys.readouterr().out
    start = out.index("    # yaml-language-server")
    block = []
    for line in out[start:].splitlines():
        if not line.startswith("    "):
            break
        block.append(line[4:])
    path = tmp_path / "case-hand-is-not-proof.yaml"
    path.write_text("\n".join(block) + "\n", encoding="utf-8")
    approve(load_case(path))
    result = run_case(load_case(path))
    assert result.ok
    assert [str(v.reason) for v in result.verdicts] == ["opponent-can-beat"]


def test_a_move_disagreement_becomes_a_play_on_case(tmp_path: Path) -> None:
    vectors = [v for v in suite.load(SUITE, "moves") if v["refused"] and v["id"].startswith("m")]
    vector = vectors[0]
    wrong = {**vector, "refused": [{**vector["refused"][0], "rule": "game-over"}]}
    (disagreement,) = run(LocalEngine(), [("moves", [wrong])]).disagreements
    assert disagreement.case is not None
    path = tmp_path / "move.yaml"
    path.write_text(disagreement.case + "\n", encoding="utf-8")
    approve(load_case(path))
    steps = run_case(load_case(path)).computed.play_on
    assert steps is not None
    assert list(steps.steps) == [f"illegal {vector['refused'][0]['rule']}"]


@pytest.mark.parametrize(
    ("name", "what", "detail"),
    [
        ("hangs", "HUNG", "no answer within 1 s to a claim request"),
        ("crashes", "CRASHED", "engine bug: claims are not implemented"),
        ("nonsense", "NONSENSE", "answered a line that is not JSON: 'GRANTED!!"),
    ],
)
def test_broken_engines_are_reported_within_the_time_limit(
    capsys: pytest.CaptureFixture[str], name: str, what: str, detail: str
) -> None:
    start = time.monotonic()
    status = conformance("--engine", engine(name), "--kind", "claims", "--timeout", "1")
    elapsed = time.monotonic() - start
    out = capsys.readouterr().out
    assert status == EXIT_FAILED
    assert f"ENGINE {what} at claims case:" in out
    assert detail in out
    assert "Traceback" not in out
    assert elapsed < 20


def test_an_engine_silent_at_start_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    silent = f"{shlex.quote(sys.executable)} -c 'import time; time.sleep(60)'"
    status = conformance("--engine", silent, "--start-timeout", "1")
    out = capsys.readouterr().out
    assert status == EXIT_FAILED
    assert "ENGINE HUNG at hello: no answer within 1 s to a hello request" in out


def test_an_engine_that_cannot_start_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert conformance("--engine", "/no/such/engine --flag") == EXIT_FAILED
    assert "cannot start the engine '/no/such/engine --flag'" in capsys.readouterr().err


def test_an_unknown_vector_or_suite_is_an_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert conformance("--engine", SERVE, "--vector", "c99999999") == EXIT_FAILED
    assert "no vector c99999999" in capsys.readouterr().err
    assert main(["conformance", "run", "--engine", SERVE, "--suite", str(tmp_path)]) == 1
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


def test_a_damaged_suite_is_an_error_not_a_traceback(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "manifest.json").write_text((SUITE / "manifest.json").read_text())
    vector = {"id": "f1", "pins": "a formation without its cards", "expect": "sum 6"}
    (tmp_path / "formations.jsonl").write_text(json.dumps(vector) + "\n")
    argv = ["conformance", "run", "--suite", str(tmp_path), "--engine", SERVE]
    assert main([*argv, "--kind", "formations"]) == EXIT_FAILED
    assert "formations vector f1: malformed (KeyError('cards'))" in capsys.readouterr().err
    (tmp_path / "formations.jsonl").write_text("{not json\n")
    assert main([*argv, "--kind", "formations"]) == EXIT_FAILED
    assert "formations.jsonl:1: not JSON" in capsys.readouterr().err


_ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=8,
)
_KEYS = ["stones", "formation", "moves", "ok", "position", "rule", "points", "nodes", "divide"]


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


@settings(max_examples=60, deadline=None)
@given(
    answers=st.lists(
        st.dictionaries(st.sampled_from(_KEYS), _ANY_JSON, max_size=4), min_size=1, max_size=4
    )
)
def test_answers_of_any_shape_are_disagreements_never_a_crash(
    answers: list[dict[str, object]],
) -> None:
    chosen = [(kind, _FEW[kind]) for kind in _FEW]
    report = run(_Babbler(answers), chosen)
    assert report.failure is None
    assert all(t.agreed + t.disagreed == t.vectors for t in report.tallies)


_FEW = {
    kind: suite.load(SUITE, kind)[:: {"claims": 2000, "games": 200}.get(kind, 150)][:3]
    for kind in ("claims", "formations", "moves", "games", "perft")
}
