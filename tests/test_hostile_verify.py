"""``schotten verify`` given what a careless or hostile user gives it: damaged stores, odd
addresses, peers that are not Dask schedulers, absurd chunk counts. Each is an ``error: ...``
that says what to do, never an internal error, a hang or a wrong report.

No Dask cluster is started here: every problem is found before one is needed, and a space whose
chunks are all in the store is reported without one. The fuzzed stores and greetings run a few
dozen examples; a long campaign:
``SCHOTTEN_FUZZ_EXAMPLES=2000 .venv/bin/pytest tests/test_hostile_verify.py``.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import socket
import sqlite3
import struct
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strength import fuzz_examples

from schotten._files import OutputFileError
from schotten.cli import main
from schotten.verify.check import ChunkResult, Disagreement
from schotten.verify.report import (
    ReportError,
    build_report,
    space_digest,
    totals,
    write_report,
)
from schotten.verify.run import Summary, print_summary
from schotten.verify.spaces import SPACES, Space
from schotten.verify.store import Run, Store, StoreError

SPACE = "base-one-stone"
ENGINE = space_digest(SPACE)
EXAMPLES = fuzz_examples(40)


def result(index: int, count: int, classes: int = 3, found: bool = False) -> ChunkResult:
    """A chunk's result as the workers send it (``found``: with one disagreement)."""
    case = Disagreement("verify-x", "engine says a; brute force says b", "claim: [1]\n")
    return ChunkResult(
        SPACE, index, count, classes, classes * 10, {"unbeatable": [classes, classes * 10]},
        classes * 100, (case,) if found else (), 0.5,
    )  # fmt: skip


@functools.cache
def unit_counts() -> tuple[tuple[int, int], ...]:
    """The classes and positions of each unit of the space (a split of as many chunks as it
    has units gives one unit a chunk), counted once: a chunk's counts are its units'."""
    space = SPACES[SPACE]
    assert isinstance(space, Space)  # an enumerated space, made of units
    units = len(space.units())
    return tuple(space.chunk_counts(index, units) for index in range(units))


def own_counts(index: int, count: int) -> tuple[int, int]:
    """The classes and positions chunk ``index`` of ``count`` holds, counted from the space
    (``chunk_counts`` counts what the items would: tests/test_verify_spaces.py). Chunk
    ``index`` of ``count`` is every ``count``-th unit from ``index`` on (``Space.classes``)."""
    if not 0 <= index < count:
        raise ValueError(f"chunk {index} of {count} does not exist")
    chunk = unit_counts()[index::count]
    return sum(classes for classes, _ in chunk), sum(positions for _, positions in chunk)


def true_result(index: int, count: int, found: bool = False) -> ChunkResult:
    """A chunk's result with the space's own counts (all in one reason)."""
    classes, positions = own_counts(index, count)
    case = Disagreement("verify-x", "engine says a; brute force says b", "claim: [1]\n")
    return ChunkResult(
        SPACE, index, count, classes, positions, {"unbeatable": [classes, positions]},
        classes * 100, (case,) if found else (), 0.5,
    )  # fmt: skip


def full_store(path: Path, count: int = 3, runs: int = 1) -> Path:
    """A store holding every chunk of a ``count``-chunk split, and ``runs`` runs."""
    with Store(path) as store:
        for index in range(count):
            store.save(true_result(index, count), ENGINE)
        for n in range(runs):
            store.add_run(SPACE, count, ENGINE, Run(f"2026-01-0{n + 1}T00:00:00Z", 2.5, 2, count))
    return path


def verify(tmp_path: Path, *args: str) -> list[str]:
    """The command's arguments, with the store, reports and cases in ``tmp_path``."""
    return [
        "verify", SPACE, "--report-dir", str(tmp_path / "reports"),
        "--cases-dir", str(tmp_path / "cases"), "--store", str(tmp_path / "s.sqlite"), *args,
    ]  # fmt: skip


def refused(capsys: pytest.CaptureFixture[str], argv: list[str], *words: str) -> str:
    """Run the command in this process: it must fail with a user's error naming ``words``."""
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: "), err
    assert "internal error" not in err and "Traceback" not in err, err
    for word in words:
        assert word in err, err
    return err


def report_of(tmp_path: Path) -> dict[str, object]:
    data = json.loads((tmp_path / "reports" / f"{SPACE}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def run_cli(argv: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
    """The command in a child process, so that a hang fails the test instead of stopping it."""
    return subprocess.run(
        [sys.executable, "-c", "from schotten.cli import entrypoint; entrypoint()", *argv],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def test_a_chunks_counts_are_its_units_counts() -> None:
    # What own_counts adds up is what the space counts for the chunk (two chunks of a split
    # the tests do not use, to keep it short).
    for index in (0, 6):
        assert own_counts(index, 7) == SPACES[SPACE].chunk_counts(index, 7)


# -- the store -----------------------------------------------------------------------------------


def test_a_store_of_random_bytes_is_refused_with_the_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "s.sqlite").write_bytes(bytes(range(256)) * 16)
    refused(capsys, verify(tmp_path), "s.sqlite", "not a store", "--store")


def test_a_truncated_store_is_refused_with_the_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = full_store(tmp_path / "s.sqlite", count=200)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    refused(capsys, verify(tmp_path, "--chunks", "200"), "s.sqlite", "damaged", "--store")


def test_a_row_that_is_not_json_is_refused_naming_its_chunk(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = full_store(tmp_path / "s.sqlite")
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute("UPDATE chunks SET result = '{not json' WHERE idx = 1")
    err = refused(
        capsys, verify(tmp_path, "--chunks", "3"), "s.sqlite", "chunk 1 ", "Remove that row"
    )
    assert "not JSON" in err
    assert not (tmp_path / "reports").exists()


@pytest.mark.parametrize(
    "change",
    [
        "UPDATE chunks SET result = '[]' WHERE idx = 0",
        "UPDATE chunks SET result = json_set(result, '$.classes', 'many') WHERE idx = 0",
        "UPDATE chunks SET result = json_set(result, '$.classes', -4) WHERE idx = 0",
        "UPDATE chunks SET result = json_set(result, '$.index', 2) WHERE idx = 0",
        "UPDATE chunks SET result = json_remove(result, '$.reasons') WHERE idx = 0",
        "UPDATE chunks SET result = json_set(result, '$.seconds', 'slow') WHERE idx = 1",
        "UPDATE chunks SET idx = 'zero' WHERE idx = 0",
        "UPDATE runs SET wall = 'long'",
    ],
)
def test_a_row_that_json_parses_but_is_no_chunk_result_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: str
) -> None:
    path = full_store(tmp_path / "s.sqlite")
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute(change)
    refused(capsys, verify(tmp_path, "--chunks", "3"), "s.sqlite", "Remove that row")


def test_a_row_whose_text_is_not_utf8_is_refused_as_damage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = full_store(tmp_path / "s.sqlite")
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute("UPDATE chunks SET result = CAST(x'80ff' AS TEXT) WHERE idx = 2")
    refused(capsys, verify(tmp_path, "--chunks", "3"), "s.sqlite", "damaged", "--store")


def test_a_store_that_is_a_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "s.sqlite").mkdir()
    refused(capsys, verify(tmp_path), "s.sqlite", "a folder", "--store")


def test_a_store_that_is_a_fifo_is_refused_without_waiting(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "s.sqlite")
    run = run_cli(verify(tmp_path), timeout=30)
    assert run.returncode == 1 and "a FIFO" in run.stderr and "internal" not in run.stderr


def test_another_programs_database_is_not_a_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with contextlib.closing(sqlite3.connect(tmp_path / "s.sqlite")) as db, db:
        db.execute("CREATE TABLE chunks (name TEXT)")
    refused(capsys, verify(tmp_path), "s.sqlite", "not a store")


# -- merging -------------------------------------------------------------------------------------


def test_merging_a_file_that_is_not_a_store_is_refused_and_names_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "notes.txt").write_text("shard 1 done\n" * 50, encoding="utf-8")
    full_store(tmp_path / "s.sqlite")
    err = refused(
        capsys, verify(tmp_path, "--chunks", "3", "--merge", str(tmp_path / "notes.txt")),
        "notes.txt", "not a store", "--merge",
    )  # fmt: skip
    assert "s.sqlite" not in err.split("notes.txt", 1)[0]


def test_merging_a_missing_store_names_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    refused(capsys, verify(tmp_path, "--merge", str(tmp_path / "gone.sqlite")), "gone.sqlite")


def test_merging_a_store_with_bad_rows_copies_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = full_store(tmp_path / "other.sqlite")
    with contextlib.closing(sqlite3.connect(other)) as db, db:
        db.execute("UPDATE chunks SET result = 'null' WHERE idx = 2")
    refused(capsys, verify(tmp_path, "--merge", str(other)), "other.sqlite", "chunk 2 ")
    with Store(tmp_path / "s.sqlite") as store:
        assert store.done(SPACE, 3, ENGINE) == set()


def test_merging_the_store_into_itself_is_refused_at_once(tmp_path: Path) -> None:
    path = full_store(tmp_path / "s.sqlite")
    link = tmp_path / "link.sqlite"
    link.symlink_to(path)
    for same in (path, link):
        run = run_cli(verify(tmp_path, "--chunks", "3", "--merge", str(same)), timeout=30)
        assert run.returncode == 1, run.stderr
        assert "is the store itself" in run.stderr and "internal" not in run.stderr


def test_merging_one_store_twice_counts_its_runs_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = full_store(tmp_path / "b.sqlite", runs=2)
    argv = verify(tmp_path, "--chunks", "3", "--merge", str(other), str(other))
    assert main(argv) == 0
    capsys.readouterr()
    first = report_of(tmp_path)
    assert first["wall_seconds"] == 5.0 and len(first["runs"]) == 2  # type: ignore[arg-type]
    assert main(argv) == 0  # the same command again merges nothing new
    again = report_of(tmp_path)
    assert again["runs"] == first["runs"] and again["wall_seconds"] == 5.0
    assert again["complete"] is True and again["classes_checked"] == SPACES[SPACE].class_count()


# -- the report ----------------------------------------------------------------------------------


def test_a_chunk_outside_the_split_never_makes_a_report_complete() -> None:
    count = 400
    results = [result(i, count) for i in range(count - 1)] + [result(count, count)]
    report = build_report(SPACE, count, results, [])
    assert report["complete"] is False
    assert report["chunks"] == {"total": count, "done": count - 1}
    assert report["classes_checked"] == 3 * (count - 1)


def test_a_chunk_given_twice_is_counted_once() -> None:
    results = [true_result(0, 2), true_result(0, 2), true_result(1, 2, found=True)]
    report = build_report(SPACE, 2, results, [])
    assert report["complete"] is True
    assert report["classes_checked"] == SPACES[SPACE].class_count()
    assert report["disagreements"] == ["verify-x"]


def test_a_chunk_of_another_split_never_counts() -> None:
    results = [result(0, 2), replace_count(result(1, 3), 3)]
    report = build_report(SPACE, 2, results, [])
    assert report["complete"] is False and report["chunks"] == {"total": 2, "done": 1}


def replace_count(chunk: ChunkResult, count: int) -> ChunkResult:
    return ChunkResult(**{**chunk.__dict__, "count": count})


def test_a_store_row_numbered_past_the_split_is_refused_not_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    count = 400
    path = tmp_path / "s.sqlite"
    with Store(path) as store:
        for index in range(count - 1):
            store.save(result(index, count), ENGINE)
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        row = db.execute("SELECT * FROM chunks WHERE idx = 0").fetchone()
        db.execute("INSERT INTO chunks VALUES (?, ?, ?, ?, ?)", (*row[:2], count, *row[3:]))
    refused(capsys, verify(tmp_path, "--chunks", str(count)), "chunk 400 ", "Remove that row")
    assert not (tmp_path / "reports").exists()


def test_the_report_of_a_finished_space_needs_no_cluster(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    full_store(tmp_path / "s.sqlite")
    # An address nothing answers at: the command must not even try it.
    assert main(verify(tmp_path, "--chunks", "3", "--scheduler", "tcp://127.0.0.1:9")) == 0
    assert "no Dask" not in capsys.readouterr().err
    report = report_of(tmp_path)
    assert report["complete"] is True and report["chunks"] == {"total": 3, "done": 3}


def test_the_summary_goes_to_the_standard_output_of_the_moment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A summary printed after the standard output was replaced (a test's capture, a
    redirection) goes to the new one, not to the one there was when the module was imported."""
    summary = Summary(SPACE, 3, 3, 0, 3, totals([true_result(i, 3) for i in range(3)]), True,
                      0.0, 0, ())  # fmt: skip
    now = io.StringIO()
    monkeypatch.setattr(sys, "stdout", now)
    print_summary(summary)
    assert "space complete" in now.getvalue()


def test_a_report_that_cannot_be_written_leaves_no_file_behind(tmp_path: Path) -> None:
    folder = tmp_path / "reports"
    (folder / f"{SPACE}.json").mkdir(parents=True)  # the report's name is taken by a folder
    report = build_report(SPACE, 2, [result(0, 2)], [])
    with pytest.raises(OutputFileError, match="a folder, not a regular file"):
        write_report(report, folder)
    assert sorted(p.name for p in folder.iterdir()) == [f"{SPACE}.json"]


def test_a_case_file_that_cannot_be_written_leaves_no_file_behind(tmp_path: Path) -> None:
    from schotten.cli.verify import write_case

    (tmp_path / "verify-x.yaml").mkdir()
    with pytest.raises(OutputFileError, match="a folder, not a regular file"):
        write_case("verify-x", "claim: [1]\n", tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["verify-x.yaml"]


# -- the scheduler -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("address", "words"),
    [
        ("garbage", ["garbage", "tcp://host:port"]),
        ("", ["tcp://host:port", "leave --scheduler out"]),
        ("inproc://x", ["inproc://x", "tcp://"]),
        ("tcp://", ["tcp://host:port"]),
        ("tcp://host:port", ["port"]),
        ("tcp://127.0.0.1:99999", ["99999"]),
        ("tls://127.0.0.1:8786", ["tcp://"]),
    ],
)
def test_an_address_that_is_no_scheduler_address_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], address: str, words: list[str]
) -> None:
    refused(capsys, verify(tmp_path, "--scheduler", address), *words)


@contextlib.contextmanager
def peer(answer: bytes | None) -> Iterator[str]:
    """A server on a free port that sends ``answer`` to each connection, or nothing at all
    (``None``), and keeps it open: the address of something that is not a Dask scheduler."""
    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def serve() -> None:
        with contextlib.suppress(OSError):
            while True:
                conn, _ = server.accept()
                held.append(conn)
                if answer is not None:
                    conn.sendall(answer)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        server.close()
        for conn in held:
            conn.close()


@pytest.mark.parametrize(
    "answer",
    [
        b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n",
        b"SSH-2.0-OpenSSH_9.6\r\n",
        b"\xff" * 8 + b"x" * 100,
        b"\x00\x00\x00\x00\x00\x00\x00\x00",
        b"\x05",
    ],
)
def test_a_peer_that_answers_something_else_is_no_scheduler(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], answer: bytes
) -> None:
    with peer(answer) as address:
        refused(capsys, verify(tmp_path, "--scheduler", address, "--timeout", "2"), address)


def test_a_peer_that_never_answers_is_given_up_after_the_timeout(tmp_path: Path) -> None:
    with peer(None) as address:
        run = run_cli(verify(tmp_path, "--scheduler", address, "--timeout", "1"), timeout=30)
    assert run.returncode == 1, run.stderr
    assert "does not answer" in run.stderr and "--timeout" in run.stderr
    assert "internal" not in run.stderr


def test_nothing_listening_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # free, and closed again below
    refused(capsys, verify(tmp_path, "--scheduler", f"tcp://127.0.0.1:{port}"), "no Dask")


@pytest.mark.parametrize("chunks", [str(10**12), str(10**7)])
def test_more_chunks_than_a_store_can_hold_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], chunks: str
) -> None:
    refused(capsys, verify(tmp_path, "--chunks", chunks, "--scheduler", "tcp://127.0.0.1:9"),
            "--chunks", "at most")  # fmt: skip
    assert not (tmp_path / "s.sqlite").exists()


@pytest.mark.parametrize("timeout", ["0", "-1", "nan", "inf", "x"])
def test_a_timeout_that_is_no_duration_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], timeout: str
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(verify(tmp_path, "--timeout", timeout))
    assert exit_info.value.code == 2 and "--timeout" in capsys.readouterr().err


# -- fuzzed stores -------------------------------------------------------------------------------

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=timedelta(seconds=5),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@pytest.fixture(scope="module")
def good_row() -> str:
    """A chunk's row with the space's own counts (counted once the tests of this file run, not
    at collection, and outside the examples' deadline)."""
    return json.dumps(true_result(1, 3, found=True).to_json())


_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=6,
)


def _checked(path: Path, count: int) -> None:
    """What a command does with a store: a report, a :class:`StoreError`, or a
    :class:`ReportError` naming the rows whose counts are not the space's; nothing else."""
    try:
        with Store(path) as store:
            results = store.results(SPACE, count, ENGINE)
            runs = store.runs(SPACE, count, ENGINE)
            done = store.done(SPACE, count, ENGINE)
    except StoreError as exc:
        assert str(exc).startswith(str(path)) and len(str(exc)) < 2000
        return
    try:
        report = build_report(SPACE, count, results, runs)
    except ReportError as exc:
        assert "disagree with the space" in str(exc) and done == set(range(count))
        return
    assert report["chunks"]["done"] == len(done) <= count
    assert report["complete"] == (done == set(range(count)))
    json.dumps(report, allow_nan=False)


@FUZZ
@given(st.data())
def test_a_row_changed_anyhow_gives_a_right_report_or_a_store_error(
    good_row: str, data: st.DataObject
) -> None:
    row = json.loads(good_row)
    for _ in range(data.draw(st.integers(1, 3))):
        key = data.draw(st.sampled_from([*row, "extra"]))
        if data.draw(st.booleans()) and key in row:
            del row[key]
        else:
            row[key] = data.draw(_VALUES)
    text = data.draw(st.sampled_from([json.dumps(row), good_row[: data.draw(st.integers(0, 80))]]))
    with tempfile.TemporaryDirectory() as folder:
        path = full_store(Path(folder) / "s.sqlite")
        with contextlib.closing(sqlite3.connect(path)) as db, db:
            db.execute("UPDATE chunks SET result = ? WHERE idx = 1", (text,))
        _checked(path, 3)


@pytest.fixture(scope="module")
def twenty_chunks(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    return full_store(tmp_path_factory.mktemp("store") / "s.sqlite", count=20).read_bytes()


@FUZZ
@given(st.data())
def test_a_store_file_damaged_anyhow_gives_a_right_report_or_a_store_error(
    twenty_chunks: bytes, data: st.DataObject
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "s.sqlite"
        damaged = bytearray(twenty_chunks)
        for _ in range(data.draw(st.integers(1, 8))):
            at = data.draw(st.integers(0, len(damaged) - 1))
            damaged[at] = data.draw(st.integers(0, 255))
        if data.draw(st.booleans()):
            damaged = damaged[: data.draw(st.integers(0, len(damaged)))]
        path.write_bytes(bytes(damaged))
        _checked(path, 20)


def test_chunks_of_another_engine_are_kept_but_never_counted(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    with Store(path) as store:
        store.save(result(0, 2), "0123456789abcdef")
        store.save(result(1, 2), ENGINE)
        assert store.done(SPACE, 2, ENGINE) == {1}
        report = build_report(SPACE, 2, store.results(SPACE, 2, ENGINE), [])
    assert report["complete"] is False and report["chunks"] == {"total": 2, "done": 1}
    with Store(tmp_path / "t.sqlite") as other:
        assert other.merge(path) == 2
        assert other.done(SPACE, 2, "0123456789abcdef") == {0}


@settings(max_examples=max(EXAMPLES // 2, 10), deadline=None)
@given(st.binary(max_size=40), st.booleans())
def test_any_greeting_is_a_scheduler_or_a_clear_error(answer: bytes, hang_up: bool) -> None:
    from schotten.verify.run import VerifyError, greet_scheduler

    server = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        with contextlib.suppress(OSError):
            conn, _ = server.accept()
            with conn:
                conn.sendall(answer)
                if not hang_up:
                    conn.recv(1)  # holds the connection until the client leaves

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
    try:
        assert greet_scheduler(address, timeout=0.3) == address
    except VerifyError as exc:
        assert address in str(exc)
    finally:
        server.close()
        thread.join(5)


def test_a_greeting_that_trickles_in_is_given_up_at_the_timeout() -> None:
    from schotten.verify.run import VerifyError, greet_scheduler

    server = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve() -> None:
        with contextlib.suppress(OSError):
            conn, _ = server.accept()
            with conn:
                conn.sendall(struct.pack("Q", 40))
                for _ in range(40):  # each byte well within the timeout, the whole far beyond
                    if stop.wait(0.1):
                        return
                    conn.sendall(b"x")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        with pytest.raises(VerifyError, match="does not answer within 1 s"):
            greet_scheduler(f"tcp://127.0.0.1:{server.getsockname()[1]}", timeout=1)
    finally:
        stop.set()
        server.close()
        thread.join(5)


def test_a_bad_row_is_shown_escaped_and_no_command_is_built_from_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = full_store(tmp_path / "s.sqlite")
    hostile = "x'; $(touch pwned) \x1b[2J\x07"
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute("UPDATE runs SET started = ?, wall = 'long'", (hostile,))
    err = refused(capsys, verify(tmp_path, "--chunks", "3"), "s.sqlite", "Remove that row")
    assert "sqlite3 " not in err and "DELETE" not in err  # nothing to paste into a shell
    assert "\x1b" not in err and "\x07" not in err


def test_a_store_claiming_false_totals_never_makes_a_complete_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every chunk of the split is there, but their rows claim 200 positions of a space of
    32,914,908: the report is refused, naming the rows, never written as complete."""
    results = [result(i, 2, classes=10) for i in range(2)]
    with pytest.raises(ReportError, match="the rows of chunk 0, 1 disagree with the space"):
        build_report(SPACE, 2, results, [])
    path = tmp_path / "s.sqlite"
    with Store(path) as store:
        for chunk in results:
            store.save(chunk, ENGINE)
    assert main(verify(tmp_path, "--chunks", "2")) == 1
    err = capsys.readouterr().err
    assert "200 positions" in err and str(SPACES[SPACE].raw_size()) in err
    assert not (tmp_path / "reports").exists()
