"""Rule ids (:mod:`schotten.rules`): one stable id per rule of RULES.md, the one that errors,
case files, test names and the rules pages' anchors share."""

from __future__ import annotations

import re

import pytest

from schotten.errors import IllegalActionError
from schotten.rules import Rule


@pytest.mark.parametrize("rule", list(Rule), ids=str)
def test_each_rule_id_is_its_name_in_kebab_case(rule: Rule) -> None:
    assert re.fullmatch(r"[a-z]+(-[a-z]+)*", rule.value), rule.value
    assert rule.value == rule.name.lower().replace("_", "-")


def test_no_two_rules_share_an_id() -> None:
    # An enum member given another's value silently becomes its alias.
    assert len(Rule.__members__) == len(Rule)


def test_a_rule_is_read_back_from_its_id_and_written_as_it() -> None:
    assert Rule("claim-wild-pool") is Rule.CLAIM_WILD_POOL
    assert f"{Rule.CLAIM_WILD_POOL}" == "claim-wild-pool"
    with pytest.raises(ValueError, match="'claim-anything' is not a valid Rule"):
        Rule("claim-anything")


def test_a_refused_move_starts_with_the_id_of_its_rule_rule_joker_once() -> None:
    error = IllegalActionError(Rule.JOKER_ONCE, "first has already played a Joker")
    assert str(error) == "[joker-once] first has already played a Joker"
    assert (error.rule, error.detail) == (Rule.JOKER_ONCE, "first has already played a Joker")
