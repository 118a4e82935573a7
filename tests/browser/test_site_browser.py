"""The published FAQ page in a real browser: the table against the engine, in French, then in
Spanish through the language switcher, with nothing loaded from another host."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect
from sites import open_search, settled_results

from schotten.casebook.folder import load_cases
from schotten.casebook.model import FAQ_TABLE
from schotten.casebook.run import run_case
from schotten.site import labels

# No test here needs a first visit (see ReturningReader in conftest.py).
pytestmark = pytest.mark.returning_reader

ROOT = Path(__file__).resolve().parents[2]


def engine_rows(lang: str) -> list[list[str]]:
    """The rows the FAQ table must show, from the case files and the engine's verdicts now."""
    words = labels(lang)["verdicts"]
    rows = []
    for case in load_cases(ROOT / "cases"):
        if case.published is None or case.published.table != FAQ_TABLE:
            continue
        said = {words["granted" if v.granted else "refused"] for v in run_case(case).verdicts}
        assert len(said) == 1, f"{case.path}: mixed verdicts need their own expectation"
        rows.append(
            [" ".join(case.situation[lang].split()), said.pop(), " ".join(case.why[lang].split())]
        )
    return rows


def faq_cases(page: Page) -> list[list[str]]:
    """The question, answer and why of each case of the page's first case list (the FAQ's)."""
    cases = page.locator("article .cases").first.locator(".case")
    return [
        [
            " ".join(case.locator(f".{part}").inner_text().split()).replace("\u2011", "-")
            for part in ("case__situation", "verdict", "case__why-text")
        ]
        for case in cases.all()
    ]


def _flat(rows: list[list[str]]) -> list[list[str]]:
    return [[" ".join(cell.split()) for cell in row] for row in rows]


def test_faq_cases_in_french_then_spanish_through_the_switcher(
    page: Page, site_url: str, outside_requests: list[str], screenshots: Path
) -> None:
    page.goto(site_url + "/edge-cases/")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    assert _flat(faq_cases(page)) == _flat(engine_rows("fr"))
    page.locator("article .cases").first.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "faq-fr.png"))

    page.locator(".md-header .md-select").first.hover()
    page.locator('.md-select__link[hreflang="es"]').click()
    expect(page).to_have_url(re.compile(r"/schotten/es/edge-cases/(#[a-z0-9-]+)?$"))
    expect(page.locator("html")).to_have_attribute("lang", "es")
    assert _flat(faq_cases(page)) == _flat(engine_rows("es"))
    page.locator("article .cases").first.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "faq-es.png"))

    assert outside_requests == []


def test_a_case_opens_in_place_and_on_its_address(
    page: Page, site_url: str, outside_requests: list[str], screenshots: Path
) -> None:
    page.goto(site_url + "/es/edge-cases/")
    case = page.locator("#case-hand-is-not-proof")
    picture = case.locator("details svg.position")
    expect(picture).to_be_hidden()  # closed until tapped
    case.locator("summary").click()
    expect(picture).to_be_visible()
    expect(picture.locator("g.stone.s4.claimed")).to_have_count(1)
    expect(picture.locator("desc")).to_contain_text("Piedra 4 (que intentas conquistar)")
    # An address leading to a case opens it, and the verdict's link is that address.
    page.goto(site_url + "/edge-cases/#case-one-refused-stone-refuses-the-claim")
    other = page.locator("#case-one-refused-stone-refuses-the-claim")
    expect(other.locator("details")).to_have_attribute("open", "")
    expect(other.locator("details svg.position")).to_be_in_viewport()
    page.screenshot(path=str(screenshots / "faq-detail-fr.png"))
    page.goto(site_url + "/es/edge-cases/")
    page.locator('a.verdict[href="#case-stone-already-claimed"]').click()
    expect(page.locator("#case-stone-already-claimed details")).to_have_attribute("open", "")
    assert outside_requests == []


@pytest.mark.parametrize(
    ("start", "plain", "accented"),
    [("/edge-cases/", "egalite", "égalité"), ("/es/edge-cases/", "comodin", "comodín")],
)
def test_search_finds_words_typed_without_accents(
    page: Page, site_url: str, start: str, plain: str, accented: str
) -> None:
    found: dict[str, set[str]] = {}
    for query in (accented, plain):
        page.goto(site_url + start)
        open_search(page)
        page.locator(".md-search__input").press_sequentially(query)
        found[query] = {urlsplit(href).path for href in settled_results(page)}
    assert found[plain] == found[accented]


def test_switcher_keeps_the_section(page: Page, site_url: str) -> None:
    page.goto(site_url + "/rules/#completed-first")
    _switch(page, "es")
    expect(page).to_have_url(re.compile(r"/schotten/es/rules/#completed-first$"))
    expect(page.locator("#completed-first")).to_be_in_viewport()
    page.goto(site_url + "/es/edge-cases/#case-no-wrap-around")
    _switch(page, "fr")
    expect(page).to_have_url(re.compile(r"/schotten/edge-cases/#case-no-wrap-around$"))
    expect(page.locator("#case-no-wrap-around details")).to_have_attribute("open", "")


PAGES = ["", "rules/", "edge-cases/", "tactics/", "rulings/", "odds/", "proofs/"]
BEFORE_EDGE_CASES = 74_300  # px at 390 px, when every case was shown twice


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_every_page_fits_a_phone(page: Page, site_url: str, lang: str) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    for path in PAGES:
        page.goto(site_url + "/" + ("es/" if lang == "es" else "") + path)
        fit = page.evaluate(
            """() => ({
                sideways: document.documentElement.scrollWidth
                    - document.documentElement.clientWidth,
                tables: [...document.querySelectorAll('article table')]
                    .map(t => t.getBoundingClientRect())
                    .filter(b => b.width > 390 || b.right > 390 || b.left < 0).length,
                name: [...document.querySelectorAll('.md-header__topic .md-ellipsis')]
                    .filter(e => e.scrollWidth > e.clientWidth + 1).length,
                height: document.documentElement.scrollHeight,
            })"""
        )
        assert fit["sideways"] == 0, (path, fit)
        assert fit["tables"] == 0, (path, fit)  # no table wider than the screen
        assert fit["name"] == 0, (path, fit)  # the site's name is not cut in the header
        if path == "edge-cases/":
            assert fit["height"] <= BEFORE_EDGE_CASES / 2, fit


def test_search_shows_results_in_the_page_language_only(
    page: Page, site_url: str, outside_requests: list[str]
) -> None:
    for start, inside in (
        ("/edge-cases/", r"/schotten/(?!es/)"),
        ("/es/edge-cases/", "/schotten/es/"),
    ):
        page.goto(site_url + start)
        open_search(page)
        # Typed key by key (the theme searches on key events); the same word in both languages.
        page.locator(".md-search__input").press_sequentially("Banshee")
        hrefs = settled_results(page)
        assert hrefs and all(re.search(inside, h) for h in hrefs), hrefs
        # The other language matched too, and was hidden.
        assert settled_results(page, shown=False)
    assert outside_requests == []


def test_the_search_index_is_fetched_only_once_search_is_opened(page: Page, site_url: str) -> None:
    asked: list[str] = []
    page.on(
        "request",
        lambda request: asked.append(request.url) if "search_index" in request.url else None,
    )
    page.goto(site_url + "/rules/", wait_until="networkidle")
    assert asked == []  # a page read without searching
    open_search(page)  # a tap in the box; waits until the index is ready
    assert len(asked) == 1
    # The theme's key « / » opens search too, on a page of the other language.
    page.goto(site_url + "/es/odds/", wait_until="networkidle")
    assert len(asked) == 1
    page.keyboard.press("/")
    expect(page.locator(".md-search__input")).to_be_focused()
    page.locator(".md-search__input").press_sequentially("Banshee")
    assert settled_results(page)
    assert len(asked) == 2


@pytest.mark.parametrize(
    ("start", "query", "said"),
    [("/edge-cases/", "Reclutador", "espagnol"), ("/es/edge-cases/", "Chasseur", "francés")],
)
def test_search_says_when_every_hit_is_in_the_other_language(
    page: Page, site_url: str, start: str, query: str, said: str
) -> None:
    page.goto(site_url + start)
    open_search(page)
    page.locator(".md-search__input").press_sequentially(query)
    meta = page.locator(".md-search-result__meta")
    expect(meta).to_contain_text(said, timeout=10_000)
    expect(page.locator(".md-search-result__item:not([hidden])")).to_have_count(0)


@pytest.fixture(scope="module")
def elsewhere_url(_served: tuple[Path, str], relative_site: Path) -> str:
    """The site built without SITE_URL (as anyone building it would) and served under
    /elsewhere/, a base path it was never told about (by the run's shared server)."""
    www, url = _served
    shutil.copytree(relative_site, www / "elsewhere", dirs_exist_ok=True)
    return url.rsplit("/", 1)[0] + "/elsewhere"


def _switch(page: Page, lang: str) -> None:
    page.locator(".md-header .md-select").first.hover()
    page.locator(f'.md-select__link[hreflang="{lang}"]').click()


def test_switcher_works_under_another_base_path_both_ways(
    page: Page, elsewhere_url: str, outside_requests: list[str]
) -> None:
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on(
        "response", lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None
    )
    page.goto(elsewhere_url + "/")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    _switch(page, "es")
    expect(page).to_have_url(re.compile(r"/elsewhere/es/$"))
    expect(page.locator("html")).to_have_attribute("lang", "es")
    _switch(page, "fr")
    expect(page).to_have_url(re.compile(r"/elsewhere/$"))
    expect(page.locator("html")).to_have_attribute("lang", "fr")

    page.goto(elsewhere_url + "/rulings/")
    _switch(page, "es")
    expect(page).to_have_url(re.compile(r"/elsewhere/es/rulings/$"))
    expect(page.locator("article h1")).to_contain_text("Las decisiones del sitio")
    _switch(page, "fr")
    expect(page).to_have_url(re.compile(r"/elsewhere/rulings/$"))
    expect(page.locator("article h1")).to_contain_text("Les arbitrages du site")
    page.wait_for_load_state("networkidle")
    assert problems == []
    assert outside_requests == []


@pytest.mark.parametrize("path", ["/odds/", "/es/odds/"])
def test_odds_tables_fit_a_phone_and_stay_short_on_a_desktop(
    page: Page, site_url: str, path: str
) -> None:
    measure = """() => ({
        page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        tables: [...document.querySelectorAll('.schotten-odds table')].map(t => {
            const box = t.getBoundingClientRect();
            return {right: box.right, height: box.height};
        }),
    })"""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(site_url + path)
    phone = page.evaluate(measure)
    assert phone["page"] == 0  # nothing scrolls sideways
    assert phone["tables"] and all(t["right"] <= 390 for t in phone["tables"]), phone
    # The chart's text, as drawn: its font size scaled by the picture's shrinking.
    chart_text = page.evaluate(
        """() => {
            const svg = document.querySelector('svg.schotten-odds-chart');
            const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
            return Math.min(...[...svg.querySelectorAll('text')].map(
                t => parseFloat(getComputedStyle(t).fontSize) * scale));
        }"""
    )
    assert chart_text >= 11, chart_text
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(site_url + path)
    desktop = page.evaluate(measure)
    assert all(t["height"] < 800 for t in desktop["tables"]), desktop
