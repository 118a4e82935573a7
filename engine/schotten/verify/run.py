"""Run a space on a Dask cluster: chunks out with ``client.map``, results back as they finish
(``as_completed``) into the store, a progress line on stderr, the report at the end.

Dask is imported here only, so the engine itself never needs it.
"""

from __future__ import annotations

import contextlib
import datetime
import logging
import os
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from schotten.errors import SchottenError
from schotten.verify.check import ChunkResult, Disagreement, Judge, check_chunk
from schotten.verify.report import Totals, engine_digest, totals
from schotten.verify.spaces import SPACES
from schotten.verify.store import Run, Store

if TYPE_CHECKING:
    from distributed import Client

INSTALL_HINT = "schotten verify needs Dask: pip install 'schotten[verify]' (dask[distributed])"


class VerifyError(SchottenError):
    """A problem the user can fix (bad shard, no Dask, no such store)."""


@dataclass(frozen=True)
class Summary:
    space: str
    count: int  # chunks in the space
    wanted: int  # chunks of this shard
    computed: int  # chunks computed by this run
    reused: int  # chunks found in the store
    totals: Totals  # over this shard's chunks
    complete: bool  # every chunk of the space is in the store
    wall: float
    workers: int
    found: tuple[Disagreement, ...]


def dask_client_module() -> Any:
    try:
        import distributed
    except ImportError as exc:
        raise VerifyError(INSTALL_HINT) from exc
    return distributed


@contextlib.contextmanager
def connect(scheduler: str | None, workers: int | None) -> Iterator[Client]:
    """A client of the cluster at ``scheduler``, or of a local cluster started (and stopped)
    here: one process per core, one thread each (the work is pure Python: processes, not
    threads)."""
    distributed = dask_client_module()
    if scheduler is not None:
        try:
            client = distributed.Client(scheduler, timeout="20s")
        except OSError as exc:
            raise VerifyError(f"no Dask scheduler answers at {scheduler}: {exc}") from exc
        with client:
            try:
                client.wait_for_workers(1, timeout=120)
            except TimeoutError as exc:
                raise VerifyError(f"the scheduler at {scheduler} has no worker") from exc
            yield client
        return
    cluster = distributed.LocalCluster(
        n_workers=workers or os.cpu_count() or 1,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",  # any free port: several runs may share a machine
        # A worker that loses its scheduler while the cluster shuts down is no news.
        silence_logs=logging.CRITICAL,
    )
    with cluster, distributed.Client(cluster) as client:
        yield client


def worker_count(client: Client) -> int:
    return sum(w["nthreads"] for w in client.scheduler_info()["workers"].values())


def shard_chunks(count: int, shard: tuple[int, int]) -> list[int]:
    """The chunks of shard ``I/N`` (1-based): every N-th chunk from the I-th.

    >>> shard_chunks(10, (2, 3))
    [1, 4, 7]
    """
    part, parts = shard
    if not 1 <= part <= parts:
        raise VerifyError(f"shard {part}/{parts}: expected I/N with 1 <= I <= N")
    return list(range(part - 1, count, parts))


def run_space(
    space_name: str,
    *,
    client: Client,
    store: Store,
    count: int | None = None,
    shard: tuple[int, int] = (1, 1),
    judge: Judge | None = None,
    on_result: Callable[[ChunkResult], None] | None = None,
    progress: IO[str] | None = None,
) -> Summary:
    """Check every chunk of the shard not yet in the store; return the shard's summary."""
    distributed = dask_client_module()
    space = SPACES[space_name]
    count = count or space.chunks
    engine = engine_digest()
    wanted = shard_chunks(count, shard)
    done = store.done(space_name, count, engine)
    todo = [i for i in wanted if i not in done]
    workers = worker_count(client)
    started = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    clock = time.perf_counter()
    bar = Progress(space_name, len(todo), progress)
    found: list[Disagreement] = []
    computed = 0
    extra: dict[str, Any] = {} if judge is None else {"judge": judge}
    futures = client.map(
        check_chunk, [space_name] * len(todo), todo, [count] * len(todo), pure=False, **extra
    )
    try:
        for future in distributed.as_completed(futures):
            result: ChunkResult = future.result()
            store.save(result, engine)
            computed += 1
            found += result.disagreements
            bar.update(result)
            if on_result is not None:
                on_result(result)
    finally:
        client.cancel(futures)  # type: ignore[no-untyped-call]
        wall = time.perf_counter() - clock
        workers = max(workers, worker_count(client))  # workers may join a cluster as it runs
        if computed:
            store.add_run(space_name, count, engine, Run(started, wall, workers, computed))
        bar.close()
    results = store.results(space_name, count, engine, wanted)
    every = store.done(space_name, count, engine)
    return Summary(
        space_name,
        count,
        len(wanted),
        computed,
        len(wanted) - len(todo),
        totals(results),
        len(every) == count,
        wall,
        workers,
        tuple(found),
    )


class Progress:
    """``base-one-stone [#####.....] 120/400 chunks  52,113 positions  6,050/s  ETA 0:01:31``,
    redrawn in place on a terminal, one line every 10 s otherwise."""

    def __init__(self, label: str, total: int, stream: IO[str] | None) -> None:
        self.label = label
        self.total = total
        self.stream = stream
        self.done = 0
        self.classes = 0
        self.start = time.perf_counter()
        self.last = 0.0
        self.tty = stream is not None and stream.isatty()

    def update(self, result: ChunkResult) -> None:
        self.done += 1
        self.classes += result.classes
        now = time.perf_counter()
        if self.stream is None:
            return
        if self.tty or now - self.last >= 10 or self.done == self.total:
            self.last = now
            self.stream.write(
                ("\r" if self.tty else "") + self.line(now) + ("" if self.tty else "\n")
            )
            self.stream.flush()

    def line(self, now: float) -> str:
        elapsed = max(now - self.start, 1e-9)
        width = 20
        filled = width * self.done // max(self.total, 1)
        rate = self.classes / elapsed
        left = elapsed / self.done * (self.total - self.done) if self.done else 0.0
        return (
            f"{self.label} [{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} chunks"
            f"  {self.classes:,} positions  {rate:,.0f}/s  ETA {_clock(left)}"
        )

    def close(self) -> None:
        if self.stream is not None and self.tty and self.done:
            self.stream.write("\n")
            self.stream.flush()


def _clock(seconds: float) -> str:
    return str(datetime.timedelta(seconds=round(seconds)))


def default_store() -> Path:
    return Path(".verify") / "results.sqlite"


def printable(summary: Summary) -> list[tuple[str, str]]:
    """The summary table, as (label, value) rows."""
    t = summary.totals
    space = SPACES[summary.space]
    raw = space.raw_size()
    classes = space.class_count()
    rows = [
        ("space", summary.space),
        (
            "chunks",
            f"{summary.wanted:,} of {summary.count:,} "
            f"({summary.computed:,} computed now, {summary.reused:,} from the store)",
        ),
        ("classes checked", f"{t.classes:,}" + (f" of {classes:,}" if classes else "")),
        ("positions covered", f"{t.positions:,}" + (f" of {raw:,}" if raw else "")),
    ]
    for reason, tally in t.reasons.items():
        rows.append(
            (f"  {reason}", f"{tally['classes']:,} classes, {tally['positions']:,} positions")
        )
    rows += [
        ("completions tried", f"{t.completions:,}"),
        ("disagreements", f"{len(t.disagreements):,}"),
        ("time", f"{summary.wall:,.1f} s wall, {t.cpu_seconds:,.1f} s in the workers (all runs)"),
        ("workers", f"{summary.workers}"),
        ("space complete", "yes" if summary.complete else "no"),
    ]
    return rows


def print_summary(summary: Summary, out: IO[str] = sys.stdout) -> None:
    rows = printable(summary)
    width = max(len(label) for label, _ in rows)
    for label, value in rows:
        print(f"{label:<{width}}  {value}", file=out)
