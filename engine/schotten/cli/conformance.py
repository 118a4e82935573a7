"""``schotten conformance``: export the suite, serve the protocol, run an engine through it,
add a run to the table of who agrees, and say where the installed suite is.

Registered on the main command by :func:`add_parser`; :func:`main` runs it and returns the exit
status (0: everything agrees; 1: a disagreement; 2: the run could not be done: a usage error, a
bad suite, an engine that would not start or answer hello, too many restarts, a stop signal).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import io
import re
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from schotten._files import InputFileError, read_regular_file, write_atomically
from schotten.cli.arguments import Commands, add_command, count, positive, seconds
from schotten.cli.progress import Progress
from schotten.conformance import alternatives, protocol, suite
from schotten.conformance.agreement import (
    TABLE_FILE,
    AgreementError,
    Row,
    added,
    read_run,
    read_table,
    run_record,
    write_table,
)
from schotten.conformance.capabilities import VARIANTS
from schotten.conformance.cases import write_cases
from schotten.conformance.checks import LEVELS
from schotten.conformance.client import (
    Engine,
    EngineFailure,
    ProcessEngine,
    engine_argv,
    handshake,
)
from schotten.conformance.installed import installed_suite
from schotten.conformance.report import (
    closing_line,
    grouped,
    junit,
    read_report,
    report_lines,
    summary,
    table,
    verdict,
)
from schotten.conformance.runner import (
    Interrupted,
    KindTally,
    MalformedVector,
    RunReport,
    run,
)
from schotten.conformance.shown import shown
from schotten.conformance.vectors import expected_counts
from schotten.conformance.wire import KINDS, dumps
from schotten.errors import SchottenError

EXIT_OK, EXIT_FAILED, EXIT_INCOMPLETE = 0, 1, 2

_EPILOG = """\
commands:
  export DIR        write the suite (refused when CI is set; the committed one is conformance/)
  serve             answer the protocol with this engine on stdin/stdout
  agree RUN...      add the engines of run files (run --json's output) to the table of who
                    agrees (conformance/engines.json, shown on the proofs page)
  where             print the folder of the suite installed with the package
  run --engine CMD  drive an engine command through the suite: exit 0 when every vector it
                    claims agrees, 1 on a disagreement, 2 when the run could not be done

The suite, its position format and the protocol are described in the README.md of the suite's
folder: conformance/ in the repository; `schotten conformance where` prints the installed one.
"""


def add_parser(commands: Commands) -> None:
    """Add ``conformance`` to the main command's sub-commands."""
    parser = add_command(
        commands,
        "conformance",
        help="the conformance suite: export it, serve the protocol, run an engine through it",
        description="The conformance suite and its protocol (conformance/README.md).",
        epilog=_EPILOG,
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    export = actions.add_parser("export", help="write the suite into DIR (refused when CI is set)")
    export.add_argument("folder", type=Path, metavar="DIR")
    export.add_argument(
        "--cases", type=Path, default=Path("cases"), help="the casebook (default: cases/)"
    )
    _kinds(export)
    actions.add_parser("serve", help="speak the protocol on stdin/stdout with this engine")
    agree = actions.add_parser(
        "agree",
        help="add the engines of run files (run --json's output) to the table of who agrees",
    )
    agree.add_argument("runs", type=Path, nargs="+", metavar="RUN", help="a run's --json output")
    agree.add_argument(
        "--version", required=True, help="the engine's version, as its authors name it"
    )
    agree.add_argument(
        "--name", help="the engine's name in the table (default: the one its hello gives)"
    )
    agree.add_argument(
        "--table",
        type=Path,
        default=Path("conformance") / TABLE_FILE,
        metavar="FILE",
        help=f"the table (default: conformance/{TABLE_FILE})",
    )
    actions.add_parser(
        "where", help="print the folder of the suite installed with the package (to copy it)"
    )
    runner = actions.add_parser("run", help="drive an engine through the suite")
    runner.add_argument("--engine", required=True, metavar="CMD", help="the engine's command")
    runner.add_argument(
        "--suite",
        type=Path,
        metavar="DIR",
        help="the suite (default: the one installed with the package; `where` prints it)",
    )
    _kinds(runner)
    runner.add_argument(
        "--limit", type=positive, metavar="N", help="N vectors of each kind, spread over the file"
    )
    runner.add_argument(
        "--vector",
        action="append",
        metavar="ID",
        help="this vector (repeatable): only the vectors named, or these besides --limit's",
    )
    runner.add_argument(
        "--pattern",
        metavar="REGEX",
        help="only the vectors whose id or description (pins) this regular expression finds",
    )
    runner.add_argument(
        "--timeout", type=seconds, default=10.0, metavar="S", help="seconds per request (10)"
    )
    runner.add_argument(
        "--start-timeout",
        type=seconds,
        default=120.0,
        metavar="S",
        help="seconds the engine may take to start and answer hello (120)",
    )
    runner.add_argument(
        "--variant",
        action="append",
        choices=VARIANTS,
        help="only this variant (repeatable; the rest is counted as not claimed)",
    )
    runner.add_argument(
        "--fail-on",
        choices=LEVELS,
        default="all",
        help="the level of a claim's agreement that fails the run: verdict, reason, or all "
        "(the formations too; the default)",
    )
    runner.add_argument(
        "--max-restarts",
        type=count,
        default=5,
        metavar="N",
        help="times the engine is started again after a hang or crash (5)",
    )
    runner.add_argument(
        "--show", type=count, default=20, metavar="N", help="groups of disagreements shown (20)"
    )
    runner.add_argument(
        "--report", type=Path, metavar="FILE", help="write one JSON line a vector not agreeing"
    )
    runner.add_argument("--junit", type=Path, metavar="FILE", help="write a JUnit XML report")
    runner.add_argument(
        "--json",
        action="store_true",
        help="standard output: one JSON line a vector not agreeing, then the counts (the "
        "table and the groups go to standard error)",
    )
    runner.add_argument(
        "--skip-file",
        type=Path,
        metavar="FILE",
        help="skip the vectors named in FILE (one id a line; # starts a comment)",
    )
    runner.add_argument(
        "--write-skips",
        type=Path,
        metavar="FILE",
        help="write the vectors that did not agree as a skip file (known failures, for CI)",
    )
    runner.add_argument(
        "--rerun", type=Path, metavar="REPORT", help="only the vectors of an earlier --report"
    )
    runner.add_argument(
        "--cases", type=Path, metavar="DIR", help="write claim and move disagreements as cases"
    )


class RunNotDone(SchottenError):
    """A run that could not be done (a bad suite, report or engine command, an engine that does
    not start): said as any error, with the run's own exit status."""

    exit_status = EXIT_INCOMPLETE


def main(args: argparse.Namespace) -> int:
    """Run the action; its errors are the command's to print (:func:`schotten.cli.main`)."""
    if args.action == "export":
        return _export(args)
    if args.action == "serve":
        return _serve()
    if args.action == "agree":
        return _agree(args)
    try:
        if args.action == "where":
            print(installed_suite())
            return EXIT_OK
        if args.suite is None:
            args.suite = installed_suite()
        return _run(args)
    except RunNotDone:
        raise
    except SchottenError as error:  # a bad suite or report file: the run could not be done
        raise RunNotDone(str(error)) from error


def _kinds(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--kind",
        action="append",
        choices=KINDS,
        help="only this kind (repeatable; default: every kind; in a run, the rest is counted as "
        "not claimed)",
    )


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
    # The protocol is UTF-8 whatever the locale: requests are read as bytes (a line that is not
    # UTF-8 is answered as a bad request), answers written as UTF-8.
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(encoding="utf-8", errors="replace")
    with contextlib.suppress(BrokenPipeError, KeyboardInterrupt):
        protocol.serve(sys.stdin.buffer, sys.stdout)
    return EXIT_OK


def select(
    vectors: list[dict[str, Any]], limit: int | None, only: Sequence[str] | None
) -> list[dict[str, Any]]:
    """The vectors asked, in file order: ``limit`` of them spread evenly (or all), plus the ones
    named in ``only``; with ``only`` and no ``limit``, just the named ones."""
    return [vectors[i] for i in picked(len(vectors), lambda i: vectors[i]["id"], limit, only)]


def picked(
    count: int, ident: Callable[[int], str], limit: int | None, only: Sequence[str] | None
) -> list[int]:
    """What :func:`select` chooses among ``count`` vectors, as their indexes; ``ident(i)`` is
    the id of the vector at ``i``, asked only when ``only`` names some."""
    named = set(only or ())
    if limit is None:
        if only is None:
            return list(range(count))
        return [i for i in range(count) if ident(i) in named]
    chosen = min(limit, count)
    spread = {i * count // chosen for i in range(chosen)}
    return [i for i in range(count) if i in spread or (named and ident(i) in named)]


def _skips(path: Path | None) -> frozenset[str]:
    """The vector ids of a skip file: one a line, blank lines and ``#`` comments ignored."""
    if path is None:
        return frozenset()
    try:
        data = read_regular_file(path, MAX_SKIP_BYTES)
    except InputFileError as error:
        raise RunNotDone(str(error)) from None
    text = data.decode("utf-8", "replace")
    return frozenset(w for line in text.splitlines() if (w := line.split("#", 1)[0].strip()))


MAX_SKIP_BYTES = 16 * 1024 * 1024


def skip_file(report: RunReport) -> str:
    """The vectors that did not agree, as a skip file: one id a line, its group as a comment."""
    lines = ["# vectors that did not agree: schotten conformance run --skip-file THIS"]
    lines += [f"{o.vector}  # {o.kind}: {shown(o.signature, 100)}" for o in report.disagreements]
    return "\n".join(lines) + "\n"


def _matcher(pattern: str | None) -> Callable[[dict[str, Any]], bool] | None:
    if pattern is None:
        return None
    try:
        found = re.compile(pattern).search
    except re.error as error:
        raise RunNotDone(f"--pattern: not a regular expression ({error})") from None
    return lambda v: bool(found(str(v.get("id", ""))) or found(str(v.get("pins", ""))))


def _run(args: argparse.Namespace) -> int:
    try:
        engine_argv(args.engine)  # a mistake in the command is the user's, said before any work
    except EngineFailure as failure:
        raise RunNotDone(f"--engine: {failure}") from None
    matches = _matcher(args.pattern)
    # Stopped from the first instant: a signal while the suite is read still ends the run with
    # its tally printed and its files written.
    with _stopped_by_signals():
        try:
            chosen, left_out = _chosen(args, matches)
        except Interrupted:
            report = RunReport(shown(args.engine), stopped="interrupted")
            _finishing()
            _print_report(report, args)
            _write_files(report, args)
            return EXIT_INCOMPLETE
        return _run_chosen(args, chosen, left_out)


def _chosen(
    args: argparse.Namespace, matches: Callable[[dict[str, Any]], bool] | None
) -> tuple[list[tuple[str, list[dict[str, Any]]]], dict[str, int]]:
    listed = suite.kinds(args.suite)  # the manifest lists every kind: a cut suite is refused
    rerun = read_report(args.rerun) if args.rerun is not None else None
    chosen: list[tuple[str, list[dict[str, Any]]]] = []
    left_out: dict[str, int] = {}  # kinds left out by --kind: counted, not even read
    for kind in KINDS:
        only = args.vector
        if rerun is not None:
            only = [*(only or ()), *sorted(rerun.get(kind, ()))]
        if args.kind and kind not in args.kind:
            count = listed[kind].get("vectors", 0) if only is None else 0
            left_out[kind] = count if args.limit is None else min(args.limit, count)
            continue
        lines = suite.read(args.suite, kind)
        if matches is None:  # only the vectors asked are decoded
            asked = picked(len(lines), lines.ident, args.limit, only)
            chosen.append((kind, [lines.vector(i) for i in asked]))
        else:
            matching = [v for v in lines.vectors() if matches(v)]
            chosen.append((kind, select(matching, args.limit, only)))
    if args.vector:
        found = {v["id"] for _, vs in chosen for v in vs}
        missing = [ident for ident in args.vector if ident not in found]
        if missing:
            raise RunNotDone(f"no vector {', '.join(missing)} in {args.suite}")
    return [(k, vs) for k, vs in chosen if vs], left_out


def _run_chosen(
    args: argparse.Namespace,
    chosen: list[tuple[str, list[dict[str, Any]]]],
    left_out: dict[str, int],
) -> int:
    bars: dict[str, Progress] = {}

    def progress(kind: str, done: int, total: int) -> None:
        bar = bars.setdefault(kind, Progress(kind, total))
        bar.finish(done) if done == total else bar.update(done)

    def start() -> ProcessEngine:
        engine = ProcessEngine(args.engine, args.timeout)
        try:
            handshake(engine, args.start_timeout)
        except EngineFailure:
            engine.close()
            raise
        return engine

    try:
        engine = ProcessEngine(args.engine, args.timeout)
    except EngineFailure as failure:
        raise RunNotDone(str(failure)) from None
    except Interrupted:
        tallies = [KindTally(kind, len(vectors)) for kind, vectors in chosen]
        report = RunReport(shown(args.engine), tallies, stopped="interrupted")
    else:
        try:
            report = _drive(args, engine, chosen, progress, start)
        except Interrupted:  # between the handshake and the first vector
            tallies = [KindTally(kind, len(vectors)) for kind, vectors in chosen]
            report = RunReport(shown(args.engine), tallies, stopped="interrupted")
        except MalformedVector as error:
            raise RunNotDone(f"{args.suite}: {error}") from None
        finally:
            engine.close()
    _finishing()
    report.tallies = sorted(
        [*report.tallies, *(KindTally(k, n, not_claimed=n) for k, n in left_out.items() if n)],
        key=lambda t: KINDS.index(t.kind),
    )
    by_rules = alternatives.tally(
        chosen,
        {t.kind: t.asked for t in report.tallies},
        {(o.kind, o.vector): o.status for o in report.disagreements},
        report.capabilities.rulings,
    )
    _print_report(report, args, by_rules)
    _write_files(report, args)
    if not report.complete:
        return EXIT_INCOMPLETE
    return EXIT_OK if report.ok else EXIT_FAILED


def _drive(
    args: argparse.Namespace,
    engine: ProcessEngine,
    chosen: list[tuple[str, list[dict[str, Any]]]],
    progress: Callable[[str, int, int], None],
    start: Callable[[], Engine],
) -> RunReport:
    # Tallied as not run when the run stops at the handshake: the kinds asked for still show.
    tallies = [KindTally(kind, len(vectors)) for kind, vectors in chosen]
    try:
        name, declared = handshake(engine, args.start_timeout)
    except EngineFailure as failure:
        return RunReport(
            shown(args.engine),
            tallies,
            failure=failure,
            failed_vector="hello",
            stopped="handshake",
        )
    except Interrupted:
        return RunReport(shown(args.engine), tallies, stopped="interrupted")
    print(f"engine: {name} ({shown(args.engine)})", file=sys.stderr)
    capabilities = declared.narrowed(args.variant, args.kind)
    report = run(
        engine,
        chosen,
        progress,
        capabilities=capabilities,
        restart=start,
        max_restarts=args.max_restarts,
        # An engine that declares verdicts only is failed on verdicts at most.
        fail_on=min(args.fail_on, capabilities.claim_level, key=LEVELS.index),
        skip=_skips(args.skip_file),
        declared=declared,
    )
    report.engine = name
    return report


def _finishing() -> None:
    """The run is over: a stop signal no longer cuts the printing of its tally or the writing
    of its files (they take an instant)."""
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, signal.SIG_IGN)


@contextlib.contextmanager
def _stopped_by_signals() -> Iterator[None]:
    """SIGTERM (and SIGINT) stop the run where it is: its report is still printed and written,
    and the engine stopped."""

    def stop(signum: int, frame: object) -> None:
        _finishing()  # once: the tally and the files are then written whole
        raise Interrupted(signal.Signals(signum).name)

    previous = {s: signal.signal(s, stop) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _print_report(
    report: RunReport,
    args: argparse.Namespace,
    by_rules: Sequence[alternatives.RulesRow] = (),
) -> None:
    out = sys.stderr if args.json else sys.stdout
    if args.json:  # the report's lines on standard output, then the counts: for other tools
        sys.stdout.write(report_lines(report))
        counts = closing_line(report).replace(",", "").split()
        tally = {counts[i + 1]: int(counts[i]) for i in range(0, len(counts), 2)}
        rules = {row.label: dataclasses.asdict(row) for row in by_rules if row.vectors}
        record = run_record(report, _manifest(args.suite), datetime.now(UTC))
        line = {"summary": tally, "rules": rules, "verdict": verdict(report), **record}
        sys.stdout.write(dumps(line) + "\n")
    if report.tallies:
        print(table(report), file=out)
    if any(row.vectors for row in by_rules):
        print("\n" + alternatives.rows_text([r for r in by_rules if r.vectors]), file=out)
    text = grouped(report, args.engine, args.show)
    if text:
        print("\n" + text, file=out)
    lines = summary(report)
    if lines:
        print("\n" + "\n".join(lines), file=out)
    print("\n" + verdict(report), file=out)
    print(closing_line(report), file=out)


def _manifest(folder: Path) -> dict[str, Any]:
    """The suite's manifest, for the summary line (empty when it cannot be read: the run
    already said why)."""
    try:
        return suite.manifest(folder)
    except SchottenError:
        return {}


def _agree(args: argparse.Namespace) -> int:
    if not args.table.parent.is_dir():  # outside the repository's root, without --table
        raise AgreementError(
            f"{args.table}: the folder {args.table.parent} does not exist (run from the "
            "repository's root, or give the table with --table FILE)"
        )
    rows = []
    for path in args.runs:
        record = read_run(path)
        try:
            rows.append(Row.from_run(record, args.version, args.name))
        except ValueError as error:
            raise AgreementError(f"{path}: {error}") from None
    table = added(read_table(args.table), rows)
    write_table(args.table, table)
    for row in rows:
        print(f"{args.table}: {row.engine} {row.version} ({row.day})")
    return EXIT_OK


def _write_files(report: RunReport, args: argparse.Namespace) -> None:
    if args.report is not None:
        write_atomically(args.report, report_lines(report))
        print(f"report: {args.report}", file=sys.stderr)
    if args.junit is not None:
        write_atomically(args.junit, junit(report))
    if args.write_skips is not None:
        write_atomically(args.write_skips, skip_file(report))
        print(f"skip file: {args.write_skips}", file=sys.stderr)
    if args.cases is not None:
        written = write_cases(report, args.cases)
        print(f"{written} case file(s) in {args.cases}", file=sys.stderr)
