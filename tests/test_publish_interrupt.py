"""The published site is never lost or partial: a build stopped at any point (SIGTERM, Ctrl-C, a
terminal's hang-up) leaves ``site/`` as it was and says so; what a crash or a SIGKILL leaves
(between the swap's two renames, a fresh folder) is put back or removed by the next build."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest
from mkdocs.config.defaults import MkDocsConfig
from test_site import minimal_project

from schotten.site.plugin import SchottenPlugin
from schotten.site.publish import new_folder, recover


def _site(folder: Path, text: str) -> Path:
    folder.mkdir(parents=True)
    (folder / "index.html").write_text(text, encoding="utf-8")
    return folder


def _dead_pid() -> int:
    child = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(child.stdout)


def test_a_hang_up_runs_the_clean_up_as_a_kill_does() -> None:
    code = (
        "import os, signal\n"
        "from schotten.site.publish import signals_as_exit\n"
        "try:\n"
        "    with signals_as_exit():\n"
        "        os.kill(os.getpid(), signal.SIGHUP)\n"
        "finally:\n"
        "    print('cleaned up')\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 128 + signal.SIGHUP
    assert run.stdout == "cleaned up\n"


def test_the_old_site_is_put_back_after_a_crash_between_the_two_renames(tmp_path: Path) -> None:
    # What swap_in leaves when the process ends after moving the site aside, before the fresh
    # folder takes its place.
    _site(tmp_path / ".site-old-1a2b3c4d", "the old site")
    fresh = _site(tmp_path / f".site-new-{_dead_pid()}-5e6f7a8b", "half a new site")
    site = tmp_path / "site"
    assert sorted(recover(site)) == sorted([site, fresh])
    assert (site / "index.html").read_text(encoding="utf-8") == "the old site"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".site.lock", "site"]


def test_leftovers_go_but_a_running_builds_folder_stays(tmp_path: Path) -> None:
    site = _site(tmp_path / "site", "the site")
    old = _site(tmp_path / ".site-old-00000000", "an old site")
    dead = _site(tmp_path / f".site-new-{_dead_pid()}-00000000", "a killed build's")
    running = new_folder(tmp_path, ".site-new-")  # this process's: a build still running
    assert sorted(recover(site)) == sorted([old, dead])
    assert (site / "index.html").read_text(encoding="utf-8") == "the site"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [".site.lock", running.name, "site"]
    )


def _config(root: Path, lang: str) -> MkDocsConfig:
    return cast(
        MkDocsConfig,
        SimpleNamespace(site_dir=str(root / "site"), site_url=None, theme={"language": lang}),
    )


def test_the_next_build_puts_the_site_back_before_it_starts(tmp_path: Path) -> None:
    _site(tmp_path / ".site-old-1a2b3c4d", "the old site")
    site = SchottenPlugin()
    site.on_startup(command="build", dirty=False)
    config = site.on_config(_config(tmp_path, "es"))
    assert (tmp_path / "site" / "index.html").read_text(encoding="utf-8") == "the old site"
    assert Path(config.site_dir).name.startswith(f".site-new-{os.getpid()}-")
    site.on_shutdown()  # never built: the site stays
    assert sorted(p.name for p in tmp_path.iterdir()) == [".site.lock", "site"]


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_a_stop_after_one_language_was_built_publishes_nothing(
    tmp_path: Path, stop: signal.Signals
) -> None:
    _site(tmp_path / "site", "the site")
    site = SchottenPlugin()
    site.on_startup(command="build", dirty=False)
    config = site.on_config(_config(tmp_path, "es"))
    site.on_post_build(config=config)  # the first language is written
    with pytest.raises(SystemExit):
        os.kill(os.getpid(), stop)  # the second language is building
        time.sleep(5)
    site.on_shutdown()
    assert [p.name for p in (tmp_path / "site").iterdir()] == ["index.html"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [".site.lock", "site"]


def test_a_real_build_stopped_while_spanish_is_built_leaves_the_site(tmp_path: Path) -> None:
    project = minimal_project(tmp_path / "project")
    site = _site(tmp_path / "site", "the site as it was")
    env = {k: v for k, v in os.environ.items() if k != "SITE_URL"}
    env["NO_MKDOCS_2_WARNING"] = "1"
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)]
    with subprocess.Popen(
        command, cwd=project, env=env, stderr=subprocess.PIPE, text=True
    ) as build:
        assert build.stderr is not None
        said = []
        for line in build.stderr:
            said.append(line)
            if "Building 'es'" in line:
                build.send_signal(signal.SIGTERM)
                break
        said += build.stderr.readlines()
        assert build.wait(timeout=120) != 0, "".join(said)
    assert any("Building 'es'" in line for line in said), "".join(said)
    assert "schotten: interrupted:" in "".join(said)
    assert "site published" not in "".join(said)
    assert [p.name for p in site.iterdir()] == ["index.html"]
    assert (site / "index.html").read_text(encoding="utf-8") == "the site as it was"
    assert not list(tmp_path.glob(".site-new-*"))
