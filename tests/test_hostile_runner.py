"""Hostile engines against ``schotten conformance run``: whatever an engine writes or withholds,
the runner's memory stays bounded (asserted with ``RLIMIT_AS`` in a child process), it never
waits past ``--timeout``, nothing raw reaches the terminal, and the run goes on past a vector
that hangs or crashes. Each test asserts the table, the groups, the report file and the exit
status."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strength import fuzz_examples

from schotten.cli import main
from schotten.conformance.client import ProcessEngine
from schotten.conformance.shown import shown

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "conformance"
ENGINES = Path(__file__).parent / "conformance_engines"
# The command itself, as a user runs it (not a module of the package: they may move).
SERVE = (
    shlex.join(
        [sys.executable, "-c", "import sys; from schotten.cli import main; sys.exit(main())"]
    )
    + " conformance serve"
)
EXAMPLES = fuzz_examples(100)  # a long campaign: 20000
MEMORY = 400 * 1024 * 1024  # the runner and its engine: about 120 MB with the claims loaded
CLAIMS = ["--vector", "c00000", "--vector", "c00001", "--vector", "c00002", "--vector", "c00003"]


def engine(name: str, *args: str) -> str:
    words = [sys.executable, str(ENGINES / f"{name}.py"), *args]
    return " ".join(shlex.quote(w) for w in words)


def conformance(*argv: str) -> int:
    return main(["conformance", "run", "--suite", str(SUITE), *argv])


def report_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def row(out: str, kind: str) -> list[str]:
    """The table's row of ``kind``: vectors, agree, disagree, failed, not claimed, not run."""
    line = next(line for line in out.splitlines() if line.split()[:1] == [kind])
    return line.split()[1:]


@pytest.fixture(autouse=True)
def _no_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)


def limited_run(argv: list[str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """The runner in a child process limited to :data:`MEMORY` bytes of address space."""
    code = textwrap.dedent(
        f"""
        import resource, sys
        resource.setrlimit(resource.RLIMIT_AS, ({MEMORY}, {MEMORY}))
        from schotten.cli import main
        sys.exit(main({["conformance", "run", "--suite", str(SUITE), *argv]!r}))
        """
    )
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, check=False
    )


def test_a_line_of_200_mb_without_newline_is_skipped_within_bounded_memory(
    tmp_path: Path,
) -> None:
    report = tmp_path / "report.jsonl"
    done = limited_run(
        [
            "--engine",
            engine("hostile", "long-line"),
            "--kind",
            "claims",
            *CLAIMS[:2],
            "--timeout",
            "4",
            "--max-restarts",
            "0",
            "--report",
            str(report),
        ]
    )
    assert done.returncode == 2, done.stderr[-800:]
    assert "MemoryError" not in done.stderr + done.stdout
    assert "ENGINE NONSENSE at claims c00000" in done.stdout
    assert "a line of more than 1,048,576 bytes (skipped unread)" in done.stdout
    (line,) = report_of(report)
    assert line["vector"] == "c00000" and line["status"] == "nonsense"


def test_huge_stderr_lines_are_kept_short(tmp_path: Path) -> None:
    # Twelve lines of 3 MB on stderr before each answer: the run neither keeps nor prints them.
    report = tmp_path / "report.jsonl"
    done = limited_run(
        [
            "--engine",
            engine("hostile", "loud-stderr"),
            "--kind",
            "claims",
            *CLAIMS[:2],
            "--report",
            str(report),
        ]
    )
    assert done.returncode == 0, done.stdout[-800:] + done.stderr[-800:]
    assert len(done.stdout) + len(done.stderr) < 20_000
    assert report.read_text() == ""


def test_an_answer_nested_200000_deep_is_rejected_and_the_run_goes_on(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    report = tmp_path / "report.jsonl"
    status = conformance(
        "--engine",
        engine("deep_answer", str(tmp_path / "once")),
        "--kind",
        "claims",
        *CLAIMS,
        "--timeout",
        "2",
        "--report",
        str(report),
    )
    out = capsys.readouterr().out
    assert status == 1
    assert row(out, "claims") == ["4", "3", "0", "1", "0", "0"]
    assert "nested deeper than 20 levels" in out
    assert "engine nonsense on a claim request: 1 vector(s)" in out
    assert "started again 1 time(s)" in out
    (line,) = report_of(report)
    assert line["vector"] == "c00000" and line["status"] == "nonsense"
    assert line["request"]["type"] == "claim"


def test_an_engine_hanging_on_one_vector_is_restarted_and_the_run_goes_on(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    report, junit = tmp_path / "report.jsonl", tmp_path / "junit.xml"
    start = time.monotonic()
    status = conformance(
        "--engine",
        engine("hangs_once", str(tmp_path / "once")),
        "--kind",
        "claims",
        *CLAIMS,
        "--timeout",
        "1",
        "--report",
        str(report),
        "--junit",
        str(junit),
    )
    elapsed = time.monotonic() - start
    out = capsys.readouterr().out
    assert status == 1
    assert row(out, "claims") == ["4", "3", "0", "1", "0", "0"]
    assert "engine hung on a claim request: 1 vector(s)" in out
    assert "no answer within 1 s to a claim request" in out
    assert "FAIL on claims: 3/4 vectors agree" in out
    (line,) = report_of(report)
    assert line["vector"] == "c00001" and line["status"] == "hung"
    text = junit.read_text()
    assert text.count("<testcase ") == 4 and text.count("<error ") == 1
    assert elapsed < 30


def test_too_many_restarts_stop_the_run_with_status_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status = conformance(
        "--engine",
        engine("hangs"),
        "--kind",
        "claims",
        *CLAIMS,
        "--timeout",
        "1",
        "--max-restarts",
        "1",
    )
    out = capsys.readouterr().out
    assert status == 2
    assert row(out, "claims") == ["4", "0", "0", "2", "0", "2"]
    assert "INCOMPLETE: the run could not be done (the engine failed 2 time(s))" in out


def test_stray_lines_on_stdout_are_reported_and_skipped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    report = tmp_path / "report.jsonl"
    status = conformance(
        "--engine",
        engine("stray_lines"),
        "--kind",
        "claims",
        "--kind",
        "formations",
        "--limit",
        "3",
        "--report",
        str(report),
    )
    out = capsys.readouterr().out
    assert status == 0, out
    assert row(out, "claims")[:3] == ["3", "3", "0"]
    assert "were not answers and were skipped" in out
    assert "debug: hello request \\x1b[31mreceived" in out and "\x1b" not in out
    assert report.read_text() == ""


def test_an_engine_that_stops_reading_does_not_block_past_the_timeout(
    capsys: pytest.CaptureFixture[str],
) -> None:
    start = time.monotonic()
    status = conformance(
        "--engine",
        engine("hostile", "stops-reading"),
        "--kind",
        "games",
        "--limit",
        "1",
        "--timeout",
        "2",
        "--max-restarts",
        "0",
    )
    elapsed = time.monotonic() - start
    out = capsys.readouterr().out
    assert status == 2
    assert "did not read a legal request within 2 s" in out
    assert elapsed < 20


def test_a_helper_keeping_stdout_open_does_not_make_the_run_wait(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pid_file = tmp_path / "helper.pid"
    start = time.monotonic()
    status = conformance(
        "--engine",
        engine("hostile", "helper", str(pid_file)),
        "--kind",
        "claims",
        *CLAIMS[:2],
        "--timeout",
        "30",
        "--max-restarts",
        "0",
    )
    elapsed = time.monotonic() - start
    out = capsys.readouterr().out
    assert status == 2
    assert "ENGINE CRASHED at claims c00000: the engine exited with status 3" in out
    assert elapsed < 15
    # The engine's process group was stopped, its helper with it.
    assert not _alive(int(pid_file.read_text()))


def test_control_characters_from_the_engine_never_reach_the_terminal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = conformance(
        "--engine", engine("hostile", "escape-name"), "--kind", "claims", *CLAIMS[:2]
    )
    out, err = capsys.readouterr()
    assert status == 1
    assert "\x1b" not in out + err and "\x07" not in out + err
    assert "evil\\x1b]0;owned\\x07" in err
    assert "\\x1b[2Jgone" in out


def test_an_answer_with_id_true_is_not_the_answer_to_request_1(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # hello is request 1; in Python, True == 1.
    status = conformance(
        "--engine",
        engine("hostile", "id-true"),
        "--kind",
        "claims",
        *CLAIMS[:2],
        "--start-timeout",
        "2",
    )
    out = capsys.readouterr().out
    assert status == 2
    assert "ENGINE NONSENSE at hello" in out
    assert "an answer of id true to request id 1" in out


def test_sigterm_writes_the_report_and_stops_the_engine(tmp_path: Path) -> None:
    report = tmp_path / "report.jsonl"
    argv = [
        "conformance",
        "run",
        "--suite",
        str(SUITE),
        "--engine",
        engine("hangs"),
        "--kind",
        "claims",
        *CLAIMS,
        "--timeout",
        "60",
        "--report",
        str(report),
    ]
    runner = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from schotten.cli import main; sys.exit(main())",
            *argv,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while "engine: hangs" not in _peek(runner) and time.monotonic() < deadline:
            time.sleep(0.1)
        children = _children(runner.pid)
        assert children
        runner.send_signal(signal.SIGTERM)
        out, _ = runner.communicate(timeout=30)
    finally:
        if runner.poll() is None:
            runner.kill()
    assert runner.returncode == 2
    assert "the run was interrupted" in out and "INCOMPLETE" in out
    assert report.exists()
    assert not any(_alive(child) for child in children)


def test_an_unbalanced_quote_in_engine_is_a_user_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert conformance("--engine", "my-engine 'unclosed") == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --engine: the engine command") and "No closing quotation" in err


_JUNK = st.lists(
    st.binary(max_size=300)
    | st.sampled_from(
        [
            b"[" * 5000,
            b'{"id":true}',
            b'{"id":1.0}',
            b'{"id":"1"}',
            b"\x1b[2J",
            b"\xff\xfe",
            b'{"id":1e400}',
            b"null",
            b'{"id":2,"ok":true}',
            b'{"id":1,"id":1}',
        ]
    ),
    max_size=6,
).map(lambda parts: b"\n".join(parts).replace(b'"id":1}', b'"id":9}'))


@settings(max_examples=EXAMPLES, deadline=None)
@given(junk=_JUNK)
def test_any_output_before_the_answer_is_skipped_and_the_answer_found(
    tmp_path_factory: pytest.TempPathFactory, junk: bytes
) -> None:
    output = tmp_path_factory.mktemp("engine") / "output"
    output.write_bytes(junk + b'\n{"id":1,"ok":true}\n')
    process = ProcessEngine(shlex.join(["sh", "-c", 'read -r request; cat "$0"', str(output)]), 10)
    try:
        assert process.ask({"type": "legal"}) == {"ok": True}
        assert all("\x1b" not in example for example in process.stray_examples)
    finally:
        process.close()


def test_shown_escapes_controls_and_bounds_length() -> None:
    assert shown("a\x1b[0mb\u202ec") == "a\\x1b[0mb\\u202ec"
    assert shown("é" * 300, 5) == "ééééé… (300 characters)"


# -- helpers -----------------------------------------------------------------------------------

_STDERR: list[str] = []


def _peek(process: subprocess.Popen[str]) -> str:
    """What the runner wrote on stderr so far (read without blocking)."""
    assert process.stderr is not None
    os.set_blocking(process.stderr.fileno(), False)
    try:
        chunk = process.stderr.read()
    except (BlockingIOError, TypeError):
        chunk = None
    if chunk:
        _STDERR.append(chunk)
    return "".join(_STDERR)


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, killed but not yet reaped by its parent, does not)."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return False
        if state in ("Z", "X"):
            return False
        time.sleep(0.05)
    return True


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found
