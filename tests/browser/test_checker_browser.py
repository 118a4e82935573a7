"""The claim checker in a real browser (headless Chromium), on the built rules pages.

The reader's way: open the checker, place the cards of a published case, claim, read the answer.
The answer must be the engine's own verdict on that case (computed here in Python), in the page's
language, with nothing loaded from outside the site. The engine runs in a worker: the page stays
responsive while it loads. Tests wait for the checker's states (``data-state``), never for a
message that may come and go before they look.
"""

from __future__ import annotations

import functools
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Locator,
    Page,
    Response,
    expect,
)
from sites import CHECKER_LOADING_TIMEOUT, note_outside_requests, open_checker

from schotten.board import Board, Player
from schotten.casebook import Case
from schotten.casebook.folder import load_cases
from schotten.checker import check_position, position_of
from schotten.claims import Reason, StoneVerdict, judge_stone
from schotten.site import labels, runtime, tables
from schotten.site.widgets import checker_url

ROOT = Path(__file__).resolve().parents[2]
PAGES = {"fr": "/rules/", "es": "/es/rules/"}
# Beyond the published single-stone cases: the Joker rulings, where whose Joker it is matters.
EXTRA_CASES = ("opponent-joker-played", "your-joker-leaves-the-other-open", "spy-in-the-pool")
# The cards the checker offers; ruses never enter a proof (site ruling claim-wild-pool).
ELITE = {"joker", "spy", "shield-bearer"}
# The tests given an opened checker (OpenedCheckers) run on one worker, which opens each
# language's once.
FORM = pytest.mark.xdist_group("checker-form")


@functools.cache
def checker_cases() -> list[tuple[Case, int]]:
    """The published single-stone claim cases and the extra ones, with their stone (read when a
    test first asks, not at collection)."""
    chosen = []
    for case in load_cases(ROOT / "cases"):
        if len(case.claim) != 1 or case.board.stone(case.claim[0]).claimed_by is not None:
            continue
        if case.published is not None or case.id in EXTRA_CASES:
            chosen.append((case, case.claim[0]))
    return chosen


def zones_of(position: dict[str, Any]) -> dict[str, list[str]]:
    """The cards of each of the checker's zones (named as its radio buttons' values)."""
    return {
        "mine": position["mine"],
        "theirs": position["theirs"],
        "elsewhere-mine": position["elsewhere"]["mine"],
        "elsewhere-theirs": position["elsewhere"]["theirs"],
    }


def features(case: Case, stone: int) -> set[str]:
    """What entering the case by taps exercises: the variant, each combat mode, who completed
    first, each zone used, and each elite troop in each zone."""
    position = position_of(case.board, stone)
    zones = zones_of(position)
    found = {position["variant"], f"completed-first {position['completed_first']}"}
    found |= {mode for mode in ("mud_fight", "blind_mans_bluff") if position[mode]}
    found |= {zone for zone, cards in zones.items() if cards}
    found |= {
        f"{card} in {zone}" for zone, cards in zones.items() for card in cards if card in ELITE
    }
    return found


@functools.cache
def tapped_cases() -> set[str]:
    """The fewest cases (chosen greedily, in the casebook's order) whose taps exercise every
    feature any published case has: every other case is entered by its link."""
    used = {case.id: features(case, stone) for case, stone in checker_cases()}
    left = set().union(*used.values())
    chosen = set()
    while left:
        best = max(used, key=lambda case_id: len(used[case_id] & left))
        chosen.add(best)
        left -= used[best]
    return chosen


def enter_position(checker: Locator, position: dict[str, Any]) -> None:
    checker.locator(".schotten-checker__clear").click()
    form = checker.locator("form")
    if position["variant"] == "tactical":
        form.locator('input[name="tactical"]').check()
    for zone, cards in zones_of(position).items():
        form.locator(f'input[type="radio"][value="{zone}"]').check()
        for card in cards:
            if " " in card or card in ELITE:
                form.locator(f'button[data-card="{card}"]').click()
    for mode in ("mud_fight", "blind_mans_bluff"):
        if position[mode]:
            form.locator(f'input[name="{mode}"]').check()
    form.locator('select[name="completed_first"]').select_option(position["completed_first"])
    form.locator('button[type="submit"]').click()


def expected_lines(board: Board, verdict: StoneVerdict, lang: str) -> list[str]:
    """The verdict, its reason, and the very sentences of the pages' reasoning (elite troops
    with the card they become): the checker and the pages word an answer the same way."""
    names = labels(lang)
    lines = [names["verdicts"]["granted" if verdict.granted else "refused"]]
    lines.append(names["reasons"][str(verdict.reason)])
    if verdict.reason is not Reason.SIDE_INCOMPLETE:
        lines += tables.reasoning(board, verdict, lang)
    return lines


def enter_by_link(page: Page, checker: Locator, url: str) -> None:
    """The position given by its address (as the pages' "open in the checker" links give it),
    the answer of the position before cleared first so that only the new one can be read."""
    checker.locator(".schotten-checker__clear").click()
    expect(checker.locator(".schotten-checker__answer")).not_to_have_attribute(
        "data-reason", re.compile(".*")
    )
    page.goto(url)


# The reader's way (each card placed by a tap) for the cases that together use every zone, mode
# and elite troop, in French; every other case, and every case in Spanish, by the pages' links.
# Both ways fill the same form; each language's answers are read in full.
@pytest.mark.returning_reader
@pytest.mark.parametrize("lang", ["fr", "es"])
def test_claim_checker_answers_like_the_engine_on_published_cases(
    page: Page,
    site_url: str,
    outside_requests: list[str],
    screenshots: Path,
    lang: str,
) -> None:
    page.set_viewport_size({"width": 390, "height": 844})  # a phone
    page.goto(site_url + PAGES[lang])
    checker = open_checker(page, lang)
    expect(checker.locator(".schotten-checker__status")).to_have_text(
        labels(lang)["checker"]["ready"]
    )
    answer = checker.locator(".schotten-checker__answer")
    cases, tapped = checker_cases(), tapped_cases()
    assert len(cases) >= 10 and len(tapped) >= 5
    for case, stone in cases:
        verdict = judge_stone(case.board, Player.FIRST, stone)
        if lang == "fr" and case.id in tapped:
            enter_position(checker, position_of(case.board, stone))
        else:
            link = checker_url(case.board, stone)
            assert link is not None, case.id
            enter_by_link(page, checker, site_url + PAGES[lang] + link)
        expect(answer).to_have_attribute("data-reason", str(verdict.reason))
        expect(answer).to_have_attribute("data-granted", str(verdict.granted).lower())
        text = answer.inner_text()
        for line in expected_lines(case.board, verdict, lang):
            assert line in text, f"{case.id}: {line!r} not in {text!r}"
    checker.screenshot(path=str(screenshots / f"checker-{lang}.png"))
    assert outside_requests == []


@FORM
def test_claim_checker_shows_impossible_positions_in_the_page_language(
    opened_checkers: OpenedCheckers,
) -> None:
    _, checker = opened_checkers("es")
    form = checker.locator("form")
    form.locator('input[name="tactical"]').check()
    for zone in ("mine", "elsewhere-mine"):  # two Jokers for one player
        form.locator(f'input[type="radio"][value="{zone}"]').check()
        form.locator('button[data-card="joker"]').click()
    form.locator('button[type="submit"]').click()
    answer = checker.locator(".schotten-checker__answer")
    expect(answer).to_have_attribute("data-error", "joker-once")
    expect(answer).to_have_text(labels("es")["checker"]["errors"]["joker-once"])
    assert opened_checkers.outside == []


@pytest.mark.returning_reader
def test_claim_checker_is_keyboard_operable(page: Page, site_url: str) -> None:
    page.goto(site_url + PAGES["fr"])
    words = labels("fr")["checker"]
    checker = page.locator(".schotten-checker")
    opener = checker.get_by_role("button", name=words["open"])
    expect(opener).to_be_enabled()  # offered once checker.js handles it: a key press is never lost
    opener.focus()
    page.keyboard.press("Enter")
    expect(checker).to_have_attribute("data-state", "ready", timeout=CHECKER_LOADING_TIMEOUT)
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


class OpenedCheckers:
    """One rules page per language with its checker opened, shared by the tests that only fill
    its form (each start of the engine costs seconds): each test is given it with the form
    cleared by « Clear all » (whose reset test_clear_all_resets_every_choice checks)."""

    def __init__(self, context: BrowserContext, site_url: str) -> None:
        self.context = context
        self.site_url = site_url
        self.pages: dict[str, Page] = {}
        self.outside: list[str] = []  # what the pages asked of another host (expected none)

    def __call__(self, lang: str) -> tuple[Page, Locator]:
        if lang not in self.pages:
            page = self.context.new_page()
            note_outside_requests(page, self.outside)
            page.goto(self.site_url + PAGES[lang])
            open_checker(page, lang)
            self.pages[lang] = page
        page = self.pages[lang]
        # The tab in front, as a reader's: a tab behind another gets no animation frames, and
        # every click then waits about two seconds for the control to be still.
        page.bring_to_front()
        checker = page.locator(".schotten-checker")
        checker.locator(".schotten-checker__clear").click()
        expect(checker.locator(".schotten-checker__answer")).to_be_empty()
        return page, checker


@pytest.fixture(scope="module")
def opened_checkers(
    browser: Browser, browser_context_args: dict[str, Any], site_url: str
) -> Iterator[OpenedCheckers]:
    context = browser.new_context(**browser_context_args)
    try:
        yield OpenedCheckers(context, site_url)
    finally:
        context.close()


def place(checker: Locator, zone: str, *cards: str) -> None:
    checker.locator(f'input[type="radio"][value="{zone}"]').check()
    for card in cards:
        checker.locator(f'button[data-card="{card}"]').click()


# Every change of the checker's state, as (state, step, status text), from before the opening.
RECORD_STATES = """() => {
  const root = document.querySelector(".schotten-checker");
  const status = root.querySelector(".schotten-checker__status");
  window.checkerStates = [];
  new MutationObserver(() => {
    const seen = [root.dataset.state, root.dataset.step, status.textContent];
    const last = window.checkerStates.at(-1);
    if (!last || last.join("|") !== seen.join("|")) window.checkerStates.push(seen);
  }).observe(root, { attributes: true, attributeFilter: ["data-state", "data-step"] });
}"""


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_checker_loading_shows_each_step_then_ready(page: Page, site_url: str, lang: str) -> None:
    page.goto(site_url + PAGES[lang])
    page.evaluate(RECORD_STATES)
    open_checker(page, lang)
    words = labels(lang)["checker"]
    progress = words["progress"]
    assert page.evaluate("window.checkerStates") == [
        ["loading", "runtime", progress["runtime"]],
        ["loading", "stdlib", progress["stdlib"]],
        ["loading", "engine", progress["engine"]],
        ["ready", "", words["ready"]],
    ]


# A probe button whose handler notes the checker's state, and the main thread's long tasks.
WATCH_MAIN_THREAD = """() => {
  window.longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.longTasks.push(entry.duration);
  }).observe({ type: "longtask" });
  const probe = document.createElement("button");
  probe.id = "probe";
  probe.textContent = "probe";
  window.probeStates = [];
  probe.addEventListener("click", () => {
    window.probeStates.push(document.querySelector(".schotten-checker").dataset.state);
  });
  document.body.prepend(probe);
}"""


def test_page_stays_responsive_while_the_engine_loads(page: Page, site_url: str) -> None:
    page.goto(site_url + PAGES["fr"], wait_until="networkidle")
    page.evaluate(WATCH_MAIN_THREAD)
    checker = page.locator(".schotten-checker")
    checker.get_by_role("button", name=labels("fr")["checker"]["open"]).click()
    page.locator("#probe").click()  # would wait for the engine if it ran on the page
    expect(checker).to_have_attribute("data-state", "ready", timeout=CHECKER_LOADING_TIMEOUT)
    assert page.evaluate("window.probeStates") == ["loading"]
    place(checker, "mine", "red 9", "red 8", "red 7")
    checker.locator('button[type="submit"]').click()
    verdict = check_position({"mine": ["red 9", "red 8", "red 7"], "theirs": []})
    answer = checker.locator(".schotten-checker__answer")
    expect(answer).to_have_attribute("data-reason", verdict["reason"])
    # How long the main thread's tasks last is measured by scripts/bench (the checker and play
    # sections), not asserted here: on a loaded machine any bound is a coin toss.


def test_checker_runs_on_the_trimmed_standard_library(
    page: Page, site_url: str, built_site: Path
) -> None:
    fetched: list[Response] = []
    page.on("response", lambda response: fetched.append(response))
    page.goto(site_url + PAGES["es"])
    open_checker(page, "es")
    by_name = {response.url.rsplit("/", 1)[-1]: response for response in fetched}
    stdlib = by_name[runtime.STDLIB_ZIP]
    assert stdlib.url.endswith(f"/assets/checker/pyodide/{runtime.STDLIB_ZIP}")
    shipped = built_site / runtime.RUNTIME_DIR / runtime.STDLIB_ZIP
    assert stdlib.body() == shipped.read_bytes()
    full = runtime.PYODIDE / runtime.STDLIB_ZIP
    with zipfile.ZipFile(shipped) as trimmed, zipfile.ZipFile(full) as whole:
        assert len(trimmed.namelist()) < len(whole.namelist()) / 2
    assert by_name[runtime.LOCK_FILE].json()["packages"] == {}


@FORM
def test_a_changed_position_clears_the_answer(opened_checkers: OpenedCheckers) -> None:
    _, checker = opened_checkers("fr")
    answer = checker.locator(".schotten-checker__answer")
    submit = checker.locator('button[type="submit"]')
    place(checker, "mine", "red 9", "red 8", "red 7")
    changes = [
        lambda: place(checker, "theirs", "blue 2"),
        lambda: checker.locator('input[name="tactical"]').check(),
        lambda: checker.locator('input[name="mud_fight"]').check(),
        lambda: checker.locator('select[name="completed_first"]').select_option("opponent"),
        lambda: checker.locator('button[data-card="blue 2"]').click(),  # taken back
    ]
    for change in changes:
        submit.click()
        expect(answer).to_have_attribute("data-reason", re.compile(".+"))
        change()
        expect(answer).not_to_have_attribute("data-reason", re.compile(".*"))
        expect(answer).to_be_empty()


@FORM
def test_clear_all_resets_every_choice(opened_checkers: OpenedCheckers) -> None:
    _, checker = opened_checkers("es")
    form = checker.locator("form")
    form.locator('input[name="tactical"]').check()
    form.locator('input[name="blind_mans_bluff"]').check()
    place(checker, "mine", "red 9", "joker")
    place(checker, "elsewhere-theirs", "blue 1")
    form.locator('select[name="completed_first"]').select_option("opponent")
    form.locator('button[type="submit"]').click()
    expect(checker.locator(".schotten-checker__answer")).not_to_be_empty()

    checker.locator(".schotten-checker__clear").click()
    expect(form.locator('input[type="radio"]:checked')).to_have_value("mine")
    expect(form.locator('select[name="completed_first"]')).to_have_value("you")
    for name in ("tactical", "mud_fight", "blind_mans_bluff"):
        expect(form.locator(f'input[name="{name}"]')).not_to_be_checked()
    expect(form.locator('button[aria-pressed="true"]')).to_have_count(0)
    expect(form.locator(".schotten-checker__held")).to_have_text(
        [labels("es")["checker"]["empty"]] * 4
    )
    expect(checker.locator(".schotten-checker__answer")).to_be_empty()


@FORM
def test_an_elite_troop_can_be_taken_back_after_leaving_the_variant(
    opened_checkers: OpenedCheckers,
) -> None:
    _, checker = opened_checkers("fr")
    tactical = checker.locator('input[name="tactical"]')
    joker, spy = (checker.locator(f'button[data-card="{c}"]') for c in ("joker", "spy"))
    tactical.check()
    place(checker, "mine", "joker")
    tactical.uncheck()
    expect(spy).to_be_disabled()  # none can be added outside the variant...
    expect(joker).to_be_enabled()  # ...but the one placed can be taken back
    joker.click()
    expect(joker).to_have_attribute("aria-pressed", "false")
    expect(joker).to_be_disabled()
    expect(checker.locator('.schotten-checker__held[data-zone="mine"]')).to_have_text(
        labels("fr")["checker"]["empty"]
    )


def linked_stones() -> list[tuple[Case, int, str]]:
    """Every published claim case's stones with an "open in the checker" link, and its address."""
    found = []
    for case in load_cases(ROOT / "cases"):
        if case.published is None or case.play_on is not None:
            continue
        for stone in case.claim:
            url = checker_url(case.board, stone)
            if url is not None:
                found.append((case, stone, url))
    return found


@pytest.mark.returning_reader
def test_every_published_claim_case_opens_in_the_checker_with_its_verdict(
    page: Page, site_url: str, built_site: Path
) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    links = linked_stones()
    assert len(links) >= 20
    published = (built_site / "edge-cases" / "index.html").read_text(encoding="utf-8")
    checker = page.locator(".schotten-checker")
    answer = checker.locator(".schotten-checker__answer")
    for case, stone, url in links:
        assert f'href="{url}"' in published, f"{case.id}: no link {url}"
        # The link, followed from the edge-case page.
        page.goto(site_url + "/edge-cases/" + url)
        verdict = judge_stone(case.board, Player.FIRST, stone)
        expect(answer).to_have_attribute(
            "data-reason", str(verdict.reason), timeout=CHECKER_LOADING_TIMEOUT
        )
        expect(answer).to_have_attribute("data-granted", str(verdict.granted).lower())
    assert errors == []


@pytest.mark.returning_reader
def test_a_copied_link_reopens_the_same_position(page: Page, site_url: str) -> None:
    page.goto(site_url + PAGES["fr"])
    checker = open_checker(page, "fr")
    checker.locator('input[name="tactical"]').check()
    checker.locator('input[name="mud_fight"]').check()
    place(checker, "mine", "red 9", "red 8", "joker")
    place(checker, "theirs", "blue 2", "spy")
    place(checker, "elsewhere-theirs", "green 3")
    checker.locator('select[name="completed_first"]').select_option("opponent")
    checker.locator(".schotten-checker__copy").click()
    link = checker.get_attribute("data-link")
    assert link is not None and "#check=" in link
    held = checker.locator(".schotten-checker__held")
    before = held.all_inner_texts()
    page.goto(site_url + "/")  # another page, then the shared link in a fresh load
    page.goto(link)
    page.reload()
    answer = checker.locator(".schotten-checker__answer")
    expect(answer).to_have_attribute(
        "data-reason", re.compile(".+"), timeout=CHECKER_LOADING_TIMEOUT
    )
    assert held.all_inner_texts() == before
    expect(checker.locator('input[name="mud_fight"]')).to_be_checked()
    expect(checker.locator('select[name="completed_first"]')).to_have_value("opponent")
    position = {
        "variant": "tactical",
        "mine": ["red 9", "red 8", "joker"],
        "theirs": ["blue 2", "spy"],
        "elsewhere": {"mine": [], "theirs": ["green 3"]},
        "mud_fight": True,
        "completed_first": "opponent",
    }
    expect(answer).to_have_attribute("data-reason", check_position(position)["reason"])


@pytest.mark.returning_reader
@pytest.mark.parametrize(
    ("code", "kind"),
    [("x-r9", "bad"), ("b-r9r9---", "impossible"), ("b-J---", "impossible"), ("b-%3C", "bad")],
)
def test_a_bad_link_opens_the_checker_empty_with_a_message(
    page: Page, site_url: str, code: str, kind: str
) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(site_url + PAGES["es"] + "#check=" + code)
    checker = page.locator(".schotten-checker")
    notice = checker.locator(".schotten-checker__notice")
    expect(notice).to_have_attribute("data-kind", kind, timeout=CHECKER_LOADING_TIMEOUT)
    words = labels("es")["checker"]
    if kind == "bad":
        expect(notice).to_have_text(words["link_bad"])
    else:
        expect(notice).to_contain_text(words["link_impossible"].split("(")[0])
    expect(checker.locator("form")).to_be_visible()
    expect(checker.locator('button[aria-pressed="true"]')).to_have_count(0)
    expect(checker.locator(".schotten-checker__answer")).to_be_empty()
    assert errors == []


@FORM
def test_a_followed_link_is_answered_even_if_the_address_changes_before_it_is_handled(
    opened_checkers: OpenedCheckers,
) -> None:
    # The theme's heading tracking replaces the address as the page scrolls: it may do so after a
    # link to a position was followed and before the page handled it (seen under load).
    page, checker = opened_checkers("fr")
    case, stone = checker_cases()[0]
    link = checker_url(case.board, stone)
    assert link is not None
    page.evaluate(
        """(hash) => {
          location.hash = hash;
          history.replaceState(null, "", "#tracked-heading");
        }""",
        "#" + link.split("#", 1)[1],
    )
    verdict = judge_stone(case.board, Player.FIRST, stone)
    expect(checker.locator(".schotten-checker__answer")).to_have_attribute(
        "data-reason", str(verdict.reason)
    )
