"""The « Jouer » page in a real browser: whole games against the computer played to their end by
clicking (base game and Tactical variant, a phone-sized window, the keyboard alone), a refused
claim shown with its witness, a Tactic card of each kind, the game kept across a reload, the log's
entries kept from move to move, the downloaded record replayed by ``schotten replay`` with the
same result, every word the page shows at a Tactical game's end taken from the labels in each
language, and axe on the page.

Every move is one the page offers: the test only taps what is enabled, so the page's legal moves
(the engine's) decide the game; the computer's moves are whatever ``schotten.bot`` chooses.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Locator, Page, expect
from test_accessibility import serious_violations
from test_checker_cache_browser import Host, host  # noqa: F401 (a fixture)

from schotten.board import Player
from schotten.cards import Tactic
from schotten.moves import Banshee, Play, Recruiter, Strategist, Traitor
from schotten.records import Record
from schotten.site import labels
from schotten.typography import spacing_faults

LOADING_TIMEOUT = 120_000  # ms: the engine's first start on a busy machine
MOVE_TIMEOUT = 60_000  # ms: a move of the person and the computer's whole answer
MAX_ACTIONS = 1500
ELITE = {"joker", "spy", "shield-bearer"}
MODES = {"mud-fight", "blind-mans-bluff"}
RUSES = {"recruiter", "strategist", "banshee", "traitor"}
# Everything the page shows or says to a screen reader, its script's source left out.
SHOWN = """(root) => {
  const parts = [];
  const walk = (node) => {
    if (node.nodeType === Node.TEXT_NODE) parts.push(node.textContent);
    if (node.nodeType !== Node.ELEMENT_NODE || node.tagName === "SCRIPT") return;
    for (const name of ["aria-label", "title", "alt", "placeholder"]) {
      if (node.hasAttribute(name)) parts.push(node.getAttribute(name));
    }
    node.childNodes.forEach(walk);
  };
  walk(root);
  return parts.join("\\n");
}"""
# What the player reads of the page before each step, in one look (one call to the browser, where
# reading each control apart costs a round trip each).
VIEW = """() => {
  const r = document.querySelector('.schotten-play');
  const all = (selector) => [...r.querySelectorAll(selector)];
  return {
    outcome: r.dataset.outcome ?? null,
    phase: r.dataset.phase,
    moves: Number(r.dataset.moves),
    hand: all('.schotten-play__hand-card:not([disabled])').map((c) => c.dataset.card),
    open: all('.schotten-play__stone-column')
      .filter((c) => !c.dataset.claimed && c.querySelectorAll('.side-you li').length >= 3)
      .map((c) => c.dataset.stone),
    tactic: all('button[data-move="draw tactic"]').length,
  };
}"""
# Where the focus goes next to reach a control: null when it is there, true when the control
# comes before the focus (Shift+Tab), false when after (Tab). One look a key press.
TOWARDS = """(el) => document.activeElement === el
  ? null
  : !!(document.activeElement.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_PRECEDING)"""
IDLE = """() => {
  const r = document.querySelector('.schotten-play');
  return r && r.dataset.busy === 'false' && (r.dataset.outcome || r.dataset.toMove === 'you');
}"""

# The log's entries, newest first: their numbers, and whether each is one marked before.
LOG = """() => [...document.querySelectorAll('.schotten-play__log li')].map(
  (li) => [li.value, li.hasAttribute('data-test-seen')])"""


@dataclass
class Played:
    """What a game showed: the Tactic cards the person played, the refusals judged."""

    tactics: list[str] = field(default_factory=list)
    witnesses: int = 0
    actions: int = 0


class Clicker:
    """Plays the page by clicking (or by the keyboard alone: Tab to the control, then Enter).

    A click waits, as Playwright's do, until the control is visible, still for two frames and
    the first thing under the pointer (about 40 ms); a ``quick`` one is a click event sent to
    the control itself (a hundred a game), for the games that test the rules, not the pointer
    (the phone and keyboard games do). A click at the control's place without the wait could
    land elsewhere when the page moved under it: one such click was lost in a run. Either way,
    every step must play a move: a lost one fails the game at once."""

    def __init__(
        self,
        page: Page,
        *,
        keyboard: bool = False,
        quick: bool = False,
        wanted: tuple[str, ...] = (),
    ):
        self.page = page
        self.root = page.locator(".schotten-play")
        self.keyboard = keyboard
        self.quick = quick
        self.wanted = wanted  # Tactic cards to play first, when the page offers them
        self.played = Played()

    def press(self, target: Locator) -> None:
        if not self.keyboard:
            if self.quick:
                target.dispatch_event("click")
            else:
                target.click()
            return
        handle = target.element_handle()
        assert handle is not None
        for _ in range(400):
            before = self.page.evaluate(TOWARDS, handle)
            if before is None:  # the control has the focus
                break
            self.page.keyboard.press("Shift+Tab" if before else "Tab")
        else:
            raise AssertionError("the control cannot be reached with the keyboard")
        self.page.keyboard.press("Enter")

    def idle(self) -> None:
        self.page.wait_for_function(IDLE, timeout=MOVE_TIMEOUT)

    def view(self) -> dict[str, Any]:
        seen = self.page.evaluate(VIEW)
        assert isinstance(seen, dict)
        return seen

    def play_step(self, seen: dict[str, Any] | None = None) -> None:
        cards = [str(c) for c in (seen or self.view())["hand"]]
        wanted = [c for c in self.wanted if c in cards]
        clan = [c for c in cards if " " in c]
        if not cards:
            self.press(self.root.locator('button[data-move="pass"]'))
            return
        card = wanted[0] if wanted else (clan[0] if clan else cards[0])
        if " " not in card:
            self.played.tactics.append(card)
        self.press(self.root.locator(f'.schotten-play__hand-card[data-card="{card}"]').first)
        stones = self.root.locator(".schotten-play__stone:not([disabled])")
        if stones.count():
            self.press(stones.first)
            return
        group = self.root.locator(".schotten-play__choices button[data-group]")
        if group.count():
            self.press(group.first)
        self.press(self.root.locator(".schotten-play__choices button[data-move]").first)

    def claim_step(self, seen: dict[str, Any] | None = None) -> None:
        # Every stone where your side is complete is judged; the proven ones are claimed.
        for number in (seen or self.view())["open"]:
            column = self.root.locator(f'.schotten-play__stone-column[data-stone="{number}"]')
            self.press(column.locator(".schotten-play__stone"))
            self.idle()
            verdict = self.root.locator(".schotten-play__verdict .schotten-play__proof")
            expect(verdict).to_have_count(1)
            reason, granted = verdict.evaluate("(v) => [v.dataset.reason, v.dataset.granted]")
            if reason == "opponent-can-beat":
                witness = verdict.locator(".schotten-play__witness-cards .is-witness")
                expect(witness.first).to_be_visible()
                expect(verdict.locator(".schotten-play__witness")).to_be_visible()
                self.played.witnesses += 1
            elif granted == "true":
                stone = self.root.locator(f'.schotten-play__stone[data-stone="{number}"]')
                expect(stone).to_have_attribute("aria-pressed", "true")
        claim = self.root.locator('button[data-move^="claim "]:not([data-move="claim none"])')
        self.press(claim.first if claim.count() else self.root.locator('[data-move="claim none"]'))

    def draw_step(self, seen: dict[str, Any] | None = None) -> None:
        draws = self.root.locator('button[data-move^="draw "]')
        tactic = self.root.locator('button[data-move="draw tactic"]')
        want = any(c not in self.played.tactics for c in self.wanted)
        has_tactic = (seen or self.view())["tactic"]
        self.press(tactic if want and has_tactic else draws.first)

    def step(self, seen: dict[str, Any] | None = None) -> None:
        """One step of whatever the page asks for (play, claim, draw, the Recruiter's return)."""
        seen = seen or self.view()
        if seen["phase"] == "play":
            self.play_step(seen)
        elif seen["phase"] == "claim":
            self.claim_step(seen)
        elif seen["phase"] == "draw":
            self.draw_step(seen)
        else:  # the Recruiter's return
            self.press(self.root.locator(".schotten-play__choices button[data-move]").first)

    def turn(self) -> None:
        """A whole turn of the person (play, claim, draw), each step answered; the computer's
        whole answer after it."""
        for _ in range(3):
            self.step()
            self.idle()

    def play_to_the_end(self) -> Played:
        self.idle()
        seen = self.view()
        while seen["outcome"] is None:
            self.played.actions += 1
            assert self.played.actions < MAX_ACTIONS
            before = seen
            self.step(seen)
            self.idle()
            seen = self.view()
            assert seen["moves"] > before["moves"], f"a {before['phase']} step played no move"
        return self.played


def open_deal(page: Page, site_url: str, lang: str, variant: str, seed: int) -> Locator:
    """The deal's link, opened in a page load of its own. A new page has no game kept; a page
    that played one forgets it first, from a page without the engine (the play page would restore
    a kept game of the same deal, and each load of it starts the engine)."""
    prefix = "" if lang == "fr" else "/es"
    if page.url.startswith(site_url):
        page.goto(site_url + "/404.html")
        page.evaluate("() => localStorage.clear()")
    page.goto(f"{site_url}{prefix}/play/#deal={variant[0]}-{seed}")
    root = page.locator(".schotten-play")
    expect(root).to_have_attribute("data-phase", "play", timeout=LOADING_TIMEOUT)
    expect(root).to_have_attribute("data-seed", str(seed))
    expect(root).to_have_attribute("data-variant", variant)
    return root


def replayed(page: Page, root: Locator, tmp_path: Path) -> Record:
    """The record the page downloads, replayed by ``schotten replay``: the same end as shown."""
    with page.expect_download() as download:
        root.locator(".schotten-play__save").click()
    path = tmp_path / "game.json"
    download.value.save_as(path)
    run = subprocess.run(
        [sys.executable, "-m", "schotten", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    record = Record.loads(path.read_text(encoding="utf-8"))
    game = record.replay()
    assert game.outcome is not None
    assert f"game over: {game.outcome}" in run.stdout
    shown = root.get_attribute("data-outcome")
    winner = game.outcome.winner
    assert shown == ("draw" if winner is None else "you" if winner is Player.FIRST else "computer")
    assert root.get_attribute("data-termination") == str(game.outcome.termination)
    return record


def your_tactics(record: Record) -> set[str]:
    """The Tactic cards the person (the first player) played, read from the replayed record."""
    played = set()
    for action in record.replay().history:
        if action.player is not Player.FIRST:
            continue
        move = action.move
        if isinstance(move, Play) and isinstance(move.card, Tactic):
            played.add(str(move.card))
        elif isinstance(move, (Strategist, Banshee, Traitor, Recruiter)):
            played.add(move.kind)
    return played


def label_words(value: object) -> set[str]:
    """Every word of the labels the page is given (placeholders such as {value} left out)."""
    if isinstance(value, dict):
        return set().union(*(label_words(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(label_words(v) for v in value))
    text = re.sub(r"\{\w+\}", " ", str(value))
    return {w.lower() for w in re.findall(r"[^\W\d_]+", text)}


def every_word_is_from_the_labels(root: Locator, lang: str) -> None:
    """Everything the page shows at a game's end (the log opened), in the labels' words and the
    language's typography: no word comes from anywhere else."""
    root.locator(".schotten-play__log details").evaluate_all(
        "(all) => all.forEach((d) => { d.open = true; })"
    )
    shown = str(root.evaluate(SHOWN))
    # The words of the labels, and the initials the narrow board shows Tactic cards by.
    names = labels(lang)
    vocabulary = label_words(names) | {name[0].lower() for name in names["tactics"].values()}
    foreign = {w for w in re.findall(r"[^\W\d_]+", shown) if w.lower() not in vocabulary}
    assert foreign == set(), sorted(foreign)
    if lang == "fr":
        assert spacing_faults(shown) == []
    else:
        assert "\u202f" not in shown and "« " not in shown and " »" not in shown


def end_is_said(page: Page, root: Locator, lang: str) -> None:
    moves = labels(lang)["moves"]
    winner = root.get_attribute("data-outcome")
    key = {"you": "won-by-you", "computer": "won-by-opponent", "draw": "draw"}[str(winner)]
    termination = moves["termination"][str(root.get_attribute("data-termination"))]
    expect(root.locator(".schotten-play__status")).to_have_text(
        moves["game"][key] + termination + "."
    )


@pytest.mark.returning_reader
def test_a_base_game_to_the_end_with_a_refused_claim_and_its_record(
    page: Page, site_url: str, outside_requests: list[str], tmp_path: Path
) -> None:
    witnesses = 0
    for seed in (12, 13, 14):  # until a refused claim has shown its witness
        root = open_deal(page, site_url, "fr", "base", seed)
        played = Clicker(page, quick=True).play_to_the_end()
        end_is_said(page, root, "fr")
        # The log: the last 60 moves, newest first.
        numbers = [number for number, _ in page.evaluate(LOG)]
        moves = int(str(root.get_attribute("data-moves")))
        assert numbers == list(range(moves, moves - 60, -1)), numbers
        record = replayed(page, root, tmp_path)
        assert record.seed == seed and str(record.variant) == "base"
        witnesses += played.witnesses
        if witnesses:
            break
    assert witnesses > 0
    # The computer's claims carry their proofs, opened from the log.
    proofs = root.locator('.schotten-play__log li[data-player="computer"] details')
    if proofs.count():
        proofs.first.locator("summary").click()
        expect(proofs.first.locator(".schotten-play__proof").first).to_be_visible()
    assert outside_requests == []


@pytest.mark.returning_reader
@pytest.mark.parametrize(
    ("wanted", "kind"),
    [
        (("mud-fight", "blind-mans-bluff", "joker", "spy", "shield-bearer"), MODES),
        (("recruiter", "strategist", "traitor", "banshee", "joker"), RUSES),
    ],
    ids=["combat-mode", "ruse"],
)
def test_a_tactical_game_to_the_end_playing_tactic_cards_in_the_labels_words(
    page: Page, site_url: str, tmp_path: Path, wanted: tuple[str, ...], kind: set[str]
) -> None:
    for seed in (21, 22, 23):
        root = open_deal(page, site_url, "fr", "tactical", seed)
        Clicker(page, quick=True, wanted=wanted).play_to_the_end()
        tactics = your_tactics(replayed(page, root, tmp_path))
        if tactics & kind:
            break
    assert tactics & kind, tactics
    every_word_is_from_the_labels(root, "fr")


@pytest.mark.returning_reader
def test_a_tactical_game_on_a_phone_with_an_elite_troop_in_the_labels_words(
    page: Page, site_url: str, tmp_path: Path
) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    for seed in (31, 32, 33):
        root = open_deal(page, site_url, "es", "tactical", seed)
        board = root.locator(".schotten-play__board")
        box = board.bounding_box()
        assert box is not None and box["width"] <= 360
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 360, "the page scrolls sideways on a phone"
        # Elite troops first; ruses and a combat mode too, for the words they put in the log.
        wanted = ("joker", "spy", "shield-bearer", "recruiter", "mud-fight", "traitor")
        Clicker(page, wanted=wanted).play_to_the_end()
        end_is_said(page, root, "es")
        tactics = your_tactics(replayed(page, root, tmp_path))
        if tactics & ELITE:
            break
    assert tactics & ELITE, tactics
    every_word_is_from_the_labels(root, "es")


@pytest.mark.returning_reader
def test_a_whole_game_with_the_keyboard_alone(page: Page, site_url: str, tmp_path: Path) -> None:
    root = open_deal(page, site_url, "fr", "tactical", 41)
    Clicker(page, keyboard=True, wanted=("strategist", "banshee", "joker")).play_to_the_end()
    replayed(page, root, tmp_path)


@pytest.mark.returning_reader
def test_the_game_is_kept_across_a_reload_and_undo_takes_back_your_move(
    page: Page, site_url: str
) -> None:
    root = open_deal(page, site_url, "fr", "base", 5)
    player = Clicker(page)
    player.play_step()
    player.idle()
    expect(root).to_have_attribute("data-phase", "claim")
    undo = root.locator(".schotten-play__undo")
    expect(undo).to_be_enabled()
    undo.click()
    player.idle()
    expect(root).to_have_attribute("data-phase", "play")
    expect(root).to_have_attribute("data-moves", "0")
    player.turn()
    moves = root.get_attribute("data-moves")
    hand = root.locator(".schotten-play__hand-card").evaluate_all(
        "(cards) => cards.map((c) => c.dataset.card)"
    )
    # Your draw is behind you: no undo.
    expect(undo).to_be_disabled()
    page.reload()
    expect(root).to_have_attribute("data-moves", str(moves), timeout=LOADING_TIMEOUT)
    kept = root.locator(".schotten-play__hand-card").evaluate_all(
        "(cards) => cards.map((c) => c.dataset.card)"
    )
    assert kept == hand
    saved = json.loads(page.evaluate("() => localStorage.getItem('schotten-play-game')"))
    assert saved["seed"] == 5 and len(Record.loads(saved["record"]).moves) == int(str(moves))


@pytest.mark.returning_reader
def test_the_log_keeps_its_entries_across_moves_and_puts_new_ones_on_top(
    page: Page, site_url: str
) -> None:
    root = open_deal(page, site_url, "fr", "base", 5)
    player = Clicker(page)
    player.turn()
    before = page.evaluate(LOG)
    assert len(before) >= 4
    root.locator(".schotten-play__log li").evaluate_all(
        "(all) => all.forEach((li) => li.setAttribute('data-test-seen', ''))"
    )
    player.turn()
    after = page.evaluate(LOG)
    numbers = [number for number, _ in after]
    assert numbers == list(range(numbers[0], 0, -1)), numbers
    new = len(after) - len(before)
    assert new > 0
    # The entries shown before are the very same elements, below the new ones.
    assert after[new:] == [[number, True] for number, _ in before]
    assert not any(seen for _, seen in after[:new])


def test_a_game_goes_on_offline_once_the_files_are_kept(
    page: Page,
    context: BrowserContext,
    host: Host,  # noqa: F811 (the fixture imported)
) -> None:
    # The site built without SITE_URL, under a deep path, from a server that can be switched off.
    page.goto(host.url + "/es/play/#deal=b-8", wait_until="networkidle")
    root = page.locator(".schotten-play")
    expect(root).to_have_attribute("data-phase", "play", timeout=LOADING_TIMEOUT)
    page.reload(wait_until="networkidle")  # the page itself goes through the service worker
    expect(root).to_have_attribute("data-phase", "play", timeout=LOADING_TIMEOUT)
    context.set_offline(True)
    host.switch_off()
    page.reload()
    expect(root).to_have_attribute("data-seed", "8", timeout=LOADING_TIMEOUT)
    player = Clicker(page)
    player.idle()
    player.turn()
    log = root.locator('.schotten-play__log li[data-player="computer"]')
    expect(log.first).to_be_attached()
    assert int(str(root.get_attribute("data-moves"))) >= 6


@pytest.mark.returning_reader
@pytest.mark.parametrize("lang", ["fr", "es"])
def test_the_play_page_has_no_serious_accessibility_violation(
    page: Page, site_url: str, lang: str
) -> None:
    root = open_deal(page, site_url, lang, "tactical", 7)
    player = Clicker(page)
    player.play_step()
    player.idle()
    assert serious_violations(page) == []
    # The claim step with a verdict on screen.
    column = root.locator(".schotten-play__stone:not([disabled])").first
    column.click()
    player.idle()
    assert serious_violations(page) == []
