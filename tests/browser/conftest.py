"""Fixtures for tests in a real browser (Debian Chromium through Playwright).

- ``built_site``, ``relative_site`` and ``site_url`` (the first served on 127.0.0.1 under the base
  path of mkdocs.yml's ``site_url``): from ``tests/conftest.py``, built once per run.
- ``page``: pytest-playwright's, a tab in a new browser profile; for a test marked
  ``returning_reader``, a new tab of the worker's returning reader (see ``ReturningReader``);
- ``outside_requests``: the requests the page sends anywhere but 127.0.0.1 (expected empty).
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page
from playwright.sync_api import Error as PlaywrightError
from sites import CHECKER_LOADING_TIMEOUT, note_outside_requests, open_checker

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


# Whether a cache of the service worker holds the engine's start (the checker's worker keeps it
# once the files are kept: a later start skips Python's own).
START_KEPT = """async () => {
  for (const name of await caches.keys()) {
    const requests = await (await caches.open(name)).keys();
    if (requests.some((request) => request.url.endsWith("/pyodide/snapshot"))) return true;
  }
  return false;
}"""


class ReturningReader:
    """A browser profile that has opened the claim checker of this build before: its service
    worker serves the site, the checker's files and the engine's start are kept. Each test marked
    ``returning_reader`` is given a new tab in it as its ``page``: the page starts clean, while a
    start of the engine costs about a second instead of three, and a page load half as much as in
    a new profile.

    The tests marked are those that need no first visit (they read pages, fill the checker, play a
    game); what a first visit does (downloads, loading steps, the service worker's install) is
    tested in new profiles, by the tests not marked. The profile is made again after a test that
    failed; the site's local storage (the game the play page keeps) is cleared after each test."""

    def __init__(self, browser: Browser, context_args: dict[str, Any], site_url: str) -> None:
        self.browser = browser
        self.context_args = context_args
        self.site_url = site_url
        self.context: BrowserContext | None = None

    def tab(self) -> Page:
        if self.context is None:
            self.context = self.browser.new_context(**self.context_args)
            self._return_to_the_checker(self.context.new_page())
        return self.context.new_page()

    def _return_to_the_checker(self, page: Page) -> None:
        page.goto(self.site_url + "/rules/")
        open_checker(page, "fr")
        deadline = time.monotonic() + CHECKER_LOADING_TIMEOUT / 1000
        while not page.evaluate(START_KEPT):
            assert time.monotonic() < deadline, "the checker never kept the engine's start"
            page.wait_for_timeout(100)
        page.close()

    def after(self, page: Page, *, failed: bool) -> None:
        """Close the test's tab; forget the profile if the test failed, else the site's local
        storage."""
        assert self.context is not None
        if failed:
            self.close()
            return
        origin = "/".join(self.site_url.split("/")[:3])
        try:
            session = self.context.new_cdp_session(page)
            session.send(
                "Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "local_storage"}
            )
            session.detach()
            self.context.clear_permissions()
            page.close()
        except PlaywrightError:
            self.close()  # a tab that cannot be tidied: a new profile for the next test
            raise

    def close(self) -> None:
        if self.context is not None:
            self.context.close()
            self.context = None


@pytest.fixture(scope="session")
def returning_reader(
    browser: Browser, browser_context_args: dict[str, Any], site_url: str
) -> Iterator[ReturningReader]:
    reader = ReturningReader(browser, browser_context_args, site_url)
    yield reader
    reader.close()


@pytest.fixture
def page(request: pytest.FixtureRequest) -> Iterator[Page]:
    """The test's tab: in a new profile (pytest-playwright's ``context``), or, for a test marked
    ``returning_reader``, a new tab of the worker's returning reader."""
    if request.node.get_closest_marker("returning_reader") is None:
        context: BrowserContext = request.getfixturevalue("context")
        yield context.new_page()
        return
    assert "context" not in request.fixturenames, "a returning reader has no profile of its own"
    reader: ReturningReader = request.getfixturevalue("returning_reader")
    tab = reader.tab()
    yield tab
    report = getattr(request.node, "rep_call", None)  # pytest-playwright's report of the call
    reader.after(tab, failed=report is None or report.failed)


@pytest.fixture
def outside_requests(page: Page) -> list[str]:
    """Every URL the page requests from another host than 127.0.0.1 (filled as it loads)."""
    return note_outside_requests(page, [])


@pytest.fixture(scope="session")
def screenshots() -> Path:
    folder = ROOT / "test-results" / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder
