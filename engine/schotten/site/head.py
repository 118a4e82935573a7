"""What a page's head says about it to search engines and to the chats a link is pasted into.

- Language alternates: each page links its French and its Spanish version (``hreflang``) and
  names the French one the default (``x-default``), from the same table of addresses as the
  sitemap (:func:`sitemap_xml`): absolute when the site's address (``SITE_URL``) is known,
  relative otherwise, like every other link of the site.
- Open Graph and Twitter card tags: the page's title, description, language, address and its
  preview picture (:mod:`schotten.site.link_previews`), with the picture's description in the page's
  language. Without ``SITE_URL`` the picture's address is relative and there is no ``og:url``.
- schema.org ``FAQPage`` data for the questions the page shows (:mod:`schotten.site.questions`).

:func:`structured_data_problems` is the gate's side of it: it reads a built page as a search engine
does and reports every question or answer of its structured data that the page does not show.

>>> page_path("rules", "es"), page_path("index", "fr"), page_path("index", "es")
('es/rules/', '', 'es/')
>>> relative("es/rules/", "assets/x.png"), relative("", "es/")
('../../assets/x.png', 'es/')
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from html.parser import HTMLParser

from schotten.site import LANGUAGES
from schotten.site.questions import QuestionAnswer

DEFAULT_LANGUAGE = LANGUAGES[0]
LOCALES: Mapping[str, str] = {"fr": "fr_FR", "es": "es_ES"}  # Open Graph's language_TERRITORY
PREVIEW_FOLDER = "assets/previews"


@dataclass(frozen=True)
class PageHead:
    """What the head says of one page (addresses from the site's root, ``es/rules/``)."""

    stem: str  # the page without its language: ``rules``
    lang: str
    title: str
    description: str
    site_name: str
    image: str  # the preview picture, from the site's root
    image_alt: str
    image_size: tuple[int, int]
    questions: tuple[QuestionAnswer, ...] = ()


def page_path(stem: str, lang: str) -> str:
    """A page's address from the site's root (directory addresses, as the site is built)."""
    folder = "" if stem == "index" else f"{stem.removesuffix('/index')}/"
    return folder if lang == DEFAULT_LANGUAGE else f"{lang}/{folder}"


def relative(page: str, target: str) -> str:
    """``target`` (from the site's root) as seen from the page at ``page``."""
    depth = page.count("/")
    return "../" * depth + target if depth or target else "./"


# What an address of the site may hold: letters, digits and the URL punctuation that needs no
# escaping in HTML, XML or JavaScript (no quote, no angle bracket, no ampersand, no space).
_SITE_URL = re.compile(
    r"https?://[A-Za-z0-9.-]+(?::[0-9]{1,5})?(?:/[A-Za-z0-9._~%!$()*+,;=:@/-]*)?"
)


def site_url_problem(site_url: str) -> str | None:
    """Why ``site_url`` (``SITE_URL``) cannot be the site's address, or ``None``: it must be an
    absolute http(s) address without query, fragment, quote, space or other markup character,
    since it is written into every page, the 404 pages and the sitemap.

    >>> site_url_problem("https://example.org/schotten/") is None
    True
    >>> site_url_problem("https://example.org/?a=1")
    "'https://example.org/?a=1' has a query ('?...'): the site's address has none"
    """
    shown = repr(site_url)
    if "?" in site_url:
        return f"{shown} has a query ('?...'): the site's address has none"
    if "#" in site_url:
        return f"{shown} has a fragment ('#...'): the site's address has none"
    if not site_url.startswith(("http://", "https://")):
        return f"{shown} is not an absolute http:// or https:// address"
    if _SITE_URL.fullmatch(site_url) is None:
        return (
            f"{shown} holds a character an address of the site may not hold (a space, a quote, "
            "< > & or a non-ASCII letter): write it percent-encoded"
        )
    return None


def absolute(site_url: str, target: str) -> str:
    return site_url.rstrip("/") + "/" + target


def alternates(stem: str) -> list[tuple[str, str]]:
    """``(hreflang, path)`` of every language version of a page, then ``x-default``."""
    pairs = [(lang, page_path(stem, lang)) for lang in LANGUAGES]
    return [*pairs, ("x-default", page_path(stem, DEFAULT_LANGUAGE))]


def head_html(head: PageHead, site_url: str | None) -> str:
    """The head's elements for one page (``site_url`` is ``SITE_URL``, or None)."""
    here = page_path(head.stem, head.lang)

    def link(target: str) -> str:
        return absolute(site_url, target) if site_url else relative(here, target)

    lines = [
        f'<link rel="alternate" hreflang="{code}" href="{escape(link(path))}">'
        for code, path in alternates(head.stem)
    ]
    lines.append(_HIDE_ALTERNATES)
    image = link(head.image)
    width, height = head.image_size
    properties = [
        ("og:type", "website"),
        ("og:site_name", head.site_name),
        ("og:title", head.title),
        ("og:description", head.description),
        ("og:locale", LOCALES[head.lang]),
        *(("og:locale:alternate", LOCALES[lang]) for lang in LANGUAGES if lang != head.lang),
        *((("og:url", absolute(site_url, here)),) if site_url else ()),
        ("og:image", image),
        ("og:image:type", "image/png"),
        ("og:image:width", str(width)),
        ("og:image:height", str(height)),
        ("og:image:alt", head.image_alt),
    ]
    lines += [f'<meta property="{p}" content="{escape(v)}">' for p, v in properties]
    names = [
        ("twitter:card", "summary_large_image"),
        ("twitter:title", head.title),
        ("twitter:description", head.description),
        ("twitter:image", image),
        ("twitter:image:alt", head.image_alt),
    ]
    lines += [f'<meta name="{n}" content="{escape(v)}">' for n, v in names]
    if head.questions:
        lines.append(faq_json_ld(head.questions, head.lang))
    return "\n".join(lines)


# The theme's script requests a sitemap beside every <link rel="alternate"> once the page has
# loaded (for a language switcher of its own, which the site does not use): there is none beside
# a page, and each request would fail. The page's alternates are hidden from it for that moment
# only (the theme listens for the same event, after this), then put back as they were written.
_HIDE_ALTERNATES = """<script>
  (function () {
    var links = document.querySelectorAll('link[rel="alternate"][hreflang]');
    document.addEventListener("DOMContentLoaded", function () {
      links.forEach(function (link) { link.rel = "schotten-alternate"; });
      setTimeout(function () {
        links.forEach(function (link) { link.rel = "alternate"; });
      }, 0);
    }, { once: true });
  })();
</script>"""


def faq_json_ld(questions: Sequence[QuestionAnswer], lang: str) -> str:
    """The ``FAQPage`` script element of a page's questions, in its language."""
    data = {
        "@context": "https://schema.org",
        "@type": "FAQPage",
        "inLanguage": lang,
        "mainEntity": [
            {
                "@type": "Question",
                "name": q.question,
                "acceptedAnswer": {"@type": "Answer", "text": q.answer},
            }
            for q in questions
        ],
    }
    text = json.dumps(data, ensure_ascii=False, indent=1)
    # Nothing in the data may close the script element early.
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<script type="application/ld+json">\n{text}\n</script>'


def sitemap_xml(stems: Iterable[str], site_url: str) -> str:
    """The sitemap: one entry per page in each language, each with all its alternates."""
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ]
    for stem in sorted(set(stems)):
        for lang in LANGUAGES:
            lines.append("  <url>")
            lines.append(f"    <loc>{escape(absolute(site_url, page_path(stem, lang)))}</loc>")
            for code, path in alternates(stem):
                href = escape(absolute(site_url, path))
                lines.append(f'    <xhtml:link rel="alternate" hreflang="{code}" href="{href}"/>')
            lines.append("  </url>")
    lines.append("</urlset>")
    return "\n".join(lines) + "\n"


def structured_data_problems(html: str) -> list[str]:
    """Every question or answer of a page's ``FAQPage`` data that its visible text lacks (and
    data that does not parse)."""
    reader = _PageReader()
    reader.feed(html)
    visible = _flat("".join(reader.text))
    problems = []
    for block in reader.json_ld:
        try:
            data = json.loads(block)
        except json.JSONDecodeError as exc:
            problems.append(f"structured data does not parse: {exc}")
            continue
        if not isinstance(data, dict) or data.get("@type") != "FAQPage":
            continue
        for item in data.get("mainEntity", []):
            question = str(item.get("name", ""))
            answer = str(item.get("acceptedAnswer", {}).get("text", ""))
            for what, text in (("question", question), ("answer", answer)):
                if not text or _flat(text) not in visible:
                    problems.append(f"{what} not shown on the page: {text[:80]!r}")
    return problems


def _flat(text: str) -> str:
    return " ".join(re.split(r"[ \t\n\r\f\v]+", text.strip(" \t\n\r\f\v")))


class _PageReader(HTMLParser):
    """The visible text of a page's body and the contents of its JSON-LD scripts."""

    _HIDDEN = frozenset({"script", "style", "template", "noscript", "head", "title", "svg"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.json_ld: list[str] = []
        self._hidden: list[str] = []
        self._script: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self._HIDDEN:
            self._hidden.append(tag)
        if tag == "script" and dict(attrs).get("type") == "application/ld+json":
            self._script = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._script is not None:
            self.json_ld.append("".join(self._script))
            self._script = None
        if self._hidden and self._hidden[-1] == tag:
            self._hidden.pop()

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self._script.append(data)
        elif not self._hidden:
            self.text.append(data)
