"""Publishing never loses the published site: a world-readable site, one publish at a time, no
folder left behind by a failure or a kill, and a plain ``mkdocs build`` that fails its strict
checks leaves the previous site as it was."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sites import mkdocs_build
from test_site import _assert_untouched, _old_site, minimal_project

from schotten.site.publish import main as publish
from schotten.site.publish import new_folder, publish_lock, swap_in

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


def leftovers(folder: Path) -> list[str]:
    """Build or swap folders left beside the site (the lock files stay, by design)."""
    return sorted(p.name for p in folder.iterdir() if p.is_dir() and p.name.startswith(".site-"))


def test_new_folders_take_their_mode_from_the_umask(tmp_path: Path) -> None:
    previous = os.umask(0o022)
    try:
        folder = new_folder(tmp_path, ".site-new-")
    finally:
        os.umask(previous)
    assert folder.stat().st_mode & 0o777 == 0o755


def test_swap_in_replaces_the_site_and_leaves_no_folder(tmp_path: Path) -> None:
    site = _old_site(tmp_path / "site")
    fresh = new_folder(tmp_path, ".site-new-")
    (fresh / "index.html").write_text("new", encoding="utf-8")
    swap_in(fresh, site)
    assert (site / "index.html").read_text(encoding="utf-8") == "new"
    assert leftovers(tmp_path) == []


def test_a_second_publish_refuses_clearly_while_one_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = _old_site(tmp_path / "site")
    with publish_lock(site):
        status = publish(["--root", str(ROOT), "--site-dir", str(site), "--skip-tests"])
    assert status == 1
    assert f"another publish of {site} is running" in capsys.readouterr().err
    _assert_untouched(site)


def test_plain_mkdocs_build_publishes_readable_and_keeps_the_site_on_strict_failure(
    tmp_path: Path,
) -> None:
    project = minimal_project(tmp_path / "project")
    site = tmp_path / "site"

    def build() -> subprocess.CompletedProcess[str]:
        return mkdocs_build(project, site, umask=0o022)

    run = build()
    assert run.returncode == 0, run.stderr
    assert site.stat().st_mode & 0o777 == 0o755
    assert (site / "index.html").stat().st_mode & 0o777 == 0o644
    assert leftovers(tmp_path) == []

    (site / "index.html").write_text("the previous site", encoding="utf-8")
    before = sorted(p.relative_to(site) for p in site.rglob("*"))
    page = project / "site_src" / "index.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n[x](missing.md)\n", encoding="utf-8")
    run = build()
    assert run.returncode == 1
    assert "Aborted with 1 warnings in strict mode" in run.stdout + run.stderr
    assert (site / "index.html").read_text(encoding="utf-8") == "the previous site"
    assert sorted(p.relative_to(site) for p in site.rglob("*")) == before
    assert leftovers(tmp_path) == []


def test_a_killed_publish_stops_its_build_and_leaves_nothing_behind(tmp_path: Path) -> None:
    project = minimal_project(tmp_path / "project")
    site = _old_site(tmp_path / "site")
    command = [
        sys.executable,
        str(ROOT / "scripts" / "publish"),
        "--skip-tests",
        "--site-dir",
        str(site),
    ]
    child = subprocess.Popen(
        [*command[:2], "--root", str(project), *command[2:]],
        cwd=project,
        env=ENV,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not leftovers(tmp_path) and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert leftovers(tmp_path), "the build never started its folder"
    child.send_signal(signal.SIGTERM)
    _out, err = child.communicate(timeout=60)
    assert child.returncode == 1
    assert "interrupted" in err
    _assert_untouched(site)
    time.sleep(0.5)  # an orphaned build would still be writing
    assert leftovers(tmp_path) == []
