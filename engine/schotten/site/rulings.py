"""The rules the site decided itself, where the booklet is silent.

These are the rule ids of RULES.md that have a « Site ruling » entry; the rulings page
(``rulings.md``) explains each under a heading whose anchor is the id. Wherever another page
states one of them or links to its explanation, it carries the label « arbitrage du site » /
« decisión del sitio »: a published case pinning one of them shows the label beside its answer
(:mod:`schotten.site.tables`), and the tests check the pages' own sentences.
"""

from __future__ import annotations

from collections.abc import Iterable

from schotten.rules import Rule

RULINGS_PAGE = "rulings.md"

SITE_RULINGS: frozenset[Rule] = frozenset(
    {
        Rule.EMPTY_DECK,
        Rule.PASS,
        Rule.COMPLETED_FIRST,
        Rule.ELITE_TROOP_VALUE,
        Rule.CLAIM_WILD_POOL,
        Rule.CLAIM_CLOSED,
        Rule.CLAIM_TOGETHER,
        Rule.COMBAT_MODE,
        Rule.RECRUITER,
        Rule.RUSE_TARGET,
        Rule.DEADLOCK,
        Rule.MATCH_SCORING,
    }
)


def rulings_among(rules: Iterable[Rule]) -> tuple[Rule, ...]:
    """The site rulings among ``rules``, in order, each once.

    >>> rulings_among([Rule.CLAIM_PROOF, Rule.PASS, Rule.PASS, Rule.DEADLOCK])
    (<Rule.PASS: 'pass'>, <Rule.DEADLOCK: 'deadlock'>)
    """
    return tuple(dict.fromkeys(r for r in rules if r in SITE_RULINGS))
