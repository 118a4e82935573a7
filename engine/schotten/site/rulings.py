"""The rules the site decided itself, where the booklet is silent.

The list itself is :data:`schotten.rulings.SITE_RULINGS` (the rule ids of RULES.md that have a
« Site ruling » entry), shared with the conformance suite; the rulings page
(``rulings.md``) explains each under a heading whose anchor is the id. Wherever another page
states one of them or links to its explanation, it carries the label « arbitrage du site » /
« decisión del sitio »: a published case pinning one of them shows the label beside its answer
(:mod:`schotten.site.tables`), and the tests check the pages' own sentences.
"""

from __future__ import annotations

from schotten.rulings import SITE_RULINGS, rulings_among

RULINGS_PAGE = "rulings.md"

__all__ = ["RULINGS_PAGE", "SITE_RULINGS", "rulings_among"]
