"""What the player pages say, on the built site: counts and the refused multi-claim in one
wording, every site ruling labelled where a page states or links it, no engine on the player
pages, the proofs page in the footer only, and the verdict tables as real tables."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest

from schotten.site import LANGUAGES, labels
from schotten.site.rulings import SITE_RULINGS

PLAYER_PAGES = ("", "rules/", "edge-cases/", "tactics/", "rulings/", "odds/")
RULING = {"fr": r"arbitrages? du site", "es": r"decisi(ón|ones) del sitio"}
TAG = re.compile(r"<[^>]+>")


@pytest.fixture(scope="module")
def site(relative_site: Path) -> Path:
    """The site as anyone builds it, built once for the run (tests/conftest.py)."""
    return relative_site


def _page(site: Path, lang: str, page: str) -> str:
    return (site / ("es/" if lang == "es" else "") / page / "index.html").read_text("utf-8")


def _article(html: str) -> str:
    return html[html.index("<article") : html.index("</article>")]


def _prose(html: str) -> str:
    """The page's own prose: the case tables (texts of the case files) left out."""
    return re.sub(r'<table class="cases">.*?</table>', "", html, flags=re.S)


def _plain(html: str) -> str:
    text = unescape(TAG.sub(" ", html))
    return " ".join(text.replace("\u00a0", " ").replace("\u202f", " ").split())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_engine_on_player_pages_but_one_sentence_of_trust_at_home(site: Path, lang: str) -> None:
    word = {"fr": r"\bmoteurs?\b", "es": r"\bmotor(es)?\b"}[lang]
    # The case files' texts count too: a case's answer is read by players as much as a page.
    pages = (*PLAYER_PAGES, "play/")
    found = {
        page: len(re.findall(word, _plain(_article(_page(site, lang, page))), re.I))
        for page in pages
    }
    assert found == {page: (1 if page == "" else 0) for page in pages}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_proofs_leave_the_navigation_for_the_footer(site: Path, lang: str) -> None:
    words = labels(lang)["theme"]
    for page in PLAYER_PAGES:
        html = _page(site, lang, page)
        nav = html[html.index('<nav class="md-nav md-nav--primary"') :]
        nav = nav[: nav.index("</nav>")]
        assert "proofs/" not in nav, page
        footer = html[html.index("<footer") :]
        assert re.search(r'<a href="[./]*proofs/">' + re.escape(words["proofs_link"]), footer)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_refused_claim_costs_nothing_in_one_wording_on_every_page(site: Path, lang: str) -> None:
    sentence = " ".join(labels(lang)["faq"]["refusal_costs_nothing"].split())
    sentence = sentence.replace("\u00a0", " ").replace("\u202f", " ")
    for page in ("rules/", "edge-cases/", "rulings/"):
        assert sentence in _plain(_article(_page(site, lang, page))), page


FALSE = {
    "fr": (
        "une carte de plus qu’au début du tour",
        "les trois pioches",
        "tu ne prends aucune Borne (",
    ),
    "es": ("una carta más que al empezar el turno", "los tres mazos", "no te quedas con ninguna ("),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_false_counts_are_gone(site: Path, lang: str) -> None:
    text = " ".join(_plain(_article(_page(site, lang, page))) for page in PLAYER_PAGES)
    assert [f for f in FALSE[lang] if f in text] == []


_BLOCK = re.compile(r"<(p|li|td)\b[^>]*>(.*?)</\1>", re.S)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_link_to_a_ruling_carries_the_label(site: Path, lang: str) -> None:
    """A paragraph, item or cell that links to a ruling's reason names it a site ruling."""
    unlabelled = []
    ids = "|".join(sorted(str(r) for r in SITE_RULINGS))
    link = re.compile(rf'href="[./]*rulings/#({ids})"')
    for page in PLAYER_PAGES:
        if page == "rulings/":
            continue
        for match in _BLOCK.finditer(_article(_page(site, lang, page))):
            inner = match[2]
            if "<p" in inner or "<li" in inner:
                continue  # the innermost block holds the link
            if link.search(inner) and not re.search(RULING[lang], _plain(inner).lower()):
                unlabelled.append(f"{page}: {_plain(inner)[:80]}")
    assert unlabelled == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_cases_pinning_a_ruling_are_labelled_beside_their_answer(site: Path, lang: str) -> None:
    html = _page(site, lang, "edge-cases/")
    rows = re.findall(r'<tbody class="case" id="([^"]+)">(.*?)</tbody>', html, re.S)
    tagged = [cid for cid, body in rows if 'class="case__ruling-tag"' in body]
    assert "case-pass-when-every-side-is-full" in tagged
    assert "case-joker-may-copy-a-card-on-its-own-side" in tagged
    assert "case-hand-is-not-proof" not in tagged


@pytest.mark.parametrize("lang", LANGUAGES)
def test_faq_and_themes_are_tables_with_three_columns(site: Path, lang: str) -> None:
    html = _page(site, lang, "edge-cases/")
    tables = re.findall(r'<table class="cases">(.*?)</table>', html, re.S)
    assert len(tables) == 7  # the FAQ and six themes
    words = labels(lang)["faq"]
    head = [unescape(h) for h in re.findall(r'<th scope="col">(.*?)</th>', tables[0])]
    assert head == [words["situation"], words["verdict"], words["why"]]
    assert tables[0].count('<tbody class="case"') == 11


@pytest.mark.parametrize("lang", LANGUAGES)
def test_titles_join_with_one_separator(site: Path, lang: str) -> None:
    for page in (*PLAYER_PAGES, "proofs/"):
        found = re.search(r"<title>(.*?)</title>", _page(site, lang, page), re.S)
        assert found is not None, page
        title = unescape(found[1])
        assert " - " not in title and title.count("Schotten Totten") == 1, title
        assert title.count("—") <= 1, title
