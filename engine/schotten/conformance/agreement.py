"""Who agrees: the engines run through the suite, one row a run, kept in a data file of the
suite (``conformance/engines.json``) that the proofs page shows.

A run with ``--json`` ends its standard output with a summary line (:func:`run_record`): the
engine's name, what it declares, each kind's tally, the suite's version and the date.
``schotten conformance agree RUN ... --version V`` reads that line from each file and adds its
row to the table (replacing the row of the same engine and version), so anyone can add an engine
by running it through the suite.

>>> row = Row.from_run({"engine": "e", "complete": True, "date": "2026-12-05T10:00:00Z",
...     "suite": {"format": "schotten-conformance-suite/1", "version": "0.1.0"},
...     "declares": {"variants": ["base"], "kinds": ["claims"], "claim_step": False,
...                  "incremental": False, "claims": "verdict", "complete_sides_only": False},
...     "kinds": {"claims": {"vectors": 9, "agreed": 4, "disagreed": 1, "failed": 0,
...                          "not_claimed": 4, "skipped": 0}}}, "1.2")
>>> row.kinds[0].asked, row.kinds[0].agreed, row.day
(5, 4, '2026-12-05')
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from schotten import json_input
from schotten._files import InputFileError, read_regular_file, write_atomically
from schotten.conformance.capabilities import VARIANTS
from schotten.conformance.runner import RunReport
from schotten.conformance.wire import KINDS
from schotten.errors import SchottenError

TABLE_FORMAT = "schotten-conformance-engines/1"
"""The version of the table's file."""

TABLE_FILE = "engines.json"
"""The table's file, in the suite's folder."""

MAX_RUN_BYTES = 64 * 1024 * 1024  # a run's --json output: a line a vector not agreeing
TALLY_KEYS = ("vectors", "agreed", "disagreed", "failed", "not_claimed", "skipped")


class AgreementError(SchottenError):
    """A run file or a table that cannot be read, said with its file (and line)."""


def run_record(report: RunReport, suite: Mapping[str, Any], now: datetime) -> dict[str, Any]:
    """What a row of the table needs from a run: the summary line's keys beside its counts."""
    declared = report.capabilities
    return {
        "engine": report.engine,
        "complete": report.complete,
        "fail_on": report.fail_on,
        "date": now.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "suite": {"format": suite.get("format"), "version": suite.get("version")},
        "declares": {
            "variants": [v for v in VARIANTS if v in declared.variants],
            "kinds": [k for k in KINDS if declared.runs(k)],
            "claim_step": declared.claim_step,
            "incremental": declared.incremental,
            "claims": declared.claim_level,
            "complete_sides_only": declared.complete_sides_only,
        },
        "kinds": {t.kind: {key: getattr(t, key) for key in TALLY_KEYS} for t in report.tallies},
    }


@dataclass(frozen=True)
class KindAgreement:
    """One kind of one run: the vectors the engine was asked and those it agreed on."""

    kind: str
    vectors: int
    asked: int  # agreed, disagreed or failed
    agreed: int


@dataclass(frozen=True)
class Row:
    engine: str
    version: str
    date: str  # when the run ended, UTC, ISO 8601
    suite: str  # the suite's version (the package's that exported it)
    variants: tuple[str, ...]
    kinds_declared: tuple[str, ...]
    claims: str  # what its claim answers carry: verdict, reason or all
    kinds: tuple[KindAgreement, ...]

    @property
    def day(self) -> str:
        return self.date[:10]

    @classmethod
    def from_run(cls, record: Mapping[str, Any], version: str, name: str | None = None) -> Row:
        """The row of a run's summary line (``name``: the engine's name in the table, instead of
        the one it gives in its hello); ``ValueError`` saying what is wrong."""
        if not version.strip() or (name is not None and not name.strip()):
            raise ValueError("an engine's version and name are not empty")
        if record.get("complete") is not True:
            raise ValueError("the run could not be done: it gives no row (run it again)")
        declares = _mapping(record, "declares")
        tallies = _mapping(record, "kinds")
        kinds = []
        for kind in KINDS:
            if kind not in tallies:
                continue
            tally = _mapping(tallies, kind)
            counts = {key: _count(tally, key) for key in TALLY_KEYS}
            asked = counts["agreed"] + counts["disagreed"] + counts["failed"]
            kinds.append(KindAgreement(kind, counts["vectors"], asked, counts["agreed"]))
        return cls(
            engine=name or _text(record, "engine"),
            version=version,
            date=_text(record, "date"),
            suite=str(_mapping(record, "suite").get("version") or ""),
            variants=_names(declares, "variants", VARIANTS),
            kinds_declared=_names(declares, "kinds", KINDS),
            claims=_text(declares, "claims"),
            kinds=tuple(kinds),
        )

    def data(self) -> dict[str, Any]:
        return {
            "engine": self.engine,
            "version": self.version,
            "date": self.date,
            "suite": self.suite,
            "declares": {
                "variants": list(self.variants),
                "kinds": list(self.kinds_declared),
                "claims": self.claims,
            },
            "kinds": {
                k.kind: {"vectors": k.vectors, "asked": k.asked, "agreed": k.agreed}
                for k in self.kinds
            },
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Row:
        declares = _mapping(data, "declares")
        kinds = _mapping(data, "kinds")
        return cls(
            engine=_text(data, "engine"),
            version=_text(data, "version"),
            date=_text(data, "date"),
            suite=_text(data, "suite"),
            variants=_names(declares, "variants", VARIANTS),
            kinds_declared=_names(declares, "kinds", KINDS),
            claims=_text(declares, "claims"),
            kinds=tuple(
                KindAgreement(
                    kind,
                    _count(_mapping(kinds, kind), "vectors"),
                    _count(_mapping(kinds, kind), "asked"),
                    _count(_mapping(kinds, kind), "agreed"),
                )
                for kind in KINDS
                if kind in kinds
            ),
        )


def read_run(path: Path) -> dict[str, Any]:
    """The summary line of a run's ``--json`` output (its last line with ``summary``)."""
    try:
        data = read_regular_file(path, MAX_RUN_BYTES)
    except InputFileError as error:
        raise AgreementError(str(error)) from None
    found: dict[str, Any] | None = None
    for number, line in enumerate(data.split(b"\n"), 1):
        if not line.strip():
            continue
        try:
            value = json_input.loads(line)
        except json_input.JsonInputError as error:
            raise AgreementError(f"{path}:{number}: not JSON ({error})") from None
        if isinstance(value, dict) and "summary" in value:
            found = value
    if found is None or "engine" not in found:
        raise AgreementError(
            f"{path}: no summary line of a run (write it with: schotten conformance run "
            "--engine CMD --json > FILE)"
        )
    return found


def read_table(path: Path) -> list[Row]:
    """The rows of a table file; none when the file does not exist yet."""
    if not path.exists():
        return []
    try:
        data = json_input.loads(read_regular_file(path, MAX_RUN_BYTES))
    except InputFileError as error:
        raise AgreementError(str(error)) from None
    except json_input.JsonInputError as error:
        raise AgreementError(f"{path}: not JSON ({error})") from None
    if not isinstance(data, dict) or data.get("format") != TABLE_FORMAT:
        raise AgreementError(f"{path}: not a {TABLE_FORMAT} table")
    rows = data.get("engines")
    if not isinstance(rows, list):
        raise AgreementError(f"{path}: 'engines' is a list of rows")
    try:
        return [Row.from_data(row if isinstance(row, dict) else {}) for row in rows]
    except ValueError as error:
        raise AgreementError(f"{path}: {error}") from None


def added(rows: Sequence[Row], new: Iterable[Row]) -> list[Row]:
    """The table with the new rows: a row replaces the one of the same engine and version;
    ordered by engine, then version."""
    kept = {(r.engine, r.version): r for r in rows}
    kept.update({(r.engine, r.version): r for r in new})
    return [kept[key] for key in sorted(kept)]


def table_text(rows: Sequence[Row]) -> str:
    data = {"format": TABLE_FORMAT, "engines": [row.data() for row in rows]}
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def write_table(path: Path, rows: Sequence[Row]) -> None:
    write_atomically(path, table_text(rows))


def _mapping(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data.get(key)
    if not isinstance(value, Mapping):
        raise ValueError(f"'{key}' is an object")
    return value


def _text(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value:
        raise ValueError(f"'{key}' is a text")
    return value


def _count(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if type(value) is not int or value < 0:
        raise ValueError(f"'{key}' is a whole number")
    return value


def _names(data: Mapping[str, Any], key: str, known: tuple[str, ...]) -> tuple[str, ...]:
    value = data.get(key)
    if not isinstance(value, list) or any(v not in known for v in value):
        raise ValueError(f"'{key}' is a list among {', '.join(known)}")
    return tuple(v for v in known if v in value)
