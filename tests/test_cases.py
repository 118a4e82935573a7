"""The casebook: every case in ``cases/`` replayed by the engine, one test per file.

A failure prints what the file recorded against what the engine computes, with the file and line
of the expectation, the engine's reason and its witness. Re-record on purpose with
``schotten approve <case>`` and review the diff.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema  # type: ignore[import-untyped]
import pytest

from schotten.casebook.build import load_case
from schotten.casebook.files import case_paths
from schotten.casebook.folder import load_cases
from schotten.casebook.loader import parse_yaml
from schotten.casebook.run import run_case
from schotten.casebook.schema import json_keys
from schotten.rules import Rule

CASES = Path(__file__).resolve().parents[1] / "cases"
FILES = case_paths(CASES)[0]  # the gate's own rule for what is a case


def test_the_casebook_has_cases() -> None:
    assert FILES, f"no case files in {CASES}"


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_case(path: Path) -> None:
    result = run_case(load_case(path))
    assert result.ok, "the engine disagrees with the recorded case:\n" + result.report()


def test_cases_folder_is_valid_as_a_whole() -> None:
    """Every file a valid case (or README, schema, lock), each row used once, rows without gaps,
    and the lock agrees (``schotten approve``/``retire`` keep it so)."""
    assert len(load_cases(CASES)) == len(FILES)


def test_schema_validates_every_case_file() -> None:
    schema = json.loads((CASES / "case.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    for path in FILES:
        doc = parse_yaml(path.read_text(encoding="utf-8"), path)
        assert not doc.errors, [str(e) for e in doc.errors]
        problems = [
            f"{path.name}: {'.'.join(map(str, e.absolute_path))}: {e.message}"
            for e in validator.iter_errors(json_keys(doc.data))
        ]
        assert not problems, problems


def test_every_rule_is_pinned_by_a_case() -> None:
    pinned = {rule for case in load_cases(CASES) for rule in case.rules}
    missing = sorted(str(rule) for rule in Rule if rule not in pinned)
    assert not missing, f"rules without a case (add one with `rule: [...]`): {missing}"


def test_each_tables_rows_are_numbered_from_one_without_gaps() -> None:
    tables: dict[str, list[int]] = {}
    for case in load_cases(CASES):
        if case.published is not None:
            tables.setdefault(case.published.table, []).append(case.published.row)
    assert len(tables.get("faq", [])) == 11
    for table, rows in tables.items():
        assert sorted(rows) == list(range(1, len(rows) + 1)), table
