"""The package as ``pip install`` gives it: a wheel that holds the conformance suite, and a bare
virtual environment (no extra) where ``schotten`` answers ``--help`` and ``--version``, finds the
suite without the repository, runs an engine through it, installs none of MkDocs, NumPy, Dask
or PyYAML, and names the extra a command needs instead of failing.

The wheel is built from a copy of the files the build reads (the repository stays as it is).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from schotten.conformance.wire import KINDS

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "conformance"
# What the build reads (pyproject.toml, setup.py and what they name).
SOURCES = ("pyproject.toml", "setup.py", "PACKAGE.md", "LICENSE", "engine", "conformance")
BUILD_TIMEOUT = 300
# One worker runs the module: the wheel and the bare environment are made once (about 7 s), where
# two workers sharing its tests made both twice.
pytestmark = pytest.mark.xdist_group("package")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = tmp_path_factory.mktemp("source")
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
            shutil.copytree(path, source / name, ignore=ignore)
        else:
            shutil.copy2(path, source / name)
    out = tmp_path_factory.mktemp("wheel")
    pip = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out)]
    subprocess.run([*pip, str(source)], check=True, timeout=BUILD_TIMEOUT, capture_output=True)
    [built] = out.glob("schotten-*.whl")
    return built


@pytest.fixture(scope="module")
def bare(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A virtual environment with the wheel alone (nothing from an index): its bin folder."""
    venv = tmp_path_factory.mktemp("bare") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    install = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--no-index"]
    subprocess.run([*install, str(wheel)], check=True, timeout=BUILD_TIMEOUT, capture_output=True)
    return venv / "bin"


def schotten(
    bare: Path, *argv: str, cwd: Path, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(bare / "schotten"), *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={"PATH": f"{bare}:/usr/bin:/bin", "LANG": "C.UTF-8"},
    )


def test_the_wheel_holds_the_whole_suite(wheel: Path) -> None:
    manifest = json.loads((SUITE / "manifest.json").read_text("utf-8"))
    expected = {"manifest.json", "README.md", "protocol.schema.json", "engines.json"}
    for entry in manifest["kinds"].values():
        expected |= {entry["file"], entry["schema"]}
    expected |= {f"adapters/{p.name}" for p in (SUITE / "adapters").iterdir() if p.is_file()}
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        data = "schotten/conformance/data/"
        shipped = {name.removeprefix(data) for name in names if name.startswith(data)}
        assert expected <= shipped
        # the files themselves, byte for byte
        for name in ("manifest.json", manifest["kinds"]["claims"]["file"]):
            assert archive.read(data + name) == (SUITE / name).read_bytes()


def test_the_bare_command_answers_help_and_version(bare: Path, tmp_path: Path) -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    version = schotten(bare, "--version", cwd=tmp_path)
    assert (version.returncode, version.stdout.strip()) == (0, f"schotten {project['version']}")
    helped = schotten(bare, "--help", cwd=tmp_path)
    assert helped.returncode == 0
    assert "conformance" in helped.stdout and "Traceback" not in helped.stderr


def test_no_extra_is_installed(bare: Path, tmp_path: Path) -> None:
    modules = ("mkdocs", "numpy", "dask", "yaml", "jsonschema", "jinja2")
    code = f"import importlib.util as u; print([m for m in {modules!r} if u.find_spec(m)])"
    found = subprocess.run(
        [str(bare / "python"), "-c", code], capture_output=True, text=True, timeout=60
    )
    assert found.stdout.strip() == "[]"


def test_the_installed_suite_is_found_and_passed_without_the_repository(
    bare: Path, tmp_path: Path
) -> None:
    where = schotten(bare, "conformance", "where", cwd=tmp_path)
    assert where.returncode == 0
    folder = Path(where.stdout.strip())
    assert folder.is_relative_to(bare.parent) and (folder / "manifest.json").is_file()
    serve = f"{bare / 'schotten'} conformance serve"
    run = schotten(bare, "conformance", "run", "--engine", serve, "--limit", "2", cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    asked = 2 * len(KINDS)  # --limit 2 of each kind
    assert run.stdout.splitlines()[-1] == f"{asked} passed, 0 failed, 0 errored, 0 skipped"


@pytest.mark.parametrize(
    ("argv", "extra"),
    [
        (("check", "cases"), "cases"),
        (("explain", "hand-is-not-proof"), "cases"),
        (("explain", "hand-is-not-proof", "--svg", "out.svg"), "cases"),
        (("approve", "hand-is-not-proof"), "cases"),
        (("retire", "hand-is-not-proof"), "cases"),
        (("schema",), "cases"),
        (("conformance", "export", "out", "--kind", "claims"), "cases"),
        (("verify", "base-one-stone"), "verify"),
    ],
)
def test_a_command_without_its_extra_names_it(
    bare: Path, tmp_path: Path, argv: tuple[str, ...], extra: str
) -> None:
    shutil.copytree(ROOT / "cases", tmp_path / "cases")
    done = schotten(bare, *argv, cwd=tmp_path)
    assert done.returncode == 1
    assert f"pip install 'schotten[{extra}]'" in done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
