"""Accessibility of every built page, in both languages, checked by axe-core (WCAG 2.1 A and AA).

axe-core comes from the project's npm install and is injected into each page by the test: the
pages load nothing from another host. The claim checker is opened (and its engine ready) on the
pages that have one, so that its form is checked too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page
from sites import open_checker

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
BLOCKING = ("serious", "critical")


def site_pages(site: Path, lang: str) -> list[str]:
    """The URL path of every page of one language, e.g. ``/``, ``/rules/``, ``/es/odds/``,
    ``/404.html``."""
    pages = []
    for html in sorted([*site.rglob("index.html"), *site.rglob("404.html")]):
        path = html.parent.relative_to(site).as_posix()
        path = "/" if path == "." else f"/{path}/"
        if html.name == "404.html":
            path += html.name
        if path.startswith("/assets/"):
            continue
        if (lang == "es") == path.startswith("/es/"):
            pages.append(path)
    return pages


def serious_violations(page: Page) -> list[str]:
    page.add_script_tag(path=str(AXE))
    # Only violations are read: axe then details no passing element (lighter on long pages).
    result: dict[str, Any] = page.evaluate(
        "(tags) => axe.run(document, {runOnly: {type: 'tag', values: tags},"
        " resultTypes: ['violations']})",
        WCAG_AA,
    )
    found = []
    for violation in result["violations"]:
        if violation["impact"] not in BLOCKING:
            continue
        targets = [", ".join(node["target"]) for node in violation["nodes"]]
        found.append(
            f"{violation['id']} ({violation['impact']}): {violation['help']}; "
            f"{len(targets)} element(s): {'; '.join(targets[:5])}"
        )
    return found


PARTS = 3  # each language's pages in three tests, which parallel workers share out


@pytest.mark.returning_reader  # it needs no first visit (see ReturningReader in conftest.py)
@pytest.mark.parametrize("part", range(PARTS))
@pytest.mark.parametrize("lang", ["fr", "es"])
def test_every_page_has_no_serious_accessibility_violation(
    page: Page, site_url: str, built_site: Path, outside_requests: list[str], lang: str, part: int
) -> None:
    assert AXE.is_file(), "axe-core is not installed: run `npm ci`"
    pages = site_pages(built_site, lang)
    assert len(pages) >= 6
    problems = []
    for path in pages[part::PARTS]:
        page.goto(site_url + path)
        if page.locator(".schotten-checker").count():
            open_checker(page, lang)
        problems += [f"{path}: {problem}" for problem in serious_violations(page)]
    assert problems == [], "\n".join(problems)
    assert outside_requests == []


def test_the_check_names_each_serious_violation_of_a_faulty_page(page: Page) -> None:
    page.set_content(
        '<html lang="fr"><head><title>Essai</title></head><body><main>'
        '<img src="carte.png"><p style="color: #eee; background: #fff">pâle</p>'
        "</main></body></html>"
    )
    found = sorted(serious_violations(page))
    assert len(found) == 2, found
    assert found[0].startswith("color-contrast (serious)") and found[0].endswith(": p"), found
    assert found[1].startswith("image-alt (critical)") and found[1].endswith(": img"), found
