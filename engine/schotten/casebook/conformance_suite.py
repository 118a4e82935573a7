"""The conformance suite beside a case folder, kept in step with its cases.

The suite (``conformance/`` beside ``cases/``) embeds a vector for every claim and every play-on
move of the casebook. ``approve`` and ``retire`` change those, so each ends by exporting the kinds
that embed cases again (:func:`export_case_vectors`), through the suite's own export of the
casebook's vectors (the generated ones are kept as they are); and the fast gate refuses a suite
whose case vectors are not the cases' (:func:`stale_problems`), naming the command that makes
them again. This module is the casebook's one use of the conformance package.

A case folder with no suite beside it (a copy in a temporary folder) has nothing to keep.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import FrameType

from schotten._files import InputFileError, read_regular_file
from schotten.casebook.errors import CaseFileError, command_path
from schotten.errors import SchottenError

SUITE_NAME = "conformance"
MANIFEST = "manifest.json"
CASE_KINDS = ("claims", "moves")  # the kinds whose vectors come from the casebook
_MAX_SUITE_FILE = 64 * 1024 * 1024


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP during the export: stopped as Ctrl-C stops it (its files stay whole)."""


def suite_beside(cases_folder: Path) -> Path | None:
    """The conformance suite beside ``cases_folder``, if there is one."""
    suite = cases_folder.absolute().parent / SUITE_NAME
    return suite if (suite / MANIFEST).is_file() else None


def export_command(suite: Path) -> str:
    return f"`schotten conformance export {command_path(suite)}/`"


def export_case_vectors(cases_folder: Path) -> str | None:
    """Write the case kinds of the suite beside ``cases_folder`` again if they are not the cases';
    what was done, in words (``None``: nothing to do, or no suite there). An export that cannot be
    done says so with the command to run: the cases and the lock are already written, and the
    gate names the same command."""
    suite = suite_beside(cases_folder)
    if suite is None or not stale_problems(cases_folder):
        return None
    from schotten.conformance import suite as suite_files  # the suite's public export

    try:
        with _stops_raise():
            suite_files.export_cases(suite, cases_folder, CASE_KINDS)
    except Stopped:
        raise SchottenError(
            f"stopped while {command_path(suite)}/ was written again: the cases and the lock are "
            f"written, the suite is as it was; run {export_command(suite)}"
        ) from None
    except (CaseFileError, SchottenError) as exc:
        first = exc.messages()[0] if exc.messages() else str(exc)
        return (
            f"{command_path(suite)}/: not written again ({first}); once that is fixed, run "
            f"{export_command(suite)}"
        )
    kinds = ", ".join(f"{kind}.jsonl" for kind in CASE_KINDS)
    return f"{command_path(suite)}/: the vectors of the cases written again ({kinds})"


def stale_problems(cases_folder: Path) -> list[str]:
    """Why the suite beside ``cases_folder`` does not embed the cases as they are (empty: it
    does, or there is no suite), each naming the command that writes it again."""
    suite = suite_beside(cases_folder)
    if suite is None:
        return []
    from schotten.conformance.suite import CASE_PREFIX
    from schotten.conformance.vectors import vectors
    from schotten.conformance.wire import dumps

    problems = []
    for kind in CASE_KINDS:
        path = suite / f"{kind}.jsonl"
        try:
            data = read_regular_file(path, _MAX_SUITE_FILE)
        except InputFileError as exc:
            problems.append(f"{exc}: run {export_command(suite)}")
            continue
        committed = [line.decode("utf-8", "replace") for line in data.split(b"\n")]
        committed = [line for line in committed if line.encode().startswith(CASE_PREFIX)]
        try:
            made = [dumps(v) for v in _case_vectors(vectors(kind, cases_folder))]
        except CaseFileError:
            return []  # ``schotten check`` names what is wrong with the cases first
        if committed != made:
            ids = _differing(committed, made)
            shown = ", ".join(ids[:5]) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")
            problems.append(
                f"{command_path(path)}: the vectors of the cases are not the cases' as they are "
                f"now ({shown}): CI compares them; run {export_command(suite)} and commit "
                "the suite with the cases"
            )
    return problems


def _case_vectors(made: Iterator[dict[str, object]]) -> Iterator[dict[str, object]]:
    for vector in made:  # the cases' vectors come first, the generated ones after
        if not str(vector.get("id", "")).startswith("case:"):
            return
        yield vector


def _differing(committed: Sequence[str], made: Sequence[str]) -> list[str]:
    def ids(lines: Sequence[str]) -> dict[str, str]:
        return {line.split('"', 4)[3]: line for line in lines}

    old, new = ids(committed), ids(made)
    return sorted(k for k in old.keys() | new.keys() if old.get(k) != new.get(k))


@contextlib.contextmanager
def _stops_raise() -> Iterator[None]:
    """SIGTERM and SIGHUP raise :class:`Stopped` meanwhile, so that the export's own clean-up
    (each file written whole through a temporary one) runs as it does for Ctrl-C."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(number: int, frame: FrameType | None) -> None:
        raise Stopped

    previous = {s: signal.signal(s, stop) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m schotten.casebook.conformance_suite [CASES]``: the gate's check."""
    args = list(sys.argv[1:] if argv is None else argv)
    folder = Path(args[0] if args else "cases")
    problems = stale_problems(folder)
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
