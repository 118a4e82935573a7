"""The proofs page: built from the reports, never a proof of an engine a report was not made on;
and the committed reports agree with the spaces' own counts."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from schotten.site import LANGUAGES
from schotten.site.proofs import load_reports, proof_table
from schotten.verify.report import space_digest
from schotten.verify.spaces import SPACES

ROOT = Path(__file__).resolve().parents[1]
COMMITTED = sorted((ROOT / "verification").glob("*.json"))


def _report(
    space: str, digest: str | None = None, *, complete: bool = True, found: int = 0
) -> dict[str, Any]:
    """A report of ``space``, by default made on the engine building the site."""
    return {
        "space": space,
        "complete": complete,
        "positions_in_space": 1000,
        "positions_checked": 1000 if complete else 250,
        "classes_checked": 10,
        "disagreements": [f"case-{i}" for i in range(found)],
        "engine": {"version": "0.1.0", "digest": digest or space_digest(space)},
        "date": "2026-11-30T18:49:02Z",
        "wall_seconds": 3103.04,
        "workers": 2,
    }


def _write(folder: Path, *reports: dict[str, Any]) -> Path:
    folder.mkdir(exist_ok=True)
    for report in reports:
        (folder / f"{report['space']}.json").write_text(json.dumps(report))
    return folder


@pytest.mark.parametrize(
    ("lang", "proven", "stale"),
    [
        ("fr", "Prouvé sur ce moteur", "ne prouve rien du moteur actuel"),
        ("es", "Demostrado con este motor", "no demuestra nada del motor actual"),
    ],
)
def test_a_report_proves_only_the_engine_it_was_made_on(
    tmp_path: Path, lang: str, proven: str, stale: str
) -> None:
    now = _write(tmp_path / "now", _report("base-one-stone"))
    assert proven in proof_table(lang, now) and stale not in proof_table(lang, now)
    old = _write(tmp_path / "old", _report("base-one-stone", "0123456789abcdef"))
    table = proof_table(lang, old)
    assert proven not in table and stale in table and "0123456789abcdef" in table


@pytest.mark.parametrize("lang", LANGUAGES)
def test_partial_and_failed_reports_are_not_called_proofs(tmp_path: Path, lang: str) -> None:
    folder = _write(
        tmp_path,
        _report("mud-one-stone", complete=False),
        _report("blind-one-stone", found=2),
    )
    table = proof_table(lang, folder)
    assert "Prouvé" not in table and "Demostrado" not in table
    assert table.count("\n| ") == 3  # header and two rows


@pytest.mark.parametrize(
    ("lang", "computed"),
    [
        ("fr", "Calcul\u00a0: </span>51\u00a0min\u00a043\u00a0s, 2\u00a0processus en parallèle"),
        ("es", "Cálculo: </span>51\u00a0min\u00a043\u00a0s, 2\u00a0procesos en paralelo"),
    ],
)
def test_each_space_says_how_long_it_took_and_on_how_many_workers(
    tmp_path: Path, lang: str, computed: str
) -> None:
    table = proof_table(lang, _write(tmp_path, _report("mud-one-stone")))
    assert computed in table
    one = {**_report("base-one-stone"), "wall_seconds": 8.4, "workers": 1}
    table = proof_table(lang, _write(tmp_path / "one", one))
    assert ("8\u00a0s, 1\u00a0processus" if lang == "fr" else "8\u00a0s, 1\u00a0proceso") in table


def test_french_dates_and_numbers_follow_french_typography(tmp_path: Path) -> None:
    table = proof_table("fr", _write(tmp_path, _report("base-one-stone")))
    assert "30 novembre 2026" in table and "1\u202f000" in table
    assert "Borne\u00a0:" in table


@pytest.mark.parametrize("path", COMMITTED, ids=lambda p: p.stem)
def test_committed_reports_match_their_space(path: Path) -> None:
    report = json.loads(path.read_text())
    space = SPACES[report["space"]]
    assert report["classes_in_space"] == space.class_count()
    assert report["positions_in_space"] == space.raw_size()
    if report["complete"]:
        assert report["chunks"]["done"] == report["chunks"]["total"]
    if report["complete"] and space.raw_size() is not None:  # sampled games have no size
        assert report["classes_checked"] == space.class_count()
        assert report["positions_checked"] == space.raw_size()
    by_reason = report["reasons"].values()
    assert sum(r["classes"] for r in by_reason) == report["classes_checked"]
    assert sum(r["positions"] for r in by_reason) == report["positions_checked"]


def test_the_committed_reports_are_on_the_page() -> None:
    assert {r["space"] for r in load_reports(ROOT / "verification")} == {p.stem for p in COMMITTED}
    assert "base-one-stone" in {p.stem for p in COMMITTED}


@pytest.mark.parametrize("page", ["proofs.md", "proofs.es.md"])
def test_the_proofs_page_names_the_command_argument_of_every_space(page: str) -> None:
    text = (ROOT / "site_src" / page).read_text(encoding="utf-8")
    named = {
        m for name in SPACES for m in re.findall(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text)
    }
    assert sorted(set(SPACES) - named) == []
