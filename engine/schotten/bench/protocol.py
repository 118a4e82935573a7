"""Benchmark of a conformance run through the protocol, this engine served."""

from __future__ import annotations

import sys
import time
from pathlib import Path


def bench_conformance(count: int, root: Path) -> None:
    """`schotten conformance run` against `schotten conformance serve`: vectors a second through
    the protocol (pipes, JSON both ways, the runner's checks), kind by kind."""
    import shlex

    from schotten.conformance import suite
    from schotten.conformance.client import ProcessEngine, handshake
    from schotten.conformance.runner import run
    from schotten.conformance.wire import KINDS

    serve = "import sys; from schotten.cli import main; sys.exit(main(['conformance', 'serve']))"
    command = shlex.join([sys.executable, "-c", serve])
    folder = root / "conformance"
    print(f"Conformance run through the protocol (this engine served; {count} vectors a kind)")
    total_vectors, total_time = 0, 0.0
    for kind in KINDS:
        vectors = suite.load(folder, kind)
        wanted = min(count // 20 if kind == "games" else count, len(vectors))
        chosen = [vectors[i * len(vectors) // wanted] for i in range(wanted)]
        engine = ProcessEngine(command, 60)
        try:
            handshake(engine, 120)
            start = time.perf_counter()
            report = run(engine, [(kind, chosen)])
            elapsed = time.perf_counter() - start
        finally:
            engine.close()
        status = "all agree" if report.ok else f"{len(report.outcomes)} NOT AGREEING"
        total_vectors, total_time = total_vectors + wanted, total_time + elapsed
        print(
            f"  {kind:<11} {wanted:>6,} vectors {elapsed:>7.2f} s "
            f"{wanted / elapsed:>9,.0f} vectors/s  ({status})"
        )
    print(
        f"  {'all':<11} {total_vectors:>6,} vectors {total_time:>7.2f} s "
        f"{total_vectors / total_time:>9,.0f} vectors/s"
    )
