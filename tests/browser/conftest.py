"""Fixtures for tests in a real browser (Debian Chromium through Playwright).

- ``built_site``: the project built once (strict) into a temporary folder, for this session.
- ``relative_site``: the project built once without SITE_URL, for tests that serve it elsewhere.
- ``site_url``: that site served on 127.0.0.1 under the same base path as ``site_url`` in
  mkdocs.yml (``/schotten``), without a trailing slash: ``site_url + "/es/rules/"``.
- ``outside_requests``: the requests a page sends anywhere but 127.0.0.1 (expected empty).
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, Request
from sites import mkdocs_build

ROOT = Path(__file__).resolve().parents[2]
BASE_PATH = "schotten"  # as in mkdocs.yml's site_url
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


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="session")
def _server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    www = tmp_path_factory.mktemp("www")
    handler = functools.partial(_QuietHandler, directory=str(www))
    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) as httpd:
        thread = threading.Thread(target=httpd.serve_forever, daemon=True)
        thread.start()
        yield www, f"http://127.0.0.1:{httpd.server_address[1]}/{BASE_PATH}"
        httpd.shutdown()


@pytest.fixture(scope="session")
def built_site(_server: tuple[Path, str]) -> Path:
    """The site, built once with ``site_url`` pointing at the local server."""
    www, url = _server
    out = www / BASE_PATH
    run = mkdocs_build(ROOT, out, site_url=url + "/")
    assert run.returncode == 0, run.stdout + run.stderr
    return out


@pytest.fixture(scope="session")
def relative_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built without SITE_URL (as anyone building it would: every link relative), once
    for the tests that serve it elsewhere; each copies it where it serves it."""
    out = tmp_path_factory.mktemp("relative") / "site"
    run = mkdocs_build(ROOT, out)
    assert run.returncode == 0, run.stdout + run.stderr
    return out


@pytest.fixture(scope="session")
def site_url(_server: tuple[Path, str], built_site: Path) -> str:
    return _server[1]


@pytest.fixture
def outside_requests(page: Page) -> list[str]:
    """Every URL the page requests from another host than 127.0.0.1 (filled as it loads)."""
    seen: list[str] = []

    def record(request: Request) -> None:
        parts = urlsplit(request.url)
        if parts.scheme in ("data", "blob", "about"):
            return
        if parts.hostname != "127.0.0.1":
            seen.append(request.url)

    page.on("request", record)
    return seen


@pytest.fixture(scope="session")
def screenshots() -> Path:
    folder = ROOT / "test-results" / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder
