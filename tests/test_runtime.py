"""The checker's runtime in the built site (schotten.site.runtime): what a reader downloads.

Whether the trimmed standard library really runs the engine is shown in a browser
(tests/browser/test_checker_browser.py); here, what is written and why.
"""

from __future__ import annotations

import fcntl
import gzip
import hashlib
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from schotten.site import SiteCheckError, import_closure, runtime


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    # The checker's own files, as MkDocs copies them before the runtime is installed.
    shutil.copytree(runtime.STATIC, out / runtime.CHECKER_DIR)
    runtime.install_runtime(out)
    return out


def test_install_runtime_copies_pyodide_and_the_engine(site: Path) -> None:
    checker = site / runtime.CHECKER_DIR
    for name in (*runtime.PYODIDE_FILES, runtime.STDLIB_ZIP, runtime.LOCK_FILE):
        assert (site / runtime.RUNTIME_DIR / name).stat().st_size > 0
    with zipfile.ZipFile(checker / runtime.ENGINE_ZIP) as archive:
        names = set(archive.namelist())
    assert {"schotten/__init__.pyc", "schotten/checker.pyc", "schotten/claims.pyc"} <= names
    assert "schotten/position.pyc" in names  # the one position validation
    # What the checker never imports stays out: the sub-packages, the command line, pictures,
    # the file system.
    assert not any(
        n.startswith(("schotten/site", "schotten/casebook", "schotten/cli/")) for n in names
    )
    pictures = {"schotten/svg.pyc", "schotten/svg_shapes.pyc", "schotten/svg_words.pyc"}
    assert not names & {*pictures, "schotten/_files.pyc"}
    assert not list(checker.rglob("*.part"))


def test_stdlib_zip_holds_what_the_engine_imports_and_little_else(site: Path) -> None:
    trimmed = site / runtime.RUNTIME_DIR / runtime.STDLIB_ZIP
    with zipfile.ZipFile(trimmed) as archive:
        names = set(archive.namelist())
    # The engine's imports (checker, claims, board...) and Pyodide's start-up, as bytecode.
    for needed in ("json/__init__.pyc", "dataclasses.pyc", "enum.pyc", "typing.pyc"):
        assert needed in names
    for needed in ("_pyodide/_base.pyc", "pyodide/ffi/__init__.pyc", "encodings/utf_8.pyc"):
        assert needed in names
    assert not any(name.endswith(".py") for name in names)
    # Nothing the checker cannot reach.
    for unused in ("unittest/case", "email/message", "sqlite3/__init__", "pdb"):
        assert f"{unused}.pyc" not in names
    with zipfile.ZipFile(runtime.PYODIDE / runtime.STDLIB_ZIP) as full:
        modules = [name for name in full.namelist() if name.endswith(".py")]
    assert len(names) < len(modules) / 3


def test_engine_imports_follow_the_checker_only() -> None:
    imports = import_closure.engine_imports()
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
    at_import = import_closure.imported_modules(source, "pkg.sub", lazy=False)
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
    anywhere = import_closure.imported_modules(source, "pkg.sub")
    assert {"pdb", "unittest", "typing"} <= anywhere


def test_lock_file_lists_no_package(site: Path) -> None:
    lock = json.loads((site / runtime.RUNTIME_DIR / runtime.LOCK_FILE).read_text())
    full = json.loads((runtime.PYODIDE / runtime.LOCK_FILE).read_text())
    assert lock == {"info": full["info"], "packages": {}}


def test_big_files_have_identical_gzip_copies(site: Path) -> None:
    folder = site / runtime.RUNTIME_DIR
    copies = sorted(p.name for p in folder.glob("*.gz"))
    assert copies == [
        "pyodide.asm.mjs.gz",
        "pyodide.asm.wasm.gz",
        "pyodide.mjs.gz",
        "python_stdlib.zip.gz",
    ]
    engine = site / runtime.CHECKER_DIR / runtime.ENGINE_ZIP
    for copy in [*folder.glob("*.gz"), engine.with_name(engine.name + ".gz")]:
        assert gzip.decompress(copy.read_bytes()) == copy.with_suffix("").read_bytes()


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


def test_windows_only_modules_stay_out() -> None:
    source = "import sys\nif sys.platform == 'win32':\n    import winreg\nelse:\n    import posix\n"
    assert import_closure.imported_modules(source, lazy=False) == {"sys", "posix"}


def test_the_service_worker_knows_every_file_it_keeps(site: Path) -> None:
    code = (site / runtime.SERVICE_WORKER).read_text(encoding="utf-8")
    head, _, rest = code.partition("\n")
    assert head.startswith("const CHECKER = ") and head.endswith(";")
    manifest = json.loads(head.removeprefix("const CHECKER = ").removesuffix(";"))
    assert manifest == runtime.service_worker_manifest(site)
    assert rest.strip() == runtime.SERVICE_WORKER_SOURCE.read_text(encoding="utf-8").strip()
    kept = {path.relative_to(site).as_posix(): path for path in runtime.kept_files(site)}
    assert set(manifest["files"]) == set(kept)
    assert "assets/checker/pyodide/pyodide.asm.wasm" in kept
    total = (site / runtime.SERVICE_WORKER).stat().st_size
    for name, entry in manifest["files"].items():
        data = kept[name].read_bytes()
        assert entry["sha256"] == hashlib.sha256(data).hexdigest()
        if "packed" in entry:
            packed = site / entry["packed"]
            assert gzip.decompress(packed.read_bytes()) == data
            total += packed.stat().st_size
        else:
            total += len(data)
    wasm = manifest["files"]["assets/checker/pyodide/pyodide.asm.wasm"]
    assert wasm["type"] == "application/wasm"
    assert runtime.first_open_bytes(site) == total
    assert total <= 4_500_000  # the first opening's budget, whatever the host's compression


def test_any_change_of_the_checker_gives_another_version(tmp_path: Path, site: Path) -> None:
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    before = runtime.service_worker_manifest(copy)["version"]
    assert runtime.service_worker_manifest(copy)["version"] == before  # the same files
    style = copy / runtime.CHECKER_DIR / "checker.css"  # not kept, yet part of the checker
    style.write_text(style.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert runtime.service_worker_manifest(copy)["version"] != before


def test_what_the_pages_say_is_the_runtime_installed(site: Path) -> None:
    shipped = runtime.shipped(runtime.STATIC)
    assert shipped.first_open_bytes == runtime.first_open_bytes(site)
    assert shipped.version == runtime.service_worker_manifest(site)["version"]
    assert not (site / runtime.RUNTIME_DIR / runtime.SNAPSHOT).exists()  # an address, no file


def test_a_site_without_the_checkers_scripts_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SiteCheckError, match=r"worker\.js: missing"):
        runtime.install_runtime(tmp_path)
    assert list(tmp_path.iterdir()) == []  # refused before anything is written


def test_a_gzip_copy_another_build_is_making_is_put_off_then_copied(tmp_path: Path) -> None:
    source = tmp_path / "big.js"
    source.write_text("const x = 1;\n" * 2000)
    cache = tmp_path / "cache"
    entry = runtime.gzip_entry(source, cache)
    cache.mkdir()
    # Another build holds the entry (its own open lock file: flock tells the two apart).
    with entry.with_name(entry.name + ".lock").open("w") as other:
        fcntl.flock(other, fcntl.LOCK_EX)
        assert runtime.write_gzip_copy(source, cache, wait=False) is False
        assert not source.with_name("big.js.gz").exists() and not entry.exists()
        entry.write_bytes(gzip.compress(source.read_bytes()))  # what it made
    assert runtime.write_gzip_copy(source, cache, wait=False) is True
    assert source.with_name("big.js.gz").read_bytes() == entry.read_bytes()


def test_side_by_side_steps_put_off_what_another_build_makes_and_keep_their_order() -> None:
    ran: list[str] = []
    busy = {"wasm"}  # made by another build until this one has nothing else to do

    def step(name: str) -> runtime.Step:
        def run(wait: bool) -> bool:
            if name in busy and not wait:
                ran.append(f"{name} put off")
                return False
            ran.append(name)
            return True

        return run

    runtime.run_side_by_side(
        step("compile"), [step("stdlib"), step("engine")], [step("wasm"), step("mjs")]
    )
    assert ran == ["compile", "wasm put off", "mjs", "stdlib", "engine", "wasm"]
    # What needs the first step never runs before it, even when the first is put off.
    ran.clear()
    busy = {"compile"}
    runtime.run_side_by_side(step("compile"), [step("stdlib")], [step("mjs")])
    assert ran == ["compile put off", "mjs", "compile", "stdlib"]
