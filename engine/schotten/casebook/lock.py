"""The record of what is published: ``published.lock.json`` beside the cases.

For every published case it records the table, the row and the verdicts recorded under
``expect:``. Only ``schotten approve`` (for the cases it approves) and ``schotten retire`` (which
withdraws one) write it, so a published case that disappears, a case moved to another row, or
verdicts edited by hand are all caught by :func:`lock_problems`, with the command that settles each.

The file is JSON with sorted keys, two-space indents and a final newline: the same content is
always the same bytes, and a diff shows exactly what publication changed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from schotten import json_input
from schotten.casebook.case import Case, Publication
from schotten.casebook.errors import CaseError, CaseFileError
from schotten.casebook.files import LOCK_NAME, read_text_file, write_atomically
from schotten.casebook.schema import TABLE_PATTERN

LOCK_FORMAT = 1
MAX_LOCK_BYTES = 4 * 1024 * 1024
_NOTE = (
    "What the site publishes: written by `schotten approve` and `schotten retire` only, "
    "never by hand (cases/README.md)."
)


@dataclass(frozen=True)
class LockEntry:
    """One published case as the lock records it."""

    case: str  # the case id
    published: Publication
    expect: Any  # the case's ``expect:`` as JSON data (stone numbers as text)

    def as_data(self) -> dict[str, Any]:
        return {
            "table": self.published.table,
            "row": self.published.row,
            "expect": self.expect,
        }


def lock_path(folder: Path) -> Path:
    return folder / LOCK_NAME


def entry_of(case: Case) -> LockEntry | None:
    """What the lock should say about ``case`` (``None``: it is not published)."""
    if case.published is None:
        return None
    expect = case.expect.as_data() if case.expect is not None else None
    return LockEntry(case.id, case.published, json.loads(json.dumps(expect)))


def read_lock(folder: Path) -> dict[str, LockEntry] | None:
    """The lock of ``folder`` by case id (``None`` if there is none); :class:`CaseFileError` if it
    is unreadable or not in the lock's format."""
    path = lock_path(folder)
    if not path.exists() and not path.is_symlink():
        return None
    text = read_text_file(path, MAX_LOCK_BYTES)
    fix = f"restore it from version control, or rewrite it with `schotten approve {folder}`"
    try:
        data = json_input.loads(text)
    except json_input.JsonInputError as exc:
        # A problem without a position (a key given twice, a number too long) is put at 1:1.
        line, column = exc.line or 1, exc.column or 1
        message = f"not valid JSON ({exc.message}): {fix}"
        raise CaseFileError([CaseError(path, line, column, (), message)]) from exc
    entries = _entries(data)
    if entries is None:
        message = f"not a lock of format {LOCK_FORMAT} (published: {{<case id>: ...}}): {fix}"
        raise CaseFileError([CaseError(path, 1, 1, (), message)])
    return entries


def _entries(data: Any) -> dict[str, LockEntry] | None:
    if not isinstance(data, dict) or data.get("format") != LOCK_FORMAT:
        return None
    published = data.get("published")
    if not isinstance(published, dict):
        return None
    entries = {}
    for case_id, entry in published.items():
        if not isinstance(entry, dict) or set(entry) != {"table", "row", "expect"}:
            return None
        table, row = entry["table"], entry["row"]
        if not isinstance(table, str) or not re.fullmatch(TABLE_PATTERN, table):
            return None
        if type(row) is not int or row < 1:
            return None
        entries[case_id] = LockEntry(case_id, Publication(table, row), entry["expect"])
    return entries


def lock_text(entries: Iterable[LockEntry]) -> str:
    """The lock's bytes for ``entries`` (sorted, stable)."""
    data = {
        "format": LOCK_FORMAT,
        "note": _NOTE,
        "published": {e.case: e.as_data() for e in sorted(entries, key=lambda e: e.case)},
    }
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write_lock(folder: Path, entries: Iterable[LockEntry]) -> None:
    write_atomically(lock_path(folder), lock_text(entries))


def lock_problems(
    folder: Path, cases: Sequence[Case], invalid: Iterable[Path] = ()
) -> list[CaseError]:
    """Where the folder and its lock disagree, each with what to run.

    ``cases`` are the folder's valid cases; files in ``invalid`` are already in error (their
    publication cannot be compared).
    """
    try:
        lock = read_lock(folder)
    except CaseFileError as exc:
        return list(exc.errors)
    by_id = {case.id: case for case in cases}
    broken = {path.stem for path in invalid}
    path = lock_path(folder)
    if lock is None:
        published = [c for c in cases if c.published is not None]
        if not published:
            return []
        message = (
            f"missing: it records the {len(published)} published cases; "
            f"write it with `schotten approve {folder}`"
        )
        return [CaseError(path, 1, 1, (), message)]
    lines = _entry_lines(path, lock)
    errors: list[CaseError] = []
    for case_id, entry in sorted(lock.items()):
        if case_id in broken:
            continue
        case = by_id.get(case_id)
        where = f"{entry.published.table} row {entry.published.row}"
        retire = f"`schotten retire {case_id}`"
        if case is None:
            errors.append(
                CaseError(
                    path,
                    lines.get(case_id, 1),
                    5,
                    (),
                    f"{case_id} is published ({where}) but {folder / (case_id + '.yaml')} is "
                    f"missing: restore the file, or withdraw the case with {retire}",
                )
            )
        elif case.published is None:
            errors.append(
                _at(
                    case,
                    (),
                    f"published as {where} in {LOCK_NAME}, but the file no longer says so: "
                    f"restore `published: {{table: {entry.published.table}, row: "
                    f"{entry.published.row}}}`, or withdraw the case with {retire}",
                )
            )
        else:
            mine = entry_of(case)
            if mine is not None and mine.published != entry.published:
                errors.append(
                    _at(
                        case,
                        ("published",),
                        f"{LOCK_NAME} publishes it as {where}: run `schotten approve {case_id}` "
                        f"to record {mine.published}",
                    )
                )
            if mine is not None and mine.expect != entry.expect:
                errors.append(
                    _at(
                        case,
                        ("expect",),
                        f"the recorded verdicts differ from {LOCK_NAME} (changed without "
                        f"`schotten approve`): run `schotten approve {case_id}` and review "
                        "the diff",
                    )
                )
    for case in cases:
        if case.published is not None and case.id not in lock:
            errors.append(
                _at(
                    case,
                    ("published",),
                    f"not in {LOCK_NAME}: run `schotten approve {case.id}` to publish it",
                )
            )
    return errors


def _at(case: Case, key_path: tuple[str, ...], message: str) -> CaseError:
    return CaseError(
        case.path, case.line_of(*key_path), case.column_of(*key_path), key_path, message
    )


def _entry_lines(path: Path, lock: Mapping[str, LockEntry]) -> dict[str, int]:
    """The line of each case id's entry in the lock (for messages)."""
    try:
        text = read_text_file(path, MAX_LOCK_BYTES)
    except CaseFileError:
        return {}
    lines = {}
    for number, line in enumerate(text.splitlines(), 1):
        match = re.fullmatch(r'    "([^"]+)": \{', line)
        if match and match[1] in lock:
            lines[match[1]] = number
    return lines


def updated_lock(
    lock: Mapping[str, LockEntry] | None, cases: Iterable[Case]
) -> dict[str, LockEntry]:
    """The lock with the entries of ``cases`` as they are now (approve).

    A case the lock publishes whose file no longer says so is refused: only retire withdraws one.
    """
    entries = dict(lock or {})
    for case in cases:
        entry = entry_of(case)
        if entry is not None:
            entries[case.id] = entry
        elif case.id in entries:
            old = entries[case.id].published
            raise CaseFileError(
                [
                    _at(
                        case,
                        (),
                        f"published as {old} in {LOCK_NAME}, but the file no longer says so: "
                        f"restore its `published`, or withdraw it with "
                        f"`schotten retire {case.id}`",
                    )
                ]
            )
    return entries
