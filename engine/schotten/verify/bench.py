"""Throughput of ``schotten verify``: positions a second on a local cluster of 1 or 2 workers,
and the wall time a whole space would take on more cores (printed by ``scripts/bench``).

The measure checks the same chunks (every N-th chunk of the space, so a fair sample of it) with
each number of workers, after the workers have built their tables.
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

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
    """The same chunks checked in this process, without Dask: one core's rate, warm."""
    space = SPACES[space_name]
    count = space.chunks
    step = max(count // chunks, 1)
    if hasattr(space, "units"):
        check_chunk(space_name, 0, len(space.units()))  # tables and units, as a worker's warm-up
    start = time.perf_counter()
    classes = sum(check_chunk(space_name, i, count).classes for i in range(0, step * chunks, step))
    return Rate(space_name, 1, classes, time.perf_counter() - start)


def projected_seconds(space_name: str, rate: Rate, cores: int) -> float | None:
    """The wall time of the whole space on ``cores`` workers, at ``rate`` per worker scaled
    linearly (the 1-to-2 workers ratio says how far that holds)."""
    classes = SPACES[space_name].class_count()
    if classes is None:
        return None
    return classes / (rate.per_second / rate.workers * cores)
