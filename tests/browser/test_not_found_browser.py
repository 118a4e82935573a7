"""The 404 pages of a site built without SITE_URL (every link relative), served under a sub-path
at a missing address, as static hosts do: the nearest 404.html above the address, with status
404. Their stylesheets, scripts and links must start from the site's root, however deep the
address."""

from __future__ import annotations

import functools
import http.server
import shutil
import threading
from collections.abc import Iterator
from http import HTTPStatus
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
from playwright.sync_api import Page, expect
from sites import open_search

from schotten.site import labels

BASE_PATH = "under/a/path"  # deeper than the site's own folders, so no page lands on the root


class _Host(http.server.SimpleHTTPRequestHandler):
    """A static host: a missing address gets the nearest 404.html above it."""

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = self._not_found_page() if code == HTTPStatus.NOT_FOUND else None
        if page is None:
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(code)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _not_found_page(self) -> Path | None:
        top = Path(self.directory).resolve()
        folder = Path(self.translate_path(unquote(urlsplit(self.path).path))).parent
        while folder.is_relative_to(top):
            if (folder / "404.html").is_file():
                return folder / "404.html"
            folder = folder.parent
        return None

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory, relative_site: Path) -> Iterator[str]:
    """The site built without SITE_URL, served at ``http://127.0.0.1:<port>/under/a/path/``."""
    www = tmp_path_factory.mktemp("www-relative")
    shutil.copytree(relative_site, www / BASE_PATH)
    handler = functools.partial(_Host, directory=str(www))
    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) as httpd:
        thread = threading.Thread(target=httpd.serve_forever, daemon=True)
        thread.start()
        yield f"http://127.0.0.1:{httpd.server_address[1]}/{BASE_PATH}/"
        httpd.shutdown()


ASSETS = """() => [
  ...[...document.querySelectorAll("link[rel=stylesheet], link[rel=icon]")].map((l) => l.href),
  ...[...document.querySelectorAll("script[src]")].map((s) => s.src),
]"""


@pytest.mark.parametrize(
    ("lang", "missing"),
    [
        ("fr", "no-such-page"),
        ("fr", "rules/no/such/page/"),
        ("es", "es/no-such-page"),
        ("es", "es/rules/no/such/page/"),
    ],
)
def test_404_page_loads_its_assets_and_links_from_the_site_root(
    page: Page, host: str, outside_requests: list[str], lang: str, missing: str
) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    response = page.goto(host + missing)
    assert response is not None and response.status == HTTPStatus.NOT_FOUND
    assert page.locator("html").get_attribute("lang") == lang
    assert page.locator("h1").inner_text() == labels(lang)["theme"]["not_found_title"]

    assets: list[str] = page.evaluate(ASSETS)
    assert len(assets) >= 6
    for url in assets:
        assert url.startswith(host + "assets/"), url
        assert page.request.get(url).status == HTTPStatus.OK, url
    home = host + ("es/" if lang == "es" else "")
    # The theme's stylesheet is applied, and its script ran and finds the search index.
    header = page.evaluate("() => getComputedStyle(document.querySelector('.md-header')).position")
    assert header == "sticky"
    config: Any = page.evaluate("() => JSON.parse(document.getElementById('__config').textContent)")
    assert config["base"].rstrip("/") + "/" == host
    open_search(page)  # the index is found and loaded
    page.locator(".md-search__input").press_sequentially("Banshee")
    found = page.locator(".md-search-result__item:not([hidden]) > a.md-search-result__link")
    expect(found.first).to_be_visible()
    assert found.first.evaluate("(a) => a.href").startswith(home)

    link = page.get_by_role("link", name=labels(lang)["theme"]["not_found_home"])
    assert link.evaluate("(a) => a.href") == home
    links: list[str] = page.evaluate(
        "() => [...document.querySelectorAll('a[href]')].map((a) => a.href)"
    )
    assert home + "rules/" in links
    assert [url for url in links if not url.startswith(host)] == []
    assert errors == []
    assert outside_requests == []


class _OneNotFoundHost(_Host):
    """A host with one 404 page for the whole site, the root's (GitHub Pages)."""

    def _not_found_page(self) -> Path | None:
        page = Path(self.directory).resolve() / BASE_PATH / "404.html"
        return page if page.is_file() else None


@pytest.fixture(scope="module")
def one_404_host(tmp_path_factory: pytest.TempPathFactory, relative_site: Path) -> Iterator[str]:
    www = tmp_path_factory.mktemp("www-one-404")
    shutil.copytree(relative_site, www / BASE_PATH)
    handler = functools.partial(_OneNotFoundHost, directory=str(www))
    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) as httpd:
        thread = threading.Thread(target=httpd.serve_forever, daemon=True)
        thread.start()
        yield f"http://127.0.0.1:{httpd.server_address[1]}/{BASE_PATH}/"
        httpd.shutdown()


@pytest.mark.parametrize(("lang", "missing"), [("es", "es/no-such-page"), ("fr", "no-such-page")])
def test_a_host_with_one_404_page_still_answers_in_the_address_language(
    page: Page, one_404_host: str, lang: str, missing: str
) -> None:
    page.goto(one_404_host + missing)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("h1")).to_have_text(labels(lang)["theme"]["not_found_title"])
