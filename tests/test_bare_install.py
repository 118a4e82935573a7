"""The package without its extras: ``schotten`` answers every command, or names the extra to
install, never with a traceback; the casebook's values, writer and runner need neither PyYAML nor
jsonschema.

Each test runs a fresh interpreter in which the extras' modules cannot be imported (as after
``pip install schotten`` with no extra).
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
CASES = ("yaml", "jsonschema")
SITE = ("jinja2", "markupsafe", "markdown", "mkdocs", "material", "zopfli", "resvg_py")
VERIFY = ("dask", "distributed", "numpy")
EVERY_EXTRA = (*CASES, *SITE, *VERIFY)

_ABSENT = """\
import sys


class Absent:
    def find_spec(self, name, path=None, target=None):
        if any(name == b or name.startswith(b + ".") for b in {blocked!r}):
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None


sys.meta_path.insert(0, Absent())
"""


def _python(
    code: str, blocked: tuple[str, ...], cwd: Path = ROOT
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _ABSENT.format(blocked=blocked) + code],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )


def _schotten(
    args: list[str], blocked: tuple[str, ...], cwd: Path = ROOT
) -> subprocess.CompletedProcess[str]:
    code = (
        f"from schotten.cli import entrypoint\nsys.argv = ['schotten', *{args!r}]\nentrypoint()\n"
    )
    return _python(code, blocked, cwd)


def test_the_blocker_does_block() -> None:
    run = _python("import yaml\n", CASES)
    assert run.returncode == 1
    assert "No module named 'yaml'" in run.stderr


def test_the_casebook_values_writer_and_runner_need_no_yaml() -> None:
    code = """\
from schotten.board import Board, Player, Variant
from schotten.cards import parse_card
from schotten.casebook import Case, claim_case, run_case, start_game
import schotten.conformance.cases

board = Board.empty(Variant.BASE)
for step, text in enumerate(["red 1", "green 1", "blue 1"]):
    board = board.place(Player.SECOND, 4, parse_card(text), at=step)
text = claim_case("c00001", board, Player.SECOND, [4], (), "a claim")
assert "claim: [4]" in text, text
assert "yaml" not in sys.modules and "jsonschema" not in sys.modules
print("ok")
"""
    run = _python(code, CASES)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "ok\n"


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["--version"],
        *([name, "--help"] for name in ("check", "explain", "approve", "retire", "schema")),
        ["replay", "--help"],
        ["conformance", "--help"],
        ["verify", "--help"],
    ],
    ids=" ".join,
)
def test_help_and_version_answer_without_any_extra(args: list[str]) -> None:
    run = _schotten(args, EVERY_EXTRA)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    assert run.stdout.startswith("usage: schotten") or run.stdout.startswith("schotten ")


def test_version_is_the_installed_one() -> None:
    from importlib.metadata import version

    run = _schotten(["--version"], EVERY_EXTRA)
    assert run.stdout == f"schotten {version('schotten')}\n"


@pytest.mark.parametrize(
    "args",
    [
        ["check", "cases"],
        ["explain", "hand-is-not-proof"],
        ["approve", "hand-is-not-proof"],
        ["retire", "hand-is-not-proof"],
        ["schema"],
    ],
    ids=" ".join,
)
def test_a_case_command_without_the_cases_extra_names_it(
    args: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CI", raising=False)  # approve and retire refuse to run on CI first
    run = _python(
        "import os\nos.environ.pop('CI', None)\n"
        f"from schotten.cli import entrypoint\nsys.argv = ['schotten', *{args!r}]\nentrypoint()\n",
        CASES,
    )
    assert run.returncode == 1
    assert "Traceback" not in run.stderr and "internal error" not in run.stderr
    needs = f"error: schotten {args[0]} needs (yaml|jsonschema), from the cases extra: "
    assert re.fullmatch(needs + re.escape("pip install 'schotten[cases]'\n"), run.stderr)


def test_explain_svg_without_the_site_extra_names_it(tmp_path: Path) -> None:
    picture = tmp_path / "case.svg"
    run = _schotten(["explain", "hand-is-not-proof", "--svg", str(picture)], SITE)
    assert run.returncode == 1
    assert "internal error" not in run.stderr and "Traceback" not in run.stderr
    assert "from the site extra: pip install 'schotten[site]'" in run.stderr
    assert not picture.exists()


def test_verify_without_its_extra_names_it() -> None:
    run = _schotten(["verify", "base-one-stone"], VERIFY)
    assert run.returncode == 1
    assert "Traceback" not in run.stderr
    assert "pip install 'schotten[verify]'" in run.stderr


def test_a_missing_module_of_the_package_itself_is_still_an_internal_error() -> None:
    # Only the extras' modules are named as extras: anything else missing is a bug.
    run = _schotten(["schema"], ("schotten.casebook.schema",))
    assert run.returncode == 1
    assert "internal error: ModuleNotFoundError" in run.stderr
    assert "pip install" not in run.stderr


def _project() -> dict[str, Any]:
    with open(ROOT / "pyproject.toml", "rb") as handle:
        project: dict[str, Any] = tomllib.load(handle)["project"]
    return project


def test_the_version_is_written_once_and_installed() -> None:
    from importlib.metadata import version

    assert _project()["version"] == version("schotten")  # else: pip install -e . again
    sources = [p for p in (ROOT / "engine").rglob("*.py") if "__version__" in p.read_text("utf-8")]
    assert sources == []


def test_the_package_description_has_only_links_that_work_on_an_index() -> None:
    project = _project()
    assert project["readme"] == "PACKAGE.md"
    text = (ROOT / project["readme"]).read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)]*)\)", text) + re.findall(r'(?:href|src)="([^"]*)"', text)
    assert all(t.startswith("https://") for t in targets), targets


def test_the_license_is_mit_and_shipped() -> None:
    project = _project()
    assert project["license"] == "MIT"
    assert "LICENSE" in project["license-files"]
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License\n")
    assert project["authors"] and project["classifiers"]
