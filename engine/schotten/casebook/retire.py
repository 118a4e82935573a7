"""Withdrawing a published case from the site, on purpose: the only way a case leaves the lock.

``retire`` removes the case's ``published:`` entry (its file stays, as a regression case), moves the
following rows of its table up by one so that the table has no gap, and rewrites the lock. A case
whose file was deleted is retired the same way (only the lock and the following rows change).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from schotten.casebook.approve import current_text, replace_key, write_unchanged_since
from schotten.casebook.case import Case, Publication, load_case, parse_case
from schotten.casebook.errors import CaseError, CaseFileError
from schotten.casebook.files import CASE_SUFFIX, LOCK_NAME
from schotten.casebook.folder import load_folder
from schotten.casebook.lock import entry_of, read_lock, write_lock


@dataclass(frozen=True)
class Retirement:
    """What ``retire`` did: the place the case left, and the cases moved up to fill it."""

    case_id: str
    place: Publication
    file_kept: bool
    moved: tuple[tuple[str, Publication], ...]  # case id, its new place


def retire(folder: Path, case_id: str) -> Retirement:
    """Withdraw ``case_id`` from the site (see the module); :class:`CaseFileError` if it is not
    published or a file to edit changed or is invalid."""
    path = folder / f"{case_id}{CASE_SUFFIX}"
    lock = read_lock(folder) or {}
    case = load_case(path) if path.exists() or path.is_symlink() else None
    locked = lock.get(case_id)
    place = locked.published if locked is not None else case.published if case else None
    if place is None:
        where = path if case is not None else folder / LOCK_NAME
        raise CaseFileError([CaseError(where, 1, 1, (), f"{case_id} is not published")])
    others = _rows_after(folder, case_id, place)
    if case is not None and case.published is not None:
        text = current_text(case)
        new_text = replace_key(text, case, "published", None)
        parse_case(new_text, case.path)  # raises if the edit broke the file
        write_unchanged_since(case, text, new_text)
    entries = {k: v for k, v in lock.items() if k != case_id}
    moved = []
    for other, old_place in others:
        new_place = replace(old_place, row=old_place.row - 1)
        text = current_text(other)
        block = f"published: {{table: {new_place.table}, row: {new_place.row}}}\n"
        new_text = replace_key(text, other, "published", block)
        moved_case = parse_case(new_text, other.path)
        write_unchanged_since(other, text, new_text)
        entry = entry_of(moved_case)
        if other.id in entries and entry is not None:
            entries[other.id] = replace(entries[other.id], published=entry.published)
        moved.append((other.id, new_place))
    write_lock(folder, entries.values())
    return Retirement(case_id, place, case is not None, tuple(moved))


def _rows_after(folder: Path, case_id: str, place: Publication) -> list[tuple[Case, Publication]]:
    """The valid cases published after ``place`` in its table, by row."""
    after = []
    for case in load_folder(folder)[0]:
        p = case.published
        if case.id != case_id and p is not None and p.table == place.table and p.row > place.row:
            after.append((case, p))
    return sorted(after, key=lambda entry: entry[1].row)


def describe(retirement: Retirement) -> str:
    """What ``retire`` did, for the terminal."""
    lines = [f"{retirement.case_id}: withdrawn from {retirement.place}"]
    if retirement.file_kept:
        lines.append("  its file stays, as a regression case (no `published`)")
    lines += [f"  {case_id}: moved up to {place}" for case_id, place in retirement.moved]
    return "\n".join(lines)
