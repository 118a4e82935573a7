"""The runner's contract: exit 0 / 1 / 2 (2 also for a run that checked nothing), the closing
line, JUnit counts that add up, failing groups first, ``--pattern``, a stop signal at any time."""

from __future__ import annotations

import shlex
import signal
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from committed_suite import committed

from schotten.cli import EXIT_FAILED, EXIT_OK, main

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "conformance"
ENGINES = Path(__file__).parent / "conformance_engines"
SERVE = f"{shlex.quote(sys.executable)} -m schotten conformance serve"
EXIT_INCOMPLETE = 2
CLOSING = r"^\d+ passed, \d+ failed, \d+ errored, \d+ skipped$"


def engine(name: str) -> str:
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(ENGINES / f'{name}.py'))}"


def conformance(*argv: str) -> int:
    return main(["conformance", "run", "--suite", str(SUITE), *argv])


@pytest.fixture(autouse=True)
def _no_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)


def test_a_run_that_checks_nothing_exits_2_and_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--kind", "claims", "--kind", "formations", "--limit", "20"]
    status = conformance("--engine", engine("base_strict"), "--variant", "tactical", *argv)
    out = capsys.readouterr().out
    assert status == EXIT_INCOMPLETE, out
    assert "INCOMPLETE: nothing was checked" in out
    assert (
        out.rstrip().splitlines()[-1] == "0 passed, 0 failed, 0 errored, 132 skipped"
    )  # 20 of 6 kinds, 12 perft
    status = conformance("--engine", engine("declares_no_variant"), *argv)
    out = capsys.readouterr().out
    assert status == EXIT_INCOMPLETE, out
    assert "PASS" not in out


def test_a_base_engine_refusing_tactical_requests_passes_the_base_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Blind-Man's Bluff formations (totals only) are Tactical: not sent to it.
    argv = ["--kind", "claims", "--kind", "formations", "--limit", "300"]
    status = conformance("--engine", engine("base_strict"), "--variant", "base", *argv)
    out = capsys.readouterr().out
    assert status == EXIT_OK, out
    assert "PASS: conformant on base claims and formations" in out


def test_the_closing_line_and_the_junit_counts_add_up(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    junit = tmp_path / "run.xml"
    argv = ["--kind", "claims", "--kind", "formations", "--limit", "50", "--junit", str(junit)]
    status = conformance("--engine", engine("ties_to_claimer"), *argv)
    out = capsys.readouterr().out
    assert status == EXIT_FAILED
    last = out.rstrip().splitlines()[-1]
    passed, failed, errored, skipped = (int(w) for w in last.split()[::2])
    assert passed + failed + errored + skipped == 5 * 50 + 50 + 12  # perft has 12 vectors
    assert failed > 0
    root = ET.parse(junit).getroot()
    for suite in root:
        tests, cases = int(suite.get("tests", "")), suite.findall("testcase")
        assert tests == len(cases)
        counted = sum(int(suite.get(k, "")) for k in ("failures", "errors", "skipped"))
        assert counted <= tests
        assert int(suite.get("skipped", "")) == sum(
            1 for c in cases if c.find("skipped") is not None
        )


def test_pattern_picks_vectors_by_id_or_description(capsys: pytest.CaptureFixture[str]) -> None:
    status = conformance("--engine", SERVE, "--kind", "claims", "--pattern", "^case:hand-is-not")
    out = capsys.readouterr().out
    assert status == EXIT_OK, out
    assert out.rstrip().splitlines()[-1].startswith("1 passed, 0 failed, 0 errored, ")
    assert conformance("--engine", SERVE, "--pattern", "(") == EXIT_INCOMPLETE


def test_failing_groups_come_before_the_groups_that_do_not_fail(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["--kind", "claims", "--limit", "400", "--fail-on", "verdict", "--show", "1"]
    status = conformance("--engine", engine("ties_to_claimer"), *argv)
    out = capsys.readouterr().out
    assert status == EXIT_FAILED
    first = next(line for line in out.splitlines() if line.startswith("[1] "))
    assert "(not failing at verdict)" not in first


@pytest.mark.parametrize("when", ["at once", "after the handshake", "after some vectors"])
def test_a_stop_signal_at_any_time_prints_the_tally_and_writes_the_report(
    tmp_path: Path, when: str
) -> None:
    report = tmp_path / "report.jsonl"
    command = [
        sys.executable, "-m", "schotten", "conformance", "run", "--suite", str(SUITE),
        "--engine", SERVE, "--kind", "claims", "--report", str(report),
    ]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stderr is not None
    seen = []
    if when != "at once":
        wanted = "engine: " if when == "after the handshake" else "claims: "
        for raw in process.stderr:
            seen.append(raw)
            if raw.decode().startswith(wanted):
                break
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    text = out.decode()
    if process.returncode == -signal.SIGTERM:  # before Python installed any handler at all
        assert when == "at once"
        return
    assert process.returncode == EXIT_INCOMPLETE, (b"".join(seen) + err).decode()[-2000:]
    assert "INCOMPLETE" in text
    assert text.rstrip().splitlines()[-1].endswith("skipped")
    assert report.is_file()


def test_a_skip_file_written_from_a_run_makes_the_next_run_pass(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    skips = tmp_path / "known.txt"
    argv = ["--kind", "claims", "--limit", "200"]
    wrong = engine("ties_to_claimer")
    assert conformance("--engine", wrong, *argv, "--write-skips", str(skips)) == EXIT_FAILED
    first = capsys.readouterr().out.rstrip().splitlines()[-1]
    failed = int(first.split()[2])
    named = [line for line in skips.read_text().splitlines() if not line.startswith("#")]
    assert len(named) == failed > 0
    assert conformance("--engine", wrong, *argv, "--skip-file", str(skips)) == EXIT_OK
    last = capsys.readouterr().out.rstrip().splitlines()[-1]
    assert last.startswith(f"{200 - failed} passed, 0 failed, 0 errored, ")


def test_a_missing_best_completion_is_one_group(capsys: pytest.CaptureFixture[str]) -> None:
    from schotten.conformance.client import LocalEngine
    from schotten.conformance.report import groups
    from schotten.conformance.runner import run

    class NoBestCompletion(LocalEngine):
        def ask(self, request: dict[str, object]) -> dict[str, object]:
            answer = super().ask(request)
            for verdict in answer.get("stones", []):
                verdict["theirs"] = verdict["witness"] = None
            return answer

    vectors = committed("claims")[::25]
    report = run(NoBestCompletion(), [("claims", vectors)])
    signatures = {g.signature for g in groups(report.outcomes)}
    assert signatures == {"claims: opponent's best not given"}


def test_an_engine_may_declare_verdicts_only_on_complete_sides(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = conformance(
        "--engine", engine("verdicts_on_complete_sides"), "--kind", "claims", "--limit", "400"
    )
    out = capsys.readouterr().out
    assert status == EXIT_OK, out
    passed, _, _, skipped = (int(w) for w in out.rstrip().splitlines()[-1].split()[::2])
    assert passed > 0 and skipped > 0  # the claims on incomplete sides are not claimed
    # The formations it does not give are still shown, as not failing the run.
    assert "(not failing at reason)" in out


def test_json_lines_on_standard_output(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    argv = ["--kind", "claims", "--limit", "100", "--json"]
    assert conformance("--engine", engine("ties_to_claimer"), *argv) == EXIT_FAILED
    out, err = capsys.readouterr()
    lines = [json.loads(line) for line in out.splitlines()]
    *vectors, last = lines
    assert vectors and all(v["kind"] == "claims" and v["status"] == "disagree" for v in vectors)
    assert last["summary"]["failed"] == len(vectors)
    assert last["verdict"].startswith("FAIL")
    assert "did not agree" in err
