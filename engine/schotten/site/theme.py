"""What the site changes in the theme's output, independent of MkDocs' objects.

- Python-Markdown's table of contents collapses every Unicode space of a heading into an ordinary
  one, so ``Le blocage\u00a0: …`` loses its no-break space in the page's contents list:
  :func:`heading_titles` reads each heading back from the page's HTML with its spaces.
- The theme's interface strings that are not translated by the theme itself (the heading
  permalink's title, the 404 page) come from the labels' ``theme`` section.

>>> heading_titles('<h2 id="a">Les égalités\u00a0: <em>tout</em><a class="headerlink" '
...                'href="#a" title="x">&para;</a></h2>')
{'a': 'Les égalités\\xa0: tout'}
"""

from __future__ import annotations

import re
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
