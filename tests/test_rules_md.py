"""RULES.md is traced: every rule shows its id and names its source (a page of the booklet, or a
site ruling with its reason), every rule id has a rule, and a case pins each one."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from schotten.casebook.folder import load_cases
from schotten.refusals import Refusal
from schotten.rules import Rule

ROOT = Path(__file__).resolve().parents[1]
RULES_MD = ROOT / "RULES.md"
CASES = ROOT / "cases"

# The sections that hold the components (no id) and the one that says how to read the page.
NOT_RULES = {"How to read and cite this page"}
MATERIAL = "Material"

_ENTRY = re.compile(r"- `(?P<id>[a-z0-9-]+)`: ")
_PAGE = re.compile(r"\*Source: booklet pp?\. \d+")
_RULING = re.compile(r"\*\*Site ruling( \([^)]*\))?:\*\*")
_WHY = re.compile(r"\*Why:\* \S")


@dataclass(frozen=True)
class Entry:
    """One rule of RULES.md: its id, its section, its line and its whole text."""

    rule: str
    section: str
    line: int
    text: str

    @property
    def ruling(self) -> bool:
        return _RULING.search(self.text) is not None


def read_rules(text: str) -> tuple[list[Entry], list[str]]:
    """The rules of a RULES.md text, and its problems: a line of a rules section outside a rule,
    a rule without a known id, a rule with no source, a site ruling with no reason, a component
    without a page."""
    entries: list[Entry] = []
    problems: list[str] = []
    section = ""
    current: list[str] = []
    start = 0

    def close() -> None:
        if not current:
            return
        body = " ".join(part.strip() for part in current)
        where = f"RULES.md:{start}"
        if section == MATERIAL:
            if not _PAGE.search(body):
                problems.append(f"{where}: a component without its booklet page: {body[:60]}")
        else:
            match = _ENTRY.match(current[0])
            if match is None:
                problems.append(f"{where}: a rule that does not start with its id: {body[:60]}")
            else:
                entry = Entry(match["id"], section, start, body)
                if entry.rule not in {str(r) for r in Rule}:
                    problems.append(f"{where}: `{entry.rule}` is no rule id of schotten.rules")
                if entry.ruling and not _WHY.search(body):
                    problems.append(f"{where}: site ruling `{entry.rule}` gives no *Why:*")
                if not entry.ruling and not _PAGE.search(body):
                    problems.append(
                        f"{where}: `{entry.rule}` names neither a booklet page "
                        "(*Source: booklet p. N*) nor a **Site ruling:**"
                    )
                entries.append(entry)
        current.clear()

    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("#"):
            close()
            section = line.lstrip("#").strip() if line.startswith("## ") else section
            continue
        if not section or section in NOT_RULES:
            continue
        if not line.strip():
            close()
        elif line.startswith("- "):
            close()
            current.append(line)
            start = number
        elif line.startswith("  ") and current:
            current.append(line)
        elif section != MATERIAL or not line.startswith("These are the components"):
            problems.append(f"RULES.md:{number}: text outside any rule: {line.strip()[:60]}")
    close()
    return entries, problems


def rules_md() -> tuple[list[Entry], list[str]]:
    return read_rules(RULES_MD.read_text(encoding="utf-8"))


def test_every_rule_shows_its_id_and_names_its_source() -> None:
    entries, problems = rules_md()
    assert entries
    assert not problems, "\n".join(problems)


def test_every_rule_id_has_a_rule_in_rules_md() -> None:
    stated = {e.rule for e in rules_md()[0]}
    missing = sorted(str(r) for r in Rule if str(r) not in stated)
    assert not missing, f"rule ids that RULES.md never states: {missing}"


def test_every_rule_of_rules_md_is_pinned_by_a_case() -> None:
    pinned = {str(rule) for case in load_cases(CASES) for rule in case.rules}
    unpinned = [f"{e.rule} (RULES.md:{e.line})" for e in rules_md()[0] if e.rule not in pinned]
    assert not unpinned, f"rules that no case pins (`rule: [...]` in cases/): {unpinned}"


def test_every_site_ruling_is_pinned_by_a_published_case() -> None:
    published = {
        str(rule) for case in load_cases(CASES) if case.published is not None for rule in case.rules
    }
    rulings = sorted({e.rule for e in rules_md()[0] if e.ruling} - published)
    assert not rulings, f"site rulings that no published case shows on the site: {rulings}"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("## Claims\n- `claim-proof`: a proof.\n", "names neither a booklet page"),
        ("## Claims\n- `claim-proof`: **Site ruling:** a proof.\n", "gives no *Why:*"),
        ("## Claims\n- `no-such-rule`: a rule. *Source: booklet p. 7.*\n", "no rule id"),
        ("## Claims\n- a rule without its id. *Source: booklet p. 7.*\n", "start with its id"),
        ("## Claims\nA rule in a paragraph.\n", "text outside any rule"),
        ("## Material\n- 54 Clan cards.\n", "without its booklet page"),
    ],
)
def test_the_reader_finds_each_kind_of_untraced_rule(text: str, problem: str) -> None:
    _, problems = read_rules(text)
    assert len(problems) == 1 and problem in problems[0], problems


def test_the_reader_takes_a_rule_over_several_lines() -> None:
    text = (
        "## Claims\n"
        "- `claim-together`: **Site ruling:** a claim is refused whole.\n"
        "  *Why:* nothing is lost.\n"
        "- `claim-proof`: the proof.\n"
        "  1. a list inside the rule\n"
        "  *Source: booklet p. 7.*\n"
    )
    entries, problems = read_rules(text)
    assert not problems, problems
    assert [(e.rule, e.line, e.ruling) for e in entries] == [
        ("claim-together", 2, True),
        ("claim-proof", 4, False),
    ]


def test_every_refusal_is_stated_under_its_rule_and_pinned_by_a_case() -> None:
    # A finer reason of a rule (schotten.refusals) is named in that rule's entry, and a case
    # records a move the engine refuses for it (`illegal <refusal>`).
    entries = rules_md()[0]
    recorded = {
        step.removeprefix("illegal ")
        for case in load_cases(CASES)
        if case.expect is not None and case.expect.play_on is not None
        for step in case.expect.play_on.steps
    }
    for refusal in Refusal:
        stated = [e for e in entries if e.rule == refusal.rule and f"`{refusal}`" in e.text]
        assert stated, f"RULES.md states `{refusal}` under no entry of `{refusal.rule}`"
        assert str(refusal) in recorded, f"no case records a move refused as {refusal}"
