"""The site's MkDocs plugin, event by event, on a stub configuration: nothing is built here (the
builds themselves are tested in test_site.py, test_seo.py and the browser tests)."""

from __future__ import annotations

import importlib.metadata
import struct
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.pages import Page
from mkdocs.utils.templates import TemplateContext

from schotten.site import gate, link_previews, plugin
from schotten.site.plugin import SchottenPlugin

PAGES = {
    "index.md": (
        "# Accueil\n\n{% call questions() %}\n**Qui gagne\u202f?** Le premier.\n{% endcall %}\n"
    ),
    "index.es.md": "# Inicio\n\nNada más.\n",
}


def _project(root: Path) -> Path:
    (root / "docs").mkdir(parents=True)
    (root / "cases").mkdir()
    for name, text in PAGES.items():
        (root / "docs" / name).write_text(text, encoding="utf-8")
    (root / "mkdocs.yml").write_text("site_name: x\n", encoding="utf-8")
    return root


def _config(root: Path, lang: str = "fr", site_url: str | None = None) -> MkDocsConfig:
    """What the plugin reads of MkDocs's configuration, and nothing else."""
    return cast(
        MkDocsConfig,
        SimpleNamespace(
            config_file_path=str(root / "mkdocs.yml"),
            docs_dir=str(root / "docs"),
            site_dir=str(root / "site"),
            site_url=site_url,
            site_name="Le site",
            site_description="",
            nav=[{"Accueil": "index.md"}],
            theme={"language": lang},
            mdx_configs={},
            extra={},
            plugins={},
        ),
    )


def _page(src_uri: str) -> Page:
    file = SimpleNamespace(src_uri=src_uri, locale=gate.page_language(src_uri))
    return cast(Page, SimpleNamespace(file=file, meta={}, title="T", toc=None, content=""))


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many times the plugin hashed the gate's files and ran the gate."""
    calls = {"fingerprint": 0, "prepare": 0}

    def fingerprint(*args: Any) -> str:
        calls["fingerprint"] += 1
        return gate.fingerprint(*args)

    def prepare(*args: Any, **kwargs: Any) -> gate.Prepared:
        calls["prepare"] += 1
        return gate.prepare(*args, **kwargs)

    monkeypatch.setattr(plugin, "fingerprint", fingerprint)
    monkeypatch.setattr(plugin, "prepare", prepare)
    return calls


def test_the_plugin_is_registered_for_mkdocs() -> None:
    (entry,) = importlib.metadata.entry_points(group="mkdocs.plugins", name="schotten")
    assert entry.load() is SchottenPlugin


def test_mkdocs_yml_names_the_plugin_and_no_hooks() -> None:
    text = (Path(__file__).resolve().parents[1] / "mkdocs.yml").read_text(encoding="utf-8")
    assert "\n  - schotten\n" in text
    assert "\nhooks:" not in text


def test_the_gate_runs_once_for_both_languages_of_a_build(
    tmp_path: Path, counted: dict[str, int]
) -> None:
    root = _project(tmp_path)
    site = SchottenPlugin()
    site.on_startup(command="build", dirty=False)
    config = _config(root)
    site.on_pre_build(config=config)
    config.theme["language"] = "es"  # the i18n plugin's second build, on the same configuration
    site.on_pre_build(config=config)
    assert counted == {"fingerprint": 1, "prepare": 1}
    assert config.mdx_configs["toc"]["permalink_title"]  # the theme's words, for each language


def test_serve_runs_the_gate_again_only_when_a_file_it_reads_changed(
    tmp_path: Path, counted: dict[str, int]
) -> None:
    root = _project(tmp_path)
    site = SchottenPlugin()
    site.on_startup(command="serve", dirty=False)
    site.on_pre_build(config=_config(root))
    site.on_pre_build(config=_config(root))  # a rebuild, nothing changed: hashed, not checked
    assert counted == {"fingerprint": 2, "prepare": 1}
    (root / "docs" / "index.es.md").write_text("# Inicio\n\nOtra cosa.\n", encoding="utf-8")
    config = _config(root)
    site.on_pre_build(config=config)
    assert counted == {"fingerprint": 3, "prepare": 2}
    page = _page("index.es.md")
    assert "Otra cosa." in site.on_page_markdown("", page=page, config=config, files=None)  # type: ignore[arg-type]


def test_a_refusal_of_the_gate_is_a_plugin_error(tmp_path: Path) -> None:
    root = _project(tmp_path)
    (root / "docs" / "index.es.md").unlink()
    site = SchottenPlugin()
    with pytest.raises(PluginError, match=r"index\.es\.md: page missing in es"):
        site.on_pre_build(config=_config(root))


def test_pages_are_the_gates_copies_and_their_questions_go_to_the_head(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The preview picture draws a published case, and this project has none: a stub picture.
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR" + struct.pack(">II", 1200, 630)
    monkeypatch.setattr(
        link_previews, "page_preview", lambda *args: SimpleNamespace(alt="une image")
    )
    monkeypatch.setattr(link_previews, "preview_png", lambda preview, cache=None: png)
    root = _project(tmp_path)
    site = SchottenPlugin()
    config = _config(root)
    site.on_pre_build(config=config)
    page = _page("index.md")
    (root / "docs" / "index.md").write_text("# Changed since\n", encoding="utf-8")
    assert site.on_page_read_source(page=page, config=config).startswith("# Accueil")
    markdown = site.on_page_markdown("ignored", page=page, config=config, files=None)  # type: ignore[arg-type]
    assert "**Qui gagne\u202f?** Le premier." in markdown
    assert "<!--" not in markdown  # the questions do not travel in the page
    context = site._page_head(cast(TemplateContext, {}), page=page, config=config, nav=None)
    written = cast(dict[str, str], context)["schotten_head"]
    assert '"@type": "FAQPage"' in written and "Qui gagne\u202f?" in written
    spanish = site._page_head(
        cast(TemplateContext, {}), page=_page("index.es.md"), config=config, nav=None
    )
    assert "FAQPage" not in cast(dict[str, str], spanish)["schotten_head"]


def test_a_page_the_gate_never_saw_is_refused(tmp_path: Path) -> None:
    site = SchottenPlugin()
    with pytest.raises(PluginError, match="on_pre_build did not run"):
        site.on_page_read_source(page=_page("index.md"), config=_config(tmp_path))
    site.on_pre_build(config=_config(_project(tmp_path)))
    with pytest.raises(PluginError, match=r"other\.md: page was not checked"):
        site.on_page_read_source(page=_page("other.md"), config=_config(tmp_path))


def test_structured_data_the_page_does_not_show_is_refused(tmp_path: Path) -> None:
    site = SchottenPlugin()
    ld = (
        '<script type="application/ld+json">{"@context": "https://schema.org", "@type": '
        '"FAQPage", "mainEntity": [{"@type": "Question", "name": "Qui gagne\u202f?", '
        '"acceptedAnswer": {"@type": "Answer", "text": "Le premier."}}]}</script>'
    )
    shown = f"<html><head>{ld}</head><body><p><strong>Qui gagne\u202f?</strong> Le premier.</p>"
    page = _page("index.md")
    assert site.on_post_page(shown, page=page, config=_config(tmp_path)) == shown
    with pytest.raises(PluginError, match=r"index\.md: refusing to publish structured data"):
        site.on_post_page(
            f"<html><head>{ld}</head><body></body>", page=page, config=_config(tmp_path)
        )


def test_a_build_goes_to_a_fresh_folder_swapped_in_only_on_success(tmp_path: Path) -> None:
    root = _project(tmp_path)
    (root / "site").mkdir()
    (root / "site" / "old.html").write_text("old", encoding="utf-8")
    site = SchottenPlugin()
    site.on_startup(command="build", dirty=False)
    config = site.on_config(_config(root, lang="es"))
    fresh = Path(config.site_dir)
    assert fresh.parent == root and fresh.name.startswith(".site-new-")
    (fresh / "new.html").write_text("new", encoding="utf-8")
    site.on_post_build(config=config)  # Spanish: no runtime to install
    site.on_shutdown()
    assert sorted(p.name for p in (root / "site").iterdir()) == ["assets", "new.html"]
    assert sorted(p.name for p in root.iterdir()) == [
        ".site.lock",
        "cases",
        "docs",
        "mkdocs.yml",
        "site",
    ]


def test_a_failed_build_leaves_the_site_as_it_was(tmp_path: Path) -> None:
    root = _project(tmp_path)
    (root / "site").mkdir()
    (root / "site" / "old.html").write_text("old", encoding="utf-8")
    site = SchottenPlugin()
    site.on_startup(command="build", dirty=False)
    config = site.on_config(_config(root, lang="es"))
    site.on_post_build(config=config)
    site.on_build_error(error=PluginError("strict warnings"))
    site.on_shutdown()
    assert [p.name for p in (root / "site").iterdir()] == ["old.html"]
    assert not list(root.glob(".site-new-*"))


def test_serve_and_dirty_builds_write_in_place(tmp_path: Path) -> None:
    for command, dirty in (("serve", False), ("build", True)):
        site = SchottenPlugin()
        site.on_startup(command=command, dirty=dirty)  # type: ignore[arg-type]
        config = site.on_config(_config(tmp_path))
        assert config.site_dir == str(tmp_path / "site")
        site.on_shutdown()


def test_the_sitemap_needs_the_sites_address(tmp_path: Path) -> None:
    root = _project(tmp_path)
    site = SchottenPlugin()
    config = _config(root)
    site.on_pre_build(config=config)
    assert site.on_post_template("x", template_name="sitemap.xml", config=config) == ""
    addressed = _config(root, site_url="https://example.org/st/")
    sitemap = site.on_post_template("x", template_name="sitemap.xml", config=addressed)
    assert "<loc>https://example.org/st/</loc>" in sitemap
    assert "https://example.org/st/es/" in sitemap


def test_each_languages_404_page_goes_to_its_own_folder(tmp_path: Path) -> None:
    site = SchottenPlugin()
    french, spanish = _config(tmp_path, "fr"), _config(tmp_path, "es")
    assert site.on_post_template("fr 404", template_name="404.html", config=french) == "fr 404"
    assert site.on_post_template("es 404", template_name="404.html", config=spanish) == ""
    assert (tmp_path / "site" / "es" / "404.html").read_text(encoding="utf-8") == "es 404"


def test_the_404_pages_lead_home_in_each_language(tmp_path: Path) -> None:
    site = SchottenPlugin()
    config = _config(tmp_path)
    extra: dict[str, Any] = {"alternate": [{"lang": "fr", "link": "x"}, {"lang": "es"}]}

    class Extra(dict[str, Any]):  # MkDocs's config.extra takes attributes too
        pass

    config.extra = Extra(extra)  # type: ignore[assignment]
    context = site.on_template_context(
        cast(TemplateContext, {}), template_name="404.html", config=config
    )
    homes = [a["link"] for a in config.extra["alternate"]]
    assert homes == ["./", "es/"]
    assert cast(Any, config.extra).alternate == config.extra["alternate"]
    assert cast(dict[str, str], context)["base_url"] == "."
