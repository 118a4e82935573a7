"""The site as tests build and use it: one way to run ``mkdocs build``, one way to wait for the
search box."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:  # Playwright is imported only by the tests that open a browser
    from playwright.sync_api import Locator, Page, Request

CHECKER_LOADING_TIMEOUT = 90_000  # ms: Pyodide starts in seconds, far more on a loaded machine


def mkdocs_build(
    project: Path, out: Path, *, site_url: str | None = None, umask: int | None = None
) -> subprocess.CompletedProcess[str]:
    """``mkdocs build --strict`` of ``project`` into ``out``, as a plain command: with
    ``SITE_URL`` set to ``site_url``, or unset (every link relative); under ``umask`` if given."""
    env = {k: v for k, v in os.environ.items() if k != "SITE_URL"}
    env["NO_MKDOCS_2_WARNING"] = "1"
    if site_url is not None:
        env["SITE_URL"] = site_url
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        preexec_fn=None if umask is None else lambda: os.umask(umask),
    )


def open_search(page: Page) -> None:
    """Focus the search box and wait until its index is ready: the page fetches it only then,
    and builds it in a worker; a query typed before would be lost."""
    from playwright.sync_api import expect

    page.locator(".md-search__input").click()
    ready = page.evaluate(
        "JSON.parse(document.getElementById('__config').textContent)"
        ".translations['search.result.placeholder']"
    )
    expect(page.locator(".md-search-result__meta")).to_have_text(ready, timeout=30_000)


def open_checker(page: Page, lang: str = "fr") -> Locator:
    """Open the page's claim checker with its button (in ``lang``, the page's language) and wait
    until its engine is ready; the checker."""
    from playwright.sync_api import expect

    from schotten.site import labels

    checker = page.locator(".schotten-checker")
    checker.get_by_role("button", name=labels(lang)["checker"]["open"]).click()
    expect(checker).to_have_attribute("data-state", "ready", timeout=CHECKER_LOADING_TIMEOUT)
    return checker


def settled_results(page: Page, *, shown: bool = True) -> list[str]:
    """The addresses of the search results once the list stops changing: the theme redraws it
    after each key, so it is read whole in one step (never item by item, as a redraw between two
    reads drops the items still to read) until two reads a quarter second apart agree.
    ``shown`` picks the results of the page's language; otherwise the hidden ones."""
    from playwright.sync_api import expect

    state = ":not([hidden])" if shown else "[hidden]"
    items = page.locator(f".md-search-result__item{state} > a.md-search-result__link")
    if shown:
        expect(items.first).to_be_visible()
    read = "links => links.map(a => a.href)"
    last: list[str] = items.evaluate_all(read)
    for _ in range(40):
        page.wait_for_timeout(250)
        now: list[str] = items.evaluate_all(read)
        if now == last:
            return now
        last = now
    raise AssertionError(f"the search results kept changing for 10 s: {last}")


def note_outside_requests(page: Page, seen: list[str]) -> list[str]:
    """Append to ``seen`` every URL ``page`` requests from another host than 127.0.0.1, as it
    loads (``data:``, ``blob:`` and ``about:`` addresses are no host); ``seen`` is returned."""

    def record(request: Request) -> None:
        parts = urlsplit(request.url)
        if parts.scheme in ("data", "blob", "about"):
            return
        if parts.hostname != "127.0.0.1":
            seen.append(request.url)

    page.on("request", record)
    return seen
