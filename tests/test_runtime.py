"""The checker's runtime in the built site (schotten.site.runtime): what a reader downloads.

Whether the trimmed standard library really runs the engine is shown in a browser
(tests/browser/test_checker_browser.py); here, what is written and why.
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from schotten.site import SiteCheckError, runtime


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    runtime.install_runtime(out)
    return out


def test_install_runtime_copies_pyodide_and_the_engine(site: Path) -> None:
    checker = site / runtime.CHECKER_DIR
    for name in (*runtime.PYODIDE_FILES, runtime.STDLIB_ZIP, runtime.LOCK_FILE):
        assert (site / runtime.RUNTIME_DIR / name).stat().st_size > 0
    with zipfile.ZipFile(checker / runtime.ENGINE_ZIP) as archive:
        names = set(archive.namelist())
    assert {"schotten/__init__.py", "schotten/checker.py", "schotten/claims.py"} <= names
    assert not any(
        n.startswith("schotten/site") or n.startswith("schotten/casebook") for n in names
    )
    assert not list(checker.rglob("*.part"))


def test_stdlib_zip_holds_what_the_engine_imports_and_little_else(site: Path) -> None:
    trimmed = site / runtime.RUNTIME_DIR / runtime.STDLIB_ZIP
    with zipfile.ZipFile(trimmed) as archive:
        names = set(archive.namelist())
    # The engine's imports (checker, claims, board...) and Pyodide's start-up.
    for needed in ("json/__init__.py", "dataclasses.py", "enum.py", "typing.py"):
        assert needed in names
    for needed in ("_pyodide/_base.py", "pyodide/ffi/__init__.py", "encodings/utf_8.py"):
        assert needed in names
    # Nothing the checker cannot reach.
    for unused in ("unittest/case.py", "email/message.py", "sqlite3/__init__.py", "pdb.py"):
        assert unused not in names
    full = (runtime.PYODIDE / runtime.STDLIB_ZIP).stat().st_size
    assert trimmed.stat().st_size < full / 3


def test_engine_imports_follow_the_checker_only() -> None:
    imports = runtime.engine_imports()
    assert {"json", "dataclasses", "enum", "itertools"} <= imports
    # The command line and the pictures are engine modules the checker never imports.
    assert "argparse" not in imports and "xml.etree.ElementTree" not in imports
    assert not any(name.startswith("schotten") for name in imports)


def test_imports_read_without_running_the_module() -> None:
    source = "\n".join(
        [
            "import os, sys as system",
            "from . import sibling",
            "from .. import up",
            "from collections import (",
            "    Counter,  # counts",
            "    OrderedDict,",
            ")",
            "def later():",
            "    import pdb",
            "if __name__ == '__main__':",
            "    import unittest",
            "if TYPE_CHECKING:",
            "    import typing",
            "try:",
            "    import zlib",
            "except ImportError:",
            "    pass",
        ]
    )
    at_import = runtime.imported_modules(source, "pkg.sub", lazy=False)
    assert at_import == {
        "os",
        "sys",
        "pkg.sub",
        "pkg.sub.sibling",
        "pkg",
        "pkg.up",
        "collections",
        "collections.Counter",
        "collections.OrderedDict",
        "zlib",
    }
    anywhere = runtime.imported_modules(source, "pkg.sub")
    assert {"pdb", "unittest", "typing"} <= anywhere


def test_stripped_source_keeps_the_code_and_drops_comments_and_docstrings() -> None:
    source = b'"""Module doc."""\n\ndef f(x):\n    """Doc."""\n    return x + 1  # plus one\n'
    stripped = runtime.stripped_source(source)
    assert b"Doc." not in stripped and b"plus one" not in stripped
    namespace: dict[str, object] = {}
    exec(compile(stripped, "<stripped>", "exec"), namespace)
    assert namespace["f"](2) == 3  # type: ignore[operator]


def test_stripped_source_leaves_syntax_it_cannot_read_as_it_is() -> None:
    newer = b"# comment\nclass Box[T: (int, str)] = 1 +\n"
    assert runtime.stripped_source(newer) == newer


def test_stdlib_zip_is_made_once_then_taken_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    full = runtime.PYODIDE / runtime.STDLIB_ZIP
    runtime.write_stdlib_zip(full, tmp_path / "first.zip", tmp_path / "cache")
    assert len(list((tmp_path / "cache").glob("python_stdlib-*.zip"))) == 1

    def not_again(source: bytes) -> bytes:
        raise AssertionError("stripped again")

    monkeypatch.setattr(runtime, "stripped_source", not_again)
    runtime.write_stdlib_zip(full, tmp_path / "second.zip", tmp_path / "cache")
    assert (tmp_path / "second.zip").read_bytes() == (tmp_path / "first.zip").read_bytes()
    with pytest.raises(AssertionError, match="stripped again"):
        runtime.write_stdlib_zip(full, tmp_path / "third.zip")  # no cache: made again


def test_lock_file_lists_no_package(site: Path) -> None:
    lock = json.loads((site / runtime.RUNTIME_DIR / runtime.LOCK_FILE).read_text())
    full = json.loads((runtime.PYODIDE / runtime.LOCK_FILE).read_text())
    assert lock == {"info": full["info"], "packages": {}}


def test_big_files_have_identical_gzip_copies(site: Path) -> None:
    folder = site / runtime.RUNTIME_DIR
    copies = sorted(p.name for p in folder.glob("*.gz"))
    assert copies == ["pyodide.asm.mjs.gz", "pyodide.asm.wasm.gz", "pyodide.mjs.gz"]
    for copy in folder.glob("*.gz"):
        assert gzip.decompress(copy.read_bytes()) == (folder / copy.stem).read_bytes()


def test_install_runtime_without_pyodide_says_to_run_npm_ci(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runtime, "PYODIDE", tmp_path / "node_modules" / "pyodide")
    with pytest.raises(SiteCheckError, match="run `npm ci`"):
        runtime.install_runtime(tmp_path / "site")
    assert not (tmp_path / "site").exists()


def test_engine_shipped_to_the_browser_needs_the_standard_library_only(tmp_path: Path) -> None:
    archive = tmp_path / "engine.zip"
    runtime.write_engine_zip(archive)
    # -I -S: no site-packages (no PyYAML, no Jinja2), no user paths; the engine from the zip only.
    code = (
        "import sys, json; sys.path.insert(0, sys.argv[1]); import schotten.checker as c;"
        "assert c.__file__.startswith(sys.argv[1]), c.__file__;"
        "print(c.check(json.dumps({'mine': ['red 1', 'green 1', 'blue 1'], 'theirs': []})))"
    )
    run = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code, str(archive)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["reason"] == "opponent-can-beat"
