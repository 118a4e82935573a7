"""The label catalogue: the words of each language the pages and case texts are written in.

Colours, tactic cards, formations, verdicts, reasons and the theme's own strings are data, one
file per language in ``locales/``. The site renders them; the casebook checks case texts against
them (a term spelt otherwise than its label is refused). A label missing in one language is an
error, never a silent fall-back.

>>> labels("fr")["colours"]["red"]
'rouge'
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from schotten.errors import SchottenError

LANGUAGES = ("fr", "es")
"""The languages of the site and of every case text, the first the default."""


class LabelError(SchottenError):
    """A language that has no label catalogue."""


@cache
def labels(lang: str) -> dict[str, Any]:
    """The label catalogue of one language (``locales/<lang>.json``)."""
    if lang not in LANGUAGES:
        raise LabelError(f"no labels for language {lang!r} (the site has {LANGUAGES})")
    text = resources.files(__package__).joinpath("locales", f"{lang}.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data
