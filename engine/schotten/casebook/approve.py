"""Re-recording ``expect:`` from the engine, on purpose, without touching the rest of the file.

The edit is surgical: the ``expect:`` block (from its key to the end of its last line) is replaced
by the engine's results, written in the project's layout; comments and layout elsewhere stay as
typed. The new text is checked (it must load and agree with the engine) before it replaces the
file, through a temporary file and a rename, so a file is never left half-written (through a
symbolic link, the link's target is rewritten and the link stays).

:func:`approve_paths` is the whole command: under the lock of each case folder, every case is
read and checked before any file is written, then the cases and the folder's lock are rewritten
with SIGINT, SIGTERM and SIGHUP held back (a stopped command finishes its writes, so the cases and
the lock agree), and the conformance suite beside the folder is exported again. The temporary
files of a command killed outright (SIGKILL) are removed first.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import yaml

from schotten._files import write_atomically
from schotten.casebook.build import load_case, parse_case
from schotten.casebook.conformance_suite import export_case_vectors
from schotten.casebook.errors import CaseError, CaseFileError
from schotten.casebook.files import (
    CASE_SUFFIX,
    case_paths,
    leftover_of,
    read_case_text,
    read_text_file,
    remove_leftovers,
    stops_held,
)
from schotten.casebook.folder import run_cases
from schotten.casebook.lock import (
    MAX_LOCK_BYTES,
    LockEntry,
    Review,
    folder_lock,
    lock_path,
    lock_text,
    read_lock,
    review_problem,
    updated_lock,
    write_lock,
)
from schotten.casebook.model import Case, Expectation
from schotten.casebook.prose import text_problems
from schotten.casebook.run import CaseResult, Mismatch, run_case
from schotten.casebook.writer import expect_block


@dataclass(frozen=True)
class Approval:
    """What ``approve`` changed in one file (no changes: it already agreed)."""

    path: Path
    changes: tuple[Mismatch, ...]

    @property
    def changed(self) -> bool:
        return bool(self.changes)


@dataclass(frozen=True)
class ApproveReport:
    """What one ``schotten approve`` did: each file, each lock rewritten, each case whose texts
    must be re-read, and the damaged locks that were rewritten from the cases (with why)."""

    approvals: tuple[Approval, ...]
    locks: tuple[tuple[Path, int], ...]  # a lock rewritten, and how many cases it publishes
    reviews: tuple[CaseError, ...]  # texts written for a verdict that changed
    damaged: tuple[CaseError, ...]  # why a lock could not be read (it was rewritten)
    suites: tuple[str, ...] = ()  # the conformance suites exported again, in words


def approve_paths(paths: Sequence[Path], *, texts_reviewed: bool = False) -> ApproveReport:
    """Approve case files (a folder: all of its cases, and its whole lock); see the module.

    :class:`CaseFileError` (nothing written) if a case is invalid, a folder holds something that
    is not a case, or the lock would lose a published case.
    """
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            found, problems = case_paths(path)
            # A killed write's temporary file is removed below, under the folder's lock.
            problems = [p for p in problems if not leftover_of(p.path)]
            if problems:
                raise CaseFileError(problems)
            files += found
        else:
            files.append(path)
    # A file named twice is approved once (realpath: a symlink loop is reported when read).
    unique = list({os.path.realpath(path): path for path in files}.values())
    folders = sorted({path.parent for path in unique})
    with contextlib.ExitStack() as held:
        for folder in folders:  # always in the same order: two commands never wait on each other
            held.enter_context(folder_lock(folder))
            remove_leftovers(folder)
        report = _approve_locked(unique, folders, texts_reviewed)
        suites = [export_case_vectors(folder) for folder in folders]
        return replace(report, suites=tuple(s for s in suites if s is not None))


def _approve_locked(paths: list[Path], folders: list[Path], texts_reviewed: bool) -> ApproveReport:
    cases: list[Case] = []
    errors: list[CaseError] = []
    for path in paths:  # all valid before any file is written
        try:
            case = load_case(path)
        except CaseFileError as exc:
            errors.extend(exc.errors)
            continue
        errors += text_problems(case)
        cases.append(case)
    results, invalid = run_cases(cases)
    errors += invalid
    if errors:
        raise CaseFileError(errors)
    damaged: list[CaseError] = []
    locks: dict[Path, dict[str, LockEntry] | None] = {}
    for folder in folders:
        try:
            locks[folder] = read_lock(folder)
        except CaseFileError as exc:  # rewritten from the approved cases
            damaged += exc.errors
            locks[folder] = None
    before = {folder: {c.id: c for c in cases if c.path.parent == folder} for folder in folders}
    present = {folder: _present(folder) for folder in folders}
    for folder in folders:  # a lock refusal stops before any file is written
        updated_lock(locks[folder], before[folder].values(), present=present[folder])
    with stops_held():
        return _write_approved(
            cases, results, folders, locks, before, present, texts_reviewed, damaged
        )


def _present(folder: Path) -> set[str]:
    """The ids of the case files of ``folder`` (the lock's entries without one are gone)."""
    return {path.name.removesuffix(CASE_SUFFIX) for path in folder.glob(f"*{CASE_SUFFIX}")}


def _write_approved(
    cases: list[Case],
    results: list[CaseResult],
    folders: list[Path],
    locks: dict[Path, dict[str, LockEntry] | None],
    before: dict[Path, dict[str, Case]],
    present: dict[Path, set[str]],
    texts_reviewed: bool,
    damaged: list[CaseError],
) -> ApproveReport:
    approvals = tuple(approve(case, result) for case, result in zip(cases, results, strict=True))
    written: list[tuple[Path, int]] = []
    reviews: list[CaseError] = []
    for folder in folders:
        lock = locks[folder]
        approved = [load_case(c.path) for c in cases if c.path.parent == folder]
        entries = updated_lock(
            lock,
            approved,
            texts_reviewed=texts_reviewed,
            before=before[folder],
            present=present[folder],
        )
        for case in approved:
            review = entries[case.id].review if case.id in entries else None
            problem = review_problem(case, review) if isinstance(review, Review) else None
            if problem is not None:
                reviews.append(problem)
        if lock is None and not entries:
            continue
        if lock is None or lock_text(entries.values()) != _lock_file_text(folder):
            write_lock(folder, entries.values())
            written.append((lock_path(folder), len(entries)))
    return ApproveReport(approvals, tuple(written), tuple(reviews), tuple(damaged))


def _lock_file_text(folder: Path) -> str | None:
    """The lock's text as it is (an entry edited by hand, or without its seal, differs from the
    text :func:`lock_text` makes of it, so it is written again)."""
    try:
        return read_text_file(lock_path(folder), MAX_LOCK_BYTES)
    except CaseFileError:
        return None


def describe_approval(report: ApproveReport) -> str:
    """What ``approve`` did, for the terminal."""
    lines = []
    for approval in report.approvals:
        if not approval.changed:
            lines.append(f"{approval.path}: unchanged")
            continue
        first = all(c.what == "expect" and c.recorded == "nothing" for c in approval.changes)
        lines.append(f"{approval.path}: {'recorded' if first else 're-recorded'}")
        for change in approval.changes:
            if change.what == "expect" and change.recorded == "nothing":
                lines.append("  expect: recorded for the first time")
            else:
                lines.append(f"  {change.what}: {change.recorded} -> {change.computed}")
    lines += [f"{path}: updated ({count} published cases)" for path, count in report.locks]
    lines += [f"to re-read: {error}" for error in report.reviews]
    lines += list(report.suites)
    return "\n".join(lines)


def approve(case: Case, result: CaseResult | None = None) -> Approval:
    """Write the engine's results (``result``, or the case run now) into the case file's
    ``expect:`` block, if they differ.

    The block is spliced into the text the case was read from; if the file changed since (another
    edit, or the same file approved twice in one command), nothing is written.
    """
    result = run_case(case) if result is None else result
    if result.ok:
        return Approval(case.path, ())
    text = current_text(case)
    new_text = replace_expect(text, case, result.computed)
    checked = parse_case(new_text, case.path)  # raises if the splice broke the file
    if not run_case(checked).ok:  # pragma: no cover - the writer and the loader disagree
        raise CaseFileError(
            [CaseError(case.path, 1, 1, ("expect",), "approve could not record the results")]
        )
    write_unchanged_since(case, text, new_text)
    return Approval(case.path, result.mismatches)


def current_text(case: Case) -> str:
    """The file's text now, which must be the text ``case`` was parsed from."""
    text = read_case_text(case.path)
    if case.document is None or text != case.document.text:
        raise CaseFileError(
            [
                CaseError(
                    case.path,
                    1,
                    1,
                    (),
                    "the file changed since it was read: nothing was written, run the command "
                    "again",
                )
            ]
        )
    return text


def write_unchanged_since(case: Case, text: str, new_text: str) -> None:
    """Replace the file by ``new_text`` if it still holds ``text`` (checked just before)."""
    if read_case_text(case.path) != text:
        raise CaseFileError(
            [CaseError(case.path, 1, 1, (), "the file changed while it was being rewritten")]
        )
    write_atomically(case.path, new_text)


def replace_expect(text: str, case: Case, expect: Expectation) -> str:
    """``text`` with its ``expect:`` block (or, if none, the end of the file) set to ``expect``.

    The block is written with the file's line endings (CRLF files stay CRLF).
    """
    return replace_key(text, case, "expect", expect_block(expect))


def replace_key(text: str, case: Case, key: str, block: str | None) -> str:
    """``text`` with the top-level ``key`` entry (key, value, to the end of the value's last line)
    replaced by ``block``, removed if ``block`` is ``None``, appended if the key is absent."""
    newline = "\r\n" if "\r\n" in text else "\n"
    block = block.replace("\n", newline) if block is not None else ""
    root = case.document.root if case.document is not None else None
    entry = None
    if isinstance(root, yaml.MappingNode):
        entry = next((kv for kv in root.value if kv[0].value == key), None)
    if entry is None:
        if text and not text.endswith("\n") and block:
            text += newline
        return text + block
    start = entry[0].start_mark.index
    end = text.find("\n", _content_end(entry[1]))
    end = len(text) if end < 0 else end + 1
    return text[:start] + block + text[end:]


def _content_end(node: yaml.Node) -> int:
    # A block collection's end mark lies after the comments that follow it: stop at its last value.
    block = isinstance(node, yaml.MappingNode | yaml.SequenceNode) and not node.flow_style
    if block and node.value:
        last = node.value[-1]
        return _content_end(last[1] if isinstance(node, yaml.MappingNode) else last)
    return int(node.end_mark.index)
