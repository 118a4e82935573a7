"""The built site and its publishing gate: real `mkdocs build` runs, on the project and on copies.

The FAQ tables are compared with what the engine computes now (``run_case``), never with words
written in the test. The gate is checked on temporary copies of the project: a flipped verdict,
an invalid case file, a page or a case text missing in Spanish each refuse the build, name the
file, and leave an existing site untouched.
"""

from __future__ import annotations

import functools
import re
import shutil
from html import unescape as html_unescape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin

import pytest
from sites import mkdocs_build

from schotten.casebook import Case
from schotten.casebook.files import LOCK_NAME
from schotten.casebook.folder import load_cases
from schotten.casebook.model import FAQ_TABLE
from schotten.casebook.run import run_case
from schotten.site import LANGUAGES, SiteCheckError, gate, labels, plays
from schotten.site.publish import main as publish
from schotten.site.words import card_with_article
from schotten.typography import spacing_faults

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
    """A copy whose only page shows the published tables (both languages),
    the FAQ table first: builds fast, depends on no prose."""
    copy_project(dest)
    for page in (dest / "site_src").glob("*.md"):
        page.unlink()
    others = sorted(
        {c.published.table for c in load_cases(dest / "cases") if c.published is not None}
        - {FAQ_TABLE}
    )
    tables = "".join(f"## {t}\n\n{{{{ verdict_table('{t}') }}}}\n\n" for t in others)
    for lang, suffix in (("fr", ""), ("es", ".es")):
        (dest / "site_src" / f"index{suffix}.md").write_text(
            f"# FAQ {lang}\n\n## Table\n\n{{{{ verdict_table() }}}}\n\n{tables}",
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


_CASE = re.compile(
    r'<tbody class="case" id="(?P<id>[^"]+)">\s*<tr class="case__row">'
    r'<th scope="row" class="case__situation">(?P<situation>.*?)</th>\s*'
    r'<td class="case__verdict"><a class="(?P<cls>[^"]+)" href="(?P<href>[^"]*)">'
    r"(?P<verdict>.*?)</a></td>\s*"
    r'<td class="case__why"><span class="case__why-text">(?P<why>.*?)</span>.*?</td></tr>\s*'
    r'<tr class="case__more"><td colspan="3">\s*<details class="case__details">'
    r"(?P<details>.*?)</details>\s*</td></tr>\s*</tbody>",
    re.S,
)


def _flat(text: str) -> str:
    """Text with its spaces collapsed and its no-break hyphens (U+2011) as typed."""
    return " ".join(text.split()).replace("\u2011", "-")


def read_cases(html: str) -> list[dict[str, str]]:
    """Every case of a page, in order: id, situation, verdict, its link, why, the details' HTML."""
    return [
        {
            k: (html_unescape(v) if k in ("situation", "verdict", "why") else v)
            for k, v in m.groupdict().items()
        }
        for m in _CASE.finditer(html)
    ]


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
def site(relative_site: Path) -> Path:
    """The real project, built strictly without SITE_URL: once per run (tests/conftest.py)."""
    return relative_site


# --- the built site -------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_faq_cases_come_first_with_the_engine_verdicts(site: Path, lang: str) -> None:
    html = (site / FAQ_PAGE[lang]).read_text(encoding="utf-8")
    cases = published(ROOT / "cases")
    shown = read_cases(html[html.index('id="verdicts"') :])[: len(cases)]
    assert len(shown) == len(cases)
    for row, (case, result) in zip(shown, cases, strict=True):
        situation = _flat(case.situation[lang])  # type: ignore[attr-defined]
        why = _flat(case.why[lang])  # type: ignore[attr-defined]
        said = (_flat(row["situation"]), row["verdict"], _flat(row["why"]))
        assert said == (situation, expected_verdict(result, lang), why), case.path  # type: ignore[attr-defined]
    # The short answers come before the cases, and the cases before the long explanation.
    assert html.index('id="faq"') < html.index('id="verdicts"') < html.index('id="how"')


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_case_links_to_itself_and_draws_its_position_in_its_details(
    site: Path, lang: str
) -> None:
    html = (site / FAQ_PAGE[lang]).read_text(encoding="utf-8")
    shown = {c["id"]: c for c in read_cases(html)}
    for case, _ in published(ROOT / "cases"):
        anchor = f"case-{case.id}"  # type: ignore[attr-defined]
        assert shown[anchor]["href"] == f"#{anchor}"
        details = shown[anchor]["details"]
        assert details.lstrip().startswith("<summary>")
        for stone in case.claim:  # type: ignore[attr-defined]
            assert f'class="stone s{stone} claimed' in details, case.path  # type: ignore[attr-defined]


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
        (section,) = [c["details"] for c in read_cases(html) if c["id"] == "case-hand-is-not-proof"]
        section = html_unescape(section)
        assert card_with_article(card, lang) in section
        assert names["formations_a"]["same-value"] in section
        assert names["reasons"]["opponent-can-beat"] in section


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_claim_refused_by_one_stone_says_so_and_labels_the_ruling(
    site: Path, lang: str
) -> None:
    html = (site / FAQ_PAGE[lang]).read_text(encoding="utf-8")
    (case,) = [c for c in read_cases(html) if c["id"] == "case-one-refused-stone-refuses-the-claim"]
    names = labels(lang)
    assert case["verdict"] == names["verdicts"]["refused"]
    assert "verdict--refused" in case["cls"]
    details = html_unescape(case["details"])
    assert names["verdicts"]["granted"] not in details
    stone = names["words"]["stone"].capitalize()
    assert names["faq"]["stone_proven"].format(stone=stone, number=4) in details
    assert names["faq"]["stone_not_proven"].format(stone=stone, number=7) in details
    assert names["faq"]["claim_refused"] in details
    assert {"fr": "arbitrage du site", "es": "decisión del sitio"}[lang] in details.lower()


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
    assert len(french) == 8  # with the « Jouer » page


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


def gate_refusal(project: Path) -> str:
    """What the publishing gate says of ``project`` when it refuses it: the message a build
    prints, from the gate called in-process (the build through MkDocs is proven to stop on a
    refusal and keep the old site by the test above)."""
    with pytest.raises(SiteCheckError) as refused:
        gate.prepare(project / "site_src", project / "cases", display_root=project)
    return str(refused.value)


def test_invalid_case_file_refuses_to_build(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    case_file = project / "cases" / "no-wrap-around.yaml"
    case_file.write_text(
        case_file.read_text(encoding="utf-8").replace(
            "variant: base", "variant: base\ncolour_note: x"
        ),
        encoding="utf-8",
    )
    message = gate_refusal(project)
    assert re.search(r"invalid case file: cases/no-wrap-around\.yaml:\d+:\d+: ", message), message


def test_page_missing_in_spanish_refuses_to_build(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    (project / "site_src" / "rules.es.md").unlink()
    assert "site_src/rules.es.md: page missing in es" in gate_refusal(project)


def test_case_text_missing_in_spanish_refuses_to_build(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    case_file = project / "cases" / "no-wrap-around.yaml"
    text = case_file.read_text(encoding="utf-8")
    trimmed = re.sub(r"(situation:\n\s+fr: .*\n)\s+es: .*\n", r"\1", text)
    assert trimmed != text
    case_file.write_text(trimmed, encoding="utf-8")
    message = gate_refusal(project)
    assert "cases/no-wrap-around.yaml" in message
    assert "es" in message[message.index("cases/no-wrap-around.yaml") :]


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
    refusal = gate_refusal(project)
    assert f"site_src/{page}" in refusal
    assert message in refusal


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
    html = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert evil in [c["situation"] for c in read_cases(html)]
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


@functools.cache
def _published_by_table() -> dict[str, list[Case]]:
    """The published cases of the project by table, read once (callers only read it)."""
    tables: dict[str, list[Case]] = {}
    for case in load_cases(ROOT / "cases"):
        if case.published is not None:
            tables.setdefault(case.published.table, []).append(case)
    return tables


def _section(html: str, anchor: str) -> str:
    """The HTML of one case's details."""
    (case,) = [c for c in read_cases(html) if c["id"] == anchor]
    return case["details"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_published_case_is_shown_once_with_its_picture(site: Path, lang: str) -> None:
    html = (site / FAQ_PAGE[lang]).read_text(encoding="utf-8")
    tables = _published_by_table()
    assert len(tables) >= 2 and sum(len(c) for c in tables.values()) >= 11 + 15
    shown = [c["id"] for c in read_cases(html)]
    assert sorted(shown) == sorted(f"case-{c.id}" for cases in tables.values() for c in cases)
    assert html.count('<svg xmlns="http://www.w3.org/2000/svg" class="position"') == len(shown)
    assert " open" not in "".join(re.findall(r"<details[^>]*>", html))  # closed until tapped
    for cases in tables.values():
        for case in cases:
            assert html.count(f'id="case-{case.id}"') == 1, case.path
            assert "<svg" in _section(html, f"case-{case.id}"), case.path


@pytest.mark.parametrize("lang", LANGUAGES)
def test_play_on_cases_show_each_move_with_its_answer_as_a_sentence(site: Path, lang: str) -> None:
    html = (site / FAQ_PAGE[lang]).read_text(encoding="utf-8")
    words = labels(lang)
    colon = words["punctuation"]["colon"].lstrip(" ")
    played = [c for cases in _published_by_table().values() for c in cases if c.play_on]
    assert played
    for case in played:
        result = run_case(case)
        steps = result.computed.play_on.steps  # type: ignore[union-attr]
        asked = case.play_on.question  # type: ignore[union-attr]
        section = _section(html, f"case-{case.id}")
        listed = re.search(r'<ol class="case__moves">(.*?)</ol>', section, re.S)
        assert listed is not None, case.path
        moves = [html_unescape(m) for m in re.findall(r"<li>(.*?)</li>", listed[1], re.S)]
        assert len(moves) == len(steps), case.path
        for i, (move, step) in enumerate(zip(moves, steps, strict=True)):
            if step == "ok":
                assert move.endswith(f"→ {words['moves']['accepted']}"), move
            else:
                # A refused move that is not the question is a try, never the case's answer.
                rule = step.removeprefix("illegal ")
                said = words["moves"]["refused" if i == asked else "tried"]
                assert move.endswith(f"→ {said}{colon}{words['refusals'][rule]}"), move
        (shown,) = [c for c in read_cases(html) if c["id"] == f"case-{case.id}"]
        assert result.answer is not None
        assert shown["verdict"] == plays.answer_text(result.answer, lang)
        assert not re.search(r"\d+ (sur|de) \d+", shown["verdict"]), shown["verdict"]


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


# --- the reader's pages: one voice, labels, pictures, typography --------------------------------

RULES_PAGE = {"fr": "rules/index.html", "es": "es/rules/index.html"}
RULING = {"fr": "Arbitrage du site", "es": "Decisión del sitio"}


def _between(html: str, start_id: str) -> str:
    """The HTML of a section, from its heading to the next heading of level 2 or 3."""
    start = html.index(f'id="{start_id}"')
    ends = [i for i in (html.find("<h2", start + 10), html.find("<h3", start + 10)) if i > 0]
    return html[start : min(ends)] if ends else html[start:]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_page_opens_with_a_summary_that_says_who_plays_first(site: Path, lang: str) -> None:
    html = (site / RULES_PAGE[lang]).read_text(encoding="utf-8")
    headings = re.findall(r'<h2 id="([^"]+)"', html)
    assert headings[0] == "summary"
    summary = html_unescape(_between(html, "summary"))
    assert summary.count("<li>") == 6
    assert {"fr": "Écosse", "es": "Escocia"}[lang] in summary


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_page_labels_the_whole_claim_refusal_where_it_states_it(
    site: Path, lang: str
) -> None:
    section = html_unescape(
        _between((site / RULES_PAGE[lang]).read_text("utf-8"), "claim-together")
    )
    text = re.sub(r"<[^>]+>", "", section)
    assert f"{RULING[lang]}{labels(lang)['punctuation']['colon'].rstrip(' ')}" in text
    assert "rulings/#claim-together" in section


@pytest.mark.parametrize("lang", LANGUAGES)
def test_short_faq_labels_claiming_and_drawing_after_a_pass_not_the_booklets_pass(
    site: Path, lang: str
) -> None:
    html = (site / FAQ_PAGE[lang]).read_text(encoding="utf-8")
    faq = html_unescape(re.sub(r"<[^>]+>", "", _between(html, "faq")))
    (answer,) = [
        p
        for p in faq.split("\n")
        if {"fr": "aucune de mes cartes", "es": "ninguna de mis cartas"}[lang] in p
    ]
    booklet, ruled = answer.split(RULING[lang])
    assert {"fr": "livret", "es": "reglamento"}[lang] in booklet  # the booklet's own pass
    assert {"fr": "pioches", "es": "robas"}[lang] in ruled  # the site's ruling, labelled


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_page_draws_the_ladder_the_claims_a_tie_and_adjacency(site: Path, lang: str) -> None:
    html = (site / RULES_PAGE[lang]).read_text(encoding="utf-8")
    figures = re.findall(r'<figure class="position-figure"[^>]*>(.*?)</figure>', html, re.S)
    assert len(figures) == 6
    for figure in figures:
        title = re.search(r"<title[^>]*>(.*?)</title>", figure, re.S)
        caption = re.search(r"<figcaption>(.*?)</figcaption>", figure, re.S)
        assert title and caption and title[1] == caption[1]
    ladder = _between(html, "formation-ladder")
    (picture,) = re.findall(r"<svg.*?</svg>", ladder, re.S)
    for stone in range(1, 6):
        assert f'class="stone s{stone}' in picture
    proof = _between(html, "unseen-pool")
    assert proof.count('class="stone s4 claimed') == 2  # refused, then granted
    ties = _between(html, "completed-first")
    assert ties.count('class="stone s3 claimed') == 1
    end = _between(html, "game-end")
    assert end.count("<svg") == 2 and end.count("held") >= 4


def test_a_picture_stating_a_wrong_verdict_or_formation_refuses_to_build() -> None:
    from schotten.site import SiteCheckError
    from schotten.site.pictures import jinja_functions

    picture = jinja_functions("fr")["picture"]
    with pytest.raises(SiteCheckError, match="is refused, not granted"):
        picture(
            "t",
            mine={4: "red 5, yellow 5, blue 5"},
            theirs={4: "orange 8, purple 8"},
            claim=[4],
            verdict="granted",
        )
    with pytest.raises(SiteCheckError, match="not a colour run"):
        picture("t", mine={1: "red 1, red 2, blue 3"}, kinds={1: "colour-run"})
    with pytest.raises(SiteCheckError, match="shown elsewhere"):
        picture("t", mine={1: "red 1"}, theirs={2: "red 1"})


def test_nav_labels_say_what_each_page_is(site: Path) -> None:
    fr = (site / "index.html").read_text("utf-8")
    es = (site / "es" / "index.html").read_text("utf-8")
    assert "Cartes Tactique" in fr and "Cartas de táctica" in es
    assert not re.search(r">\s*Tactique\s*<", fr) and not re.search(r">\s*Táctica\s*<", es)


# Build and engine words that readers should never meet, and French calques in the Spanish.
JARGON = (
    "Coups acceptés",
    "Movimientos aceptados",
    "chaque fois que le site est construit",
    "le site refuse de se publier",
    "le moteur la rejoue",
    "Le moteur qui a construit",
    "à chaque construction",
    "coup par coup",
    "prend la date",
    "cada vez que se construye el sitio",
    "el sitio se niega a publicarse",
    "el motor la vuelve a jugar",
    "movimiento a movimiento",
    "toma la fecha",
    "pasar la fase",
    "el motor que ha construido",
    "Le moteur donne toujours une seule raison",
    "El motor da siempre un único motivo",
    "Ce que le moteur en dit",
    "Lo que dice el motor",
)
MY_PAGES = ("", "rules/", "edge-cases/", "odds/", "proofs/")


def test_no_build_jargon_and_one_word_for_a_step(site: Path) -> None:
    found = []
    for lang in LANGUAGES:
        for page in MY_PAGES:
            path = site / ("es/" if lang == "es" else "") / page / "index.html"
            text = " ".join(reader_texts(path)).replace("\u00a0", " ").replace("\u202f", " ")
            found += [
                f"{page or 'home'} ({lang}): {j}" for j in JARGON if j.lower() in text.lower()
            ]
            if lang == "es":
                found += [f"{page} (es): fase" for _ in re.findall(r"\bfases?\b", text)]
    assert found == []


def test_guillemets_and_apostrophes_follow_each_language(site: Path) -> None:
    for page in MY_PAGES:
        fr = " ".join(reader_texts(site / page / "index.html"))
        es = " ".join(reader_texts(site / "es" / page / "index.html"))
        assert "'" not in fr, page  # French sets ’
        assert not re.search(r"«(?!\u00a0[^\u00a0\s])|(?<![^\u00a0\s]\u00a0)»", fr), page
        assert not re.search(r"«\s|\s»", es), page


def test_glossaries_give_each_language_its_own_words(site: Path) -> None:
    fr = _between((site / RULES_PAGE["fr"]).read_text("utf-8"), "glossary")
    es = _between((site / RULES_PAGE["es"]).read_text("utf-8"), "glossary")
    assert "Comodín" not in fr
    assert "borne" not in es.lower() and ">Joker<" not in es


def test_spanish_search_and_interface_strings_say_tu(site: Path) -> None:
    es = (site / "es" / "rules" / "index.html").read_text("utf-8")
    assert "Teclee" not in es and "Escribe para buscar" in es


def test_search_finds_words_typed_without_accents(site: Path) -> None:
    import json

    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert "folded" in index["config"]["fields"]
    folded = " ".join(d.get("folded", "") for d in index["docs"])
    assert "egalite" in folded and "comodin" in folded
    assert all("é" not in d.get("folded", "") for d in index["docs"])


def test_the_one_root_404_sends_a_spanish_address_to_the_spanish_page(site: Path) -> None:
    root = (site / "404.html").read_text("utf-8")
    spanish = (site / "es" / "404.html").read_text("utf-8")
    assert 'location.replace(root + "es/404.html")' in root
    assert "location.replace" not in spanish


def test_proofs_table_names_its_sets_in_the_page_language(site: Path) -> None:
    for path in (site / "proofs" / "index.html", site / "es" / "proofs" / "index.html"):
        table = _between(path.read_text("utf-8"), "table")
        assert '<div class="proof-table">' in table
        assert "<code>mud-one-stone</code>" not in table
        # Every cell of a row but the set's name says its column (the header row has none).
        columns = table.count("</th>")
        assert table.count('class="proof-label"') == (columns - 1) * (table.count("<tr>") - 1)
        assert columns == 7
