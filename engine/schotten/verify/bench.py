"""Throughput of ``schotten verify``: the brute force's completions per CPU second, positions a
second in one process and on a local cluster of 1 or 2 workers, and the wall time a whole space
would take on more cores (printed by ``scripts/bench``).

The measure checks the same chunks (every N-th chunk of the space, so a fair sample of it) each
time, after the tables are built.
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from schotten.verify.brute import judge_block
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

    @property
    def per_second(self) -> float:
        return self.classes / self.seconds


@dataclass(frozen=True)
class BruteRate:
    space: str
    completions: int  # completions tried, wild values expanded
    cpu_seconds: float

    @property
    def per_second(self) -> float:
        return self.completions / self.cpu_seconds


def _sample(space_name: str, chunks: int) -> tuple[int, list[int]]:
    """The chunk count of the space and ``chunks`` of its chunks, spread over it."""
    count = SPACES[space_name].chunks
    step = max(count // chunks, 1)
    return count, list(range(0, step * chunks, step))[:count]


def measure_brute(space_name: str, chunks: int) -> BruteRate:
    """The brute force alone on the same chunks, in this process: completions per CPU second."""
    space = SPACES[space_name]
    count, indices = _sample(space_name, chunks)
    check_chunk(space_name, indices[0], count)  # the tables and the unit list, built once
    completions = 0
    cpu = 0.0
    for index in indices:
        for block, _ in space.blocks(index, count):
            start = time.process_time()
            completions += sum(v.completions for v in judge_block(block))
            cpu += time.process_time() - start
    return BruteRate(space_name, completions, cpu)


def measure(space_name: str, workers: int, chunks: int) -> Rate:
    """Check ``chunks`` chunks of the space (spread over it) with ``workers`` local workers."""
    space = SPACES[space_name]
    count = space.chunks
    step = max(count // chunks, 1)
    with tempfile.TemporaryDirectory() as tmp, connect(None, workers) as client:
        # Warm-up: each worker builds its tables and unit list on a tiny chunk.
        if hasattr(space, "units"):
            client.run(check_chunk, space_name, 0, len(space.units()))
        with Store(Path(tmp) / "bench.sqlite") as store:
            start = time.perf_counter()
            summary = run_space(
                space_name, client=client, store=store, count=step * chunks, shard=(1, step)
            )
            seconds = time.perf_counter() - start
    return Rate(space_name, workers, summary.totals.classes, seconds)


def measure_in_process(space_name: str, chunks: int) -> Rate:
    """The same chunks checked in this process, without Dask: one core's rate (per CPU
    second), warm."""
    count, indices = _sample(space_name, chunks)
    check_chunk(space_name, indices[0], count)  # tables and units, as a worker's warm-up
    start = time.process_time()
    classes = sum(check_chunk(space_name, i, count).classes for i in indices)
    return Rate(space_name, 1, classes, time.process_time() - start)


def projected_seconds(space_name: str, rate: Rate, cores: int) -> float | None:
    """The wall time of the whole space on ``cores`` workers, at ``rate`` per worker scaled
    linearly (the 1-to-2 workers ratio says how far that holds)."""
    classes = SPACES[space_name].class_count()
    if classes is None:
        return None
    return classes / (rate.per_second / rate.workers * cores)
