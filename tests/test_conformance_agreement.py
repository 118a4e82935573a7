"""Who agrees: a run's ``--json`` summary line says who was run, what it declares and each kind's
tally; ``schotten conformance agree`` turns such lines into rows of ``conformance/engines.json``
(one row an engine and version), refusing files that are not run summaries and runs that could
not be done; the committed table holds the reference engine's own run of this suite."""

from __future__ import annotations

import json
import shlex
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from schotten.cli import EXIT_FAILED, EXIT_OK, main
from schotten.conformance import suite
from schotten.conformance.agreement import (
    TABLE_FORMAT,
    Row,
    read_table,
    run_record,
)
from schotten.conformance.capabilities import Capabilities
from schotten.conformance.runner import KindTally, RunReport
from schotten.conformance.wire import KINDS

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "conformance"
SERVE = f"{shlex.quote(sys.executable)} -m schotten conformance serve"
WHEN = datetime(2026, 12, 5, 10, 30, tzinfo=UTC)


def summary_line(report: RunReport) -> str:
    record = run_record(report, suite.manifest(SUITE), WHEN)
    return json.dumps({"summary": {}, "verdict": "", **record}) + "\n"


def base_engine_report() -> RunReport:
    declared = Capabilities.from_hello(
        {"supports": {"variants": ["base"], "kinds": ["claims", "formations"], "claims": "reason"}}
    )
    tallies = [
        KindTally("claims", 100, agreed=60, disagreed=5, failed=1, not_claimed=34),
        KindTally("formations", 20, agreed=12, not_claimed=8),
        *(KindTally(kind, 3, not_claimed=3) for kind in KINDS[2:]),
    ]
    return RunReport("other engine", tallies, capabilities=declared)


def agree(tmp_path: Path, *argv: str) -> int:
    return main(["conformance", "agree", "--table", str(tmp_path / "engines.json"), *argv])


def test_a_run_summary_becomes_a_row_with_its_declarations_and_tallies(tmp_path: Path) -> None:
    run_file = tmp_path / "run.jsonl"
    run_file.write_text('{"kind":"claims","vector":"c1"}\n' + summary_line(base_engine_report()))
    assert agree(tmp_path, str(run_file), "--version", "2.1") == EXIT_OK
    [row] = read_table(tmp_path / "engines.json")
    assert (row.engine, row.version, row.date) == ("other engine", "2.1", "2026-12-05T10:30:00Z")
    assert row.variants == ("base",)
    assert row.kinds_declared == ("claims", "formations")
    assert row.claims == "reason"
    by_kind = {k.kind: (k.vectors, k.asked, k.agreed) for k in row.kinds}
    # asked: agreed, disagreed or failed; the vectors not claimed are not asked
    assert by_kind["claims"] == (100, 66, 60)
    assert by_kind["formations"] == (20, 12, 12)
    assert by_kind["games"] == (3, 0, 0)
    assert row.suite == suite.manifest(SUITE)["version"]


def test_a_row_replaces_the_one_of_the_same_engine_and_version(tmp_path: Path) -> None:
    run_file = tmp_path / "run.jsonl"
    run_file.write_text(summary_line(base_engine_report()))
    assert agree(tmp_path, str(run_file), "--version", "1") == EXIT_OK
    assert agree(tmp_path, str(run_file), "--version", "2") == EXIT_OK
    assert agree(tmp_path, str(run_file), "--version", "2", "--name", "renamed") == EXIT_OK
    assert agree(tmp_path, str(run_file), "--version", "2") == EXIT_OK
    rows = read_table(tmp_path / "engines.json")
    assert [(r.engine, r.version) for r in rows] == [
        ("other engine", "1"),
        ("other engine", "2"),
        ("renamed", "2"),
    ]
    data = json.loads((tmp_path / "engines.json").read_text("utf-8"))
    assert data["format"] == TABLE_FORMAT


def test_a_run_that_could_not_be_done_gives_no_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = base_engine_report()
    report.stopped = "interrupted"
    run_file = tmp_path / "run.jsonl"
    run_file.write_text(summary_line(report))
    assert agree(tmp_path, str(run_file), "--version", "1") == EXIT_FAILED
    err = capsys.readouterr().err
    assert f"{run_file}: the run could not be done" in err
    assert not (tmp_path / "engines.json").exists()


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("", "no summary line of a run"),
        ('{"kind":"claims"}\n', "no summary line of a run"),
        ("not json\n", ":1: not JSON"),
        ('{"summary":{},"engine":"e","complete":true}\n', "'declares' is an object"),
    ],
)
def test_a_file_that_is_not_a_run_summary_is_refused_with_its_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, said: str
) -> None:
    run_file = tmp_path / "run.jsonl"
    run_file.write_text(text)
    assert agree(tmp_path, str(run_file), "--version", "1") == EXIT_FAILED
    err = capsys.readouterr().err
    assert str(run_file) in err and said in err
    assert "Traceback" not in err


def test_a_damaged_table_is_refused_with_its_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "engines.json").write_text('{"format": "other", "engines": []}')
    run_file = tmp_path / "run.jsonl"
    run_file.write_text(summary_line(base_engine_report()))
    assert agree(tmp_path, str(run_file), "--version", "1") == EXIT_FAILED
    assert f"{tmp_path / 'engines.json'}: not a {TABLE_FORMAT} table" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [("--version", " "), ("--version", "1", "--name", "")])
def test_an_empty_version_or_name_gives_no_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    run_file = tmp_path / "run.jsonl"
    run_file.write_text(summary_line(base_engine_report()))
    assert agree(tmp_path, str(run_file), *argv) == EXIT_FAILED
    assert "version and name are not empty" in capsys.readouterr().err
    assert not (tmp_path / "engines.json").exists()


def test_a_table_whose_folder_is_missing_is_said_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_file = tmp_path / "run.jsonl"
    run_file.write_text(summary_line(base_engine_report()))
    table = tmp_path / "missing" / "engines.json"
    argv = ["conformance", "agree", str(run_file), "--version", "1", "--table", str(table)]
    assert main(argv) == EXIT_FAILED
    err = capsys.readouterr().err
    assert f"{table}: the folder {table.parent} does not exist" in err
    assert ".tmp" not in err


def test_a_real_run_writes_the_summary_line_agree_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["conformance", "run", "--suite", str(SUITE), "--engine", SERVE, "--limit", "2"]
    assert main([*argv, "--kind", "claims", "--json"]) == EXIT_OK
    last = capsys.readouterr().out.splitlines()[-1]
    record = json.loads(last)
    assert record["engine"] == "schotten (reference)"
    assert record["complete"] is True
    # what it declares, within what the run asked (--kind)
    assert record["declares"]["kinds"] == ["claims"]
    assert record["kinds"]["claims"]["agreed"] == 2
    assert record["kinds"]["formations"]["not_claimed"] == 2  # left out by --kind
    run_file = tmp_path / "run.jsonl"
    run_file.write_text(last + "\n")
    assert agree(tmp_path, str(run_file), "--version", "0") == EXIT_OK
    [row] = read_table(tmp_path / "engines.json")
    assert {k.kind: k.asked for k in row.kinds}["claims"] == 2


def test_the_committed_table_holds_the_reference_engines_whole_run() -> None:
    # A row is what a run of one version of the suite found: it stays true of that suite.
    rows = {row.engine: row for row in read_table(SUITE / "engines.json")}
    reference = rows["schotten"]
    assert [k.kind for k in reference.kinds] == list(KINDS)
    assert all(k.vectors == k.asked == k.agreed > 0 for k in reference.kinds)


def test_rows_are_read_back_as_written() -> None:
    report = base_engine_report()
    row = Row.from_run(run_record(report, {"version": "9"}, WHEN), "1.0")
    assert Row.from_data(row.data()) == row
