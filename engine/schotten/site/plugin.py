"""The MkDocs plugin of the site (``plugins: [schotten]`` in ``mkdocs.yml``): the publishing gate of
:mod:`schotten.site.gate` and its rendered pages, the atomic publication, the pages' heads.

Everything that can refuse a publication runs in the first ``on_pre_build`` of a build. The i18n
plugin builds each language with the same configuration, so the gate runs once per build; ``mkdocs
serve`` loads its configuration again for each rebuild, and the gate runs again only when a file
it reads changed (:func:`~schotten.site.gate.fingerprint`).

``mkdocs build`` never writes into the site folder itself: the build goes to a fresh folder beside
it (``.site-new-*``), which replaces the site only when the whole command succeeded, strict
warnings included (MkDocs counts those after the last page is written). A failed or interrupted
build (SIGINT, SIGTERM, SIGHUP) removes its folder and leaves the previous site as it was; what a
crash or SIGKILL left is put back or removed by the next build (:func:`~.publish.recover`).
``mkdocs serve`` and ``--dirty`` builds write in place, as usual.

MkDocs keeps one instance of this class for a whole command (it has ``on_startup``): its state is
that command's.
"""

from __future__ import annotations

import contextlib
import logging
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, cast

from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import Abort, PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page
from mkdocs.utils.meta import get_data
from mkdocs.utils.templates import TemplateContext

from schotten._files import write_atomically
from schotten.site import (
    SiteCheckError,
    agreement,
    build_cache,
    head,
    link_previews,
    runtime,
    serve,
    theme,
)
from schotten.site.gate import (
    DEFAULT_LANGUAGE,
    Prepared,
    fingerprint,
    page_language,
    page_stem,
    prepare,
)
from schotten.site.publish import new_folder, recover, signals_as_exit, swap_in

log = logging.getLogger("mkdocs.plugins.schotten")


@dataclass
class _Swap:
    """The one build of this command that goes to a fresh folder."""

    enabled: bool = False
    site: Path | None = None  # where the site goes once the build succeeded
    fresh: Path | None = None  # where this build writes meanwhile
    failed: bool = False
    built: bool = False
    interrupted: int | None = None  # the stop signal received (SIGTERM, SIGINT, SIGHUP)
    refusal: str | None = None  # the last build error, for scripts/serve (schotten.site.serve)
    signals: contextlib.ExitStack = field(default_factory=contextlib.ExitStack)


@dataclass(frozen=True)
class _Checked:
    """The gate's last result, the fingerprint of what it read, and the configuration of the
    build it was made for (the i18n plugin's other languages share that configuration)."""

    config: MkDocsConfig
    key: str
    prepared: Prepared


# MkDocs's Config.__init_subclass__ and BasePlugin.__init_subclass__ have no annotations.
class Options(Config):  # type: ignore[no-untyped-call]
    """The plugin takes no options: the site's folders come from MkDocs's own configuration."""


class SchottenPlugin(BasePlugin[Options]):  # type: ignore[no-untyped-call]
    """The site's build: the gate, the pages it rendered, their heads, the swap into place."""

    def __init__(self) -> None:
        super().__init__()
        self._swap = _Swap()
        self._checked: _Checked | None = None
        # The preview pictures of one language build wait here until its pages are written.
        self._previews: dict[str, bytes] = {}

    # The command ------------------------------------------------------------------------------

    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        self._swap.signals.close()
        self._swap = _Swap(enabled=command in ("build", "gh-deploy") and not dirty)
        self._checked = None
        self._previews.clear()
        if self._swap.enabled:
            self._swap.signals.enter_context(signals_as_exit(self._interrupted))

    def _interrupted(self, signum: int) -> None:
        # Noted before the build unwinds: whatever it had built by then is not published.
        self._swap.interrupted = signum

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        # The site's address is written into every page: refused before anything is built.
        problem = head.site_url_problem(config.site_url) if config.site_url else None
        if problem is not None:
            raise PluginError(
                f"SITE_URL (site_url of mkdocs.yml): {problem}; give the absolute address the "
                "site is published at, such as https://example.org/schotten/"
            )
        swap = self._swap
        if swap.enabled and swap.fresh is None:
            site = Path(config.site_dir).resolve()
            site.parent.mkdir(parents=True, exist_ok=True)
            for path in recover(site):  # what a build stopped by a crash or SIGKILL left
                log.info("schotten: %s, left by an interrupted build: %s", path, _what(path, site))
            swap.site, swap.fresh = site, new_folder(site.parent, f".{site.name}-new-")
            config.site_dir = str(swap.fresh)
        return config

    def on_build_error(self, *, error: Exception) -> None:
        self._swap.failed = True
        self._swap.refusal = str(error)

    def on_serve(
        self, server: LiveReloadServer, /, *, config: MkDocsConfig, builder: Any
    ) -> LiveReloadServer:
        # Every refusal shown every time, in the terminal and in the pages served (site/serve.py).
        def refusal() -> str | None:
            message, self._swap.refusal = self._swap.refusal, None
            return message

        watched: LiveReloadServer = serve.watch_refusals(server, refusal)
        return watched

    def on_shutdown(self) -> None:
        swap = self._swap
        swap.signals.close()
        if swap.fresh is None or swap.site is None:
            return
        fresh, swap.fresh = swap.fresh, None
        if swap.interrupted is not None:
            shutil.rmtree(fresh, ignore_errors=True)
            log.error("schotten: interrupted: %s is unchanged", swap.site)
        elif swap.built and not swap.failed:
            try:
                swap_in(fresh, swap.site)
            except OSError as exc:
                shutil.rmtree(fresh, ignore_errors=True)
                raise Abort(
                    f"schotten: cannot put the site in place of {swap.site}: {exc}"
                ) from exc
            log.info("schotten: site published in %s", swap.site)
        else:
            shutil.rmtree(fresh, ignore_errors=True)
            log.error("schotten: build failed: %s is unchanged", swap.site)

    # One language's build ---------------------------------------------------------------------

    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        _theme_words(config)
        checked = self._checked
        if checked is not None and checked.config is config:
            return  # another language of the same build
        root = Path(config.config_file_path).resolve().parent
        docs_dir, cases_dir = Path(config.docs_dir), root / "cases"
        key = fingerprint(docs_dir, cases_dir)
        if checked is not None and checked.key == key:  # mkdocs serve, nothing the gate reads
            self._checked = _Checked(config, key, checked.prepared)
            return
        try:
            prepared = prepare(docs_dir, cases_dir, nav=nav_pages(config.nav), display_root=root)
        except SiteCheckError as exc:
            raise PluginError(str(exc)) from exc
        self._checked = _Checked(config, key, prepared)
        log.info("schotten: %d published cases checked against the engine", len(prepared.results))

    def on_page_read_source(self, /, *, page: Page, config: MkDocsConfig) -> str:
        # The page as the gate read it (a regular file, within its size limit): MkDocs reads no
        # page file itself, so a file swapped since cannot make it wait or read without end. As
        # MkDocs's own reader does, a byte order mark is not the page's.
        try:
            return self._prepared().source(page.file.src_uri).removeprefix("\ufeff")
        except SiteCheckError as exc:
            raise PluginError(str(exc)) from exc

    def on_page_markdown(
        self, markdown: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        src_uri = page.file.src_uri
        lang = getattr(page.file, "locale", None) or config.theme["language"]
        if lang != page_language(src_uri):
            raise PluginError(
                f"{src_uri}: built as {lang!r}, written in {page_language(src_uri)!r}"
            )
        try:
            rendered = self._prepared().page(src_uri)
        except SiteCheckError as exc:
            raise PluginError(str(exc)) from exc
        # The rendered source still opens with the page's front matter (title, description),
        # which MkDocs has already read from the file: hand on the body only.
        body, _meta = get_data(rendered)
        return body

    def on_page_content(
        self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        # The table of contents collapsed the headings' no-break spaces: read them back.
        if page.toc:
            theme.restore_toc_titles(page.toc, theme.heading_titles(html))
        return html

    @event_priority(50)  # before the search plugin reads the page
    def _page_head(
        self, context: TemplateContext, /, *, page: Page, config: MkDocsConfig, nav: Any
    ) -> TemplateContext:
        # The page's head: language alternates, preview tags and pictures, questions as
        # structured data (schotten.site.head).
        prepared = self._prepared()
        src_uri = page.file.src_uri
        lang = page_language(src_uri)
        stem = page_stem(src_uri)
        meta = page.meta or {}
        title = str(meta.get("title") or page.title or config.site_name)
        try:
            preview = link_previews.page_preview(
                stem, lang, title, config.site_name, prepared.results
            )
            png = link_previews.preview_png(preview, build_cache.CACHE)
            asked = prepared.questions_of(src_uri)
        except SiteCheckError as exc:
            raise PluginError(f"{src_uri}: {exc}") from exc
        name = link_previews.file_name(stem, lang, png)
        self._previews[name] = png
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
        # Our own key, read by the theme's template (site_theme/main.html): not one of MkDocs's.
        cast(dict[str, Any], context)["schotten_head"] = head.head_html(page_head, config.site_url)
        return context

    def _fold_search(
        self, context: TemplateContext, /, *, page: Page, config: MkDocsConfig, nav: Any
    ) -> TemplateContext:
        # The search plugin has just indexed the page (it comes before this plugin under
        # plugins:): give its entries their accent-free text (the "folded" field of mkdocs.yml's
        # search settings).
        search = config.plugins.get("material/search")
        entries = getattr(getattr(search, "search_index", None), "entries", None)
        if entries is not None:
            theme.fold_search_entries(entries)
        return context

    # The page's head is written before the search plugin reads the page, its search entries
    # are folded after.
    on_page_context = CombinedEvent(_page_head, _fold_search)

    def on_template_context(
        self, context: TemplateContext, /, *, template_name: str, config: MkDocsConfig
    ) -> TemplateContext:
        # MkDocs writes the 404 page's addresses from the server's root when there is no
        # SITE_URL (it cannot know the base path), which breaks the page wherever the site is
        # served under a sub-path. Without SITE_URL, its addresses are written from the site's
        # root instead, as for a page at the root; the page finds that root when it is shown
        # (site_theme/404.html).
        if template_name != "404.html":
            return context
        if not config.site_url:
            context["base_url"] = "."
        # The language switcher (and the page's link home) lead to each language's home page.
        # The i18n plugin sets them per page as an attribute of config.extra, which templates
        # read before the key: left alone, they would lead to the last page it built.
        homes = [
            {**alternate, "link": _home(alternate["lang"])}
            for alternate in config.extra.get("alternate", [])
        ]
        config.extra["alternate"] = homes
        setattr(config.extra, "alternate", homes)  # noqa: B010 - not a declared attribute
        return context

    def on_post_template(
        self, output_content: str, /, *, template_name: str, config: MkDocsConfig
    ) -> str:
        # A sitemap lists absolute addresses: without SITE_URL there are none to give.
        if template_name.startswith("sitemap.xml"):
            return self._sitemap(config)
        # Each language's build writes the theme's 404 page at the root: the default language
        # keeps the root, the others get theirs in their own folder (<site>/es/404.html).
        lang = config.theme["language"]
        if template_name != "404.html" or lang == DEFAULT_LANGUAGE:
            return output_content
        target = Path(config.site_dir) / lang / template_name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(output_content, "utf-8")
        return ""

    def on_post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str:
        # The gate for structured data: every question and answer it gives is on the page.
        problems = head.structured_data_problems(output)
        if problems:
            raise PluginError(
                f"{page.file.src_uri}: refusing to publish structured data the page does not "
                "show:\n  " + "\n  ".join(problems)
            )
        return output

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        self._swap.built = True  # a later failure (strict warnings, another language) still counts
        self._write_previews(config)
        # Once per command: the runtime goes to the root of the site, shared by both languages.
        if config.theme["language"] != DEFAULT_LANGUAGE:
            return
        try:
            runtime.install_runtime(Path(config.site_dir))
            # The suite's archive, which the proofs page of each language links.
            agreement.write_archive(Path(config.site_dir))
        except SiteCheckError as exc:
            raise PluginError(str(exc)) from exc

    # Helpers ----------------------------------------------------------------------------------

    def _prepared(self) -> Prepared:
        if self._checked is None:
            raise PluginError("the site was not checked: on_pre_build did not run")
        return self._checked.prepared

    def _sitemap(self, config: MkDocsConfig) -> str:
        if not config.site_url or self._checked is None:
            return ""
        pages = self._checked.prepared.pages
        return head.sitemap_xml((page_stem(uri) for uri in pages), config.site_url)

    def _write_previews(self, config: MkDocsConfig) -> None:
        folder = Path(config.site_dir) / head.PREVIEW_FOLDER
        folder.mkdir(parents=True, exist_ok=True)
        for name, png in sorted(self._previews.items()):
            write_atomically(folder / name, png)
        self._previews.clear()


def _theme_words(config: MkDocsConfig) -> None:
    # The theme's strings in this build's language (the i18n plugin has set it by now): the
    # headings' permalink title, and the words of the 404 page (site_theme/404.html).
    words = theme.theme_words(config.theme["language"])
    config.mdx_configs.setdefault("toc", {})["permalink_title"] = words["permalink"]
    config.extra["site_words"] = dict(words)


def nav_pages(nav: Any) -> list[str]:
    """The Markdown files named in ``nav:`` (titles and nesting dropped, outside links left out).

    >>> nav_pages([{"Accueil": "index.md"}, {"Plus": ["a.md", {"B": "https://x.org/b.md"}]}])
    ['index.md', 'a.md']
    """
    if isinstance(nav, str):
        return [nav] if nav.endswith(".md") and "://" not in nav else []
    if isinstance(nav, dict):
        return [p for value in nav.values() for p in nav_pages(value)]
    if isinstance(nav, list):
        return [p for item in nav for p in nav_pages(item)]
    return []


def _what(path: Path, site: Path) -> str:
    return "put back" if path == site else "removed"


def _home(lang: str) -> str:
    """The home page of a language, from the site's root (Spanish pages live under es/)."""
    return "./" if lang == DEFAULT_LANGUAGE else f"{lang}/"
