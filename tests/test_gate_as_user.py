"""The gate script run whole by a user who is not root, on a copy of the project that user owns:
its fast part passes, and a changed verdict stops it at the verdicts step with an annotation on
the case's line.

It runs the gate's verdicts and lint again (mypy from a copy of the checkout's cache), which the
fast lane (``scripts/test --fast``) has just run itself: the lane leaves this file out (family
``gate_run``, tests/conftest.py).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _tool_folder(folder: Path) -> str:
    """A folder with ``python`` and the gate's tools beside it, as setup-python gives them, that
    a user other than root can run: this interpreter when it can, else the system's, with this
    environment's packages."""
    bin_dir = Path(sys.executable).parent
    if os.geteuid() != 0:
        return str(bin_dir / "python")
    python = shutil.which("python3.11", path="/usr/bin:/usr/local/bin") or sys.executable
    paths = [sysconfig.get_paths()["purelib"], str(ROOT / "engine")]
    env_line = f'export PYTHONPATH="{os.pathsep.join(paths)}"'
    folder.mkdir()
    scripts = {
        "python": f'exec {python} "$@"',
        "mypy": f'exec {python} -m mypy "$@"',
        "schotten": f'exec {python} -c "from schotten.cli import entrypoint; entrypoint()" "$@"',
        "ruff": f'exec {python} -m ruff "$@"',
    }
    for name, line in scripts.items():
        path = folder / name
        path.write_text(f"#!/bin/sh\n{env_line}\n{line}\n", encoding="utf-8")
        path.chmod(0o755)
    return str(folder / "python")


@pytest.fixture
def copy_as_user() -> Iterator[tuple[Path, list[str], str]]:
    """A copy of the project owned by an ordinary user (``nobody`` when the tests run as root),
    the command prefix that runs as that user, and the interpreter the gate is given."""
    top = Path(tempfile.mkdtemp(prefix="gate-", dir="/tmp"))
    try:
        top.chmod(0o755)
        project = top / "project"
        files = subprocess.run(
            ["git", "ls-files", "-co", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.splitlines()
        for name in files:
            source = ROOT / name
            if source.is_file() and not name.startswith("node_modules/"):
                (project / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, project / name)
        # mypy's cache, as a developer's checkout has it (the gate's lint step, run before the
        # tests, has just made it): mypy checks again only what the cache does not hold.
        if (ROOT / ".mypy_cache").is_dir():
            shutil.copytree(ROOT / ".mypy_cache", project / ".mypy_cache", symlinks=True)
        python = _tool_folder(top / "bin")
        prefix: list[str] = []
        if os.geteuid() == 0:
            subprocess.run(["chown", "-R", "nobody", str(project)], check=True)
            runuser = shutil.which("runuser", path="/usr/sbin:/sbin:/usr/bin:/bin")
            assert runuser is not None, "runuser (util-linux) runs the gate as nobody"
            prefix = [runuser, "-u", "nobody", "--"]
        yield project, prefix, python
    finally:
        shutil.rmtree(top, ignore_errors=True)


def test_the_gates_fast_part_runs_as_an_ordinary_user(
    copy_as_user: tuple[Path, list[str], str],
) -> None:
    project, prefix, python = copy_as_user
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(project),
        "PYTHON": python,
        "GITHUB_ACTIONS": "true",
        "LANG": "C.UTF-8",
    }
    who = subprocess.run([*prefix, "id", "-u"], capture_output=True, text=True, check=True)
    assert who.stdout.strip() != "0"

    def gate_fast() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*prefix, "bash", "scripts/gate", "fast"],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )

    run = gate_fast()
    assert run.returncode == 0, run.stdout + run.stderr
    assert "cases: " in run.stdout and "0 invalid" in run.stdout
    assert "Success: no issues found" in run.stdout

    # A changed verdict: the verdict step fails first, with an annotation on the line.
    case = project / "cases" / "hand-is-not-proof.yaml"
    text = case.read_text(encoding="utf-8").replace("reason: opponent-can-beat", "reason: weaker")
    subprocess.run([*prefix, "sh", "-c", f"cat > {case}"], input=text, text=True, check=True)
    run = gate_fast()
    assert run.returncode == 1
    assert "error: scripts/gate: the verdicts step failed" in run.stderr
    assert re.search(
        r"^::error file=cases/hand-is-not-proof\.yaml,line=\d+,col=\d+::", run.stdout, re.M
    )
    assert "lint and types" not in run.stdout
