"""Fixtures for tests in a real browser (Debian Chromium through Playwright).

- ``built_site``, ``relative_site`` and ``site_url`` (the first served on 127.0.0.1 under the base
  path of mkdocs.yml's ``site_url``): from ``tests/conftest.py``, built once per run.
- ``outside_requests``: the requests a page sends anywhere but 127.0.0.1 (expected empty).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import Page
from sites import note_outside_requests

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, object]) -> dict[str, object]:
    args = dict(browser_type_launch_args)
    # The distro Chromium (Debian). Where there is none (CI on Ubuntu), Playwright's own build.
    if Path(CHROMIUM).exists():
        args["executable_path"] = CHROMIUM
    # Chromium's background calls would fail noisily on a closed network.
    args["args"] = [
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
    ]
    return args


@pytest.fixture
def outside_requests(page: Page) -> list[str]:
    """Every URL the page requests from another host than 127.0.0.1 (filled as it loads)."""
    return note_outside_requests(page, [])


@pytest.fixture(scope="session")
def screenshots() -> Path:
    folder = ROOT / "test-results" / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder
