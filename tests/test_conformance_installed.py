"""Where a run finds the suite when no ``--suite`` is given: the one installed with the package
(here, an editable install or the source tree: the repository's ``conformance/``), and a clean
error naming ``--suite`` when there is none."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from schotten.cli import main
from schotten.conformance import installed, suite
from schotten.conformance.installed import installed_suite
from schotten.conformance.suite import SuiteError

ROOT = Path(__file__).resolve().parents[1]


def test_the_suite_of_this_working_copy_is_the_installed_one() -> None:
    assert installed_suite() == ROOT / "conformance"


def test_where_prints_the_installed_suite(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "where"]) == 0
    assert capsys.readouterr().out == f"{ROOT / 'conformance'}\n"


def test_no_installed_suite_is_said_with_the_option_to_give(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(installed, "_candidates", lambda: [tmp_path])
    with pytest.raises(SuiteError, match="give a suite folder with --suite DIR"):
        installed_suite()
    assert main(["conformance", "run", "--engine", "true"]) == 2
    assert main(["conformance", "where"]) == 2
    err = capsys.readouterr().err
    assert err.count("no conformance suite is installed with this package") == 2
    assert "Traceback" not in err


def test_the_suite_names_its_version_and_the_rules_it_follows() -> None:
    manifest = suite.manifest(ROOT / "conformance")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    assert manifest["version"] == project["version"] == suite.suite_version()
    assert manifest["rules"] == suite.RULES_EDITION
