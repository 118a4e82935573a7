"""The page's alternates in a real browser: they stay in the page for search engines, and the
theme's script sends no request for them."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, Response

# No test here needs a first visit (see ReturningReader in conftest.py).
pytestmark = pytest.mark.returning_reader


@pytest.mark.parametrize("path", ["/rules/", "/es/edge-cases/", "/"])
def test_alternates_stay_and_request_nothing(
    page: Page, site_url: str, outside_requests: list[str], path: str
) -> None:
    failed: list[str] = []

    def record(response: Response) -> None:
        if response.status >= 400:
            failed.append(f"{response.status} {response.url}")

    page.on("response", record)
    page.goto(site_url + path, wait_until="networkidle")
    links = page.locator('head link[rel="alternate"][hreflang]')
    assert sorted(links.evaluate_all("ls => ls.map(l => l.hreflang)")) == ["es", "fr", "x-default"]
    assert failed == []
    assert outside_requests == []
