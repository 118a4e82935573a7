"""The checker's archives as bytecode (schotten.site.bytecode, runtime.write_bytecode).

The site's archives are compiled by Pyodide's Python; here the same code runs under this
Python, whose ``zipimport`` loads the result the same way. That the site's own archives start
the checker in a browser is shown by tests/browser/test_checker_browser.py.
"""

from __future__ import annotations

import importlib.util
import io
import json
import marshal
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from schotten.site import SiteCheckError, bytecode, runtime


@pytest.fixture(scope="module")
def engine_archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("engine")
    runtime.write_engine_zip(folder / "sources.zip")
    compiled = bytecode.compiled_archive(
        (folder / "sources.zip").read_bytes(), prefix=str(folder / "engine.zip")
    )
    (folder / "engine.zip").write_bytes(compiled)
    return folder / "engine.zip"


def run_from(archive: Path, code: str) -> subprocess.CompletedProcess[str]:
    # -I -S: nothing but the standard library and the archive on the path.
    prelude = f"import sys; sys.path.insert(0, {str(archive)!r}); "
    return subprocess.run(
        [sys.executable, "-I", "-S", "-c", prelude + code],
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_engine_runs_from_its_bytecode_alone(engine_archive: Path) -> None:
    with zipfile.ZipFile(engine_archive) as archive:
        names = archive.namelist()
    assert names and all(name.endswith(".pyc") for name in names)
    run = run_from(
        engine_archive,
        "import json, schotten.checker as c; assert c.__file__.endswith('checker.pyc');"
        "print(c.check(json.dumps({'mine': ['red 1', 'green 1', 'blue 1'], 'theirs': []})))",
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["reason"] == "opponent-can-beat"


def test_a_traceback_names_the_file_and_function_without_a_line(engine_archive: Path) -> None:
    run = run_from(
        engine_archive,
        "import traceback, schotten.json_input as j\n"
        'try:\n    j.loads(\'{"a": 1, "a": 2}\')\n'
        "except j.JsonInputError:\n    print(traceback.format_exc())",
    )
    assert run.returncode == 0, run.stderr
    assert f'File "{engine_archive}/schotten/json_input.py", line None, in ' in run.stdout
    assert "JsonInputError" in run.stdout


def test_bytecode_is_compiled_without_docstrings_or_asserts() -> None:
    source = b'"""Module."""\ndef f():\n    """Function."""\n    assert False\n    return 1\n'
    namespace: dict[str, object] = {}
    exec(marshal.loads(bytecode.pyc_bytes(source, "m.py")[16:]), namespace)
    assert namespace.get("__doc__") is None
    assert namespace["f"].__doc__ is None  # type: ignore[attr-defined]
    assert namespace["f"]() == 1  # type: ignore[operator]


def test_pyc_header_is_unchecked_hash_based() -> None:
    pyc = bytecode.pyc_bytes(b"x = 1\n", "x.py")
    assert pyc[:4] == importlib.util.MAGIC_NUMBER
    assert int.from_bytes(pyc[4:8], "little") == 0b01  # hash-based, source never checked
    assert pyc[8:16] == importlib.util.source_hash(b"x = 1\n")


def test_the_same_sources_give_the_same_bytes() -> None:
    def archive(date: tuple[int, int, int, int, int, int]) -> bytes:
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as written:
            written.writestr(zipfile.ZipInfo("a.py", date), "A = [n * n for n in range(3)]\n")
            written.writestr(zipfile.ZipInfo("data.txt", date), "kept as it is")
        return out.getvalue()

    first = bytecode.compiled_archive(archive((2020, 1, 1, 0, 0, 0)), prefix="/x.zip")
    again = bytecode.compiled_archive(archive((2024, 6, 1, 12, 0, 0)), prefix="/x.zip")
    assert first == again
    with zipfile.ZipFile(io.BytesIO(first)) as compiled:
        assert compiled.namelist() == ["a.pyc", "data.txt"]
        assert compiled.read("data.txt") == b"kept as it is"
        assert {info.compress_type for info in compiled.infolist()} == {zipfile.ZIP_STORED}


def _sources(folder: Path) -> Path:
    path = folder / "sources.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("m.py", "VALUE = 1\n")
    return path


def test_write_bytecode_compiles_with_pyodide_then_takes_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    job = runtime.BytecodeJob(_sources(tmp_path), tmp_path / "first.zip", "/m.zip")
    runtime.write_bytecode([job], tmp_path / "cache")
    with zipfile.ZipFile(tmp_path / "first.zip") as compiled:
        pyc = compiled.read("m.pyc")
    # Pyodide's Python, not this one: its own magic number.
    assert pyc[:4] != importlib.util.MAGIC_NUMBER
    assert len(list((tmp_path / "cache").glob("*.pyc.zip"))) == 1

    monkeypatch.setattr(runtime.shutil, "which", lambda name: None)  # no Node from now on
    again = runtime.BytecodeJob(job.source, tmp_path / "again.zip", "/m.zip")
    runtime.write_bytecode([again], tmp_path / "cache")
    assert again.target.read_bytes() == job.target.read_bytes()
    with pytest.raises(SiteCheckError, match=r"Node\.js is needed"):
        runtime.write_bytecode([again], tmp_path / "no-cache")


def test_write_bytecode_reports_a_failure_and_writes_nothing(tmp_path: Path) -> None:
    broken = tmp_path / "broken.zip"
    broken.write_bytes(b"not an archive")
    job = runtime.BytecodeJob(broken, tmp_path / "out.zip", "/m.zip")
    with pytest.raises(SiteCheckError, match=r"compiling the checker's Python failed: .+"):
        runtime.write_bytecode([job], tmp_path / "cache")
    assert not job.target.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.zip", "cache"]
    # Nothing kept for a later build: the cache holds only the lock of its entry.
    assert [p.suffix for p in (tmp_path / "cache").iterdir()] == [".lock"]
