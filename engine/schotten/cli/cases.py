"""The case commands: ``check``, ``explain``, ``approve``, ``retire`` and ``schema``.

Their parsers need nothing; reading case files needs the ``cases`` extra (PyYAML, jsonschema), so
each command imports the casebook's readers where it uses them, and ``schotten --help`` works
without the extra (:func:`schotten.cli.main` names it when a command needs it).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from schotten import _files
from schotten.board import Player
from schotten.casebook import Case, CaseError, CaseFileError, CaseResult, run_case
from schotten.casebook.errors import github_annotation, shown_path
from schotten.casebook.run import check_report
from schotten.casebook.walkthrough import walk_play_on
from schotten.cli.arguments import EXIT_FAILED, EXIT_OK, CommandError, Commands, print_error
from schotten.cli.terminal import draw_board, draw_proof, paint, use_colour
from schotten.labels import LANGUAGES


def add_parsers(commands: Commands, command: Callable[..., argparse.ArgumentParser]) -> None:
    """The case commands' parsers (``command`` adds one with the shared epilog)."""
    check = command(
        "check",
        help="replay cases and compare with their recorded verdicts",
        description="Replay cases (files, or folders of *.yaml) and compare with `expect:`.",
    )
    check.add_argument("paths", nargs="*", type=Path, metavar="PATHS", default=[Path("cases")])
    check.add_argument("--json", action="store_true", help="print a machine-readable report")
    check.add_argument(
        "--annotations",
        action="store_true",
        help="also print each problem as a GitHub Actions annotation on its file and line",
    )

    explain = command(
        "explain",
        help="draw a case's position and the proof of each claimed stone",
    )
    explain.add_argument("case", metavar="CASE", help="a case file, or a case id of cases/")
    explain.add_argument(
        "--svg", type=Path, metavar="FILE", help="also draw the case as the site does, into FILE"
    )
    explain.add_argument(
        "--html",
        type=Path,
        metavar="FILE",
        help="also write the case's row and detail as the site shows them, into FILE",
    )
    explain.add_argument(
        "--lang", choices=LANGUAGES, default=LANGUAGES[0], help="the language of --svg and --html"
    )

    approve_cmd = command(
        "approve",
        help="re-record `expect:` from the engine (refused when CI is set)",
        description="Re-record `expect:` in place; comments and layout elsewhere are kept.",
    )
    approve_cmd.add_argument(
        "cases",
        nargs="+",
        metavar="CASE",
        help="case files, case ids, or a folder (all of its cases, and its whole lock)",
    )
    approve_cmd.add_argument(
        "--texts-reviewed",
        action="store_true",
        help="the situation and why texts were re-read for the changed verdicts: confirm them",
    )

    retire_cmd = command(
        "retire",
        help="withdraw a published case from the site (refused when CI is set)",
        description=(
            "Remove the case's `published:` (its file stays, as a regression case), move the "
            "following rows of its table up, and rewrite the lock. The case file may be gone."
        ),
    )
    retire_cmd.add_argument("case", metavar="CASE", help="a case file or a case id of cases/")
    command(
        "schema",
        help="print the JSON Schema of the case format",
    )


# check ---------------------------------------------------------------------------------------


def _check(args: argparse.Namespace) -> int:
    from schotten.casebook.folder import case_order, run_cases

    cases, errors = _load_all(args.paths)
    results, invalid = run_cases(sorted(cases, key=case_order))
    errors += invalid
    if args.json:
        print(json.dumps(check_report(results, errors), indent=2, ensure_ascii=False))
    else:
        _print_table(results, errors, sys.stdout)
        for error in errors:
            print_error(str(error))
    if args.annotations:
        for error in errors:
            print(github_annotation(error.path, error.line, error.column, error.detail))
        for result in results:
            for m in result.mismatches:
                print(github_annotation(m.file, m.line, 1, m.detail))
    failed = bool(errors) or not all(r.ok for r in results)
    return EXIT_FAILED if failed else EXIT_OK


def _load_all(paths: Sequence[Path]) -> tuple[list[Case], list[CaseError]]:
    """Folders as a whole (every file a case or an error, rows, the lock); files one by one."""
    from schotten.casebook.build import load_case
    from schotten.casebook.folder import load_folder, publication_problems
    from schotten.casebook.prose import all_text_problems

    cases: list[Case] = []
    errors: list[CaseError] = []
    files: list[Case] = []
    for path in paths:
        if path.is_dir():
            found, problems = load_folder(path)
            if not found and not problems:
                raise CommandError(f"{path}: no case files (*.yaml) in this folder")
            cases += found
            errors += problems
        elif path.exists() or path.is_symlink():
            try:
                files.append(load_case(path))
            except CaseFileError as exc:
                errors.extend(exc.errors)
        else:
            raise CommandError(f"{path}: no such file or folder")
    errors.extend(publication_problems(files, whole_folder=False))
    errors.extend(all_text_problems(files))
    seen: set[Path] = set()
    unique = []
    for case in [*cases, *files]:
        key = case.path.resolve()
        if key not in seen:
            seen.add(key)
            unique.append(case)
    bad = {e.path for e in errors}
    return [c for c in unique if c.path not in bad], errors


def _summary(data: dict[str, Any] | None) -> str:
    """``4 refused opponent-can-beat; ongoing``: what ``expect:`` says, on one line."""
    if data is None:
        return "(not recorded)"
    parts = [f"{n} {s['verdict']} {s['reason']}" for n, s in data.get("stones", {}).items()]
    if "game" in data:
        parts.append(data["game"])
    if "play_on" in data:
        play = data["play_on"]
        refused = sum(1 for s in play["steps"] if s != "ok")
        parts.append(f"play-on {len(play['steps'])} moves ({refused} refused) {play['game']}")
    return "; ".join(parts)


def _print_table(results: Sequence[CaseResult], errors: Sequence[CaseError], out: TextIO) -> None:
    colour = use_colour(out)
    rows = [("case", "expected", "engine", "status")]
    for r in results:
        recorded = r.case.expect.as_data() if r.case.expect is not None else None
        status = "ok" if r.ok else "MISMATCH"
        rows.append((r.case.id, _summary(recorded), _summary(r.computed.as_data()), status))
    for path in sorted({e.path for e in errors}):
        rows.append((shown_path(path.stem), "", "", "INVALID"))
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    for i, row in enumerate(rows):
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        status = row[3]
        code = None if i == 0 else "32" if status == "ok" else "31"
        print("  ".join([*cells, paint(status, code, colour)]).rstrip(), file=out)
    for r in results:
        if not r.ok:
            print("", file=out)
            print(r.report(), file=out)
    mismatched = sum(1 for r in results if not r.ok)
    invalid = len({e.path for e in errors})
    total = len(results) + invalid
    print(
        f"\n{total} case{'s' if total != 1 else ''}: {len(results) - mismatched} ok, "
        f"{mismatched} mismatch{'es' if mismatched != 1 else ''}, {invalid} invalid",
        file=out,
    )


# explain -------------------------------------------------------------------------------------


def resolve_case(name: str) -> Path:
    """A case file given as a path, or as an id of ``cases/`` (the current folder's)."""
    from schotten.casebook.build import load_case

    path = Path(name)
    if path.is_file():
        return path
    by_id = Path("cases") / f"{name}.yaml"
    if path.suffix == "" and by_id.is_file():
        return by_id
    if path.suffix == "" and len(path.parts) == 1:
        raise CommandError(f"no case {name!r}: not a file, and no {by_id}")
    if path.exists() or path.is_symlink():
        load_case(path)  # says why it cannot be read (a link loop, a folder, ...)
    raise CommandError(f"no case file {name}")


def _explain(args: argparse.Namespace) -> int:
    from schotten.casebook.build import load_case
    from schotten.casebook.prose import text_problems

    case = load_case(resolve_case(args.case))
    result = run_case(case)
    out = sys.stdout
    colour = use_colour(out)
    print(f"{case.id} ({case.path})", file=out)
    for lang, text in case.situation.items():
        print(f"  {lang}: {text}", file=out)
    print(f"  rules: {', '.join(case.rules)}; source: {case.source}", file=out)
    print("", file=out)
    print(draw_board(case.board, colour=colour, claim=case.claim, hands=case.hands), file=out)
    for verdict in result.verdicts:
        print(draw_proof(case.board, verdict, colour=colour), file=out)
    if result.game is not None:
        print(f"game: {result.game}", file=out)
    if result.computed.play_on is not None and case.play_on is not None:
        print("\nplay-on:", file=out)
        steps = result.computed.play_on.steps
        for i, ((player, move), step) in enumerate(zip(case.play_on.moves, steps, strict=False), 1):
            who = "you" if player is Player.FIRST else "opponent"
            print(f"  {i:>2}. {who}: {move}  -> {step}", file=out)
        print(f"  game: {result.computed.play_on.game}", file=out)
        _print_walkthrough(case, colour, out)
    if args.svg is not None or args.html is not None:
        from schotten.site.pictures import case_picture  # the site's tools: only here
        from schotten.site.preview import case_html

        if args.svg is not None:
            _files.write_atomically(args.svg, case_picture(case, args.lang))
            print(f"{args.svg}: the case as the site draws it ({args.lang})", file=out)
        if args.html is not None:
            _files.write_atomically(args.html, case_html(case, args.lang))
            print(f"{args.html}: the case's row and detail as the site shows them", file=out)
    problems = text_problems(case)
    for error in problems:
        print_error(str(error))
    if not result.ok:
        print("", file=out)
        print("\n".join(str(m) for m in result.mismatches), file=out)
        return EXIT_FAILED
    return EXIT_FAILED if problems else EXIT_OK


def _print_walkthrough(case: Case, colour: bool, out: TextIO) -> None:
    """The proof of each claim move of a play-on, then the board after the moves."""
    walk = walk_play_on(case)
    if walk is None:
        return
    for step in walk.claims:
        who = "you" if step.player is Player.FIRST else "opponent"
        print(f"\nclaim of move {step.move} ({who}), on the board before it:", file=out)
        for verdict in step.verdicts:
            if step.player is Player.FIRST:
                print(draw_proof(step.board, verdict, colour=colour), file=out)
            else:
                print(f"  {verdict.explain()}", file=out)
    print("\nthe board after the moves:\n", file=out)
    print(draw_board(walk.board, colour=colour, hands=walk.hands), file=out)


# approve -------------------------------------------------------------------------------------


def refuse_under_ci(command: str) -> None:
    """``approve`` and ``retire`` change what is published: never on CI (``CI`` set at all, to
    any value, even empty)."""
    _files.refuse_under_ci(
        f"{command} does not run when CI is set (whatever its value): publication changes "
        "are made on purpose, on a working copy, and the diff is reviewed"
    )


def _approve(args: argparse.Namespace) -> int:
    from schotten.casebook.approve import approve_paths, describe_approval

    refuse_under_ci("approve")
    paths = [Path(n) if Path(n).is_dir() else resolve_case(n) for n in args.cases]
    report = approve_paths(paths, texts_reviewed=args.texts_reviewed)
    for error in report.damaged:
        print_error(str(error))
        print(f"{error.path}: unreadable: rewritten from the approved cases", file=sys.stderr)
    print(describe_approval(report))
    return EXIT_OK


# retire --------------------------------------------------------------------------------------


def _retire(args: argparse.Namespace) -> int:
    from schotten.casebook.retire import describe, retire

    refuse_under_ci("retire")
    path = Path(args.case)
    if path.suffix == "" and not path.exists():
        path = Path("cases") / f"{args.case}.yaml"
    if not path.parent.is_dir():
        raise CommandError(f"no case folder {path.parent}")
    print(describe(retire(path.parent, path.stem)))
    return EXIT_OK


def _schema(args: argparse.Namespace) -> int:
    from schotten.casebook.schema import schema_text

    sys.stdout.write(schema_text())
    return EXIT_OK


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "check": _check,
    "explain": _explain,
    "approve": _approve,
    "retire": _retire,
    "schema": _schema,
}
