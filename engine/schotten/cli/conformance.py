"""``schotten conformance``: export the suite, serve the protocol, run an engine through it.

Registered on the main command by :func:`add_parser`; :func:`main` runs it and returns the exit
status (0: everything agrees; 1: a disagreement, an engine failure or an error; 2: usage).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from schotten.cli.progress import Progress
from schotten.conformance import protocol, suite
from schotten.conformance.client import EngineFailure, ProcessEngine, handshake
from schotten.conformance.runner import MalformedVector, RunReport, run
from schotten.conformance.vectors import KINDS, expected_counts

EXIT_OK, EXIT_FAILED = 0, 1

_EPILOG = """\
commands:
  export DIR        write the suite (refused when CI is set; the committed one is conformance/)
  serve             answer the protocol with this engine on stdin/stdout
  run --engine CMD  drive an engine command through the suite; exit 1 on any disagreement

The suite, its position format and the protocol are described in conformance/README.md.
"""


def add_parser(commands: Any) -> None:
    """Add ``conformance`` to the main command's sub-commands."""
    parser = commands.add_parser(
        "conformance",
        help="the conformance suite: export it, serve the protocol, run an engine through it",
        description="The conformance suite and its protocol (conformance/README.md).",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    export = actions.add_parser("export", help="write the suite into DIR (refused when CI is set)")
    export.add_argument("folder", type=Path, metavar="DIR")
    export.add_argument(
        "--cases", type=Path, default=Path("cases"), help="the casebook (default: cases/)"
    )
    _kinds(export)
    actions.add_parser("serve", help="speak the protocol on stdin/stdout with this engine")
    runner = actions.add_parser("run", help="drive an engine through the suite")
    runner.add_argument("--engine", required=True, metavar="CMD", help="the engine's command")
    runner.add_argument(
        "--suite", type=Path, default=Path("conformance"), help="the suite (default: conformance/)"
    )
    _kinds(runner)
    runner.add_argument(
        "--limit", type=_positive, metavar="N", help="N vectors of each kind, spread over the file"
    )
    runner.add_argument(
        "--vector",
        action="append",
        metavar="ID",
        help="this vector (repeatable): only the vectors named, or these besides --limit's",
    )
    runner.add_argument(
        "--timeout", type=_seconds, default=10.0, metavar="S", help="seconds per request (10)"
    )
    runner.add_argument(
        "--start-timeout",
        type=_seconds,
        default=120.0,
        metavar="S",
        help="seconds the engine may take to start and answer hello (120)",
    )
    runner.add_argument(
        "--show", type=_count, default=20, metavar="N", help="disagreements printed in full (20)"
    )


def main(args: argparse.Namespace) -> int:
    try:
        if args.action == "export":
            return _export(args)
        if args.action == "serve":
            return _serve()
        return _run(args)
    except suite.SuiteError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_FAILED


def _kinds(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--kind",
        action="append",
        choices=KINDS,
        help="only this kind (repeatable; default: every kind)",
    )


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("a whole number of at least 1")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value < 1e6:
        raise argparse.ArgumentTypeError("a number of seconds above 0")
    return value


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("a whole number, 0 or more")
    return value


def _export(args: argparse.Namespace) -> int:
    kinds = args.kind or KINDS
    cases = args.cases if args.cases.is_dir() else None
    if cases is None:
        print(f"warning: no casebook at {args.cases}: its vectors are left out", file=sys.stderr)
    bars: dict[str, Progress] = {}
    totals = expected_counts()

    def progress(kind: str, done: int) -> None:
        bar = bars.setdefault(kind, Progress(kind, totals[kind]))
        bar.update(min(done, totals[kind]))

    written = suite.export(args.folder, cases, kinds, progress)
    for kind, bar in bars.items():
        bar.finish(written["kinds"][kind]["vectors"])
    for kind in kinds:
        entry = written["kinds"][kind]
        print(f"{args.folder / entry['file']}: {entry['vectors']} vectors")
    return EXIT_OK


def _serve() -> int:
    # The protocol is UTF-8 whatever the locale; a byte that is not UTF-8 is answered as a bad
    # request rather than ending the server.
    for stream in (sys.stdin, sys.stdout):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(encoding="utf-8", errors="replace")
    with contextlib.suppress(BrokenPipeError, KeyboardInterrupt):
        protocol.serve(sys.stdin, sys.stdout)
    return EXIT_OK


def select(
    vectors: list[dict[str, Any]], limit: int | None, only: Sequence[str] | None
) -> list[dict[str, Any]]:
    """The vectors asked, in file order: ``limit`` of them spread evenly (or all), plus the ones
    named in ``only``; with ``only`` and no ``limit``, just the named ones."""
    if limit is None:
        return [v for v in vectors if v["id"] in only] if only else vectors
    picked = {i * len(vectors) // limit for i in range(min(limit, len(vectors)))}
    named = set(only or ())
    return [v for i, v in enumerate(vectors) if i in picked or v["id"] in named]


def _run(args: argparse.Namespace) -> int:
    known = suite.manifest(args.suite)["kinds"]
    kinds = [k for k in (args.kind or KINDS) if k in known]
    chosen = [(k, select(suite.load(args.suite, k), args.limit, args.vector)) for k in kinds]
    if args.vector:
        found = {v["id"] for _, vs in chosen for v in vs}
        missing = [ident for ident in args.vector if ident not in found]
        if missing:
            print(f"error: no vector {', '.join(missing)} in {args.suite}", file=sys.stderr)
            return EXIT_FAILED
    chosen = [(k, vs) for k, vs in chosen if vs]
    try:
        engine = ProcessEngine(args.engine, args.timeout)
    except EngineFailure as failure:
        print(f"error: {failure}", file=sys.stderr)
        return EXIT_FAILED
    bars: dict[str, Progress] = {}

    def progress(kind: str, done: int, total: int) -> None:
        bar = bars.setdefault(kind, Progress(kind, total))
        bar.finish(done) if done == total else bar.update(done)

    try:
        try:
            name = handshake(engine, args.start_timeout)
        except EngineFailure as failure:
            report = RunReport(args.engine, failure=failure, failed_vector="hello")
        else:
            print(f"engine: {name} ({args.engine})", file=sys.stderr)
            report = run(engine, chosen, progress)
    except MalformedVector as error:
        print(f"error: {args.suite}: {error}", file=sys.stderr)
        return EXIT_FAILED
    finally:
        engine.close()
    _print_report(report, args.show)
    return EXIT_OK if report.ok else EXIT_FAILED


def _print_report(report: RunReport, show: int) -> None:
    out = sys.stdout
    if report.tallies:
        print(report.table(), file=out)
    for disagreement in report.disagreements[:show]:
        print("", file=out)
        print(disagreement.report(), file=out)
    rest = report.disagreements[show:]
    if rest:
        print(
            f"\n{len(rest)} more disagreements: {' '.join(d.vector for d in rest[:50])}"
            + (" ..." if len(rest) > 50 else ""),
            file=out,
        )
    if report.failure is not None:
        print(
            f"\nENGINE {report.failure.what.upper()} at {report.failed_vector}: {report.failure}",
            file=out,
        )
    total = sum(t.vectors for t in report.tallies)
    agreed = sum(t.agreed for t in report.tallies)
    verdict = "PASS" if report.ok else "FAIL"
    print(f"\n{verdict}: {agreed}/{total} vectors agree ({report.engine})", file=out)
