"""The « Jouer » page in a real browser (headless Chromium, from a local server): the computer's
move time in the page's worker (Pyodide), and how long the page's main thread is ever busy.

Whole games are played on the page, the person's side by clicking the first move it offers; the
page itself times each of the computer's steps, from its request to the worker's answer
(``playTimes``). The play steps are the ones the Python figures of ``bot_bench`` stand beside;
the claim and draw steps answer without a search. A ``PerformanceObserver`` on ``longtask``
records every task of the main thread over 50 ms: the page should never block for more than
100 ms, since the engine and the computer player run in the worker. Nothing here is asserted.
"""

from __future__ import annotations

import http.server
import os
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from schotten.bench.browser import _SiteHandler

LOADING_TIMEOUT = 300_000  # ms: the engine's first start on a busy machine
STEP_TIMEOUT = 120_000  # ms: a click of the person and the computer's whole answer
MAX_ACTIONS = 1500
BLOCKING_MS = 100  # the page's target: no task of its main thread longer than this
VARIANTS = ("base", "tactical")

# Installed before the page's own scripts: every long task of the main thread, in ms.
_LONG_TASKS = """
window.__longTasks = [];
try {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
  }).observe({ type: "longtask", buffered: true });
} catch (error) {
  window.__longTasks = null;  // no long-task timing in this browser
}
"""
_IDLE = """() => {
  const r = document.querySelector('.schotten-play');
  return r && r.dataset.busy === 'false' && (r.dataset.outcome || r.dataset.toMove === 'you');
}"""


@dataclass
class _Times:
    """What the games of one variant showed."""

    search: list[float] = field(default_factory=list)  # ms, the computer's play steps
    other: list[float] = field(default_factory=list)  # ms, its claim, draw and return steps
    loading: list[float] = field(default_factory=list)  # ms, long tasks until the deal is shown
    playing: list[float] = field(default_factory=list)  # ms, long tasks during the games
    games: int = 0


class _Server(http.server.ThreadingHTTPServer):
    """The local host; a reload that cuts a download short is not an error worth printing."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def _first(root: Any, selector: str) -> Any | None:
    found = root.locator(selector)
    return found.first if found.count() else None


def _person_step(root: Any) -> None:
    """One step of the person: the first move the page offers (a Clan card where there is one)."""
    phase = root.get_attribute("data-phase")
    if phase == "play":
        clan = _first(root, '.schotten-play__hand-card:not([disabled])[data-card*=" "]')
        card = clan or _first(root, ".schotten-play__hand-card:not([disabled])")
        if card is None:
            root.locator('button[data-move="pass"]').click()
            return
        card.click()
        stone = _first(root, ".schotten-play__stone:not([disabled])")
        if stone is not None:
            stone.click()
            return
        group = _first(root, ".schotten-play__choices button[data-group]")
        if group is not None:
            group.click()
        root.locator(".schotten-play__choices button[data-move]").first.click()
    elif phase == "claim":
        claim = _first(root, 'button[data-move^="claim "]:not([data-move="claim none"])')
        (claim or root.locator('[data-move="claim none"]')).click()
    elif phase == "draw":
        root.locator('button[data-move^="draw "]').first.click()
    else:  # the Recruiter's return
        root.locator(".schotten-play__choices button[data-move]").first.click()


def _play_game(page: Any, url: str, times: _Times) -> None:
    page.goto(url)
    page.evaluate("() => localStorage.clear()")
    page.reload()
    root = page.locator(".schotten-play")
    page.wait_for_function(
        "() => document.querySelector('.schotten-play')?.dataset.phase === 'play'",
        timeout=LOADING_TIMEOUT,
    )
    page.wait_for_function(_IDLE, timeout=STEP_TIMEOUT)
    long_tasks = page.evaluate("() => window.__longTasks && window.__longTasks.splice(0)")
    times.loading += long_tasks or []
    for _ in range(MAX_ACTIONS):
        if root.get_attribute("data-outcome") is not None:
            break
        _person_step(root)
        page.wait_for_function(_IDLE, timeout=STEP_TIMEOUT)
    else:
        sys.exit(f"{url}: the game did not end in {MAX_ACTIONS} steps")
    steps = page.evaluate("() => document.querySelector('.schotten-play').playTimes")
    for step in steps:
        (times.search if step["phase"] in ("play", "return") else times.other).append(step["ms"])
    times.playing += page.evaluate("() => window.__longTasks || []")
    times.games += 1


def _spread(values: list[float]) -> str:
    if not values:
        return "none"
    return f"median {statistics.median(values):.0f} ms, worst {max(values):.0f} ms"


def _blocking(tasks: list[float]) -> str:
    if not tasks:
        return "no task over 50 ms"
    over = sum(1 for t in tasks if t > BLOCKING_MS)
    count = "1 task" if len(tasks) == 1 else f"{len(tasks)} tasks"
    return f"{count} over 50 ms, the longest {max(tasks):.0f} ms, {over} over {BLOCKING_MS} ms"


def bench_play_browser(site: Path | None, games: int, seed: int, root: Path) -> None:
    """Play ``games`` whole games a variant on the page; print the computer's step times in the
    worker and the main thread's long tasks."""
    import functools
    import threading

    from playwright.sync_api import sync_playwright

    results = {variant: _Times() for variant in VARIANTS}
    with tempfile.TemporaryDirectory() as tmp:
        if site is None:
            site = Path(tmp) / "site"
            env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
            command = [sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(site)]
            subprocess.run(command, cwd=root, env=env, check=True)
        handler = functools.partial(_SiteHandler, directory=str(site.parent))
        with _Server(("127.0.0.1", 0), handler) as httpd:
            threading.Thread(target=httpd.serve_forever, daemon=True).start()
            base = f"http://127.0.0.1:{httpd.server_address[1]}/{site.name}/play/"
            with sync_playwright() as playwright:
                executable = "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
                browser = playwright.chromium.launch(executable_path=executable)
                page = browser.new_page(viewport={"width": 390, "height": 844})
                page.add_init_script(_LONG_TASKS)
                for variant, times in results.items():
                    for deal in range(seed, seed + games):
                        _play_game(page, f"{base}#deal={variant[0]}-{deal}", times)
                browser.close()
            httpd.shutdown()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"The play page (headless Chromium at 390 px, local server, {games} whole "
        f"{'game' if games == 1 else 'games'} a "
        f"variant, deals from {seed}; load {load})"
    )
    print("  The computer's steps in the worker (Pyodide), as the page waited for them:")
    for variant, times in results.items():
        print(
            f"  {variant:<8} play steps ({len(times.search)}): {_spread(times.search)}; "
            f"claim and draw steps ({len(times.other)}): {_spread(times.other)}"
        )
    print(f"  The page's main thread (target: never blocked over {BLOCKING_MS} ms):")
    loading = [t for times in results.values() for t in times.loading]
    playing = [t for times in results.values() for t in times.playing]
    print(f"  while the engine starts and the deal is drawn: {_blocking(loading)}")
    print(f"  during the games: {_blocking(playing)}")
