"""The interactive border of the rules pages in a real browser: a reader taps the stones and the
page says whether someone has won, and why, as the engine decides it.

The expected answer is computed here by :func:`schotten.outcome.winning_condition` on a board
holding the same stones, not read from the table the page ships.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from test_accessibility import AXE, serious_violations

from schotten.board import Board, Player, Stone, Variant
from schotten.outcome import Termination, winning_condition
from schotten.site import labels

# No test here needs a first visit (see ReturningReader in conftest.py).
pytestmark = pytest.mark.returning_reader

PAGES = {"fr": "/rules/", "es": "/es/rules/"}
TAPS = {Player.FIRST: 1, Player.SECOND: 2}  # a tap gives a free stone to you, a second to them
# (stones held by you, stones held by the opponent): every way a game can be won, and none.
SHAPES = [
    ((), ()),
    ((1, 2), (8, 9)),
    ((1, 2, 3), (5,)),  # three adjacent at one end
    ((4, 6), (7, 8, 9)),  # at the other end, for the opponent
    ((4, 5, 6), (3, 7)),  # in the middle
    ((1, 3, 5, 7, 9), (2, 4, 6, 8)),  # five, no three adjacent
    ((2, 4), (1, 3, 5, 7, 9)),
    ((1, 2, 3), (7, 8, 9)),  # both: a game would have ended at the first
]
KINDS = {Termination.THREE_ADJACENT: "three", Termination.FIVE_STONES: "five"}


def expected_key(mine: tuple[int, ...], theirs: tuple[int, ...]) -> str:
    board = Board.empty(Variant.BASE)
    for numbers, player in ((mine, Player.FIRST), (theirs, Player.SECOND)):
        for number in numbers:
            board = board.with_stone(Stone(number, claimed_by=player))
    you, them = (winning_condition(board, p) for p in (Player.FIRST, Player.SECOND))
    if you and them:
        return "both"
    if you:
        return f"you_{KINDS[you]}"
    if them:
        return f"opponent_{KINDS[them]}"
    return "none"


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_border_says_who_has_won_and_why(
    page: Page, site_url: str, outside_requests: list[str], lang: str
) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(site_url + PAGES[lang])
    border = page.locator(".schotten-border")
    expect(border).to_have_attribute("data-ready", "true")
    words = labels(lang)["border"]
    result = border.locator(".schotten-border__result")
    for mine, theirs in SHAPES:
        border.locator(".schotten-border__reset").click()
        for numbers, player in ((mine, Player.FIRST), (theirs, Player.SECOND)):
            for number in numbers:
                for _ in range(TAPS[player]):
                    border.locator(f'button[data-stone="{number}"]').click()
        key = expected_key(mine, theirs)
        expect(border).to_have_attribute("data-result", key)
        expect(result).to_have_text(words["results"][key])
    # The whole border fits a phone's width.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    assert errors == [] and outside_requests == []


def test_border_works_from_the_keyboard_and_passes_axe(page: Page, site_url: str) -> None:
    page.goto(site_url + PAGES["es"])
    border = page.locator(".schotten-border")
    expect(border).to_have_attribute("data-ready", "true")
    words = labels("es")["border"]
    stone = border.locator('button[data-stone="4"]')
    stone.focus()
    page.keyboard.press("Enter")
    for owner in words["owners"][1:]:  # Enter gives the stone to you, Space then to them
        expect(stone).to_have_attribute("aria-label", words["stone"].format(number=4, owner=owner))
        page.keyboard.press("Space")
    page.keyboard.press("Enter")  # free again after the loop: to you, then to them
    page.keyboard.press("Enter")
    for number in (5, 6):  # Tab moves to the next stones
        page.keyboard.press("Tab")
        expect(border.locator(f'button[data-stone="{number}"]')).to_be_focused()
        page.keyboard.press("Enter")
        page.keyboard.press("Enter")
    result = border.locator(".schotten-border__result")
    expect(result).to_have_attribute("aria-live", "polite")
    expect(result).to_have_text(words["results"]["opponent_three"])
    assert AXE.is_file(), "axe-core is not installed: run `npm ci`"
    assert serious_violations(page) == []
