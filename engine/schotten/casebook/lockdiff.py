"""What a change publishes: the verdict diff between two locks (``published.lock.json``), as a
Markdown table for a pull request's job summary.

``python -m schotten.casebook.lockdiff BASE_LOCK NEW_LOCK`` prints it; a missing or unreadable base
lock counts as empty (a first publication), an unreadable new lock is an error.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from schotten.casebook.errors import CaseFileError
from schotten.casebook.lock import LockEntry, read_lock, verdict_changes


def lock_diff(old: Mapping[str, LockEntry], new: Mapping[str, LockEntry]) -> list[list[str]]:
    """One row per case whose publication changed: case, place, old -> new verdicts, texts."""
    rows = []
    for case_id in sorted(old.keys() | new.keys()):
        before, after = old.get(case_id), new.get(case_id)
        if before is not None and after is not None and before.as_data() == after.as_data():
            continue
        place = _place(before, after)
        if before is None:
            verdict, texts = "published: " + _verdicts(after), "new"
        elif after is None:
            verdict, texts = "withdrawn (`schotten retire`)", "—"
        else:
            changes = verdict_changes(before.expect, after.expect)
            verdict = "; ".join(changes) if changes else "unchanged"
            texts = _texts(before, after)
        rows.append([f"`{case_id}`", place, verdict, texts])
    return rows


def _place(before: LockEntry | None, after: LockEntry | None) -> str:
    places = [str(e.published) for e in (before, after) if e is not None]
    return places[0] if len(set(places)) == 1 else " → ".join(places)


def _verdicts(entry: LockEntry | None) -> str:
    expect = entry.expect if entry is not None and isinstance(entry.expect, dict) else {}
    parts = [f"stone {n}: {s.get('verdict')}" for n, s in sorted(expect.get("stones", {}).items())]
    play = expect.get("play_on")
    if isinstance(play, dict):
        refused = sum(1 for step in play.get("steps", []) if step != "ok")
        parts.append(f"{len(play.get('steps', []))} moves, {refused} refused, {play.get('game')}")
    return "; ".join(parts) or "—"


def _texts(before: LockEntry, after: LockEntry) -> str:
    if before.texts is None or after.texts is None:
        return "unknown (no digest in the base lock)"
    changed = sorted(
        k
        for k in before.texts.keys() | after.texts.keys()
        if before.texts.get(k) != after.texts.get(k)
    )
    if after.review is not None:
        return "to re-read: " + ", ".join(sorted(after.review.texts))
    return "changed: " + ", ".join(changed) if changed else "unchanged"


def markdown(rows: Sequence[Sequence[str]]) -> str:
    """The job summary: a heading and the table (or a line saying nothing changed)."""
    lines = ["## Published verdicts", ""]
    if not rows:
        return "\n".join([*lines, "No published verdict changes.", ""])
    lines += ["| case | table, row | verdict (old → new) | texts |", "| --- | --- | --- | --- |"]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n".join([*lines, ""])


def _read(path: Path, *, missing_ok: bool) -> dict[str, LockEntry]:
    if missing_ok and not path.is_file():
        return {}
    folder = path.parent
    if path.name != "published.lock.json":  # read_lock reads the folder's lock: copy it there
        raise SystemExit(f"error: {path}: a lock is named published.lock.json")
    try:
        return read_lock(folder) or {}
    except CaseFileError:
        if missing_ok:
            return {}
        raise


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 2:
        print("usage: python -m schotten.casebook.lockdiff BASE_LOCK NEW_LOCK", file=sys.stderr)
        return 2
    try:
        old = _read(Path(args[0]), missing_ok=True)
        new = _read(Path(args[1]), missing_ok=False)
    except CaseFileError as exc:
        for error in exc.errors:
            print(f"error: {error}", file=sys.stderr)
        return 1
    sys.stdout.write(markdown(lock_diff(old, new)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
