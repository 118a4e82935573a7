"""The rules the site decided itself, where the booklet is silent: the one list of them.

These are the rule ids of RULES.md that have a « Site ruling » entry. The site labels them
(:mod:`schotten.site.rulings`), and the conformance suite files each vector that depends on one
of them under that ruling, so that an engine which decided otherwise is not failed on the
booklet's rules (:mod:`schotten.conformance.alternatives`).
"""

from __future__ import annotations

from collections.abc import Iterable

from schotten.rules import Rule

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
