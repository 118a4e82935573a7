"""Publish the site only when everything passes: the tests, then a strict build.

The build goes to a fresh folder beside the site; it replaces the site only once it is complete,
so a failure at any step leaves the previous site exactly as it was. ``scripts/publish`` runs this.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="scripts/publish",
        description="Run the tests, build the site strictly, and swap it in only on success.",
    )
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="the project (mkdocs.yml)")
    parser.add_argument("--site-dir", type=Path, help="where the site goes (default: ROOT/site)")
    parser.add_argument(
        "--skip-tests", action="store_true", help="build only (the tests ran in an earlier step)"
    )
    args = parser.parse_args(argv)
    root = args.root.resolve()
    if not (root / "mkdocs.yml").is_file():
        parser.error(f"{root} has no mkdocs.yml")
    site = (args.site_dir or root / "site").resolve()
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}

    if not args.skip_tests:
        _say("running the tests")
        if subprocess.run([sys.executable, "-m", "pytest", "-q"], cwd=root, env=env).returncode:
            return _fail("the tests failed: nothing was published")

    site.parent.mkdir(parents=True, exist_ok=True)
    fresh = Path(tempfile.mkdtemp(prefix=f".{site.name}-new-", dir=site.parent))
    try:
        _say(f"building into {fresh}")
        command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(fresh)]
        if subprocess.run(command, cwd=root, env=env).returncode:
            return _fail(f"the build failed: {site} is unchanged")
        swap_in(fresh, site)
    finally:
        if fresh.exists():
            shutil.rmtree(fresh)
    _say(f"published {site}")
    return 0


def swap_in(fresh: Path, site: Path) -> None:
    """Put ``fresh`` in place of ``site`` (two renames on one file system), then drop the old."""
    old = None
    if site.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{site.name}-old-", dir=site.parent))
        old.rmdir()
        site.rename(old)
    fresh.rename(site)
    if old is not None:
        shutil.rmtree(old)


def _say(message: str) -> None:
    print(f"publish: {message}", file=sys.stderr)


def _fail(message: str) -> int:
    print(f"publish: error: {message}", file=sys.stderr)
    return 1


def entrypoint() -> None:
    raise SystemExit(main())
