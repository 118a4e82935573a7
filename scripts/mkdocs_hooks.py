"""MkDocs hook: the publishing gate and the page renderer of ``schotten.site.build``.

Everything that can refuse a publication runs in the first ``on_pre_build``, before MkDocs cleans or
writes the output folder: a refused build leaves the previous site as it was. The i18n plugin runs
the build once per language, so the result is kept by fingerprint (``mkdocs serve`` also rebuilds
after each edit without reloading this module).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page
from mkdocs.utils.meta import get_data

from schotten.site import SiteCheckError, theme, widgets
from schotten.site.build import DEFAULT_LANGUAGE, Prepared, fingerprint, page_language, prepare

log = logging.getLogger("mkdocs.hooks.schotten")
_last: dict[str, Prepared] = {}  # fingerprint -> the checked site; one entry at most


def _folders(config: MkDocsConfig) -> tuple[Path, Path, Path]:
    root = Path(config.config_file_path).resolve().parent
    return root, Path(config.docs_dir), root / "cases"


def on_pre_build(config: MkDocsConfig, **kwargs: Any) -> None:
    _theme_words(config)
    root, docs_dir, cases_dir = _folders(config)
    key = fingerprint(docs_dir, cases_dir)
    if key in _last:
        return
    try:
        prepared = prepare(docs_dir, cases_dir, nav=_nav_pages(config.nav), display_root=root)
    except SiteCheckError as exc:
        raise PluginError(str(exc)) from exc
    _last.clear()
    _last[key] = prepared
    log.info("schotten: %d published cases checked against the engine", len(prepared.entries))


def _theme_words(config: MkDocsConfig) -> None:
    # The theme's strings in this build's language (the i18n plugin has set it by now): the
    # headings' permalink title, and the words of the 404 page (site_theme/404.html).
    words = theme.theme_words(config.theme["language"])
    config.mdx_configs.setdefault("toc", {})["permalink_title"] = words["permalink"]
    config.extra["site_words"] = dict(words)


def _nav_pages(nav: Any) -> list[str]:
    """The Markdown files named in ``nav:`` (titles and nesting dropped, outside links left out)."""
    if isinstance(nav, str):
        return [nav] if nav.endswith(".md") and "://" not in nav else []
    if isinstance(nav, dict):
        return [p for value in nav.values() for p in _nav_pages(value)]
    if isinstance(nav, list):
        return [p for item in nav for p in _nav_pages(item)]
    return []


def on_page_markdown(
    markdown: str, page: Page, config: MkDocsConfig, files: Files, **kwargs: Any
) -> str:
    if not _last:
        raise PluginError("the site was not checked: on_pre_build did not run")
    (prepared,) = _last.values()
    src_uri = page.file.src_uri
    lang = getattr(page.file, "locale", None) or config.theme["language"]
    if lang != page_language(src_uri):
        raise PluginError(f"{src_uri}: built as {lang!r}, written in {page_language(src_uri)!r}")
    try:
        rendered = prepared.page(src_uri)
    except SiteCheckError as exc:
        raise PluginError(str(exc)) from exc
    # The rendered source still opens with the page's front matter (title, description), which
    # MkDocs has already read from the file: hand on the body only.
    body, _meta = get_data(rendered)
    return body


def on_page_content(html: str, page: Page, **kwargs: Any) -> str:
    # The table of contents collapsed the headings' no-break spaces: read them back.
    if page.toc:
        theme.restore_toc_titles(page.toc, theme.heading_titles(html))
    return html


def on_post_template(output: str, template_name: str, config: MkDocsConfig, **kwargs: Any) -> str:
    # A sitemap lists absolute addresses: without SITE_URL there are none to give.
    if template_name.startswith("sitemap.xml") and not config.site_url:
        return ""
    # Each language's build writes the theme's 404 page at the root: the default language keeps
    # the root, the others get theirs in their own folder (<site>/es/404.html).
    lang = config.theme["language"]
    if template_name != "404.html" or lang == DEFAULT_LANGUAGE:
        return output
    target = Path(config.site_dir) / lang / template_name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(output, "utf-8")
    return ""


def on_post_build(config: MkDocsConfig, **kwargs: Any) -> None:
    # Once per command: the runtime goes to the root of the site, shared by both languages.
    if config.theme["language"] != DEFAULT_LANGUAGE:
        return
    try:
        widgets.install_runtime(Path(config.site_dir))
    except SiteCheckError as exc:
        raise PluginError(str(exc)) from exc
