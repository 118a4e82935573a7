"""The record of what is published: ``published.lock.json`` beside the cases.

For every published case it records the table, the row, the verdicts recorded under ``expect:``
and a digest of each of its texts (``situation`` and ``why``, per language) as they were when the
verdict was approved. Only ``schotten approve`` (for the cases it approves) and ``schotten retire``
(which withdraws one) write it, so a published case that disappears, a case moved to another row,
or verdicts edited by hand are all caught by :func:`lock_problems`, with the command that settles
each.

When ``approve`` records a changed verdict of a published case and its texts are the ones written
for the old verdict, the entry also records what changed and which texts must be re-read
(``review``): the gate refuses the case until each of those texts is edited, or confirmed as they
are with ``schotten approve CASE --texts-reviewed``.

Each entry carries a ``seal``, a digest of the rest of the entry: an entry edited by hand no longer
matches its seal, and ``check`` says so once, naming ``schotten approve CASE``, which writes the
entry again from the case file (with no texts to re-read when the case is what was published). An
entry without a seal (a lock written before seals) is taken as it is.

The lock is one-to-one with the files: no two entries hold the same row of a table. A case renamed
(its old file gone, a new id on the same row) is one message, and ``approve`` of the new id carries
the entry over; ``retire`` of the old id is refused while a new file holds its row.

The file is JSON with sorted keys, two-space indents and a final newline: the same content is
always the same bytes, and a diff shows exactly what publication changed. Commands that write it
hold a lock on the case folder (:func:`folder_lock`), so two of them never lose each other's work.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from schotten import json_input
from schotten._files import write_atomically
from schotten.casebook.errors import CaseError, CaseFileError, command_path
from schotten.casebook.files import LOCK_NAME, read_text_file
from schotten.casebook.model import Case, Publication
from schotten.casebook.schema import TABLE_PATTERN

LOCK_FORMAT = 1
MAX_LOCK_BYTES = 4 * 1024 * 1024
TEXT_FIELDS = ("situation", "why")
_DIGEST = re.compile(r"[0-9a-f]{16}")
_NOTE = (
    "What the site publishes: written by `schotten approve` and `schotten retire` only, "
    "never by hand (cases/README.md)."
)


@dataclass(frozen=True)
class Review:
    """Texts to re-read after a change of verdict: what changed, and the digest each text had
    then (a text whose digest is still that one has not been edited since)."""

    changed: tuple[str, ...]  # "stone 4: refused -> granted"
    texts: Mapping[str, str]  # "why.es" -> its digest when the verdict changed

    def as_data(self) -> dict[str, Any]:
        return {"changed": list(self.changed), "texts": dict(sorted(self.texts.items()))}


@dataclass(frozen=True)
class LockEntry:
    """One published case as the lock records it."""

    case: str  # the case id
    published: Publication
    expect: Any  # the case's ``expect:`` as JSON data (stone numbers as text)
    texts: Mapping[str, str] | None = field(default=None, compare=True)  # "situation.fr" -> digest
    review: Review | None = None
    seal: str | None = field(default=None, compare=False)  # as read; None: an unsealed entry

    def sealed(self) -> str:
        """The seal this entry's content has (what :func:`lock_text` writes)."""
        text = json.dumps(self.as_data(), sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]

    @property
    def edited_by_hand(self) -> bool:
        """Whether the entry as read no longer matches its seal."""
        return self.seal is not None and self.seal != self.sealed()

    def as_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "table": self.published.table,
            "row": self.published.row,
            "expect": self.expect,
        }
        if self.texts is not None:
            data["texts"] = dict(sorted(self.texts.items()))
        if self.review is not None:
            data["review"] = self.review.as_data()
        return data


def text_digests(case: Case) -> dict[str, str]:
    """A short digest of each text of ``case`` by ``field.lang`` (``why.es``)."""
    digests = {}
    for name in TEXT_FIELDS:
        for lang, text in sorted(getattr(case, name).items()):
            digest = hashlib.sha256(str(text).encode("utf-8", "surrogatepass")).hexdigest()
            digests[f"{name}.{lang}"] = digest[:16]
    return digests


@contextlib.contextmanager
def folder_lock(folder: Path) -> Iterator[None]:
    """Hold the case folder's lock (``flock`` on the folder itself, so that no file is added to
    it): ``approve`` and ``retire`` read, compute and write under it, one at a time."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        message = f"cannot open the case folder: {exc.strerror or exc}"
        raise CaseFileError([CaseError(folder, 1, 1, (), message)]) from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


def lock_path(folder: Path) -> Path:
    return folder / LOCK_NAME


def entry_of(case: Case) -> LockEntry | None:
    """What the lock should say about ``case`` (``None``: it is not published)."""
    if case.published is None:
        return None
    expect = case.expect.as_data() if case.expect is not None else None
    return LockEntry(case.id, case.published, json.loads(json.dumps(expect)), text_digests(case))


def read_lock(folder: Path) -> dict[str, LockEntry] | None:
    """The lock of ``folder`` by case id (``None`` if there is none); :class:`CaseFileError` if it
    is unreadable or not in the lock's format."""
    path = lock_path(folder)
    if not path.exists() and not path.is_symlink():
        return None
    text = read_text_file(path, MAX_LOCK_BYTES)
    fix = (
        "restore it from version control, or rewrite it with "
        f"`schotten approve {command_path(folder)}`"
    )
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
        if not isinstance(entry, dict) or not {"table", "row", "expect"} <= set(entry):
            return None
        if not set(entry) <= {"table", "row", "expect", "texts", "review", "seal"}:
            return None
        seal = entry.get("seal")
        if seal is not None and not (isinstance(seal, str) and _DIGEST.fullmatch(seal)):
            return None
        table, row = entry["table"], entry["row"]
        if not isinstance(table, str) or not re.fullmatch(TABLE_PATTERN, table):
            return None
        if type(row) is not int or row < 1:
            return None
        texts = _digests(entry.get("texts", {}))
        review = _review(entry.get("review"))
        if texts is None or ("review" in entry and review is None):
            return None
        entries[case_id] = LockEntry(
            case_id, Publication(table, row), entry["expect"], texts or None, review, seal
        )
    return entries


def _digests(data: Any) -> dict[str, str] | None:
    if not isinstance(data, dict):
        return None
    for key, digest in data.items():
        if not isinstance(digest, str) or not _DIGEST.fullmatch(digest):
            return None
        name, _, lang = key.partition(".")
        if name not in TEXT_FIELDS or not lang:
            return None
    return dict(data)


def _review(data: Any) -> Review | None:
    if not isinstance(data, dict) or set(data) != {"changed", "texts"}:
        return None
    changed, texts = data["changed"], _digests(data["texts"])
    if not isinstance(changed, list) or not all(isinstance(c, str) for c in changed):
        return None
    if not texts:
        return None
    return Review(tuple(changed), texts)


def lock_text(entries: Iterable[LockEntry]) -> str:
    """The lock's bytes for ``entries`` (sorted, stable)."""
    data = {
        "format": LOCK_FORMAT,
        "note": _NOTE,
        "published": {
            e.case: {**e.as_data(), "seal": e.sealed()}
            for e in sorted(entries, key=lambda e: e.case)
        },
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
            f"write it with `schotten approve {command_path(folder)}`"
        )
        return [CaseError(path, 1, 1, (), message)]
    lines = _entry_lines(path, lock)
    errors: list[CaseError] = []
    renamed = renamed_cases(lock, cases, set(by_id) | broken)
    for case_id, entry in sorted(lock.items()):
        if case_id in broken or case_id in renamed.values():
            continue
        case = by_id.get(case_id)
        where = f"{entry.published.table} row {entry.published.row}"
        retire = f"`schotten retire {case_id}`"
        if entry.edited_by_hand:
            errors.append(
                CaseError(
                    path,
                    lines.get(case_id, 1),
                    5,
                    (),
                    f"the entry of {case_id} was edited by hand (it no longer matches its seal): "
                    f"run `schotten approve {case_id}` to write it again from "
                    f"{case_id}.yaml" + ("" if case is not None else f", or {retire}"),
                )
            )
            continue
        if case is None:
            errors.append(
                CaseError(
                    path,
                    lines.get(case_id, 1),
                    5,
                    (),
                    f"{case_id} is published ({where}) but "
                    f"{command_path(folder)}/{case_id}.yaml is "
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
            if mine is not None and entry.review is not None and mine.expect == entry.expect:
                error = review_problem(case, entry.review)
                if error is not None:
                    errors.append(error)
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
        old = renamed.get(case.id)
        if old is not None and case.published is not None:
            errors.append(
                _at(
                    case,
                    ("published",),
                    f"{LOCK_NAME} gives {case.published} to {old}, whose file is gone: if "
                    f"{old}.yaml was renamed {case.id}.yaml, run `schotten approve {case.id}` to "
                    "carry its publication over; otherwise give this case another row",
                )
            )
        elif case.published is not None and case.id not in lock:
            errors.append(
                _at(
                    case,
                    ("published",),
                    f"not in {LOCK_NAME}: run `schotten approve {case.id}` to publish it",
                )
            )
    return errors


def renamed_cases(
    lock: Mapping[str, LockEntry], cases: Iterable[Case], present: set[str]
) -> dict[str, str]:
    """New id -> old id, for each case the lock does not know that is published on the row of a
    lock entry whose file is gone (``present``: the ids that have a file): a renamed case."""
    orphans = {e.published: e.case for e in lock.values() if e.case not in present}
    return {
        case.id: orphans[case.published]
        for case in cases
        if case.id not in lock and case.published is not None and case.published in orphans
    }


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


def review_problem(case: Case, review: Review) -> CaseError | None:
    """The texts of ``case`` still as they were written for its old verdict, if any."""
    digests = text_digests(case)
    stale = [key for key, digest in sorted(review.texts.items()) if digests.get(key) == digest]
    if not stale:
        return None
    shown = ", ".join(f"{key} (line {case.line_of(*key.split('.'))})" for key in stale)
    langs = sorted({key.split(".")[1] for key in stale}, key=lambda lang: (lang != "fr", lang))
    names = " and ".join(_LANGUAGE_NAMES.get(lang, lang) for lang in langs)
    return _at(
        case,
        (stale[0].split(".")[0],),
        f"its published verdict changed ({'; '.join(review.changed)}) and these texts were "
        f"written for the old one: {shown}. Re-read them in {names}: edit those that no longer "
        f"fit, and confirm the others with `schotten approve {case.id} --texts-reviewed`",
    )


_LANGUAGE_NAMES = {"fr": "French", "es": "Spanish"}


def verdict_changes(old: Any, new: Any) -> list[str]:
    """What differs between two recorded ``expect:`` blocks, in words.

    >>> old = {"stones": {"4": {"verdict": "refused", "reason": "opponent-can-beat"}}}
    >>> verdict_changes(old, {"stones": {"4": {"verdict": "granted", "reason": "unbeatable"}}})
    ['stone 4: refused (opponent-can-beat) -> granted (unbeatable)']
    >>> verdict_changes(None, {"game": "ongoing"})
    ['first recorded']
    """
    if old == _UNKNOWN:
        return ["the verdict published before is unknown: the lock was edited by hand"]
    if not isinstance(old, dict) or not isinstance(new, dict):
        return [] if old == new else ["first recorded"]
    changes = []
    old_stones, new_stones = old.get("stones", {}), new.get("stones", {})
    for stone in sorted(old_stones.keys() | new_stones.keys(), key=lambda k: (len(k), k)):
        before, after = old_stones.get(stone), new_stones.get(stone)
        if before != after:
            changes.append(f"stone {stone}: {_stone_word(before)} -> {_stone_word(after)}")
    if old.get("game") != new.get("game"):
        changes.append(f"game: {old.get('game')} -> {new.get('game')}")
    old_play, new_play = old.get("play_on") or {}, new.get("play_on") or {}
    old_steps, new_steps = old_play.get("steps", []), new_play.get("steps", [])
    for i in range(max(len(old_steps), len(new_steps))):
        before = old_steps[i] if i < len(old_steps) else "(none)"
        after = new_steps[i] if i < len(new_steps) else "(none)"
        if before != after:
            changes.append(f"move {i + 1}: {before} -> {after}")
    for key in sorted((old_play.keys() | new_play.keys()) - {"steps"}):
        if old_play.get(key) != new_play.get(key):
            before, after = _flat(old_play.get(key)), _flat(new_play.get(key))
            changes.append(f"play-on {key}: {before} -> {after}")
    return changes


def _stone_word(entry: Any) -> str:
    if not isinstance(entry, dict):
        return "(none)"
    word = f"{entry.get('verdict')} ({entry.get('reason')})"
    witness = entry.get("witness")
    if isinstance(witness, dict):
        word += f" witness {', '.join(map(str, witness.get('cards', [])))}"
    return word


def _flat(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def updated_lock(
    lock: Mapping[str, LockEntry] | None,
    cases: Iterable[Case],
    *,
    texts_reviewed: bool = False,
    before: Mapping[str, Case] | None = None,
    present: set[str] | None = None,
) -> dict[str, LockEntry]:
    """The lock with the entries of ``cases`` as they are now (approve).

    A case the lock publishes whose file no longer says so is refused: only retire withdraws one.
    A changed verdict whose texts are unchanged records the texts to re-read (:class:`Review`),
    unless ``texts_reviewed`` says they were. ``before`` holds the cases as they were read before
    approval: an entry edited by hand is taken as the one they give if that matches its seal (the
    lock was edited, the case is what was published), else every text is to re-read. ``present``
    holds the ids that have a file: a new case on the row of an entry whose file is gone takes the
    entry over (a rename). Two entries on one row are refused.
    """
    entries = dict(lock or {})
    cases = list(cases)
    renamed = renamed_cases(entries, cases, present) if present is not None else {}
    for case in cases:
        entry = entry_of(case)
        if entry is not None:
            old = entries.get(case.id)
            if case.id in renamed:
                old = entries.pop(renamed[case.id])
            if old is not None and old.edited_by_hand:
                old = _as_published(old, (before or {}).get(case.id))
            review = None if texts_reviewed or old is None else _review_after(old, entry)
            entries[case.id] = LockEntry(
                entry.case, entry.published, entry.expect, entry.texts, review
            )
        elif case.id in entries:
            old_place = entries[case.id].published
            raise CaseFileError(
                [
                    _at(
                        case,
                        (),
                        f"published as {old_place} in {LOCK_NAME}, but the file no longer says "
                        f"so: restore its `published`, or withdraw it with "
                        f"`schotten retire {case.id}`",
                    )
                ]
            )
    _refuse_shared_rows(entries, cases)
    return entries


def _as_published(old: LockEntry, case: Case | None) -> LockEntry:
    """What the hand-edited entry ``old`` said when it was sealed: the entry ``case`` (as read
    before approval) makes, if it has the seal; else an entry whose verdict is unknown."""
    mine = entry_of(case) if case is not None else None
    if mine is not None:
        candidate = LockEntry(old.case, mine.published, mine.expect, old.texts, old.review)
        if candidate.sealed() == old.seal:
            return candidate
    return LockEntry(old.case, old.published, _UNKNOWN, old.texts, old.review)


_UNKNOWN = {"unknown": "the lock was edited by hand"}


def _refuse_shared_rows(entries: Mapping[str, LockEntry], cases: Sequence[Case]) -> None:
    holders: dict[Publication, str] = {}
    by_id = {case.id: case for case in cases}
    errors = []
    for case_id, entry in sorted(entries.items()):
        other = holders.setdefault(entry.published, case_id)
        if other == case_id:
            continue
        mine, theirs = (case_id, other) if case_id in by_id else (other, case_id)
        if mine not in by_id:
            continue
        message = (
            f"{entry.published} is already published for {theirs} in {LOCK_NAME}: each row holds "
            f"one case; give this case another row, or `schotten retire {theirs}` first"
        )
        errors.append(_at(by_id[mine], ("published",), message))
    if errors:
        raise CaseFileError(errors)


def _review_after(old: LockEntry, new: LockEntry) -> Review | None:
    """The texts still to re-read once ``new`` replaces ``old`` (``None``: nothing to re-read)."""
    current = new.texts or {}
    if old.expect != new.expect and old.expect is not None:
        before = old.texts if old.texts is not None else {}
        # A text the lock has no digest of (an older lock) is re-read too.
        stale = {k: d for k, d in current.items() if before.get(k, d) == d}
        changed = tuple(verdict_changes(old.expect, new.expect))
    elif old.review is not None:
        stale = {k: d for k, d in old.review.texts.items() if current.get(k) == d}
        changed = old.review.changed
    else:
        return None
    return Review(changed, stale) if stale else None
