"""``schotten verify SPACE``: check the claim prover on every position of a space.

Registered by :mod:`schotten.cli` with :func:`add_parser`; the command runs :func:`run`. The
options are made without the verify extra (:mod:`schotten.verify.names`); NumPy and Dask are
imported when the command runs, and their absence is named by :func:`schotten.cli.main`.
"""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

from schotten._files import write_atomically
from schotten.cli.arguments import Commands, add_command, positive, seconds
from schotten.verify.names import DEFAULT_STORE, DEFAULT_TIMEOUT, SPACE_NAMES

if TYPE_CHECKING:
    from schotten.verify.check import ChunkResult

_EPILOG = """\
exit status:
  0  the engine agrees with the brute force on every position checked
  1  a disagreement (each written as a case file), or an error
  2  usage error
  130  interrupted (Ctrl-C, SIGTERM): finished chunks stay in the store, a partial report
       is written; run the same command again to resume

Spaces and how to run them on a cluster: verification/README.md.
"""


def add_parser(commands: Commands) -> None:
    parser = add_command(
        commands,
        "verify",
        help="check the claim prover against a brute force on a whole space of positions",
        description=(
            "Check the engine's claim verdicts against an exhaustive brute force on every "
            "position of SPACE (one per class of colour permutations), on a Dask cluster."
        ),
        epilog=_EPILOG,
    )
    parser.add_argument(
        "space",
        choices=sorted(SPACE_NAMES),
        metavar="SPACE",
        help="one of: " + ", ".join(SPACE_NAMES),
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="an existing Dask scheduler (tcp://host:8786); "
        "default: a local cluster on every core, started and stopped here",
    )
    parser.add_argument(
        "--timeout",
        type=seconds,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help="how long to wait for the scheduler to answer (default: %(default)g)",
    )
    parser.add_argument(
        "--workers",
        type=positive,
        metavar="N",
        help="worker processes of the local cluster (default: one per core)",
    )
    parser.add_argument(
        "--shard",
        type=_shard,
        default=(1, 1),
        metavar="I/N",
        help="check only shard I of N (every N-th chunk from the I-th)",
    )
    parser.add_argument(
        "--chunks",
        type=positive,
        metavar="N",
        help="split the space into N chunks (default: the space's own)",
    )
    # Where the work is kept, each path with its default.
    for flag, metavar, default, help in (
        ("--store", "PATH", DEFAULT_STORE, "the SQLite file of finished chunks"),
        ("--report-dir", "DIR", Path("verification"), "where SPACE.json is written"),
        (
            "--cases-dir",
            "DIR",
            Path("verification/disagreements"),
            "where disagreements are written as case files",
        ),
    ):
        parser.add_argument(
            flag, type=Path, default=default, metavar=metavar, help=f"{help} (default: %(default)s)"
        )
    parser.add_argument(
        "--merge",
        type=Path,
        nargs="+",
        default=[],
        metavar="STORE",
        help="first copy in the chunks of other stores (shards done elsewhere)",
    )


def _shard(text: str) -> tuple[int, int]:
    part, sep, parts = text.partition("/")
    if not sep or not part.isdigit() or not parts.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r}: expected I/N, for example 1/4")
    i, n = int(part), int(parts)
    if not 1 <= i <= n:
        raise argparse.ArgumentTypeError(f"{text!r}: expected 1 <= I <= N")
    return i, n


def run(args: argparse.Namespace) -> int:
    # SIGTERM (a batch system, `kill`) stops a run like Ctrl-C: finished chunks stay in the store
    # and a partial report is written.
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        return _run(args)
    finally:
        signal.signal(signal.SIGTERM, previous)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def _run(args: argparse.Namespace) -> int:
    from schotten.verify.report import build_report, space_digest, write_report
    from schotten.verify.run import chunk_count, print_summary, scheduler_address, verify_space
    from schotten.verify.store import Store

    summary = None
    count = chunk_count(args.space, args.chunks)
    if args.scheduler is not None:
        scheduler_address(args.scheduler)  # a wrong address is refused before any work
    with Store(args.store) as store:
        for other, added in store.merge_all(args.merge):
            print(f"merged {other}: {added} new chunks", file=sys.stderr)
        try:
            summary = verify_space(
                args.space,
                store=store,
                count=count,
                shard=args.shard,
                scheduler=args.scheduler,
                workers=args.workers,
                timeout=args.timeout,
                progress=sys.stderr,
                on_result=lambda result: _write_cases(result, args.cases_dir),
            )
        except KeyboardInterrupt:
            print(
                "\ninterrupted: finished chunks are kept in the store; run again to resume",
                file=sys.stderr,
            )
        engine = space_digest(args.space)
        report = build_report(
            args.space,
            count,
            store.results(args.space, count, engine),
            store.runs(args.space, count, engine),
        )
    path = write_report(report, args.report_dir)
    state = "complete" if report["complete"] else "partial"
    if summary is None:
        print(f"report ({state}): {path}")
        return 130
    print_summary(summary)
    print(f"report ({state}): {path}")
    return 1 if summary.totals.disagreements or report["disagreements"] else 0


def _write_cases(result: ChunkResult, folder: Path) -> None:
    for found in result.disagreements:
        written = write_case(found.case_id, found.case_text, folder)
        print(f"\ndisagreement: {found.summary}\n  case file: {written}", file=sys.stderr)


def write_case(case_id: str, text: str, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{case_id}.yaml"
    write_atomically(path, text)
    return path
