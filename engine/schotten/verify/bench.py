"""Throughput of ``schotten verify``: the brute force's completions and positions per CPU
second, the whole check's positions per CPU second in one process and per wall second on a
local cluster of 1 or 2 workers, and the wall time a whole space would take on more cores
(printed by ``scripts/bench``).

Every measure of a space checks the same chunks (evenly spaced over the space, so a sample of
it: the chunks of a space are not all alike, the first units of ``mud-one-stone`` hold its
heaviest positions), after the tables are built.
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from schotten.verify.brute import judge_blocks
from schotten.verify.check import check_chunk
from schotten.verify.run import connect, run_space
from schotten.verify.spaces import SPACES
from schotten.verify.store import Store


@dataclass(frozen=True)
class Rate:
    space: str
    workers: int
    classes: int  # positions checked (one per class)
    seconds: float
    positions: int = 0  # positions of the raw space they stand for

    def per_second(self, count: int) -> float:
        """``count`` (classes or positions) per wall second of this run."""
        return count / self.seconds


@dataclass(frozen=True)
class BruteRate:
    space: str
    classes: int  # positions judged (one per class)
    completions: int  # completions tried, wild values expanded
    cpu_seconds: float

    def per_cpu_second(self, count: int) -> float:
        """``count`` (completions or classes) per CPU second of the brute force."""
        return count / self.cpu_seconds


def sample(space_name: str, chunks: int) -> tuple[int, list[int]]:
    """The chunk count of the space and ``chunks`` of its chunks, evenly spaced over it (the
    first, then every ``count // chunks``-th)."""
    count = SPACES[space_name].chunks
    step = max(count // chunks, 1)
    return count, list(range(0, step * chunks, step))[:count]


def measure_brute(space_name: str, chunks: int) -> BruteRate:
    """The brute force alone on the sampled chunks, in this process, each chunk judged as
    :func:`check_chunk` judges it (every block at once): completions per CPU second. The
    positions are made first and not timed."""
    space = SPACES[space_name]
    count, indices = sample(space_name, chunks)
    check_chunk(space_name, indices[0], count)  # the tables and the unit list, built once
    classes = completions = 0
    cpu = 0.0
    for index in indices:
        found = [block for block, _ in space.blocks(index, count)]
        start = time.process_time()
        judged = judge_blocks(found)
        cpu += time.process_time() - start
        classes += sum(len(verdicts) for verdicts in judged)
        completions += sum(v.completions for verdicts in judged for v in verdicts)
    return BruteRate(space_name, classes, completions, cpu)


def measure(space_name: str, workers: int, chunks: int) -> Rate:
    """Check ``chunks`` chunks of the space (spread over it) with ``workers`` local workers."""
    space = SPACES[space_name]
    count, indices = sample(space_name, chunks)
    step = indices[1] - indices[0] if len(indices) > 1 else count
    with tempfile.TemporaryDirectory() as tmp, connect(None, workers) as client:
        # Warm-up: each worker builds its tables and unit list on a tiny chunk.
        if hasattr(space, "units"):
            client.run(check_chunk, space_name, 0, len(space.units()))
        with Store(Path(tmp) / "bench.sqlite") as store:
            start = time.perf_counter()
            summary = run_space(
                space_name, client=client, store=store, count=count, shard=(1, step)
            )
            seconds = time.perf_counter() - start
    totals = summary.totals
    return Rate(space_name, workers, totals.classes, seconds, totals.positions)


def measure_in_process(space_name: str, chunks: int) -> Rate:
    """The same chunks checked in this process, without Dask: one core's rate (per CPU
    second), warm."""
    count, indices = sample(space_name, chunks)
    check_chunk(space_name, indices[0], count)  # tables and units, as a worker's warm-up
    start = time.process_time()
    results = [check_chunk(space_name, i, count) for i in indices]
    seconds = time.process_time() - start
    classes = sum(r.classes for r in results)
    return Rate(space_name, 1, classes, seconds, sum(r.positions for r in results))


def projected_seconds(space_name: str, rate: Rate, cores: int) -> float | None:
    """The wall time of the whole space on ``cores`` workers, at ``rate`` per worker scaled
    linearly (the 1-to-2 workers ratio says how far that holds)."""
    classes = SPACES[space_name].class_count()
    if classes is None:
        return None
    return classes / (rate.per_second(rate.classes) / rate.workers * cores)
