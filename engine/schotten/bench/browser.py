"""Benchmarks in a real browser (headless Chromium, from a local server): the in-page claim
checker's openings by kind of host, and each page's height on a phone.

The checker, opened from a local server playing three kinds of host (compressing on the fly at
gzip level 6, serving the .gz copies, not compressing): its first opening downloads at most 4.5 MB
where the host compresses on the fly, and its second opening, after a reload, downloads nothing and
is ready well under 1 s (the service worker's files).
"""

from __future__ import annotations

import gzip
import http.server
import io
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar


class _SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the site as a host would, by ``mode``: "gz" sends ``<file>.gz`` for ``<file>`` when
    the browser accepts gzip (a host serving the site's precompressed copies); "gzip-6"
    compresses every answer on the fly at level 6, as GitHub Pages does (a ``.gz`` file is sent
    as it is: it is already compressed); "none" sends the files as they are. Every answer's
    path and the bytes of its body are noted in ``sent`` (if given)."""

    mode: ClassVar[str] = "gz"
    sent: ClassVar[list[tuple[str, int]] | None] = None

    def send_head(self):  # type: ignore[no-untyped-def]
        path = Path(self.translate_path(self.path))
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        packed = path.with_name(path.name + ".gz")
        if self.mode == "gz" and accepts and packed.is_file():
            return self._answer(path, packed.read_bytes())
        if self.mode == "gzip-6" and accepts and path.is_file() and path.suffix != ".gz":
            return self._answer(path, gzip.compress(path.read_bytes(), 6, mtime=0))
        body = super().send_head()
        if body is not None and path.is_file():
            self._note(path.stat().st_size)
        return body

    def _note(self, size: int) -> None:
        if self.sent is not None:
            self.sent.append((self.path, size))

    def _answer(self, path: Path, data: bytes) -> io.BytesIO:
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self._note(len(data))
        return io.BytesIO(data)

    def log_message(self, format: str, *args: object) -> None:
        pass


# Timed in the page, as a reader sees it: from the click (a listener that runs before the
# checker's) to its state turning "ready" (a MutationObserver), on the page's own clock; the
# browser automation's round trips stay out of the figure.
_READY_CLOCK = """() => {
  const root = document.querySelector(".schotten-checker");
  const button = root.querySelector(".schotten-checker__open");
  window.__schottenReady = new Promise((resolve) => {
    let clicked = null;
    const click = () => { clicked = performance.now(); };
    button.addEventListener("click", click, { capture: true, once: true });
    const seen = new MutationObserver(() => {
      const state = root.dataset.state;
      if (clicked !== null && (state === "ready" || state === "error")) {
        seen.disconnect();
        resolve([state, (performance.now() - clicked) / 1000]);
      }
    });
    seen.observe(root, { attributes: true, attributeFilter: ["data-state"] });
  });
}"""


def _time_to_ready(page: Any) -> float:
    page.evaluate(_READY_CLOCK)
    page.click(".schotten-checker__open")
    state, elapsed = page.evaluate("() => window.__schottenReady")
    if state != "ready":
        sys.exit("the checker failed to start: see the browser console")
    return float(elapsed)


@dataclass(frozen=True)
class _Opening:
    """One reader's first and second opening of the checker (seconds from the click to the
    ready state), an answer's seconds, and what the server sent for each opening."""

    first: float
    second: float
    answer: float
    first_sent: list[tuple[str, int]]
    second_sent: list[tuple[str, int]]


def _open_checker(browser: Any, url: str, sent: list[tuple[str, int]]) -> _Opening:
    """Open the checker in a fresh browser context (nothing kept), then again after a reload
    (the service worker's files), then claim once."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(url, wait_until="networkidle")  # the page's own files (search index...) first
    page.wait_for_selector(".schotten-checker__open:enabled")  # checker.js and its stylesheet
    sent.clear()
    first = _time_to_ready(page)
    first_sent = _opening(sent)
    page.reload(wait_until="networkidle")
    page.wait_for_selector(".schotten-checker__open:enabled")
    sent.clear()
    second = _time_to_ready(page)
    second_sent = _opening(sent)
    for card in ("red 9", "red 8", "red 7"):
        page.click(f'button[data-card="{card}"]')
    start = time.perf_counter()
    page.click('.schotten-checker button[type="submit"]')
    page.wait_for_selector(".schotten-checker__answer[data-reason]")
    answer = time.perf_counter() - start
    context.close()
    return _Opening(first, second, answer, first_sent, second_sent)


def _opening(sent: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """What an opening of the checker asked for: its files and its service worker (the page's
    own, which a loaded machine may still be fetching, are not the opening's)."""
    return [(path, n) for path, n in sent if "/assets/checker/" in path or "checker-sw" in path]


CHECKER_MAX_FIRST_MB = 4.5  # first opening, where the host compresses on the fly (gzip-6)
CHECKER_MAX_SECOND_S = 1.0  # second opening, from the files kept: well under this
HOSTS = (
    ("gzip-6", "a host compressing on the fly at level 6 (GitHub Pages)"),
    ("gz", "a host serving the site's .gz copies"),
    ("none", "a host that does not compress"),
)


def bench_checker(site: Path | None, runs: int, root: Path) -> None:
    """The in-page claim checker: what its first and second openings download from each kind
    of host, and how long each takes."""
    import functools
    import tempfile
    import threading

    from playwright.sync_api import sync_playwright

    results: dict[str, list[_Opening]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        if site is None:
            site = Path(tmp) / "site"
            env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
            command = [sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(site)]
            subprocess.run(command, cwd=root, env=env, check=True)
        with sync_playwright() as playwright:
            executable = "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
            browser = playwright.chromium.launch(executable_path=executable)
            for mode, _ in HOSTS:
                sent: list[tuple[str, int]] = []
                handler_class = type("Host", (_SiteHandler,), {"mode": mode, "sent": sent})
                handler = functools.partial(handler_class, directory=str(site.parent))
                with http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) as httpd:
                    threading.Thread(target=httpd.serve_forever, daemon=True).start()
                    url = f"http://127.0.0.1:{httpd.server_address[1]}/{site.name}/rules/"
                    results[mode] = [_open_checker(browser, url, sent) for _ in range(runs)]
                    httpd.shutdown()
            browser.close()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"In-page checker (headless Chromium, local server, {runs} readers a host; load {load})")
    print("  What the first opening downloads, by host (MB; the files kept by the service worker")
    print("  travel as their .gz copies, whatever the host):")
    first = {mode: results[mode][0].first_sent for mode, _ in HOSTS}
    paths = sorted({path for sent in first.values() for path, _ in sent})
    print(f"  {'file':<44} " + " ".join(f"{mode:>8}" for mode, _ in HOSTS))
    for path in sorted(paths, key=lambda p: -dict(first["none"]).get(p, 0)):
        sizes = [sum(n for p, n in first[mode] if p == path) for mode, _ in HOSTS]
        name = path.split("/assets/")[-1] if "/assets/" in path else path.rsplit("/", 1)[-1]
        print(f"  {name:<44} " + " ".join(f"{n / 1e6:>8.3f}" for n in sizes))
    for mode, what in HOSTS:
        total = sum(n for _, n in first[mode]) / 1e6
        again = sum(n for _, n in results[mode][0].second_sent) / 1e6
        target = ""
        if mode == "gzip-6":
            verdict = "within" if total <= CHECKER_MAX_FIRST_MB else "OVER"
            target = f"  ({verdict} the {CHECKER_MAX_FIRST_MB} MB target)"
        print(f"  first opening {total:.3f} MB, second {again:.3f} MB: {what}{target}")
    timings = [opening for mode, _ in HOSTS for opening in results[mode]]
    what_was_timed = (
        ("first opening (click to ready, in the page)", [o.first for o in timings], None),
        ("second opening (after a reload)", [o.second for o in timings], CHECKER_MAX_SECOND_S),
        ("one answer", [o.answer for o in timings], None),
    )
    for what, times, limit in what_was_timed:
        times = sorted(times)
        median = statistics.median(times)
        target = ""
        if limit is not None:
            verdict = "within" if median < limit else "OVER"
            target = f"  ({verdict} the target: well under {limit:.0f} s)"
        print(
            f"  {what + ':':<33} median {median:.2f} s, "
            f"fastest {times[0]:.2f} s, slowest {times[-1]:.2f} s{target}"
        )


PAGES = ("", "rules/", "edge-cases/", "tactics/", "rulings/", "odds/", "proofs/")


# Everything a page fetched as it loaded (the page, its scripts, styles, pictures, data), in bytes
# once decoded: what a first visit downloads, whatever the cache held.
FETCHED = """() => [
  ...performance.getEntriesByType("navigation"),
  ...performance.getEntriesByType("resource"),
].reduce((total, entry) => total + entry.decodedBodySize, 0)"""


def bench_pages(site: Path | None, root: Path) -> None:
    """Each page's height on a 390 px phone, as a reader first sees it (cases closed), and what
    it fetched as it loaded, its network then idle."""
    import functools
    import tempfile
    import threading

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        if site is None:
            site = Path(tmp) / "site"
            env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
            command = [sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(site)]
            subprocess.run(command, cwd=root, env=env, check=True)
        handler = functools.partial(_SiteHandler, directory=str(site.parent))
        with http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) as httpd:
            threading.Thread(target=httpd.serve_forever, daemon=True).start()
            base = f"http://127.0.0.1:{httpd.server_address[1]}/{site.name}/"
            with sync_playwright() as playwright:
                executable = "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
                browser = playwright.chromium.launch(executable_path=executable)
                page = browser.new_page(viewport={"width": 390, "height": 844})
                print("Page heights at 390 px (px; screens of 844 px), and kB fetched to load")
                for path in PAGES:
                    heights, fetched = [], []
                    for lang in ("", "es/"):
                        page.goto(base + lang + path, wait_until="networkidle")
                        heights.append(page.evaluate("document.documentElement.scrollHeight"))
                        fetched.append(page.evaluate(FETCHED) / 1000)
                    fr, es = heights
                    screens = f"fr {fr:>7,} ({fr / 844:4.1f})   es {es:>7,} ({es / 844:4.1f})"
                    kilobytes = f"fetched fr {fetched[0]:5,.0f}, es {fetched[1]:5,.0f}"
                    print(f"  /{path:<12} {screens}   {kilobytes}")
                browser.close()
            httpd.shutdown()
