"""MkDocs hook: the publishing gate of ``schotten.site.gate`` and its rendered pages.

Everything that can refuse a publication runs in the first ``on_pre_build``. The i18n plugin runs
the build once per language, so the result is kept by fingerprint (``mkdocs serve`` also rebuilds
after each edit without reloading this module).

``mkdocs build`` never writes into the site folder itself: the build goes to a fresh folder beside
it (``.site-new-*``), which replaces the site only when the whole command succeeded, strict
warnings included (MkDocs counts those after the last page is written). A failed or interrupted
build (SIGINT, SIGTERM) removes its folder and leaves the previous site as it was. ``mkdocs serve``
and ``--dirty`` builds write in place, as usual.
"""

from __future__ import annotations

import contextlib
import logging
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import Abort, PluginError
from mkdocs.plugins import CombinedEvent, event_priority
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page
from mkdocs.utils.meta import get_data
from mkdocs.utils.templates import TemplateContext

from schotten._files import write_atomically
from schotten.site import SiteCheckError, head, link_previews, questions, runtime, serve, theme
from schotten.site.gate import (
    DEFAULT_LANGUAGE,
    Prepared,
    fingerprint,
    page_language,
    page_stem,
    prepare,
)
from schotten.site.publish import new_folder, signals_as_exit, swap_in

log = logging.getLogger("mkdocs.hooks.schotten")
_last: dict[str, Prepared] = {}  # fingerprint -> the checked site; one entry at most


@dataclass
class _Swap:
    """The one build of this command that goes to a fresh folder (MkDocs keeps hooks as module
    functions: this is their state, for one command)."""

    enabled: bool = False
    site: Path | None = None  # where the site goes once the build succeeded
    fresh: Path | None = None  # where this build writes meanwhile
    failed: bool = False
    built: bool = False
    refusal: str | None = None  # the last build error, for scripts/serve (schotten.site.serve)
    signals: contextlib.ExitStack = field(default_factory=contextlib.ExitStack)


_swap = _Swap()


def on_startup(command: str, dirty: bool, **kwargs: Any) -> None:
    global _swap
    _swap = _Swap(enabled=command in ("build", "gh-deploy") and not dirty)
    if _swap.enabled:
        _swap.signals.enter_context(signals_as_exit())


def on_config(config: MkDocsConfig, **kwargs: Any) -> MkDocsConfig:
    if _swap.enabled and _swap.fresh is None:
        site = Path(config.site_dir).resolve()
        site.parent.mkdir(parents=True, exist_ok=True)
        _swap.site, _swap.fresh = site, new_folder(site.parent, f".{site.name}-new-")
        config.site_dir = str(_swap.fresh)
    return config


def on_build_error(error: Exception, **kwargs: Any) -> None:
    _swap.failed = True
    _swap.refusal = str(error)


def on_serve(server: Any, **kwargs: Any) -> Any:
    # Every refusal shown every time, in the terminal and in the pages served (site/serve.py).
    def refusal() -> str | None:
        message, _swap.refusal = _swap.refusal, None
        return message

    return serve.watch_refusals(server, refusal)


def on_shutdown(**kwargs: Any) -> None:
    swap = _swap
    swap.signals.close()
    if swap.fresh is None or swap.site is None:
        return
    fresh, swap.fresh = swap.fresh, None
    if swap.built and not swap.failed:
        try:
            swap_in(fresh, swap.site)
        except OSError as exc:
            shutil.rmtree(fresh, ignore_errors=True)
            raise Abort(f"schotten: cannot put the site in place of {swap.site}: {exc}") from exc
        log.info("schotten: site published in %s", swap.site)
    else:
        shutil.rmtree(fresh, ignore_errors=True)
        log.error("schotten: build failed: %s is unchanged", swap.site)


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
    log.info("schotten: %d published cases checked against the engine", len(prepared.results))


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


def on_page_read_source(page: Page, config: MkDocsConfig, **kwargs: Any) -> str:
    # The page as the gate read it (a regular file, within its size limit): MkDocs reads no
    # page file itself, so a file swapped since cannot make it wait or read without end. As
    # MkDocs's own reader does, a byte order mark is not the page's.
    try:
        return _prepared().source(page.file.src_uri).removeprefix("\ufeff")
    except SiteCheckError as exc:
        raise PluginError(str(exc)) from exc


def _prepared() -> Prepared:
    if not _last:
        raise PluginError("the site was not checked: on_pre_build did not run")
    (prepared,) = _last.values()
    return prepared


def on_page_markdown(
    markdown: str, page: Page, config: MkDocsConfig, files: Files, **kwargs: Any
) -> str:
    prepared = _prepared()
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


def _fold_search(
    context: TemplateContext, page: Page, config: MkDocsConfig, **kwargs: Any
) -> TemplateContext:
    # The search plugin has just indexed the page (plugins come before hooks): give its entries
    # their accent-free text (the "folded" field of mkdocs.yml's search settings).
    search = config.plugins.get("material/search")
    entries = getattr(getattr(search, "search_index", None), "entries", None)
    if entries is not None:
        theme.fold_search_entries(entries)
    return context


def on_template_context(
    context: TemplateContext, template_name: str, config: MkDocsConfig, **kwargs: Any
) -> TemplateContext:
    # MkDocs writes the 404 page's addresses from the server's root when there is no SITE_URL
    # (it cannot know the base path), which breaks the page wherever the site is served under a
    # sub-path. Without SITE_URL, its addresses are written from the site's root instead, as for
    # a page at the root; the page finds that root when it is shown (site_theme/404.html).
    if template_name != "404.html":
        return context
    if not config.site_url:
        context["base_url"] = "."
    # The language switcher (and the page's link home) lead to each language's home page. The
    # i18n plugin sets them per page as an attribute of config.extra, which templates read before
    # the key: left alone, they would lead to the last page it built.
    homes = [
        {**alternate, "link": _home(alternate["lang"])}
        for alternate in config.extra.get("alternate", [])
    ]
    config.extra["alternate"] = homes
    setattr(config.extra, "alternate", homes)  # noqa: B010 - not a declared attribute
    return context


def _home(lang: str) -> str:
    """The home page of a language, from the site's root (Spanish pages live under es/)."""
    return "./" if lang == DEFAULT_LANGUAGE else f"{lang}/"


def on_post_template(output: str, template_name: str, config: MkDocsConfig, **kwargs: Any) -> str:
    # A sitemap lists absolute addresses: without SITE_URL there are none to give.
    if template_name.startswith("sitemap.xml"):
        return _sitemap(config)
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
    _swap.built = True  # a later failure (strict warnings, another language) still counts
    _write_previews(config)
    # Once per command: the runtime goes to the root of the site, shared by both languages.
    if config.theme["language"] != DEFAULT_LANGUAGE:
        return
    try:
        runtime.install_runtime(Path(config.site_dir))
    except SiteCheckError as exc:
        raise PluginError(str(exc)) from exc


# The page's head: language alternates, preview tags and pictures, questions as structured data
# (schotten.site.head). The previews of one language build wait here until its pages are written.
_previews: dict[str, bytes] = {}


@event_priority(50)  # before the search plugin reads the page: the question markers are no text
def _page_head(
    context: TemplateContext, page: Page, config: MkDocsConfig, **kwargs: Any
) -> TemplateContext:
    if not _last:
        raise PluginError("the site was not checked: on_pre_build did not run")
    (prepared,) = _last.values()
    content = page.content or ""
    asked = questions.read_markers(content)
    page.content = questions.strip_markers(content)
    src_uri = page.file.src_uri
    lang = page_language(src_uri)
    stem = page_stem(src_uri)
    meta = page.meta or {}
    title = str(meta.get("title") or page.title or config.site_name)
    try:
        preview = link_previews.page_preview(stem, lang, title, config.site_name, prepared.results)
        png = link_previews.preview_png(preview)
    except SiteCheckError as exc:
        raise PluginError(f"{src_uri}: {exc}") from exc
    name = link_previews.file_name(stem, lang, png)
    _previews[name] = png
    page_head = head.PageHead(
        stem=stem,
        lang=lang,
        title=title,
        description=str(meta.get("description") or config.site_description or ""),
        site_name=config.site_name,
        image=f"{head.PREVIEW_FOLDER}/{name}",
        image_alt=preview.alt,
        image_size=link_previews.png_size(png),
        questions=asked,
    )
    context["schotten_head"] = head.head_html(page_head, config.site_url)
    return context


def on_post_page(output: str, page: Page, config: MkDocsConfig, **kwargs: Any) -> str:
    # The gate for structured data: every question and answer it gives is on the page.
    problems = head.structured_data_problems(output)
    if problems:
        raise PluginError(
            f"{page.file.src_uri}: refusing to publish structured data the page does not show:\n  "
            + "\n  ".join(problems)
        )
    return output


def _sitemap(config: MkDocsConfig) -> str:
    if not config.site_url or not _last:
        return ""
    (prepared,) = _last.values()
    return head.sitemap_xml((page_stem(uri) for uri in prepared.pages), config.site_url)


def _write_previews(config: MkDocsConfig) -> None:
    folder = Path(config.site_dir) / head.PREVIEW_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    for name, png in sorted(_previews.items()):
        write_atomically(folder / name, png)
    _previews.clear()


# The page's head is written before the search plugin reads the page, its search entries are
# folded after.
on_page_context = CombinedEvent(_page_head, _fold_search)
