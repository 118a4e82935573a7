"""``SITE_URL`` is written into every page, the 404 pages and the sitemap: an address that could
carry markup (a quote, an angle bracket, a space) or that is not the site's (a query, a fragment)
is refused before anything is built, with the variable named."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from sites import mkdocs_build
from test_site import minimal_project

from schotten.site.head import site_url_problem
from schotten.site.plugin import SchottenPlugin

HOSTILE = [
    'https://example.org/"><script>alert(1)</script>/',
    "https://example.org/it's/",
    "https://example.org/a b/",
    "https://example.org/?page=1",
    "https://example.org/#top",
    "https://example.org/<b>/",
    "https://example.org/&amp;/",
    "https://exämple.org/",
    "javascript:alert(1)//",
    "ftp://example.org/",
    "//example.org/",
    "https://example.org/\t/",
]
GOOD = [
    "https://example.org/",
    "https://example.org/schotten/",
    "http://127.0.0.1:8000/",
    "https://example.org/r%C3%A8gles/",
]


@pytest.mark.parametrize("url", HOSTILE)
def test_an_address_that_is_not_plainly_the_sites_is_refused(url: str) -> None:
    problem = site_url_problem(url)
    assert problem is not None and repr(url) in problem


@pytest.mark.parametrize("url", GOOD)
def test_a_plain_absolute_address_is_accepted(url: str) -> None:
    assert site_url_problem(url) is None


def test_the_plugin_refuses_it_before_building(tmp_path: Path) -> None:
    config = cast(MkDocsConfig, SimpleNamespace(site_url=HOSTILE[0], site_dir=str(tmp_path / "s")))
    site = SchottenPlugin()
    site.on_startup(command="build", dirty=False)
    with pytest.raises(PluginError, match=r"^SITE_URL \(site_url of mkdocs.yml\): "):
        site.on_config(config)
    site.on_shutdown()
    assert list(tmp_path.iterdir()) == []  # no fresh folder was made


def test_a_build_with_a_hostile_site_url_writes_nothing(tmp_path: Path) -> None:
    project = minimal_project(tmp_path / "project")
    out = tmp_path / "site"
    out.mkdir()
    (out / "index.html").write_text("the site as it was", encoding="utf-8")
    run = mkdocs_build(project, out, site_url=HOSTILE[0])
    assert run.returncode == 1
    assert "SITE_URL (site_url of mkdocs.yml): " in run.stderr
    assert "Traceback" not in run.stderr
    assert [p.name for p in out.iterdir()] == ["index.html"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["project", "site"]
