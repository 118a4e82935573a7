"""The checker's files kept in the browser (the service worker, checker-sw.js), in Chromium.

A second opening downloads none of them and answers; a page reloaded offline opens the checker
and answers; a new build's files replace the ones kept. The site is the one built without
SITE_URL, served under a deep base path by a server that notes every address asked of it and can
be switched off.
"""

from __future__ import annotations

import functools
import gzip
import http.server
import shutil
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Locator, Page, expect
from sites import CHECKER_LOADING_TIMEOUT, open_checker

from schotten.checker import check_position
from schotten.site import labels, runtime
from schotten.site.widgets import EXAMPLE
from schotten.site.words import format_megabytes

BASE_PATH = "under/a/path"
ANSWER_TIMEOUT = 30_000  # ms: the first answer warms the engine up, slow on a loaded machine
# Whether the service worker's cache ``name`` holds ``url``.
KEPT = "async ([name, url]) => Boolean(await (await caches.open(name)).match(url))"


@dataclass
class Host:
    """The site at ``url`` (files in ``site``), and the paths asked of it, in order."""

    site: Path
    url: str
    asked: list[str] = field(default_factory=list)
    httpd: http.server.ThreadingHTTPServer | None = None

    def switch_off(self) -> None:
        """From now on, every connection is refused."""
        assert self.httpd is not None
        self.httpd.shutdown()
        self.httpd.server_close()

    def checker_files_asked(self) -> list[str]:
        prefix = f"/{BASE_PATH}/{runtime.CHECKER_DIR.as_posix()}/"
        return [path.removeprefix(prefix) for path in self.asked if path.startswith(prefix)]


@pytest.fixture
def host(tmp_path: Path, relative_site: Path) -> Iterator[Host]:
    www = tmp_path / "www"
    shutil.copytree(relative_site, www / BASE_PATH)
    served = Host(www / BASE_PATH, "")

    class Noting(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def send_head(self):  # type: ignore[no-untyped-def]
            served.asked.append(self.path.split("?")[0])
            return super().send_head()

    handler = functools.partial(Noting, directory=str(www))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    served.httpd = httpd
    served.url = f"http://127.0.0.1:{httpd.server_address[1]}/{BASE_PATH}"
    yield served
    httpd.shutdown()
    httpd.server_close()


def claim(checker: Locator) -> None:
    """A Suite couleur against an empty side: the engine's answer is expected, every time."""
    checker.locator(".schotten-checker__clear").click()
    for card in ("red 9", "red 8", "red 7"):
        checker.locator(f'button[data-card="{card}"]').click()
    checker.locator('button[type="submit"]').click()
    reason = check_position({"mine": ["red 9", "red 8", "red 7"], "theirs": []})["reason"]
    answer = checker.locator(".schotten-checker__answer")
    expect(answer).to_have_attribute("data-reason", reason, timeout=ANSWER_TIMEOUT)


def kept_caches(page: Page) -> list[str]:
    return list(page.evaluate("caches.keys()"))


def test_the_first_opening_downloads_what_the_page_says_and_the_second_nothing(
    page: Page, host: Host
) -> None:
    page.goto(host.url + "/rules/", wait_until="networkidle")
    words = labels("fr")["checker"]
    size = format_megabytes(runtime.first_open_bytes(host.site), "fr")
    expect(page.locator(".schotten-checker__download")).to_have_text(
        words["download"].format(size=size)
    )
    host.asked.clear()
    claim(open_checker(page))
    # Every kept file travelled once, as its gzip copy where it has one, and nothing else did.
    first = sorted(host.checker_files_asked())
    expected = []
    for path in runtime.kept_files(host.site):
        packed = path.with_name(path.name + ".gz")
        travelled = packed if packed.is_file() else path
        expected.append(travelled.relative_to(host.site / runtime.CHECKER_DIR).as_posix())
    assert first == sorted(expected)
    assert f"/{BASE_PATH}/{runtime.SERVICE_WORKER}" in host.asked
    version = runtime.service_worker_manifest(host.site)["version"]
    expect(page.locator(".schotten-checker")).to_have_attribute("data-version", version)
    assert kept_caches(page) == [f"schotten-checker-{version}"]
    # Beside the files, the engine as it stood once started: the next start resumes from it.
    snapshot = f"{host.url}/{(runtime.RUNTIME_DIR / runtime.SNAPSHOT).as_posix()}"
    page.wait_for_function(
        KEPT,
        arg=[f"schotten-checker-{version}", snapshot],
        timeout=ANSWER_TIMEOUT,
    )

    page.reload(wait_until="networkidle")
    host.asked.clear()
    checker = open_checker(page)
    claim(checker)
    # The wasm, the libraries, the engine: nothing asked again. (The browser may look for a
    # newer service worker after a reload, on its own; the opening does not wait for it.)
    assert host.checker_files_asked() == []


def test_the_checker_reopens_offline(page: Page, context: BrowserContext, host: Host) -> None:
    page.goto(host.url + "/es/rules/", wait_until="networkidle")
    open_checker(page, "es")
    page.reload(wait_until="networkidle")  # the page itself goes through the service worker
    context.set_offline(True)
    host.switch_off()
    page.reload()
    claim(open_checker(page, "es"))


def test_a_new_build_replaces_the_files_kept(page: Page, host: Host) -> None:
    page.goto(host.url + "/rules/", wait_until="networkidle")
    open_checker(page)
    old = runtime.service_worker_manifest(host.site)["version"]
    # Another build: the engine's worker differs, and so do the service worker's manifest and
    # the version the pages name.
    worker = host.site / runtime.CHECKER_DIR / runtime.WORKER
    worker.write_text(worker.read_text(encoding="utf-8") + "// another build\n", "utf-8")
    runtime.write_service_worker(host.site)
    new = runtime.service_worker_manifest(host.site)["version"]
    assert new != old
    for page_file in host.site.rglob("*.html"):
        text = page_file.read_text(encoding="utf-8")
        page_file.write_text(text.replace(f'data-version="{old}"', f'data-version="{new}"'))

    page.reload(wait_until="networkidle")
    host.asked.clear()
    claim(open_checker(page))
    assert runtime.WORKER in host.checker_files_asked()  # the new build's, from the network
    assert kept_caches(page) == [f"schotten-checker-{new}"]  # the old build's files are gone
    served = page.evaluate(
        "async (url) => (await fetch(url)).text()",
        f"{host.url}/{runtime.CHECKER_DIR.as_posix()}/{runtime.WORKER}",
    )
    assert served.endswith("// another build\n")


def is_kept(page: Page, version: str, url: str) -> bool:
    return bool(page.evaluate(KEPT, [f"schotten-checker-{version}", url]))


def test_a_file_the_host_changed_is_used_but_never_kept(page: Page, host: Host) -> None:
    # The host serves another worker.js than this build wrote (its gzip copy too), while the
    # pages and the service worker still name this build's.
    worker = host.site / runtime.CHECKER_DIR / runtime.WORKER
    worker.write_text(worker.read_text(encoding="utf-8") + "// changed by the host\n", "utf-8")
    packed = worker.with_name(worker.name + ".gz")
    assert packed.is_file()
    packed.write_bytes(gzip.compress(worker.read_bytes()))
    page.goto(host.url + "/rules/", wait_until="networkidle")
    claim(open_checker(page))  # the changed worker answers: it was handed on as it came
    version = page.locator(".schotten-checker").get_attribute("data-version")
    assert version is not None
    checker = f"{host.url}/{runtime.CHECKER_DIR.as_posix()}"
    engine = f"{checker}/{runtime.ENGINE_ZIP}"
    page.wait_for_function(
        KEPT,
        arg=[f"schotten-checker-{version}", engine],
        timeout=ANSWER_TIMEOUT,
    )
    assert not is_kept(page, version, f"{checker}/{runtime.WORKER}")

    page.reload(wait_until="networkidle")
    host.asked.clear()
    claim(open_checker(page))
    asked = host.checker_files_asked()
    assert packed.name in asked  # asked again, not kept
    assert not [name for name in asked if name.startswith(runtime.ENGINE_ZIP)]  # kept


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_the_example_loads_an_instructive_position(page: Page, host: Host, lang: str) -> None:
    page.goto(host.url + ("/rules/" if lang == "fr" else "/es/rules/"))
    checker = page.locator(".schotten-checker")
    checker.get_by_role("link", name=labels(lang)["checker"]["example"]).click()
    answer = checker.locator(".schotten-checker__answer")
    verdict = check_position(EXAMPLE)
    expect(answer).to_have_attribute(
        "data-reason", verdict["reason"], timeout=CHECKER_LOADING_TIMEOUT
    )
    assert verdict["granted"] is False and verdict["witness"] is not None  # a 3 still hidden
    # Changed, then loaded again from the same link.
    checker.locator('button[data-card="red 3"]').click()
    expect(answer).to_be_empty()
    checker.get_by_role("link", name=labels(lang)["checker"]["example"]).click()
    expect(answer).to_have_attribute("data-reason", verdict["reason"])
