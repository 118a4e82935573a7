"""Withdrawing a published case from the site, on purpose: the only way a case leaves the lock.

``retire`` removes the case's ``published:`` entry (its file stays, as a regression case), moves the
following rows of its table up by one so that the table has no gap, and rewrites the lock. A case
whose file was deleted is retired the same way (only the lock and the following rows change).

The whole new state (every file's new text and the new lock) is computed and checked before
anything is written, under the case folder's lock. The lock is written first, so a lock that cannot
be written leaves every case file as it was; the retired case's file last, so that after a failure
halfway it still says `published` and running the command again finishes the work. The rows are
set from the lock's, never counted down from the files', so a retry moves no row twice. The
writes are made with SIGINT, SIGTERM and SIGHUP held back (a stopped command finishes them), the
temporary files of a command killed outright are removed first, and the conformance suite beside
the folder is exported again.

A case whose file is gone while a new file holds its row (a rename) is not retired: ``approve`` of
the new id carries its publication over, and retiring would leave two files on one row.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from schotten._files import write_atomically
from schotten.casebook.approve import current_text, replace_key, write_unchanged_since
from schotten.casebook.build import load_case, parse_case
from schotten.casebook.conformance_suite import export_case_vectors
from schotten.casebook.errors import CaseError, CaseFileError
from schotten.casebook.files import CASE_SUFFIX, LOCK_NAME, remove_leftovers, stops_held
from schotten.casebook.folder import load_folder
from schotten.casebook.lock import (
    LockEntry,
    folder_lock,
    lock_path,
    lock_text,
    read_lock,
    renamed_cases,
)
from schotten.casebook.model import Case, Publication
from schotten.casebook.writer import published_block


@dataclass(frozen=True)
class Retirement:
    """What ``retire`` did: the place the case left, and the cases moved up to fill it."""

    case_id: str
    place: Publication
    file_kept: bool
    moved: tuple[tuple[str, Publication], ...]  # case id, its new place
    suite: str | None = field(default=None)  # the conformance suite exported again, in words


def retire(folder: Path, case_id: str) -> Retirement:
    """Withdraw ``case_id`` from the site (see the module); :class:`CaseFileError` if it is not
    published or a file to edit changed or is invalid."""
    with folder_lock(folder):
        remove_leftovers(folder)
        retirement = _retire_locked(folder, case_id)
        return replace(retirement, suite=export_case_vectors(folder))


def _retire_locked(folder: Path, case_id: str) -> Retirement:
    path = folder / f"{case_id}{CASE_SUFFIX}"
    lock = read_lock(folder) or {}
    case = load_case(path) if path.exists() or path.is_symlink() else None
    locked = lock.get(case_id)
    place = locked.published if locked is not None else case.published if case else None
    if place is None:
        where = path if case is not None else folder / LOCK_NAME
        raise CaseFileError([CaseError(where, 1, 1, (), f"{case_id} is not published")])
    if case is None and locked is not None:
        _refuse_a_rename(folder, lock, case_id, locked)
    entries = _entries_after(lock, case_id, place) if locked is not None else dict(lock)
    # Every file to rewrite, with its new text, checked before anything is written.
    writes: list[tuple[Case, str, str]] = []
    moved = []
    for other in _published_cases(folder, case_id, place.table):
        entry = entries.get(other.id)
        if entry is None or entry.published == other.published:
            continue
        text = current_text(other)
        new_place = entry.published
        new_text = replace_key(text, other, "published", published_block(new_place))
        parse_case(new_text, other.path)
        writes.append((other, text, new_text))
        moved.append((other.id, new_place))
    # The retired case's own file goes last: until it is written, a retry finds the case still
    # published and completes the same renumbering (set from the lock, so set once).
    if case is not None and case.published is not None:
        text = current_text(case)
        new_text = replace_key(text, case, "published", None)
        parse_case(new_text, case.path)  # raises if the edit broke the file
        writes.append((case, text, new_text))
    new_lock = lock_text(entries.values())
    with stops_held():
        if locked is not None:
            write_atomically(lock_path(folder), new_lock)
        for target, text, new_text in writes:
            write_unchanged_since(target, text, new_text)
    return Retirement(case_id, place, case is not None, tuple(sorted(moved, key=_by_row)))


def _refuse_a_rename(
    folder: Path, lock: dict[str, LockEntry], case_id: str, locked: LockEntry
) -> None:
    """Refuse to retire ``case_id`` (whose file is gone) while a case the lock does not know holds
    its row: it was renamed, and retiring would move another case onto that file's row."""
    cases = load_folder(folder)[0]
    present = {case.id for case in cases}
    for new, old in renamed_cases(lock, cases, present).items():
        if old == case_id:
            message = (
                f"{case_id}.yaml is gone and {new}.yaml holds its place ({locked.published}): if "
                f"it was renamed, run `schotten approve {new}` to carry the publication over; to "
                f"withdraw it, remove `published` from {new}.yaml first"
            )
            raise CaseFileError([CaseError(folder / f"{new}{CASE_SUFFIX}", 1, 1, (), message)])


def _by_row(item: tuple[str, Publication]) -> int:
    return item[1].row


def _entries_after(
    lock: dict[str, LockEntry], case_id: str, place: Publication
) -> dict[str, LockEntry]:
    """The lock without ``case_id``, the following rows of its table moved up by one."""
    entries = {}
    for other, entry in lock.items():
        if other == case_id:
            continue
        p = entry.published
        if p.table == place.table and p.row > place.row:
            entry = replace(entry, published=replace(p, row=p.row - 1))
        entries[other] = entry
    return entries


def _published_cases(folder: Path, case_id: str, table: str) -> list[Case]:
    """The valid cases of the folder published in ``table``, other than ``case_id``."""
    return [
        case
        for case in load_folder(folder)[0]
        if case.id != case_id and case.published is not None and case.published.table == table
    ]


def describe(retirement: Retirement) -> str:
    """What ``retire`` did, for the terminal."""
    lines = [f"{retirement.case_id}: withdrawn from {retirement.place}"]
    if retirement.file_kept:
        lines.append("  its file stays, as a regression case (no `published`)")
    lines += [f"  {case_id}: moved up to {place}" for case_id, place in retirement.moved]
    if retirement.suite is not None:
        lines.append(retirement.suite)
    return "\n".join(lines)
