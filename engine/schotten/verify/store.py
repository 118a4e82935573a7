"""Results kept on disk (SQLite), one row per finished chunk, so that a run can stop at any time
and the next one starts where it stopped. Rows are keyed by the engine's source digest as well:
a result about another engine is never reused.

A store is a file the user names (``--store``, ``--merge``), so nothing in it is trusted: a file
that is not a store, a damaged one, a row that is not a chunk result of its own key, is a
:class:`StoreError` that names the file and says what to do, before anything is counted.

>>> import tempfile, pathlib
>>> from schotten.verify.check import ChunkResult
>>> with tempfile.TemporaryDirectory() as tmp, Store(pathlib.Path(tmp) / "s.sqlite") as store:
...     store.save(ChunkResult("base-one-stone", 3, 10, classes=5), "abc")
...     sorted(store.done("base-one-stone", 10, "abc")), store.done("base-one-stone", 10, "xyz")
([3], set())
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import sqlite3
import stat
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from schotten._files import file_kind
from schotten.errors import SchottenError
from schotten.verify.check import ChunkResult, Disagreement

_SCHEMA = """
CREATE TABLE IF NOT EXISTS chunks (
    space TEXT NOT NULL, count INTEGER NOT NULL, idx INTEGER NOT NULL, engine TEXT NOT NULL,
    result TEXT NOT NULL, PRIMARY KEY (space, count, idx, engine));
CREATE TABLE IF NOT EXISTS runs (
    space TEXT NOT NULL, count INTEGER NOT NULL, engine TEXT NOT NULL, started TEXT NOT NULL,
    wall REAL NOT NULL, workers INTEGER NOT NULL, chunks INTEGER NOT NULL);
"""
_COLUMNS = {
    "chunks": ["space", "count", "idx", "engine", "result"],
    "runs": ["space", "count", "engine", "started", "wall", "workers", "chunks"],
}
_RESULT_KEYS = {
    "space", "index", "count", "classes", "positions", "reasons", "completions",
    "disagreements", "seconds",
}  # fmt: skip
_DISAGREEMENT_KEYS = {"case_id", "summary", "case_text"}
# Two commands on one machine may share a store (shards, for example): one waits for the other.
BUSY_TIMEOUT = 60.0


class StoreError(SchottenError):
    """A store that cannot be used as asked: not a store, damaged, a folder, a bad row."""


@dataclass(frozen=True)
class Run:
    started: str  # ISO date, UTC
    wall: float  # seconds
    workers: int
    chunks: int  # chunks computed by this run


class Store:
    """The store at ``path``, created if missing; ``option`` is how the user named it
    (``--store``, ``--merge``), for the messages. A store opened ``readonly`` is never written
    and must exist."""

    def __init__(self, path: Path, *, option: str = "--store", readonly: bool = False) -> None:
        self.path = path
        self.option = option
        _check_kind(path, option, must_exist=readonly)
        try:
            if readonly:
                self._db = sqlite3.connect(
                    f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=BUSY_TIMEOUT
                )
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                self._db = sqlite3.connect(path, timeout=BUSY_TIMEOUT)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(_problem(path, option, exc)) from exc
        try:
            with self._guard():
                (check,) = self._db.execute("PRAGMA quick_check(1)").fetchone()
                if check != "ok":
                    raise sqlite3.DatabaseError(f"database disk image is malformed: {check}")
                if not readonly:
                    self._db.executescript(_SCHEMA)
                self._check_schema()
        except BaseException:
            self._db.close()
            raise

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._db.close()

    def save(self, result: ChunkResult, engine: str) -> None:
        """Keep one finished chunk (its own transaction: nothing half-written on a stop)."""
        if not 0 <= result.index < result.count:
            raise ValueError(f"chunk {result.index} is not one of {result.count}")
        with self._guard(), self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO chunks VALUES (?, ?, ?, ?, ?)",
                (result.space, result.count, result.index, engine, json.dumps(result.to_json())),
            )

    def done(self, space: str, count: int, engine: str) -> set[int]:
        """The chunks of this split kept for ``engine`` (each row checked, as for a report)."""
        return {r.index for r in self.results(space, count, engine)}

    def results(
        self, space: str, count: int, engine: str, indices: Iterable[int] | None = None
    ) -> list[ChunkResult]:
        """The chunks of this split kept for ``engine``, by index; :class:`StoreError` at the
        first row that is not the result of its own chunk."""
        rows = self._split_rows(
            "space, count, idx, engine, result FROM chunks", "idx", space, count, engine
        )
        wanted = None if indices is None else set(indices)
        results = [self._chunk(row) for row in rows]
        return [r for r in results if wanted is None or r.index in wanted]

    def add_run(self, space: str, count: int, engine: str, run: Run) -> None:
        with self._guard(), self._db:
            self._db.execute(
                "INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?, ?)",
                (space, count, engine, run.started, run.wall, run.workers, run.chunks),
            )

    def runs(self, space: str, count: int, engine: str) -> list[Run]:
        columns = "space, count, engine, started, wall, workers, chunks FROM runs"
        rows = self._split_rows(columns, "started", space, count, engine)
        return [self._run(row) for row in rows]

    def _split_rows(
        self, columns: str, order: str, space: str, count: int, engine: str
    ) -> list[Any]:
        """``SELECT columns`` (``... FROM table``, the module's own text, never a caller's
        value) of the rows of one split of a space for one engine, ordered by ``order``."""
        with self._guard():
            rows: list[Any] = self._db.execute(
                f"SELECT {columns} WHERE space = ? AND count = ? AND engine = ? ORDER BY {order}",
                (space, count, engine),
            ).fetchall()
        return rows

    def merge(self, other: Path) -> int:
        """Copy in the chunks and runs of another store (a shard done elsewhere); the number of
        chunks that were new. Every row of ``other`` is checked before any is copied, and a run
        already here (the same store merged again) is not copied twice."""
        if _same_file(other, self.path):
            raise StoreError(
                f"{other}: is the store itself ({self.option} {self.path}): --merge takes the "
                "other stores, whose chunks are copied into it"
            )
        with Store(other, option="--merge", readonly=True) as source:
            chunks, runs = source._all_rows()
        with self._guard(), self._db:
            before = self._db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]
            self._db.executemany("INSERT OR IGNORE INTO chunks VALUES (?, ?, ?, ?, ?)", chunks)
            for run in runs:
                here = self._db.execute(
                    "SELECT 1 FROM runs WHERE space IS ? AND count IS ? AND engine IS ? AND "
                    "started IS ? AND wall IS ? AND workers IS ? AND chunks IS ?",
                    run,
                ).fetchone()
                if here is None:
                    self._db.execute("INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?, ?)", run)
            after = self._db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]
        return int(after - before)

    def merge_all(self, others: Sequence[Path]) -> list[tuple[Path, int]]:
        """:meth:`merge` of each store in turn, each file once however often it is named;
        the new chunks of each."""
        merged: list[tuple[Path, int]] = []
        for other in others:
            if not any(_same_file(other, seen) for seen, _ in merged):
                merged.append((other, self.merge(other)))
        return merged

    # -- checking what the file holds ---------------------------------------------------------

    @contextlib.contextmanager
    def _guard(self) -> Iterator[None]:
        try:
            yield
        except (sqlite3.Error, UnicodeDecodeError) as exc:  # SQLite's text is not always UTF-8
            raise StoreError(_problem(self.path, self.option, exc)) from exc

    def _check_schema(self) -> None:
        for table, columns in _COLUMNS.items():
            found = [row[1] for row in self._db.execute(f"PRAGMA table_info({table})")]
            if found != columns:
                raise StoreError(
                    f"{self.path}: not a store of `schotten verify` (its table {table!r} is "
                    f"missing or has other columns): {_fix(self.option)}"
                )

    def _all_rows(self) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        with self._guard():
            chunks = self._db.execute("SELECT * FROM chunks").fetchall()
            runs = self._db.execute("SELECT * FROM runs").fetchall()
        for row in chunks:
            self._chunk(row)
        for row in runs:
            self._run(row)
        return chunks, runs

    def _chunk(self, row: tuple[Any, ...]) -> ChunkResult:
        space, count, idx, engine, text = row
        try:
            _expect(isinstance(space, str) and isinstance(engine, str), "a key is not text")
            _expect(_natural(count) and count > 0, f"chunk count {count!r}")
            _expect(_natural(idx), f"chunk number {idx!r}")
            _expect(idx < count, f"there is no chunk {idx} in a split of {count}")
            _expect(isinstance(text, str), "its result is not text")
            try:
                data = json.loads(text)
            except (ValueError, RecursionError) as exc:
                raise _Bad(f"its result is not JSON ({exc})") from None
            return _result(data, space, count, idx)
        except _Bad as bad:
            # What the row holds is shown escaped, and no command is built from it to paste.
            raise StoreError(
                _escaped(
                    f"{self.path}: chunk {idx!r} of {space!r} ({count!r} chunks) is not a chunk "
                    f"result: {bad}. Remove that row of the table `chunks` (space {space!r}, "
                    f"count {count!r}, idx {idx!r}) and run again to compute it anew, or "
                    f"{_fix(self.option)}"
                )
            ) from None

    def _run(self, row: tuple[Any, ...]) -> Run:
        space, count, engine, started, wall, workers, chunks = row
        ok = (
            isinstance(space, str)
            and isinstance(engine, str)
            and isinstance(started, str)
            and _natural(count)
            and _seconds(wall)
            and _natural(workers)
            and _natural(chunks)
        )
        if not ok:
            raise StoreError(
                _escaped(
                    f"{self.path}: a run of {space!r} (started {started!r}) is not a run's "
                    f"record. Remove that row of the table `runs` and run again, or "
                    f"{_fix(self.option)}"
                )
            )
        return Run(started, float(wall), workers, chunks)


class _Bad(Exception):
    """What is wrong with a row (only inside this module)."""


def _expect(condition: bool, problem: str) -> None:
    if not condition:
        raise _Bad(problem)


def _natural(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _seconds(value: object) -> bool:
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(value)
        and value >= 0
    )


def _result(data: object, space: str, count: int, idx: int) -> ChunkResult:
    """The chunk result of ``data`` if it is one, and the one of this chunk, else :class:`_Bad`."""
    _expect(isinstance(data, dict), "its result is not a JSON object")
    assert isinstance(data, dict)
    _expect(set(data) == _RESULT_KEYS, f"its keys are {sorted(data)}")
    _expect(
        (data["space"], data["count"], data["index"]) == (space, count, idx)
        and _natural(data["count"])
        and _natural(data["index"]),
        "its result is about another chunk",
    )
    for key in ("classes", "positions", "completions"):
        _expect(_natural(data[key]), f"{key} is {data[key]!r}")
    _expect(_seconds(data["seconds"]), f"seconds is {data['seconds']!r}")
    reasons = data["reasons"]
    _expect(isinstance(reasons, dict), "reasons is not an object")
    for reason, tally in reasons.items():
        _expect(
            isinstance(tally, list) and len(tally) == 2 and all(_natural(n) for n in tally),
            f"reason {reason!r} is not [classes, positions]",
        )
    found = data["disagreements"]
    _expect(isinstance(found, list), "disagreements is not a list")
    for item in found:
        _expect(
            isinstance(item, dict)
            and set(item) == _DISAGREEMENT_KEYS
            and all(isinstance(v, str) for v in item.values()),
            "a disagreement is not a case",
        )
    return ChunkResult(
        space,
        idx,
        count,
        data["classes"],
        data["positions"],
        {str(k): list(v) for k, v in reasons.items()},
        data["completions"],
        tuple(Disagreement(**item) for item in found),
        float(data["seconds"]),
    )


def _check_kind(path: Path, option: str, *, must_exist: bool) -> None:
    """A store is a regular file (or nothing yet, where one may be made): a folder or a FIFO is
    refused before SQLite opens it (a FIFO would make it wait)."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        if must_exist:
            raise StoreError(f"{path}: no such store ({option})") from None
        return
    except OSError as exc:
        raise StoreError(_problem(path, option, exc)) from exc
    if not stat.S_ISREG(info.st_mode):
        raise StoreError(
            f"{path}: {file_kind(info.st_mode)}, not a store: give {option} the path of a "
            "store file (SQLite), or of none yet to start one"
        )


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _escaped(text: str) -> str:
    """``text`` with every character a terminal would act on (ESC, BEL, other controls, a line
    break inside a row's text) written as an escape, so a message shows a row, never runs it.

    >>> print(_escaped("a\\x1b[2Jb\\x07"))
    a\\x1b[2Jb\\x07
    """
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _fix(option: str) -> str:
    if option == "--store":
        return "give --store another file, or move this one away to start afresh"
    return f"leave it out of {option}, or give the store it was meant to be"


def _problem(path: Path, option: str, exc: BaseException) -> str:
    text = str(exc)
    if isinstance(exc, UnicodeDecodeError) or (
        isinstance(exc, sqlite3.DatabaseError)
        and any(w in text for w in ("not a database", "malformed", "corrupt", "decode"))
    ):
        what = "not a store of `schotten verify`, or a damaged one"
        return f"{path}: {what} ({text}): {_fix(option)}"
    if "locked" in text or "busy" in text:
        return (
            f"{path}: another command has been using this store for {BUSY_TIMEOUT:.0f} s "
            f"({text}): let it finish, or give {option} another file"
        )
    if isinstance(exc, OSError):
        text = exc.strerror or text
    fix = f"check the file and its folder, or {_fix(option)}"
    return f"{path}: cannot use this store ({text}): {fix}"
