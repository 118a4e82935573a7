"""A case folder as a whole: every file a case or an error, rows without gaps, and the lock.

:func:`load_folder` is the one loader of a folder, shared by ``schotten check``, the site build
and the tests; it never stops at the first bad file. :func:`case_order` is the order of a folder's
cases everywhere (published ones first, by table and row), :func:`publication_problems` what the
rows of the tables must be.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TypeVar

from schotten.casebook.build import load_case
from schotten.casebook.errors import CaseError, CaseFileError
from schotten.casebook.files import case_paths
from schotten.casebook.hints import suggest_word
from schotten.casebook.lock import lock_problems
from schotten.casebook.model import FAQ_TABLE, Case, Publication
from schotten.casebook.prose import all_text_problems
from schotten.casebook.run import CaseResult, run_case

T = TypeVar("T")
R = TypeVar("R")


def load_folder(folder: str | Path) -> tuple[list[Case], list[CaseError]]:
    """The valid cases of ``folder`` (published first, by table and row, then by id) and every
    problem: invalid files, files that are not cases, rows used twice or with gaps, any
    disagreement with the lock (``published.lock.json``), and mistakes in the texts
    (:mod:`.prose`)."""
    folder = Path(folder)
    paths, errors = case_paths(folder)
    cases, problems = _gathered(load_case, paths)
    errors += problems
    invalid = {e.path for e in errors}
    # An invalid file may publish the row that looks missing: no gap is said until it is fixed.
    errors.extend(publication_problems(cases, whole_folder=not invalid))
    errors.extend(lock_problems(folder, cases, invalid))
    errors.extend(all_text_problems(cases))
    return sorted(cases, key=case_order), errors


def load_cases(folder: str | Path) -> list[Case]:
    """Every case of a folder, sorted as :func:`load_folder` does.

    :class:`CaseFileError` lists every problem of every file, and of the folder as a whole.
    """
    cases, errors = load_folder(folder)
    if errors:
        raise CaseFileError(errors)
    return cases


def run_cases(cases: Sequence[Case]) -> tuple[list[CaseResult], list[CaseError]]:
    """Each case run, in the order given, and the problems of the files found invalid when run
    (a play-on move naming the wrong player): those cases have no result."""
    return _gathered(run_case, cases)


def _gathered(do: Callable[[T], R], items: Iterable[T]) -> tuple[list[R], list[CaseError]]:
    """``do`` on each item; the problems of the files it finds invalid are gathered, not raised."""
    done: list[R] = []
    errors: list[CaseError] = []
    for item in items:
        try:
            done.append(do(item))
        except CaseFileError as exc:
            errors.extend(exc.errors)
    return done, errors


def check_cases(folder: str | Path) -> list[CaseResult]:
    """Every case of a folder replayed, in publication order (raises ``CaseFileError`` if one is
    bad)."""
    results, errors = run_cases(load_cases(folder))
    if errors:
        raise CaseFileError(errors)
    return results


def case_order(case: Case) -> tuple[int, str, int, str]:
    """Published cases first, the FAQ table before the others (by id), each by row; then by id."""
    p = case.published
    if p is None:
        return (2, "", 0, case.id)
    return (0 if p.table == FAQ_TABLE else 1, p.table, p.row, case.id)


def publication_problems(
    cases: Sequence[Case], *, whole_folder: bool = True
) -> Iterator[CaseError]:
    """A table row used by two files (the later files by id are in error) and, for a whole
    folder, a gap in a table's rows (rows are numbered from 1 without gaps)."""
    first: dict[Publication, Case] = {}
    for case in sorted(cases, key=lambda c: c.id):
        p = case.published
        if p is None:
            continue
        if p in first:
            other = first[p]
            yield _publication_error(
                case,
                f"{p.table} row {p.row} is already used by {other.path.name} "
                f"(line {other.line_of('published', 'row')}): each row holds one case",
            )
        else:
            first[p] = case
    if not whole_folder:
        return
    tables: dict[str, list[tuple[int, Case]]] = {}
    for p, case in first.items():
        tables.setdefault(p.table, []).append((p.row, case))
    for table, published in sorted(tables.items()):
        expected = 1
        for row, case in sorted(published, key=lambda entry: entry[0]):
            if row != expected:
                missing = f"row {expected}" if row == expected + 1 else f"rows {expected}-{row - 1}"
                hint = _table_hint(table, list(tables)) if len(published) == 1 else ""
                message = (
                    f"{table} row {row} follows a gap: no case has {missing} of table {table} "
                    "(rows are numbered from 1 without gaps: `schotten retire` the case that "
                    "left, or renumber the rows and `schotten approve` the moved cases)"
                )
                if hint:
                    message = f"table {table!r}, row {row}{hint} (a new table starts at row 1)"
                yield _publication_error(case, message)
            expected = row + 1


def _table_hint(table: str, tables: Sequence[str]) -> str:
    """For a table no other case publishes: the table that was most likely meant."""
    meant = suggest_word(table, [t for t in {*tables, FAQ_TABLE} if t != table])
    if meant is None:
        return ""
    return f"; no other case publishes a table {table!r}: did you mean {meant!r}?"


def _publication_error(case: Case, message: str) -> CaseError:
    key_path = ("published", "row")
    return CaseError(
        case.path, case.line_of(*key_path), case.column_of(*key_path), key_path, message
    )
