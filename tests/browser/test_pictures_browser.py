"""Pictures of positions as readers see them: legible on a phone, filling the column on desktop."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

# No test here needs a first visit (see ReturningReader in conftest.py).
pytestmark = pytest.mark.returning_reader

# For every picture of the page: its drawn width, its width in picture units, the width it has
# to fill (its figure's, a block as wide as the column or the case's details) and its smallest
# font size in picture units.
MEASURE = """() => [...document.querySelectorAll("article svg.position")].map((svg) => ({
  drawn: svg.getBoundingClientRect().width,
  units: svg.viewBox.baseVal.width,
  column: svg.closest("figure").getBoundingClientRect().width,
  smallest: Math.min(...[...svg.querySelectorAll("text")].map(
    (t) => parseFloat(t.getAttribute("font-size")))),
}))"""


# The edge-case page keeps its pictures in closed <details>: a reader opens them.
OPEN_ALL = "() => document.querySelectorAll('article details').forEach((d) => { d.open = true; })"


@pytest.mark.parametrize(("path", "least"), [("/edge-cases/", 10), ("/rules/", 6)])
@pytest.mark.parametrize("lang", ["fr", "es"])
def test_picture_text_is_at_least_11_px_on_a_phone(
    page: Page, site_url: str, lang: str, path: str, least: int
) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(site_url + ("" if lang == "fr" else "/es") + path)
    page.evaluate(OPEN_ALL)
    pictures = page.evaluate(MEASURE)
    assert len(pictures) >= least
    for picture in pictures:
        assert picture["smallest"] * picture["drawn"] / picture["units"] >= 11 - 0.1, picture


def test_pictures_fill_the_column_on_a_desktop(page: Page, site_url: str) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(site_url + "/edge-cases/")
    page.evaluate(OPEN_ALL)
    pictures = page.evaluate(MEASURE)
    for picture in pictures:
        # As wide as the column, unless that would blow the picture up beyond 1.25 times.
        assert picture["drawn"] >= min(picture["column"], 1.25 * picture["units"]) - 1, picture


# Each picture at its drawn size beside the box that shows it: its figure (inner width, whether
# it scrolls and how a keyboard and a screen reader reach it) and the page's own width.
OVERFLOW = """() => [...document.querySelectorAll("article svg.position")].map((svg) => {
  const figure = svg.closest("figure");
  return {
    id: svg.id || svg.getAttribute("aria-labelledby"),
    drawn: svg.getBoundingClientRect().width,
    inside: figure.clientWidth,
    right: figure.getBoundingClientRect().right,
    scrolls: ["auto", "scroll"].includes(getComputedStyle(figure).overflowX),
    region: figure.getAttribute("role") === "region" && figure.getAttribute("tabindex") === "0"
      && (figure.getAttribute("aria-label") || "").trim().length > 0,
  };
})"""


@pytest.mark.parametrize("path", ["/edge-cases/", "/rules/", "/rulings/", "/tactics/"])
@pytest.mark.parametrize("lang", ["fr", "es"])
def test_no_picture_overflows_on_a_phone(page: Page, site_url: str, lang: str, path: str) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(site_url + ("" if lang == "fr" else "/es") + path)
    page.evaluate(OPEN_ALL)
    pictures = page.evaluate(OVERFLOW)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    for picture in pictures:
        assert picture["right"] <= 390, picture
        # Wider than its figure: only inside a labelled scroll region that the keyboard reaches.
        if picture["drawn"] > picture["inside"] + 0.5:
            assert picture["scrolls"] and picture["region"], picture
