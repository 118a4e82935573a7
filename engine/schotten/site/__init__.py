"""The rules site: pages rendered from the engine's own verdicts, in French and Spanish.

Labels (colours, tactic cards, formations, verdicts, reasons) are data, one file per language in
``locales/``; a label missing in one language is an error, never a silent fall-back.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from schotten.casebook.schema import LANGUAGES as CASE_LANGUAGES
from schotten.errors import SchottenError

LANGUAGES = CASE_LANGUAGES  # the site is in the languages of the case texts


class SiteCheckError(SchottenError):
    """Something on a page, a case or a label is wrong: the site must not be published."""


@cache
def labels(lang: str) -> dict[str, Any]:
    """The label catalogue of one language (``locales/<lang>.json``)."""
    if lang not in LANGUAGES:
        raise SiteCheckError(f"no labels for language {lang!r} (the site has {LANGUAGES})")
    text = resources.files(__package__).joinpath("locales", f"{lang}.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data
