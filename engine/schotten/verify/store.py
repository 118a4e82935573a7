"""Results kept on disk (SQLite), one row per finished chunk, so that a run can stop at any time
and the next one starts where it stopped. Rows are keyed by the engine's source digest as well:
a result about another engine is never reused.

>>> import tempfile, pathlib
>>> from schotten.verify.check import ChunkResult
>>> with tempfile.TemporaryDirectory() as tmp, Store(pathlib.Path(tmp) / "s.sqlite") as store:
...     store.save(ChunkResult("base-one-stone", 3, 10, classes=5), "abc")
...     sorted(store.done("base-one-stone", 10, "abc")), store.done("base-one-stone", 10, "xyz")
([3], set())
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from schotten.verify.check import ChunkResult

_SCHEMA = """
CREATE TABLE IF NOT EXISTS chunks (
    space TEXT NOT NULL, count INTEGER NOT NULL, idx INTEGER NOT NULL, engine TEXT NOT NULL,
    result TEXT NOT NULL, PRIMARY KEY (space, count, idx, engine));
CREATE TABLE IF NOT EXISTS runs (
    space TEXT NOT NULL, count INTEGER NOT NULL, engine TEXT NOT NULL, started TEXT NOT NULL,
    wall REAL NOT NULL, workers INTEGER NOT NULL, chunks INTEGER NOT NULL);
"""


@dataclass(frozen=True)
class Run:
    started: str  # ISO date, UTC
    wall: float  # seconds
    workers: int
    chunks: int  # chunks computed by this run


class Store:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        # A busy timeout lets two commands on one machine share the file (shards, for example).
        self._db = sqlite3.connect(path, timeout=60)
        self._db.executescript(_SCHEMA)
        self.path = path

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._db.close()

    def save(self, result: ChunkResult, engine: str) -> None:
        """Keep one finished chunk (its own transaction: nothing half-written on a stop)."""
        with self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO chunks VALUES (?, ?, ?, ?, ?)",
                (result.space, result.count, result.index, engine, json.dumps(result.to_json())),
            )

    def done(self, space: str, count: int, engine: str) -> set[int]:
        rows = self._db.execute(
            "SELECT idx FROM chunks WHERE space = ? AND count = ? AND engine = ?",
            (space, count, engine),
        )
        return {int(i) for (i,) in rows}

    def results(
        self, space: str, count: int, engine: str, indices: Iterable[int] | None = None
    ) -> list[ChunkResult]:
        rows = self._db.execute(
            "SELECT idx, result FROM chunks WHERE space = ? AND count = ? AND engine = ? "
            "ORDER BY idx",
            (space, count, engine),
        )
        wanted = None if indices is None else set(indices)
        return [
            ChunkResult.from_json(json.loads(text))
            for idx, text in rows
            if wanted is None or idx in wanted
        ]

    def add_run(self, space: str, count: int, engine: str, run: Run) -> None:
        with self._db:
            self._db.execute(
                "INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?, ?)",
                (space, count, engine, run.started, run.wall, run.workers, run.chunks),
            )

    def runs(self, space: str, count: int, engine: str) -> list[Run]:
        rows = self._db.execute(
            "SELECT started, wall, workers, chunks FROM runs "
            "WHERE space = ? AND count = ? AND engine = ? ORDER BY started",
            (space, count, engine),
        )
        return [Run(str(s), float(w), int(n), int(c)) for s, w, n, c in rows]

    def merge(self, other: Path) -> int:
        """Copy in the chunks and runs of another store (a shard done elsewhere); the number of
        chunks that were new."""
        if not other.is_file():
            raise FileNotFoundError(f"no store {other}")
        before = self._db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]
        with self._db:
            self._db.execute("ATTACH DATABASE ? AS other", (str(other),))
            self._db.execute("INSERT OR IGNORE INTO chunks SELECT * FROM other.chunks")
            self._db.execute("INSERT INTO runs SELECT * FROM other.runs")
        self._db.execute("DETACH DATABASE other")
        after = self._db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]
        return int(after - before)
