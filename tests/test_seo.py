"""What a built page tells search engines and chats: language alternates, the sitemap, questions
as structured data, and the preview tags with their pictures.

Each site is built once per run (tests/conftest.py): with ``SITE_URL`` (as published; here the
address of a local server) and without (as anyone building it gets). The pages are read as a
search engine reads them, with their own parser here; the verdict a preview shows is compared
with what the engine computes now.
"""

from __future__ import annotations

import json
import re
import struct
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from sites import mkdocs_build
from test_site import minimal_project

from schotten.casebook.folder import load_cases
from schotten.casebook.model import FAQ_TABLE
from schotten.casebook.run import run_case
from schotten.site import SiteCheckError, head, link_previews, questions, tables
from schotten.site.render import render_page

ROOT = Path(__file__).resolve().parents[1]
LOCALES = {"fr": "fr_FR", "es": "es_ES"}
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XHTML = "{http://www.w3.org/1999/xhtml}"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="session")
def published(built_site: Path) -> Path:
    """The site as published: built with ``SITE_URL`` (once per run, tests/conftest.py)."""
    return built_site


@pytest.fixture(scope="session")
def published_url(site_url: str) -> str:
    """The address ``published`` was built for, with its trailing slash."""
    return site_url + "/"


@pytest.fixture(scope="session")
def unaddressed(relative_site: Path) -> Path:
    """The site as anyone building it gets it: without ``SITE_URL``."""
    return relative_site


class _Head(HTMLParser):
    """A page's language, head links and meta tags, JSON-LD, and the text a reader sees."""

    _HIDDEN = frozenset({"head", "script", "style", "svg", "template", "noscript"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lang = ""
        self.alternates: list[tuple[str, str]] = []
        self.canonical = ""
        self.meta: dict[str, list[str]] = {}
        self.json_ld: list[str] = []
        self.text: list[str] = []
        self.attributes: list[tuple[str, str]] = []
        self._hidden: list[str] = []
        self._json: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        self.attributes += [(k, v) for k, v in a.items() if k in ("href", "src", "content")]
        if tag == "html":
            self.lang = a.get("lang", "")
        if tag == "link" and a.get("rel") == "alternate" and "hreflang" in a:
            self.alternates.append((a["hreflang"], a["href"]))
        if tag == "link" and a.get("rel") == "canonical":
            self.canonical = a["href"]
        if tag == "meta" and ("property" in a or "name" in a):
            key = a.get("property") or a.get("name") or ""
            self.meta.setdefault(key, []).append(a.get("content", ""))
        if tag == "script" and a.get("type") == "application/ld+json":
            self._json = []
        if tag in self._HIDDEN:
            self._hidden.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._json is not None:
            self.json_ld.append("".join(self._json))
            self._json = None
        if self._hidden and self._hidden[-1] == tag:
            self._hidden.pop()

    def handle_data(self, data: str) -> None:
        if self._json is not None:
            self._json.append(data)
        elif not self._hidden:
            self.text.append(data)

    def one(self, key: str) -> str:
        values = self.meta.get(key, [])
        assert len(values) == 1, (key, values)
        return values[0]

    def visible(self) -> str:
        return _flat("".join(self.text))


def _flat(text: str) -> str:
    return " ".join(re.split(r"[ \t\n\r\f\v]+", text.strip(" \t\n\r\f\v")))


def read(path: Path) -> _Head:
    parser = _Head()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def pages(site: Path) -> Iterator[Path]:
    """Every page of the site in both languages. The 404 pages are not among them: a host shows
    them at any address that is missing, so they have no address to give or to share."""
    for path in sorted(site.rglob("*.html")):
        if path.name != "404.html":
            yield path


def address(base: str, site: Path, path: Path) -> str:
    """The published address of a page file (``es/rules/index.html`` -> ``.../es/rules/``)."""
    return base + path.relative_to(site).as_posix().removesuffix("index.html")


def local(base: str, site: Path, url: str) -> Path:
    """The file an absolute address of the published site is served from."""
    assert url.startswith(base), url
    rest = url.removeprefix(base)
    return site / (rest + "index.html" if rest.endswith("/") or not rest else rest)


def png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == PNG_SIGNATURE and png[12:16] == b"IHDR"
    width, height = struct.unpack(">II", png[16:24])
    return width, height


def test_every_page_links_both_languages_and_the_french_as_default(
    published: Path, published_url: str
) -> None:
    seen = 0
    for path in pages(published):
        page = read(path)
        links = dict(page.alternates)
        assert len(page.alternates) == 3 and set(links) == {"fr", "es", "x-default"}, path
        assert links["x-default"] == links["fr"], path
        assert links[page.lang] == address(published_url, published, path) == page.canonical, path
        for url in links.values():
            assert local(published_url, published, url).is_file(), (path, url)
        other = read(local(published_url, published, links["es" if page.lang == "fr" else "fr"]))
        assert dict(other.alternates) == links, path  # the two versions name each other
        seen += 1
    assert seen == len(list((ROOT / "site_src").glob("*.md")))  # every page, in each language


def test_sitemap_has_one_entry_per_language_page_with_its_alternates(
    published: Path, published_url: str
) -> None:
    tree = ET.parse(published / "sitemap.xml")
    entries = {}
    for url in tree.getroot().iter(f"{SITEMAP}url"):
        loc = url.findtext(f"{SITEMAP}loc") or ""
        links = [(x.get("hreflang"), x.get("href")) for x in url.iter(f"{XHTML}link")]
        assert loc not in entries, loc
        entries[loc] = sorted(links)
    assert set(entries) == {address(published_url, published, p) for p in pages(published)}
    for path in pages(published):
        assert entries[address(published_url, published, path)] == sorted(read(path).alternates), (
            path
        )


def _faq_pages(site: Path) -> list[tuple[Path, _Head, dict[str, object]]]:
    found = []
    for path in pages(site):
        page = read(path)
        for block in page.json_ld:
            data = json.loads(block)
            if data.get("@type") == "FAQPage":
                found.append((path, page, data))
    return found


def test_structured_questions_are_the_questions_the_page_shows(published: Path) -> None:
    found = _faq_pages(published)
    where = {p.relative_to(published).as_posix() for p, _, _ in found}
    # The edge-case page's short answers and the rules page's questions, in both languages.
    assert where >= {
        "edge-cases/index.html",
        "es/edge-cases/index.html",
        "rules/index.html",
        "es/rules/index.html",
    }
    for path, page, data in found:
        assert data["@context"] == "https://schema.org", path
        assert data["inLanguage"] == page.lang, path
        items = data["mainEntity"]
        assert isinstance(items, list) and len(items) >= 4, path
        visible = page.visible()
        for item in items:
            assert item["@type"] == "Question"
            assert item["acceptedAnswer"]["@type"] == "Answer"
            question, answer = item["name"], item["acceptedAnswer"]["text"]
            assert question.endswith("?"), (path, question)
            assert _flat(question) in visible, (path, question)
            assert _flat(answer) in visible, (path, answer)
    # One page per language asks the same number of questions in each.
    counts = {p.relative_to(published).as_posix(): len(d["mainEntity"]) for p, _, d in found}
    assert counts["rules/index.html"] == counts["es/rules/index.html"]
    assert counts["edge-cases/index.html"] == counts["es/edge-cases/index.html"]


def test_every_page_has_its_preview_tags_and_picture(published: Path, published_url: str) -> None:
    for path in pages(published):
        page = read(path)
        lang, other = page.lang, "es" if page.lang == "fr" else "fr"
        title = page.one("og:title")
        assert title and title in page.visible(), path  # the page's own title (its h1)
        assert page.one("og:description") == page.one("description"), path
        assert page.one("og:locale") == LOCALES[lang], path
        assert page.one("og:locale:alternate") == LOCALES[other], path
        assert page.one("og:url") == page.canonical == address(published_url, published, path), path
        assert page.one("og:image:type") == "image/png"
        assert page.one("og:image:alt"), path
        assert page.one("twitter:card") == "summary_large_image", path
        assert page.one("twitter:image") == page.one("og:image"), path
        picture = local(published_url, published, page.one("og:image"))
        png = picture.read_bytes()
        size = png_size(png)
        assert (
            size
            == (1200, 630)
            == (
                int(page.one("og:image:width")),
                int(page.one("og:image:height")),
            )
        ), path
        assert len(png) < 150 * 1024, (picture, len(png))


def test_the_faq_preview_shows_the_first_verified_position_in_each_language(
    published: Path,
) -> None:
    cases = [c for c in load_cases(ROOT / "cases") if c.published is not None]
    first = min((c for c in cases if c.published.table == FAQ_TABLE), key=lambda c: c.published.row)
    result = run_case(first)
    alts = {}
    for lang, path in (("fr", "edge-cases/index.html"), ("es", "es/edge-cases/index.html")):
        alt = read(published / path).one("og:image:alt")
        for verdict in result.verdicts:
            assert tables.verdict_word(verdict, lang) in alt, (lang, alt)
        assert first.situation[lang] in alt, (lang, alt)
        alts[lang] = alt
    assert alts["fr"] != alts["es"]


def test_the_checker_page_describes_itself_to_a_shared_link(published: Path) -> None:
    # A link to the checker with a position carries it in its fragment, which no server sees:
    # the preview a chat shows is the checker page's own.
    with_checker = [
        p for p in pages(published) if 'class="schotten-checker"' in p.read_text("utf-8")
    ]
    assert with_checker, "no page carries the claim checker"
    for path in with_checker:
        page = read(path)
        assert "#" not in page.one("og:url")
        assert page.one("og:title") in page.visible()
        assert page.one("og:description") == page.one("description")


def test_preview_pictures_are_the_same_bytes_in_every_build(
    published: Path, unaddressed: Path
) -> None:
    ours = sorted((published / "assets" / "previews").glob("*.png"))
    theirs = sorted((unaddressed / "assets" / "previews").glob("*.png"))
    assert len(ours) == len(list((ROOT / "site_src").glob("*.md")))  # one per page and language
    assert [p.name for p in ours] == [p.name for p in theirs]
    for a, b in zip(ours, theirs, strict=True):
        assert a.read_bytes() == b.read_bytes(), a.name


def test_without_site_url_no_absolute_address_is_written(unaddressed: Path) -> None:
    assert not (unaddressed / "sitemap.xml").exists()
    for path in pages(unaddressed):
        page = read(path)
        assert page.canonical == "" and "og:url" not in page.meta, path
        # The alternates are there too, relative: each leads to a page of this very site.
        assert sorted(code for code, _ in page.alternates) == ["es", "fr", "x-default"], path
        for _, href in page.alternates:
            target = (path.parent / href).resolve()
            target = target / "index.html" if target.is_dir() else target
            assert target.is_file() and target.is_relative_to(unaddressed.resolve()), (path, href)
        absolute = [
            (k, v) for k, v in page.attributes if re.match(r"^(/|[a-z][a-z0-9+.-]*:)", v, re.I)
        ]
        # A meta tag's words are not addresses; its image is.
        absolute = [(k, v) for k, v in absolute if k != "content" or v in page.meta["og:image"]]
        assert absolute == [], path
        picture = (path.parent / page.one("og:image")).resolve()
        assert picture.is_file() and picture.is_relative_to(unaddressed.resolve()), path


def test_the_gate_refuses_structured_data_the_page_does_not_show(tmp_path: Path) -> None:
    project = minimal_project(tmp_path / "project")
    # Inline code is shown as code, but the answer's plain text keeps its backquotes: the data
    # would say something the page does not. (The question is spaced as French pages must be,
    # or the gate would refuse the page for its spacing first.)
    for suffix in ("", ".es"):
        index = project / "site_src" / f"index{suffix}.md"
        index.write_text(
            index.read_text(encoding="utf-8")
            + "\n{% call questions() %}\n**Qui gagne\u202f?** Le côté `complété` le premier.\n"
            "{% endcall %}\n",
            encoding="utf-8",
        )
    run = mkdocs_build(project, tmp_path / "site")
    assert run.returncode == 1
    assert "index.md: refusing to publish structured data the page does not show" in run.stderr
    assert "Le côté `complété` le premier." in run.stderr


def test_structured_data_problems_name_what_the_page_lacks() -> None:
    pairs = (questions.QuestionAnswer("Qui gagne ?", "Le premier."),)
    data = head.faq_json_ld(pairs, "fr")
    shown = f"<html><head>{data}</head><body><p><strong>Qui gagne ?</strong> Le premier.</p>"
    assert head.structured_data_problems(shown) == []
    hidden = shown.replace("</strong> Le premier.", "</strong> Le second.")
    assert head.structured_data_problems(hidden) == ["answer not shown on the page: 'Le premier.'"]
    broken = "<script type='application/ld+json'>{</script>"
    assert head.structured_data_problems(broken)[0].startswith("structured data does not parse")


def test_a_questions_block_holds_only_questions_with_their_answers() -> None:
    with pytest.raises(SiteCheckError, match="is not a question in bold"):
        questions.questions_block("**Qui gagne ?** Le premier.\n\nUne phrase sans question.")
    with pytest.raises(SiteCheckError, match="is not a question in bold"):
        questions.questions_block("**Le premier gagne.** Toujours.")
    rows = [("Qui gagne ?", "Le premier."), ("Une position", "Rien.")]
    assert questions.table_questions(rows) == (
        questions.QuestionAnswer("Qui gagne ?", "Le premier."),
    )


def test_a_preview_is_the_same_bytes_each_time_and_fits_a_chat() -> None:
    preview = link_previews.page_preview("rules", "es", "Las reglas", "Schotten Totten", ())
    png = link_previews.preview_png(preview)
    assert link_previews.preview_png(preview) == png
    assert png_size(png) == (1200, 630) and len(png) < 150 * 1024
    # The wrapped title stays inside the picture: an overlong one ends with an ellipsis.
    long = link_previews.Preview("mot " * 80, (), "Site", preview.picture, "")
    svg = link_previews.preview_svg(long)
    assert svg.count('font-size="52"') == 3 and "…" in svg


def test_a_preview_drawn_before_is_taken_from_the_cache(tmp_path: Path) -> None:
    preview = link_previews.page_preview("rules", "fr", "Les règles", "Schotten Totten", ())
    drawn = link_previews.preview_png(preview, tmp_path)
    assert drawn == link_previews.preview_png(preview)
    (entry,) = [p for p in tmp_path.iterdir() if p.suffix == ".png"]
    assert entry.read_bytes() == drawn
    # A second build reads the entry: a picture put in its place is what it gets.
    other = link_previews.preview_png(
        link_previews.page_preview("rules", "es", "Las reglas", "Schotten Totten", ())
    )
    entry.write_bytes(other)
    assert link_previews.preview_png(preview, tmp_path) == other
    # Another page is drawn, and kept beside it.
    link_previews.preview_png(
        link_previews.Preview("Autre", (), "Site", preview.picture, ""), tmp_path
    )
    assert len([p for p in tmp_path.iterdir() if p.suffix == ".png"]) == 2


def test_a_verdict_table_row_that_asks_a_question_is_structured_data(tmp_path: Path) -> None:
    project = minimal_project(tmp_path / "project")
    case_file = project / "cases" / "two-cards-against-none.yaml"
    text = case_file.read_text(encoding="utf-8")
    asked = {
        "fr": "Deux cartes de ton côté et rien en face\u00a0: peux-tu revendiquer\u202f?",
        "es": "Dos cartas en tu lado y ninguna enfrente: ¿puedes conquistar?",
    }
    for lang, question in asked.items():
        quoted = json.dumps(question, ensure_ascii=False)  # YAML reads a JSON string as is
        text = re.sub(rf"(?m)^(situation:\n(?:  .*\n)*?  {lang}: ).*$", rf"\g<1>{quoted}", text)
    assert all(json.dumps(q, ensure_ascii=False) in text for q in asked.values())
    case_file.write_text(text, encoding="utf-8")
    run = mkdocs_build(project, tmp_path / "site")
    assert run.returncode == 0, run.stdout + run.stderr
    case = next(c for c in load_cases(project / "cases") if c.id == "two-cards-against-none")
    for lang, path in (("fr", "index.html"), ("es", "es/index.html")):
        (data,) = [json.loads(b) for b in read(tmp_path / "site" / path).json_ld]
        pairs = [(q["name"], q["acceptedAnswer"]["text"]) for q in data["mainEntity"]]
        assert pairs == [(asked[lang], case.why[lang])], lang


def test_a_questions_block_that_is_wrong_names_the_page() -> None:
    source = "# Page\n\n{% call questions() %}\nPas une question.\n{% endcall %}\n"
    with pytest.raises(SiteCheckError, match=r"^x\.md:3: \(fr\) questions\(\): 'Pas une question"):
        render_page(source, "fr", "x.md", ())


def test_preview_text_is_drawn_with_the_shipped_fonts() -> None:
    # No system font is loaded: a text would vanish silently if the shipped ones were missing.
    def picture(text: str, weight: str) -> bytes:
        return link_previews.render_png(
            '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40">'
            '<rect width="200" height="40" fill="#fff"/>'
            f'<text x="4" y="30" font-size="24" font-weight="{weight}" font-family="sans-serif">'
            f"{text}</text></svg>"
        )

    blank = picture("", "normal")
    regular, bold = picture("Borne 4", "normal"), picture("Borne 4", "bold")
    assert blank != regular != bold != blank


def _png_pixels(png: bytes) -> tuple[int, int, list[bytes]]:
    """A PNG's width, height and rows of 8-bit RGBA pixels (the only kind resvg writes)."""
    width, height = png_size(png)
    assert png[24:26] == b"\x08\x06", "8-bit RGBA expected"
    data, at = b"", 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        if png[at + 4 : at + 8] == b"IDAT":
            data += png[at + 8 : at + 8 + length]
        at += 12 + length
    raw, stride, rows = zlib.decompress(data), width * 4, []
    previous = bytearray(stride)
    for y in range(height):
        kind, line = (
            raw[y * (stride + 1)],
            bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)]),
        )
        for i in range(stride):
            left = line[i - 4] if i >= 4 else 0
            up, corner = previous[i], previous[i - 4] if i >= 4 else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                guess = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + guess) & 0xFF
        rows.append(bytes(line))
        previous = line
    return width, height, rows


def test_a_caption_with_a_word_longer_than_the_column_stays_inside_the_picture() -> None:
    picture = link_previews.page_preview("rules", "fr", "Règles", "Site", ()).picture
    word = "Anticonstitutionnellement" * 3  # wider than the whole text column at any size
    caption = ((f"Borne {word}", "bold"), (f"{word} {word}", "regular"))
    preview = link_previews.Preview(f"Titre {word}", caption, "Site", picture, "")
    width, height, rows = _png_pixels(link_previews.render_png(link_previews.preview_svg(preview)))
    background = bytes.fromhex("f5f0e1ff")
    margin = range(width - 36, width)  # the right margin is 40 pixels, left to the background
    inked = [
        y
        for y in range(height - 12)
        if any(rows[y][4 * x : 4 * x + 4] != background for x in margin)
    ]
    assert inked == []
    # Nothing was dropped: the long word is still drawn, cut with hyphens over several lines.
    assert link_previews.preview_svg(preview).count("-</text>") >= 3
