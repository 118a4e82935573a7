"""A case folder as a whole: every file a case or an error, rows without gaps, and the lock.

:func:`load_folder` is the one loader of a folder, shared by ``schotten check``, the site build
and the tests; it never stops at the first bad file.
"""

from __future__ import annotations

from pathlib import Path

from schotten.casebook.case import Case, case_order, load_case, publication_problems
from schotten.casebook.errors import CaseError, CaseFileError
from schotten.casebook.files import case_paths
from schotten.casebook.lock import lock_problems
from schotten.casebook.run import CaseResult, run_case
from schotten.casebook.texts import all_text_problems


def load_folder(folder: str | Path) -> tuple[list[Case], list[CaseError]]:
    """The valid cases of ``folder`` (published first, by table and row, then by id) and every
    problem: invalid files, files that are not cases, rows used twice or with gaps, any
    disagreement with the lock (``published.lock.json``), and mistakes in the texts
    (:mod:`.texts`)."""
    folder = Path(folder)
    paths, errors = case_paths(folder)
    cases: list[Case] = []
    for path in paths:
        try:
            cases.append(load_case(path))
        except CaseFileError as exc:
            errors.extend(exc.errors)
    invalid = {e.path for e in errors}
    errors.extend(publication_problems(cases))
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


def check_cases(folder: str | Path) -> list[CaseResult]:
    """Every case of a folder replayed, in publication order (raises ``CaseFileError`` if one is
    bad)."""
    return [run_case(case) for case in load_cases(folder)]
