"""The one list of site rulings is the list RULES.md marks, and both the site and the suite read
it from there."""

from __future__ import annotations

import re
from pathlib import Path

from schotten import rulings
from schotten.rules import Rule
from schotten.site import rulings as site_rulings

RULES_MD = Path(__file__).resolve().parents[1] / "RULES.md"


def test_the_site_rulings_are_the_entries_rules_md_marks_so() -> None:
    text = RULES_MD.read_text(encoding="utf-8")
    marked = {Rule(m) for m in re.findall(r"^- `([a-z-]+)`: \*\*Site ruling", text, re.M)}
    assert marked == rulings.SITE_RULINGS


def test_the_site_reads_the_same_list() -> None:
    assert site_rulings.SITE_RULINGS is rulings.SITE_RULINGS
    assert site_rulings.rulings_among is rulings.rulings_among


def test_rulings_among_keeps_order_and_drops_the_booklets_rules() -> None:
    found = rulings.rulings_among([Rule.DEADLOCK, Rule.CLAIM_PROOF, Rule.PASS, Rule.DEADLOCK])
    assert found == (Rule.DEADLOCK, Rule.PASS)
