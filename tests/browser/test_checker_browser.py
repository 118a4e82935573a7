"""The claim checker in a real browser (headless Chromium), on the built rules pages.

The reader's way: open the checker, place the cards of a published case, claim, read the answer.
The answer must be the engine's own verdict on that case (computed here in Python), in the page's
language, with nothing loaded from outside the site.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from schotten.board import Player
from schotten.casebook import Case, load_cases
from schotten.checker import position_of
from schotten.claims import StoneVerdict, judge_stone
from schotten.site import labels
from schotten.site.verified import cards_text

ROOT = Path(__file__).resolve().parents[2]
PAGES = {"fr": "/rules/", "es": "/es/rules/"}
# Beyond the published single-stone cases: the Joker rulings, where whose Joker it is matters.
EXTRA_CASES = ("opponent-joker-played", "your-joker-leaves-the-other-open", "spy-in-the-pool")
# The cards the checker offers; ruses never enter a proof (site ruling claim-wild-pool).
ELITE = {"joker", "spy", "shield-bearer"}
LOADING_TIMEOUT = 90_000  # ms: Pyodide starts in seconds, far more on a loaded machine


def checker_cases() -> list[tuple[Case, int]]:
    chosen = []
    for case in load_cases(ROOT / "cases"):
        if len(case.claim) != 1 or case.board.stone(case.claim[0]).claimed_by is not None:
            continue
        if case.published is not None or case.id in EXTRA_CASES:
            chosen.append((case, case.claim[0]))
    return chosen


CASES = checker_cases()


def enter_position(checker: Locator, position: dict[str, Any]) -> None:
    checker.locator(".schotten-checker__clear").click()
    form = checker.locator("form")
    if position["variant"] == "tactical":
        form.locator('input[name="tactical"]').check()
    zones = {
        "mine": position["mine"],
        "theirs": position["theirs"],
        "elsewhere-mine": position["elsewhere"]["mine"],
        "elsewhere-theirs": position["elsewhere"]["theirs"],
    }
    for zone, cards in zones.items():
        form.locator(f'input[type="radio"][value="{zone}"]').check()
        for card in cards:
            if " " in card or card in ELITE:
                form.locator(f'button[data-card="{card}"]').click()
    for mode in ("mud_fight", "blind_mans_bluff"):
        if position[mode]:
            form.locator(f'input[name="{mode}"]').check()
    form.locator('select[name="completed_first"]').select_option(position["completed_first"])
    form.locator('button[type="submit"]').click()


def expected_lines(verdict: StoneVerdict, lang: str) -> list[str]:
    names = labels(lang)
    lines = [names["verdicts"]["granted" if verdict.granted else "refused"]]
    lines.append(names["reasons"][str(verdict.reason)])
    if verdict.witness is not None:
        lines.append(cards_text(verdict.witness.cards, lang))
    return lines


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_claim_checker_answers_like_the_engine_on_published_cases(
    page: Page, site_url: str, outside_requests: list[str], screenshots: Path, lang: str
) -> None:
    page.set_viewport_size({"width": 390, "height": 844})  # a phone
    page.goto(site_url + PAGES[lang])
    words = labels(lang)["checker"]
    checker = page.locator(".schotten-checker")
    checker.get_by_role("button", name=words["open"]).click()
    expect(checker.locator(".schotten-checker__status")).to_have_text(words["loading"])
    expect(checker).to_have_attribute("data-state", "ready", timeout=LOADING_TIMEOUT)
    answer = checker.locator(".schotten-checker__answer")
    assert len(CASES) >= 10
    for case, stone in CASES:
        verdict = judge_stone(case.board, Player.FIRST, stone)
        enter_position(checker, position_of(case.board, stone))
        expect(answer).to_have_attribute("data-reason", str(verdict.reason))
        expect(answer).to_have_attribute("data-granted", str(verdict.granted).lower())
        text = answer.inner_text()
        for line in expected_lines(verdict, lang):
            assert line in text, f"{case.id}: {line!r} not in {text!r}"
    checker.screenshot(path=str(screenshots / f"checker-{lang}.png"))
    assert outside_requests == []


def test_claim_checker_shows_impossible_positions_in_the_page_language(
    page: Page, site_url: str, outside_requests: list[str]
) -> None:
    page.goto(site_url + PAGES["es"])
    checker = page.locator(".schotten-checker")
    checker.get_by_role("button", name=labels("es")["checker"]["open"]).click()
    expect(checker).to_have_attribute("data-state", "ready", timeout=LOADING_TIMEOUT)
    form = checker.locator("form")
    form.locator('input[name="tactical"]').check()
    for zone in ("mine", "elsewhere-mine"):  # two Jokers for one player
        form.locator(f'input[type="radio"][value="{zone}"]').check()
        form.locator('button[data-card="joker"]').click()
    form.locator('button[type="submit"]').click()
    answer = checker.locator(".schotten-checker__answer")
    expect(answer).to_have_attribute("data-error", "joker-once")
    expect(answer).to_have_text(labels("es")["checker"]["errors"]["joker-once"])
    assert outside_requests == []


def test_claim_checker_is_keyboard_operable(page: Page, site_url: str) -> None:
    page.goto(site_url + PAGES["fr"])
    words = labels("fr")["checker"]
    checker = page.locator(".schotten-checker")
    checker.get_by_role("button", name=words["open"]).focus()
    page.keyboard.press("Enter")
    expect(checker).to_have_attribute("data-state", "ready", timeout=LOADING_TIMEOUT)
    checker.get_by_role("button", name="9 rouge", exact=True).focus()
    page.keyboard.press("Enter")
    red_nine = checker.locator('button[data-card="red 9"]')  # its name now says where it is
    expect(red_nine).to_be_focused()
    expect(red_nine).to_have_attribute("aria-pressed", "true")
    said = words["in_zone"].format(card="9 rouge", zone=words["zones"]["mine"])
    expect(red_nine).to_have_attribute("aria-label", said)
    checker.get_by_role("button", name=words["check"]).focus()
    page.keyboard.press("Enter")
    expect(checker.locator(".schotten-checker__answer")).to_have_attribute(
        "data-reason", "side-incomplete"
    )
