"""The proofs page's section on other engines: the table of who agrees, read from
``conformance/engines.json``, and the link to the suite's archive, which the site's build writes
at its root, the same bytes at every build.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import zipfile
from pathlib import Path

import pytest

from schotten.conformance import suite
from schotten.conformance.agreement import TABLE_FILE, read_table
from schotten.conformance.archive import archive_bytes, suite_files
from schotten.site import SiteCheckError
from schotten.site.agreement import archive_link, engine_table, write_archive
from schotten.site.words import format_number

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "conformance"
NBSP, NNBSP = "\u00a0", "\u202f"


def vectors() -> int:
    return sum(entry["vectors"] for entry in suite.kinds(SUITE).values())


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_the_archive_link_counts_the_suites_questions(lang: str) -> None:
    text = archive_link(lang, SUITE)
    version = suite.manifest(SUITE)["version"]
    assert f'href="../{"../" if lang == "es" else ""}schotten-conformance-{version}.zip"' in text
    assert format_number(vectors(), lang) in text


def test_the_archive_link_is_in_french_typography() -> None:
    text = archive_link("fr", SUITE)
    assert f"tests{NBSP}:" in text and " :" not in text


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_the_table_has_a_row_an_engine_with_its_counts(lang: str) -> None:
    rows = read_table(SUITE / TABLE_FILE)
    text = engine_table(lang, SUITE)
    lines = [line for line in text.splitlines() if line.startswith("| ")]
    assert len(lines) == 1 + len(rows)  # the head, then one row an engine
    for row in rows:
        for kind in row.kinds:
            assert format_number(kind.agreed, lang) in text


def test_the_table_counts_its_engines_from_the_data(tmp_path: Path) -> None:
    rows = json.loads((SUITE / TABLE_FILE).read_text("utf-8"))
    two = dict(rows, engines=[*rows["engines"], dict(rows["engines"][0], version="9.9")])
    (tmp_path / TABLE_FILE).write_text(json.dumps(two), "utf-8")
    assert "2 moteurs sont passés" in engine_table("fr", tmp_path)
    assert "Hasta hoy, 2 motores" in engine_table("es", tmp_path)
    (tmp_path / TABLE_FILE).write_text(json.dumps(dict(rows, engines=[])), "utf-8")
    assert (
        engine_table("fr", tmp_path) == "Aucun moteur n’est encore passé par la batterie de tests."
    )


def test_a_damaged_table_stops_the_build_with_its_name(tmp_path: Path) -> None:
    (tmp_path / TABLE_FILE).write_text("{", "utf-8")
    with pytest.raises(SiteCheckError, match=re.escape(str(tmp_path / TABLE_FILE))):
        engine_table("fr", tmp_path)


def test_the_table_is_in_french_typography() -> None:
    text = engine_table("fr", SUITE)
    assert not re.search(r" [:;?!]", text)
    assert f"revendications{NBSP}:" in text


def test_the_archive_is_the_suite_byte_for_byte_and_the_same_at_every_build(
    tmp_path: Path,
) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    written, again = write_archive(first, SUITE), write_archive(second, SUITE)
    assert written is not None and again is not None
    assert written.read_bytes() == again.read_bytes()
    root = written.name.removesuffix(".zip")
    with zipfile.ZipFile(written) as archive:
        names = archive.namelist()
        assert names == sorted(names)
        assert {n.removeprefix(f"{root}/") for n in names} == {
            p.relative_to(SUITE).as_posix() for p in suite_files(SUITE)
        }
        assert archive.read(f"{root}/manifest.json") == (SUITE / "manifest.json").read_bytes()
        assert {info.date_time for info in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}


def test_a_project_without_a_suite_writes_no_archive_and_cannot_link_one(tmp_path: Path) -> None:
    assert write_archive(tmp_path, tmp_path / "conformance") is None
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(SiteCheckError, match=re.escape("manifest.json")):
        archive_link("fr", tmp_path / "conformance")


def test_the_archive_leaves_out_hidden_files_and_caches(tmp_path: Path) -> None:
    folder = tmp_path / "suite"
    shutil.copytree(SUITE / "adapters", folder / "adapters")
    (folder / ".hidden").write_text("x")
    (folder / "__pycache__").mkdir()
    (folder / "__pycache__" / "a.pyc").write_text("x")
    with zipfile.ZipFile(io.BytesIO(archive_bytes(folder, "s"))) as archive:
        assert sorted(archive.namelist()) == sorted(
            f"s/adapters/{p.name}" for p in (SUITE / "adapters").iterdir() if p.is_file()
        )


@pytest.mark.parametrize("page", ["proofs.md", "proofs.es.md"])
def test_the_proofs_page_shows_the_table_and_the_archive(page: str) -> None:
    text = (ROOT / "site_src" / page).read_text("utf-8")
    assert "{{ engine_table() }}" in text and "{{ suite_archive() }}" in text
