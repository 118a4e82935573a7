"""Pictures of positions as readers see them: legible on a phone, filling the column on desktop."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

# For every picture of the page: its drawn width, its width in picture units, the column's width
# and its smallest font size in picture units.
MEASURE = """() => [...document.querySelectorAll("article svg.position")].map((svg) => ({
  drawn: svg.getBoundingClientRect().width,
  units: svg.viewBox.baseVal.width,
  column: svg.closest("article").getBoundingClientRect().width,
  smallest: Math.min(...[...svg.querySelectorAll("text")].map(
    (t) => parseFloat(t.getAttribute("font-size")))),
}))"""


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_picture_text_is_at_least_11_px_on_a_phone(page: Page, site_url: str, lang: str) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(site_url + ("/edge-cases/" if lang == "fr" else "/es/edge-cases/"))
    pictures = page.evaluate(MEASURE)
    assert len(pictures) >= 10
    for picture in pictures:
        assert picture["smallest"] * picture["drawn"] / picture["units"] >= 11 - 0.1, picture


def test_pictures_fill_the_column_on_a_desktop(page: Page, site_url: str) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(site_url + "/edge-cases/")
    pictures = page.evaluate(MEASURE)
    for picture in pictures:
        # As wide as the column, unless that would blow the picture up beyond 1.25 times.
        assert picture["drawn"] >= min(picture["column"], 1.25 * picture["units"]) - 1, picture
