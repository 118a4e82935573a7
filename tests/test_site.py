"""The built site and its publishing gate: real `mkdocs build` runs, on the project and on copies.

The FAQ tables are compared with what the engine computes now (``run_case``), never with words
written in the test. The gate is checked on temporary copies of the project: a flipped verdict,
an invalid case file, a page or a case text missing in Spanish each refuse the build, name the
file, and leave an existing site untouched.
"""

from __future__ import annotations

import re
import shutil
from html import unescape as html_unescape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin

import pytest
from sites import mkdocs_build

from schotten.casebook import Case, load_cases
from schotten.casebook.case import FAQ_TABLE
from schotten.casebook.files import LOCK_NAME
from schotten.casebook.run import run_case
from schotten.site import LANGUAGES, labels
from schotten.site.publish import main as publish
from schotten.site.typography import spacing_faults
from schotten.site.verified import card_with_article

ROOT = Path(__file__).resolve().parents[1]
PROJECT_PARTS = ("mkdocs.yml", "site_src", "site_theme", "cases", "scripts")
FAQ_PAGE = {"fr": "edge-cases/index.html", "es": "es/edge-cases/index.html"}


def copy_project(dest: Path) -> Path:
    """A copy of the project with the published cases only (the gate's subject here is the FAQ;
    regression cases have their own tests)."""
    dest.mkdir(parents=True)
    for part in PROJECT_PARTS:
        source = ROOT / part
        if part == "cases":
            (dest / part).mkdir()
            for case in load_cases(source):
                if case.published is not None:
                    shutil.copy2(case.path, dest / part / case.path.name)
            shutil.copy2(source / LOCK_NAME, dest / part / LOCK_NAME)
        elif source.is_dir():
            shutil.copytree(source, dest / part, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, dest / part)
    return dest


def minimal_project(dest: Path) -> Path:
    """A copy whose only page shows the published tables and their details (both languages),
    the FAQ table first: builds fast, depends on no prose."""
    copy_project(dest)
    for page in (dest / "site_src").glob("*.md"):
        page.unlink()
    others = sorted(
        {c.published.table for c in load_cases(dest / "cases") if c.published is not None}
        - {FAQ_TABLE}
    )
    tables = "".join(
        f"## {t}\n\n{{{{ verdict_table('{t}') }}}}\n\n{{{{ verdict_details('{t}') }}}}\n\n"
        for t in others
    )
    for lang, suffix in (("fr", ""), ("es", ".es")):
        (dest / "site_src" / f"index{suffix}.md").write_text(
            f"# FAQ {lang}\n\n## Table\n\n{{{{ verdict_table() }}}}\n\n## Details\n\n"
            f"{{{{ verdict_details() }}}}\n\n{tables}",
            encoding="utf-8",
        )
    config = (dest / "mkdocs.yml").read_text(encoding="utf-8")
    config = re.sub(r"(?ms)^nav:\n.*?(?=^\S)", "nav:\n  - Accueil: index.md\n\n", config)
    (dest / "mkdocs.yml").write_text(config, encoding="utf-8")
    return dest


def _in_faq(case: Case) -> bool:
    return case.published is not None and case.published.table == FAQ_TABLE


def published(cases_dir: Path) -> list[tuple[object, object]]:
    """(case, result) for every published case, in FAQ order, as the engine computes now."""
    return [(c, run_case(c)) for c in load_cases(cases_dir) if _in_faq(c)]


class _Page(HTMLParser):
    """The first table's rows (cell texts and links), ids, and asset URLs of one HTML page."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.row_links: list[list[str]] = []
        self.ids: set[str] = set()
        self.assets: list[str] = []
        self.alternates: dict[str, str] = {}
        self.lang = ""
        self.svg_classes: list[str] = []
        self._tables = 0
        self._in_table = False
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "html":
            self.lang = a.get("lang", "")
        if tag in ("script", "img", "iframe", "source") and a.get("src"):
            self.assets.append(a["src"])
        if (
            tag == "link"
            and a.get("href")
            and a.get("rel") != "canonical"
            and "alternate" not in a.get("rel", "")
        ):
            self.assets.append(a["href"])
        if tag == "a" and a.get("hreflang"):
            self.alternates[a["hreflang"]] = a.get("href", "")
        if tag == "g" and a.get("class"):
            self.svg_classes.append(a["class"])
        if tag == "table":
            self._tables += 1
            self._in_table = self._tables == 1
        if not self._in_table:
            return
        if tag == "tr":
            self.rows.append([])
            self.row_links.append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "a" and self.row_links:
            self.row_links[-1].append(a.get("href", ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self._in_table = False
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def read_page(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def expected_verdict(result: object, lang: str) -> str:
    words = labels(lang)["verdicts"]
    verdicts = result.verdicts  # type: ignore[attr-defined]
    said = {words["granted" if v.granted else "refused"] for v in verdicts}
    assert len(said) == 1, "a published case with mixed verdicts needs its own expectation here"
    return said.pop()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real project, built once, strictly."""
    out = tmp_path_factory.mktemp("site")
    run = mkdocs_build(ROOT, out)
    assert run.returncode == 0, run.stderr
    return out


# --- the built site -------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_faq_table_has_one_row_per_published_case_with_engine_verdicts(
    site: Path, lang: str
) -> None:
    page = read_page(site / FAQ_PAGE[lang])
    rows = page.rows[1:]
    cases = published(ROOT / "cases")
    assert len(rows) == len(cases)
    for row, (case, result) in zip(rows, cases, strict=True):
        situation = " ".join(case.situation[lang].split())  # type: ignore[attr-defined]
        why = " ".join(case.why[lang].split())  # type: ignore[attr-defined]
        assert row == [situation, expected_verdict(result, lang), why], case.path  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_row_links_to_a_detail_entry_with_the_position(site: Path, lang: str) -> None:
    page = read_page(site / FAQ_PAGE[lang])
    cases = published(ROOT / "cases")
    for links, (case, _) in zip(page.row_links[1:], cases, strict=True):
        anchor = f"case-{case.id}"  # type: ignore[attr-defined]
        assert links == [f"#{anchor}"]
        assert anchor in page.ids
        for stone in case.claim:  # type: ignore[attr-defined]
            assert any(c.startswith(f"stone s{stone} claimed") for c in page.svg_classes)


def test_refusal_by_proof_shows_the_witness_in_each_language(site: Path) -> None:
    ((_, result),) = [
        (c, r)
        for c, r in published(ROOT / "cases")
        if c.id == "hand-is-not-proof"  # type: ignore[attr-defined]
    ]
    (verdict,) = result.verdicts  # type: ignore[attr-defined]
    assert verdict.witness is not None
    for lang in LANGUAGES:
        html = (site / FAQ_PAGE[lang]).read_text(encoding="utf-8")
        names = labels(lang)
        card = verdict.witness.cards[0]
        section = html[html.index('id="case-hand-is-not-proof"') :]
        section = section[: section.index("<h4", 10)]
        assert card_with_article(card, lang) in section
        assert names["formations_a"]["same-value"] in section
        assert names["reasons"]["opponent-can-beat"] in section


@pytest.mark.parametrize("lang", LANGUAGES)
def test_language_switcher_leads_to_the_same_page(site: Path, lang: str) -> None:
    page = read_page(site / FAQ_PAGE[lang])
    assert page.lang == lang
    here = "http://host/schotten/" + FAQ_PAGE[lang].removesuffix("index.html")
    assert urljoin(here, page.alternates["fr"]) == "http://host/schotten/edge-cases/"
    assert urljoin(here, page.alternates["es"]) == "http://host/schotten/es/edge-cases/"


def test_every_page_exists_in_both_languages(site: Path) -> None:
    french = {
        p.relative_to(site) for p in site.rglob("index.html") if p.parts[len(site.parts)] != "es"
    }
    spanish = {p.relative_to(site / "es") for p in (site / "es").rglob("index.html")}
    assert french == spanish
    assert len(french) == 7


def test_nothing_is_loaded_from_another_host(site: Path) -> None:
    for path in site.rglob("*.html"):
        page = read_page(path)
        outside = [u for u in page.assets if re.match(r"(?i)^(https?:)?//", u)]
        assert outside == [], path
    for path in site.rglob("*.css"):
        text = path.read_text(encoding="utf-8", errors="replace")
        assert not re.search(r"""(?i)(@import|url\()\s*["']?(https?:)?//""", text), path


def test_search_index_holds_both_languages_with_their_stemmers(site: Path) -> None:
    import json

    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert sorted(index["config"]["lang"]) == ["es", "fr"]
    locations = {d["location"].split("/")[0] for d in index["docs"]}
    assert "es" in locations and "edge-cases" in locations


# --- the gate, on copies of the project --------------------------------------------------------


def _old_site(path: Path) -> Path:
    path.mkdir()
    (path / "index.html").write_text("the previous site", encoding="utf-8")
    return path


def _assert_untouched(site: Path) -> None:
    assert [p.name for p in site.iterdir()] == ["index.html"]
    assert (site / "index.html").read_text(encoding="utf-8") == "the previous site"


def test_changed_verdict_refuses_to_build_and_keeps_the_old_site(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    case_file = project / "cases" / "hand-is-not-proof.yaml"
    text = case_file.read_text(encoding="utf-8")
    flipped = re.sub(
        r"verdict: refused\n(\s+)reason: opponent-can-beat\n\s+witness: .*\n",
        r"verdict: granted\n\1reason: unbeatable\n",
        text,
    )
    assert flipped != text
    case_file.write_text(flipped, encoding="utf-8")
    line = 1 + flipped[: flipped.index("      verdict: granted")].count("\n")
    old = _old_site(tmp_path / "old-site")

    run = mkdocs_build(project, old)

    assert run.returncode == 1
    assert (
        f"cases/hand-is-not-proof.yaml:{line}: stone 4 recorded granted (unbeatable), "
        "engine now refused (opponent-can-beat; witness "
    ) in run.stderr
    assert "Aborted with a BuildError" in run.stdout + run.stderr
    _assert_untouched(old)


def test_invalid_case_file_refuses_to_build(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    case_file = project / "cases" / "no-wrap-around.yaml"
    case_file.write_text(
        case_file.read_text(encoding="utf-8").replace(
            "variant: base", "variant: base\ncolour_note: x"
        ),
        encoding="utf-8",
    )
    old = _old_site(tmp_path / "old-site")
    run = mkdocs_build(project, old)
    assert run.returncode == 1
    assert re.search(r"invalid case file: cases/no-wrap-around\.yaml:\d+:\d+: ", run.stderr), (
        run.stderr
    )
    _assert_untouched(old)


def test_page_missing_in_spanish_refuses_to_build(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    (project / "site_src" / "rules.es.md").unlink()
    old = _old_site(tmp_path / "old-site")
    run = mkdocs_build(project, old)
    assert run.returncode == 1
    assert "site_src/rules.es.md: page missing in es" in run.stderr
    _assert_untouched(old)


def test_case_text_missing_in_spanish_refuses_to_build(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    case_file = project / "cases" / "no-wrap-around.yaml"
    text = case_file.read_text(encoding="utf-8")
    trimmed = re.sub(r"(situation:\n\s+fr: .*\n)\s+es: .*\n", r"\1", text)
    assert trimmed != text
    case_file.write_text(trimmed, encoding="utf-8")
    old = _old_site(tmp_path / "old-site")
    run = mkdocs_build(project, old)
    assert run.returncode == 1
    assert "cases/no-wrap-around.yaml" in run.stderr
    assert "es" in run.stderr[run.stderr.index("cases/no-wrap-around.yaml") :]
    _assert_untouched(old)


@pytest.mark.parametrize(
    ("page", "true", "false", "message"),
    [
        (
            "rules.md",
            'example("blue 5, blue 6, blue 7", "colour-run")',
            'example("blue 5, blue 6, blue 8", "colour-run")',
            "not a colour run",
        ),
        ("rules.es.md", 'fact("clan-cards", 54)', 'fact("clan-cards", 55)', "clan-cards"),
    ],
)
def test_false_example_in_a_page_refuses_to_build(
    tmp_path: Path, page: str, true: str, false: str, message: str
) -> None:
    project = copy_project(tmp_path / "project")
    source = project / "site_src" / page
    text = source.read_text(encoding="utf-8")
    assert true in text
    source.write_text(text.replace(true, false, 1), encoding="utf-8")
    old = _old_site(tmp_path / "old-site")
    run = mkdocs_build(project, old)
    assert run.returncode == 1
    assert f"site_src/{page}" in run.stderr
    assert message in run.stderr
    _assert_untouched(old)


def test_case_text_with_markup_is_published_as_text(tmp_path: Path) -> None:
    project = minimal_project(tmp_path / "project")
    evil = "Ta <script>alert(1)</script> | **gras** [lien](https://evil.example/) `x` _y_ {: #z }"
    case_file = project / "cases" / "no-wrap-around.yaml"
    text = case_file.read_text(encoding="utf-8")
    case_file.write_text(
        re.sub(r"(situation:\n\s+fr: ).*\n", lambda m: f"{m[1]}'{evil}'\n", text, count=1),
        encoding="utf-8",
    )
    run = mkdocs_build(project, tmp_path / "out")
    assert run.returncode == 0, run.stderr
    page = read_page(tmp_path / "out" / "index.html")
    rows = {row[0]: row for row in page.rows[1:]}
    assert evil in rows
    assert len(rows[evil]) == 3
    html = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert "<script>alert" not in html
    assert "evil.example" not in "".join(re.findall(r'href="[^"]*"', html))
    assert 'id="z"' not in html


def _build_folders(folder: Path) -> list[str]:
    """Folders a build or a swap leaves behind if it does not clean up (locks are files)."""
    return [p.name for p in folder.iterdir() if p.is_dir() and p.name.startswith(".site-")]


def test_publish_swaps_the_site_in_only_after_a_clean_build(tmp_path: Path) -> None:
    project = minimal_project(tmp_path / "project")
    site = _old_site(tmp_path / "site")
    case_file = project / "cases" / "hand-is-not-proof.yaml"
    good = case_file.read_text(encoding="utf-8")
    case_file.write_text(good.replace("verdict: refused", "verdict: granted"), encoding="utf-8")

    assert publish(["--root", str(project), "--site-dir", str(site), "--skip-tests"]) == 1
    _assert_untouched(site)
    assert _build_folders(tmp_path) == []

    case_file.write_text(good, encoding="utf-8")
    assert publish(["--root", str(project), "--site-dir", str(site), "--skip-tests"]) == 0
    assert (site / "es" / "index.html").is_file()
    assert "the previous site" not in (site / "index.html").read_text(encoding="utf-8")
    assert _build_folders(tmp_path) == []


# --- what a reader sees: French spacing, the page's language, our own words -----------------


class _Text(HTMLParser):
    """Every text a reader sees or hears on a page: text nodes (pictures included), and the
    title, label and placeholder attributes; code, scripts and styles left out."""

    SKIP = frozenset({"script", "style", "code", "pre"})
    SPOKEN = frozenset({"title", "aria-label", "placeholder", "alt"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIP:
            self._skip += 1
        self.texts += [v for k, v in attrs if k in self.SPOKEN and v]

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.texts.append(data)


def reader_texts(path: Path) -> list[str]:
    parser = _Text()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser.texts


def pages_of(site: Path, lang: str) -> list[Path]:
    """The HTML pages of one language, the 404 page included."""
    spanish = site / "es"
    return sorted(
        p
        for p in site.rglob("*.html")
        if "assets" not in p.relative_to(site).parts
        and (p.is_relative_to(spanish) == (lang == "es"))
    )


def test_french_pages_have_no_spacing_fault(site: Path) -> None:
    faults = [
        f"{path.relative_to(site)}: {fault}"
        for path in pages_of(site, "fr")
        for text in reader_texts(path)
        for fault in spacing_faults(text)
    ]
    assert faults == []


def test_spacing_check_finds_a_fault_in_a_page(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text(
        '<p title="Borne 4 : Refusée">Oui ; non</p><code>a ; b</code>', encoding="utf-8"
    )
    found = [f for t in reader_texts(page) for f in spacing_faults(t)]
    assert found == [
        'ordinary space before ":" in "rne 4 : Ref"',
        'ordinary space before ";" in "Oui ; non"',
    ]


# Interface strings the theme and MkDocs write in English unless told otherwise.
ENGLISH = (
    "Permanent link",
    "Made with",
    "Material for MkDocs",
    "Not found",
    "Skip to content",
    "Back to top",
    "Table of contents",
    "Initializing search",
    "Type to start searching",
    "Previous",
    "Next",
    "Search",
    "Clear",
    "Share",
    "Header",
    "Footer",
    "Select language",
    "Copy to clipboard",
    "Edit this page",
)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_english_interface_string(site: Path, lang: str) -> None:
    found = sorted(
        {
            f"{path.relative_to(site)}: {text.strip()!r}"
            for path in pages_of(site, lang)
            for text in reader_texts(path)
            for english in ENGLISH
            if re.search(rf"(?<![\\w-]){re.escape(english)}(?![\\w-])", text)
        }
    )
    assert found == []


def test_each_language_has_its_own_404_page(site: Path) -> None:
    for lang, path in (("fr", site / "404.html"), ("es", site / "es" / "404.html")):
        page = read_page(path)
        assert page.lang == lang, path
        texts = reader_texts(path)
        assert labels(lang)["theme"]["not_found_title"] in texts, path


def test_links_lead_nowhere_but_the_site(site: Path) -> None:
    # Without SITE_URL the site has no address of its own: no canonical link, no sitemap, and
    # every link relative, so that it works under any base path. The 404 pages too: theirs start
    # from the site's root, which they find wherever they are served (tests/browser).
    for path in pages_of(site, "fr") + pages_of(site, "es"):
        html = path.read_text(encoding="utf-8")
        assert 'rel="canonical"' not in html, path
        hrefs = re.findall(r'(?:href|src)="([^"]*)"', html)
        absolute = [h for h in hrefs if h.startswith("/") or "example.org" in h]
        assert absolute == [], path
    assert not (site / "sitemap.xml").exists()


# Passages that kept long runs of the source pages' words, and statements that misled players:
# none may come back (compared with the spaces of French typography made ordinary).
GONE = (
    "revient au joueur dont le côté est complet ; sinon",
    "un Brelan est plus rare qu'une Couleur, et l'ordre des combinaisons",
    "Conquistar una piedra cuyo lado contrario aún no está completo",
    "El reglamento ofrece también una variante para expertos",
    "todo lo demás: solo cuenta el total",
    "Ta Suite couleur 1-2-3 contre son 9-9-8",
    "Tu Escalera de color 1-2-3 contra su 9-9-8",
    "Ton Brelan de 2 contre sa Couleur",
    "Situation (tu revendiques) Verdict du moteur",
    "dans le lot des cartes qu'il pourrait",
    "n'ont pas de valeur fixe",
    "n'a pas de valeur fixe",
    "no tienen una fuerza fija",
    "no tiene una fuerza fija",
    "cartes à tout faire",
    "como comodines",
    "Tu prends toutes les Bornes dont tu peux prouver",
    "Te quedas con todas las piedras",
    "Ta main ne dépasse jamais",
    "nunca puede superar",
    "ne peut jamais tenir plus de",
    "la plus modeste des Suites",
    "ordre d'arrivée",
    "orden de llegada",
    "(revendiquée)",
)


def test_reused_and_misleading_passages_are_gone(site: Path) -> None:
    def plain(text: str) -> str:
        return " ".join(text.replace("\u00a0", " ").replace("\u202f", " ").split())

    found = []
    for lang in LANGUAGES:
        for path in pages_of(site, lang):
            text = plain(" ".join(reader_texts(path)))
            found += [f"{path.relative_to(site)}: {g}" for g in GONE if plain(g) in text]
    assert found == []


# --- every published case, its moves, and the links to it -----------------------------------


def _published_by_table() -> dict[str, list[Case]]:
    tables: dict[str, list[Case]] = {}
    for case in load_cases(ROOT / "cases"):
        if case.published is not None:
            tables.setdefault(case.published.table, []).append(case)
    return tables


def _section(html: str, anchor: str) -> str:
    """The HTML of one case's detail entry, from its heading to the next heading."""
    start = html.index(f'id="{anchor}"')
    ends = [i for i in (html.find("<h4", start + 10), html.find("<h3", start + 10)) if i > 0]
    return html[start : min(ends)] if ends else html[start:]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_published_case_has_a_row_and_a_detail_entry(site: Path, lang: str) -> None:
    html = (site / FAQ_PAGE[lang]).read_text(encoding="utf-8")
    rows = html[: html.index('id="details"')]  # the tables, before the detail entries
    tables = _published_by_table()
    assert len(tables) >= 2 and sum(len(c) for c in tables.values()) >= 11 + 15
    for cases in tables.values():
        for case in cases:
            anchor = f"case-{case.id}"
            assert rows.count(f'href="#{anchor}"') == 1, case.path  # its row's verdict link
            assert '<svg xmlns="http://www.w3.org/2000/svg" class="position"' in _section(
                html, anchor
            ), case.path


@pytest.mark.parametrize("lang", LANGUAGES)
def test_play_on_cases_show_each_move_with_the_engine_answer(site: Path, lang: str) -> None:
    html = (site / FAQ_PAGE[lang]).read_text(encoding="utf-8")
    words = labels(lang)
    played = [c for cases in _published_by_table().values() for c in cases if c.play_on]
    assert played
    for case in played:
        steps = run_case(case).computed.play_on.steps  # type: ignore[union-attr]
        section = _section(html, f"case-{case.id}")
        moves = re.findall(r"<li>(.*?)</li>", section, re.S)
        assert len(moves) == len(steps), case.path
        for move, step in zip(moves, steps, strict=True):
            if step == "ok":
                assert move.endswith(f"→ {words['moves']['accepted']}"), move
            else:
                rule = step.removeprefix("illegal ")
                said = f"→ {words['moves']['refused']} ({words['rules'][rule]})"
                assert html_unescape(move).endswith(said), move


@pytest.mark.parametrize(
    ("page", "sections"),
    [
        (
            "rulings",
            (
                "pass",
                "empty-deck",
                "completed-first",
                "elite-troop-value",
                "claim-wild-pool",
                "claim-together",
                "claim-closed",
                "combat-mode",
                "ruse-target",
                "recruiter",
                "deadlock",
                "match-scoring",
            ),
        ),
        (
            "tactics",
            (
                "tactic-count",
                "elite-troop-value",
                "joker-once",
                "mud-fight",
                "blind-mans-bluff",
                "recruiter",
                "strategist",
                "banshee",
                "traitor",
            ),
        ),
    ],
)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_ruling_and_tactic_card_links_to_its_cases(
    site: Path, lang: str, page: str, sections: tuple[str, ...]
) -> None:
    folder = site / page if lang == "fr" else site / "es" / page
    html = (folder / "index.html").read_text(encoding="utf-8")
    pinning = {
        rule: {
            case.id
            for cases in _published_by_table().values()
            for case in cases
            if rule in {str(r) for r in case.rules}
        }
        for rule in sections
    }
    for section_id in sections:
        start = html.index(f'id="{section_id}"')
        end = html.find("<h2", start + 10)
        nxt = html.find("<h3", start + 10)
        part = html[start : min(i for i in (end, nxt, len(html)) if i > 0)]
        linked = set(
            re.findall(r'href="\.\./(?:\.\./)?(?:es/)?edge-cases/#case-([a-z0-9-]+)"', part)
        )
        assert linked and linked == pinning[section_id], (section_id, linked)
