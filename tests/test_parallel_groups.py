"""The test run's parallel groups hold: ``--dist loadgroup`` (scripts/gate) keeps the tests
marked with one ``xdist_group`` on one worker. The checker's form tests share the checkers one
worker opened, and the package tests the wheel and environment one worker made; a pytest or
pytest-xdist release that lets a group spread fails here rather than slowing the run unseen."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

GROUPED = """
import pytest

pytestmark = pytest.mark.xdist_group("together")


@pytest.mark.parametrize("n", range(6))
def test_grouped(n):
    pass
"""
LOOSE = """
import pytest


@pytest.mark.parametrize("n", range(6))
def test_loose(n):
    pass
"""


def test_a_groups_tests_run_on_one_worker(tmp_path: Path) -> None:
    (tmp_path / "test_grouped.py").write_text(GROUPED, encoding="utf-8")
    (tmp_path / "test_loose.py").write_text(LOOSE, encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-n",
            "2",
            "--dist",
            "loadgroup",
            "-v",
            "-p",
            "no:cacheprovider",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    workers = re.findall(r"^\[(gw\d)\] .*PASSED test_grouped\.py::", run.stdout, re.M)
    assert len(workers) == 6, run.stdout
    assert len(set(workers)) == 1, run.stdout
