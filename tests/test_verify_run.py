"""``schotten verify`` end to end, on chunk subsets of real spaces: a broken prover is caught
and its counterexample is a case file; an interrupted run resumes; ``--scheduler`` runs on a
Dask cluster started here; without Dask the command says how to install it."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from schotten.board import Board, Player
from schotten.casebook.build import load_case
from schotten.casebook.run import run_case
from schotten.casebook.writer import disagreement_case
from schotten.claims import Reason, StoneVerdict, judge_stone
from schotten.cli import main
from schotten.cli.verify import write_case
from schotten.verify.check import ChunkResult
from schotten.verify.report import build_report, space_digest
from schotten.verify.run import run_space
from schotten.verify.spaces import SPACES, Space
from schotten.verify.store import Store, StoreError
from schotten.verify.symmetry import canonical_sets

BASE_DIGEST = space_digest("base-one-stone")


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    # Imported here, not at the top: collecting this file costs no import of Dask.
    import distributed

    # In-process workers: the deliberately broken prover below needs no pickling to reach them.
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0"
        ) as cluster,
        distributed.Client(cluster) as c,
    ):
        yield c


def ties_to_the_claimer(board: Board, claimer: Player, number: int) -> StoneVerdict:
    """A broken prover: equal complete sides always go to the claimer (rule completed-first)."""
    verdict = judge_stone(board, claimer, number)
    if verdict.reason is Reason.TIE_COMPLETED_LATER:
        return replace(verdict, reason=Reason.TIE_COMPLETED_FIRST)
    return verdict


def _unit_chunk(space: Space, mine: tuple[int, ...], low: int) -> tuple[int, int]:
    """The shard I/N that is exactly one unit of the space: one canonical claimer set and the
    opponent's lowest card."""
    units = space.units()
    sets = canonical_sets(space.shapes[0].mine_clan)
    for k, (_, a_no, unit_low) in enumerate(units):
        if sets[a_no] == mine and unit_low == low:
            return k + 1, len(units)
    raise AssertionError("no such unit")


def test_a_prover_that_gives_ties_to_the_claimer_is_caught(client: Any, tmp_path: Path) -> None:
    space = SPACES["base-one-stone-complete"]
    assert isinstance(space, Space)
    # Red 1-2-3 against opponent sides whose lowest card is orange 1: orange 1-2-3 ties.
    shard = _unit_chunk(space, (0, 1, 2), 9)
    written: list[Path] = []

    def keep(result: ChunkResult) -> None:
        for found in result.disagreements:
            written.append(write_case(found.case_id, found.case_text, tmp_path / "cases"))

    with Store(tmp_path / "store.sqlite") as store:
        honest = run_space(
            "base-one-stone-complete",
            client=client,
            store=store,
            count=shard[1],
            shard=shard,
        )
        assert honest.totals.disagreements == [] and honest.totals.classes > 0
    with Store(tmp_path / "broken.sqlite") as store:
        broken = run_space(
            "base-one-stone-complete",
            client=client,
            store=store,
            count=shard[1],
            shard=shard,
            judge=ties_to_the_claimer,
            on_result=keep,
        )
    assert broken.totals.disagreements, "the broken prover went unnoticed"
    assert len(written) == len(broken.totals.disagreements)
    # Each counterexample is a valid case file; the real engine refuses the tie there.
    for path in written:
        case = load_case(path)
        assert case.claim == (1,)
        (verdict,) = run_case(case).verdicts
        assert verdict.reason is Reason.TIE_COMPLETED_LATER
        assert "orange" in path.read_text()


def test_an_interrupted_run_resumes_without_redoing_finished_chunks(
    client: Any, tmp_path: Path
) -> None:
    store_path = tmp_path / "store.sqlite"
    seen: list[int] = []

    def stop_after_two(result: ChunkResult) -> None:
        seen.append(result.index)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with Store(store_path) as store, pytest.raises(KeyboardInterrupt):
        run_space(
            "base-one-stone",
            client=client,
            store=store,
            count=400,
            shard=(1, 80),
            on_result=stop_after_two,
        )
    with Store(store_path) as store:
        assert store.done("base-one-stone", 400, BASE_DIGEST) == set(seen)
        again: list[int] = []
        summary = run_space(
            "base-one-stone",
            client=client,
            store=store,
            count=400,
            shard=(1, 80),
            on_result=lambda r: again.append(r.index),
        )
        assert summary.reused == 2 and summary.computed == 3
        assert not set(again) & set(seen)
        assert sorted(again + seen) == [0, 80, 160, 240, 320]
        # A finished shard is not redone.
        third = run_space(
            "base-one-stone",
            client=client,
            store=store,
            count=400,
            shard=(1, 80),
        )
        assert (third.computed, third.reused) == (0, 5)
        runs = store.runs("base-one-stone", 400, BASE_DIGEST)
        report = build_report(
            "base-one-stone", 400, store.results("base-one-stone", 400, BASE_DIGEST), runs
        )
    assert report["chunks"] == {"total": 400, "done": 5} and report["complete"] is False
    assert report["classes_checked"] == summary.totals.classes
    assert report["engine"]["digest"] == BASE_DIGEST


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_for_port(port: int, deadline: float) -> None:
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise AssertionError(f"nothing listens on port {port}")


def test_scheduler_option_runs_on_an_existing_dask_cluster(tmp_path: Path) -> None:
    dask = Path(sys.executable).parent / "dask"
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    common = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "cwd": tmp_path}
    scheduler = subprocess.Popen(
        [dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
        **common,  # type: ignore[call-overload]
    )
    worker = None
    try:
        _wait_for_port(port, time.monotonic() + 60)
        worker = subprocess.Popen(
            [
                dask,
                "worker",
                address,
                "--nworkers",
                "1",
                "--nthreads",
                "1",
                "--no-dashboard",
                "--host",
                "127.0.0.1",
            ],
            **common,  # type: ignore[call-overload]
        )
        status = main(
            [
                "verify",
                "base-one-stone",
                "--scheduler",
                address,
                "--chunks",
                "400",
                "--shard",
                "7/100",
                "--store",
                str(tmp_path / "s.sqlite"),
                "--report-dir",
                str(tmp_path / "reports"),
            ]
        )
        assert status == 0
        report = json.loads((tmp_path / "reports" / "base-one-stone.json").read_text())
        assert report["chunks"] == {"total": 400, "done": 4}
        assert report["workers"] == 1 and report["disagreements"] == []
    finally:
        for process in (worker, scheduler):
            if process is not None:
                os.kill(process.pid, signal.SIGTERM)
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.kill(process.pid, signal.SIGKILL)
                    process.wait()


def test_without_dask_the_command_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    status = main(["verify", "base-one-stone", "--store", str(tmp_path / "s.sqlite")])
    assert status == 1
    assert "pip install 'schotten[verify]'" in capsys.readouterr().err


@pytest.mark.parametrize("bad", ["0/2", "3/2", "1-2", "x/y"])
def test_a_bad_shard_is_a_usage_error(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["verify", "base-one-stone", "--shard", bad])
    assert exit_info.value.code == 2
    assert "I/N" in capsys.readouterr().err


def test_merge_copies_the_chunks_of_another_store(tmp_path: Path) -> None:
    engine = BASE_DIGEST
    with Store(tmp_path / "a.sqlite") as a, Store(tmp_path / "b.sqlite") as b:
        a.save(ChunkResult("base-one-stone", 0, 2, classes=3), engine)
        b.save(ChunkResult("base-one-stone", 1, 2, classes=4), engine)
        b.save(ChunkResult("base-one-stone", 0, 2, classes=3), engine)
    with Store(tmp_path / "a.sqlite") as a:
        assert a.merge(tmp_path / "b.sqlite") == 1
        assert a.done("base-one-stone", 2, engine) == {0, 1}
        with pytest.raises(StoreError, match="no such store"):
            a.merge(tmp_path / "missing.sqlite")


def test_case_files_of_whole_boards_replay_to_the_engines_verdict(tmp_path: Path) -> None:
    # Sampled positions have other stones, claimed stones, discards and either claimer.
    items = list(SPACES["sampled"].chunk(3, SPACES["sampled"].chunks))[:20]
    assert any(item.claimer is Player.SECOND for item in items)
    for n, item in enumerate(items):
        path = tmp_path / f"{n}.yaml"
        problem = "engine says x; brute force says y"
        path.write_text(disagreement_case("sampled", item.board, item.claimer, item.stone, problem))
        (verdict,) = run_case(load_case(path)).verdicts
        assert verdict.reason is judge_stone(item.board, item.claimer, item.stone).reason


def test_sigterm_keeps_finished_chunks_and_writes_a_partial_report(tmp_path: Path) -> None:
    schotten = Path(sys.executable).parent / "schotten"
    command = [
        schotten,
        "verify",
        "base-one-stone",
        "--workers",
        "1",
        "--chunks",
        "400",
        "--shard",
        "1/4",
        "--store",
        str(tmp_path / "s.sqlite"),
        "--report-dir",
        str(tmp_path / "reports"),
    ]
    # As a context, so that its pipe is closed (an unclosed file is a warning, and warnings fail).
    with subprocess.Popen(command, stderr=subprocess.PIPE, text=True, cwd=tmp_path) as process:
        try:
            assert process.stderr is not None
            first = process.stderr.readline()  # the progress line of the first finished chunk
            assert "chunks" in first, first
            os.kill(process.pid, signal.SIGTERM)
            assert process.wait(timeout=60) == 130
        finally:
            if process.poll() is None:
                os.kill(process.pid, signal.SIGKILL)
                process.wait()
    report = json.loads((tmp_path / "reports" / "base-one-stone.json").read_text())
    assert report["complete"] is False and 1 <= report["chunks"]["done"] < 100
    with Store(tmp_path / "s.sqlite") as store:
        assert len(store.done("base-one-stone", 400, BASE_DIGEST)) == report["chunks"]["done"]
