"""What the site changes in the theme's output, independent of MkDocs' objects.

- Python-Markdown's table of contents collapses every Unicode space of a heading into an ordinary
  one, so ``Le blocage\u00a0: …`` loses its no-break space in the page's contents list:
  :func:`heading_titles` reads each heading back from the page's HTML with its spaces.
- The theme's interface strings that are not translated by the theme itself (the heading
  permalink's title, the 404 page) come from the labels' ``theme`` section.
- Search finds words typed without their accents: :func:`fold_search_entries` gives each entry
  of the search index a ``folded`` field, its text without accents, which the theme indexes like
  the others (it indexes every field the index's ``config.fields`` names).

>>> heading_titles('<h2 id="a">Les égalités\u00a0: <em>tout</em><a class="headerlink" '
...                'href="#a" title="x">&para;</a></h2>')
{'a': 'Les égalités\\xa0: tout'}
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from schotten.site import labels

_HEADING = re.compile(r"<h([1-6])\s[^>]*?\bid=\"(?P<id>[^\"]+)\"[^>]*>(?P<inner>.*?)</h\1>", re.S)
_PERMALINK = re.compile(r"<a class=\"headerlink\"[^>]*>.*?</a>", re.S)
_TAG = re.compile(r"<[^>]+>")
_ASCII_SPACE = re.compile(r"[ \t\n\r\f\v]+")


class TocItem(Protocol):
    """What MkDocs' ``AnchorLink`` offers: an id, a title, and the items under it."""

    id: str
    title: str

    @property
    def children(self) -> Iterable[TocItem]: ...


def heading_titles(html: str) -> dict[str, str]:
    """Each heading's text by id, tags and permalink removed, its no-break spaces kept."""
    titles = {}
    for match in _HEADING.finditer(html):
        inner = _TAG.sub("", _PERMALINK.sub("", match["inner"]))
        titles[match["id"]] = _ASCII_SPACE.sub(" ", inner).strip(" ")
    return titles


def restore_toc_titles(toc: Iterable[TocItem], titles: Mapping[str, str]) -> None:
    """Give every table-of-contents item the title of its heading, spaces included."""
    for item in toc:
        if item.id in titles:
            item.title = titles[item.id]
        restore_toc_titles(item.children, titles)


def theme_words(lang: str) -> Mapping[str, Any]:
    """The interface strings the site sets itself, in ``lang``, with the language's colon."""
    names = labels(lang)
    return {**names["theme"], "colon": names["punctuation"]["colon"]}


FOLDED = "folded"  # the search index's field of accent-free text


def fold(text: str) -> str:
    """``text`` without accents or markup, lower-cased: ``égalité`` → ``egalite``.

    >>> fold("<p>L’égalité, le Comodín</p>")
    ' l’egalite, le comodin '
    """
    plain = _TAG.sub(" ", text)
    decomposed = unicodedata.normalize("NFD", plain)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def fold_search_entries(entries: list[dict[str, Any]]) -> None:
    """Give every search entry with an accented word a ``folded`` field: its text and title
    without accents, which the theme indexes like its other fields (mkdocs.yml's ``search``
    settings name it). Entries that already have one are left alone.

    >>> entries = [{"title": "Les égalités", "text": "<p>Égalité</p>"}, {"title": "a", "text": "b"}]
    >>> fold_search_entries(entries)
    >>> entries[0]["folded"], "folded" in entries[1]
    ('les egalites  egalite ', False)
    """
    for entry in entries:
        if FOLDED in entry:
            continue
        whole = f"{entry.get('title', '')} {entry.get('text', '')}"
        folded = fold(whole)
        if folded != _TAG.sub(" ", whole).lower():
            entry[FOLDED] = folded
