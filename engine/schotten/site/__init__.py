"""The rules site: pages rendered from the engine's own verdicts, in French and Spanish.

Its words are the label catalogue of :mod:`schotten.labels`, in the languages
:data:`~schotten.labels.LANGUAGES`.
"""

from __future__ import annotations

from schotten.errors import SchottenError
from schotten.labels import LANGUAGES, labels


class SiteCheckError(SchottenError):
    """Something on a page, a case or a label is wrong: the site must not be published."""


__all__ = ["LANGUAGES", "SiteCheckError", "labels"]
