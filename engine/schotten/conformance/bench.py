"""The conformance section of the benchmark: the suite through an engine command, kind by kind.

Prints figures only (``scripts/bench --only conformance``): for each kind, the vectors asked, the
wall time and the vectors a second, then the whole suite's time. The engine is this project's
``schotten conformance serve`` unless another command is given; it is started once a kind (its
start is not counted) and driven as ``schotten conformance run`` drives it.
"""

from __future__ import annotations

import shlex
import sys
import time
from collections.abc import Callable
from pathlib import Path

from schotten.conformance import suite
from schotten.conformance.client import ProcessEngine, handshake
from schotten.conformance.runner import run
from schotten.conformance.wire import KINDS

SERVE = "import sys; from schotten.cli import main; sys.exit(main(['conformance', 'serve']))"


def serve_command() -> str:
    """This engine's ``conformance serve``, as a command for the runner."""
    return shlex.join([sys.executable, "-c", SERVE])


def bench(
    folder: Path,
    limit: int | None = None,
    command: str | None = None,
    say: Callable[[str], None] = print,
) -> float:
    """Run every kind of the suite in ``folder`` (``limit`` vectors of each, spread over the
    file; none: all) through ``command``; print the time of each; the whole wall time."""
    command = command or serve_command()
    what = "every vector" if limit is None else f"at most {limit:,} vectors a kind"
    say(f"Conformance run through the protocol ({what}; engine: {command})")
    total_vectors, total_time = 0, 0.0
    for kind in KINDS:
        vectors = suite.load(folder, kind)
        wanted = len(vectors) if limit is None else min(limit, len(vectors))
        chosen = [vectors[i * len(vectors) // wanted] for i in range(wanted)]
        engine = ProcessEngine(command, 60)
        try:
            _, declared = handshake(engine, 120)
            start = time.perf_counter()
            report = run(engine, [(kind, chosen)], capabilities=declared)
            elapsed = time.perf_counter() - start
        finally:
            engine.close()
        status = "all agree" if report.ok else f"{len(report.outcomes)} NOT AGREEING"
        total_vectors, total_time = total_vectors + wanted, total_time + elapsed
        say(
            f"  {kind:<11} {wanted:>6,} vectors {elapsed:>7.2f} s "
            f"{wanted / elapsed:>9,.0f} vectors/s  ({status})"
        )
    say(
        f"  {'all':<11} {total_vectors:>6,} vectors {total_time:>7.2f} s "
        f"{total_vectors / total_time:>9,.0f} vectors/s"
    )
    return total_time
