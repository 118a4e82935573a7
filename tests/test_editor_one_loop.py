"""One loop for editors: what passes the editor's steps passes CI. ``approve`` and ``retire`` keep
the conformance suite's case vectors in step, the fast gate refuses a stale suite naming the
command, every mismatch ends with the next step, and one fault is one message."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from schotten.casebook.build import load_case
from schotten.casebook.conformance_suite import CASE_KINDS, stale_problems
from schotten.casebook.errors import CaseFileError
from schotten.casebook.folder import load_folder
from schotten.cli import EXIT_FAILED, EXIT_OK, main
from schotten.conformance import suite
from schotten.conformance.suite import CASE_PREFIX
from schotten.conformance.vectors import case_vectors
from schotten.conformance.wire import KINDS, dumps

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _not_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)


def project_copy(tmp_path: Path) -> Path:
    """What the editor's steps and the fast gate read: the cases, the suite, the scripts."""
    copy = tmp_path / "project"
    for part in ("cases", "conformance", "scripts"):
        shutil.copytree(ROOT / part, copy / part, ignore=shutil.ignore_patterns("node_modules"))
    return copy


def gate_verdicts(project: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "GITHUB_ACTIONS")}
    env["PYTHON"] = sys.executable
    return subprocess.run(
        [str(project / "scripts" / "gate"), "verdicts"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


NEW_CASE = """\
situation:
  fr: "Sous Combat de Boue, ton Joker fait le quatrième 8 de ton Carré"
  es: Con Combate en el barro, tu Comodín hace de cuarto ocho de tu Póker
why:
  fr: "Le Joker compte comme une carte de plus sous Combat de Boue\\u202f; il copie un 8."
  es: El Comodín cuenta como una carta más con Combate en el barro; copia un ocho.
source: "RULES.md, Formations (Mud Fight)"
rule: [mud-fight, elite-troop-value]
published: {table: combat-modes, row: ROW}
variant: tactical
stones:
  5:
    you: [red 8, green 8, blue 8, joker]
    opponent: [blue 1, blue 5, blue 9]
    mud-fight: opponent
claim: [5]
"""


def test_adding_and_retiring_a_case_as_the_readme_says_leaves_nothing_for_ci(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = project_copy(tmp_path)
    cases = project / "cases"
    rows = [
        c.published.row
        for c in load_folder(cases)[0]
        if c.published and c.published.table == "combat-modes"
    ]
    (cases / "mud-fight-joker-fourth.yaml").write_text(
        NEW_CASE.replace("ROW", str(max(rows) + 1)), encoding="utf-8"
    )
    monkeypatch.chdir(project)
    # The README's steps: approve the new case, retire another (its file deleted first).
    assert main(["approve", "mud-fight-joker-fourth"]) == EXIT_OK
    out = capsys.readouterr().out
    assert "mud-fight-joker-fourth.yaml: recorded" in out
    assert "conformance/: the vectors of the cases written again" in out
    (cases / "hand-is-not-proof.yaml").unlink()
    assert main(["retire", "hand-is-not-proof"]) == EXIT_OK
    assert "conformance/" in capsys.readouterr().out
    # What CI checks: the verdicts gate, and the suite as its tests read it.
    done = gate_verdicts(project)
    assert done.returncode == 0, done.stdout + done.stderr
    claims = {v["id"] for v in suite.load(project / "conformance", "claims")}
    assert "case:mud-fight-joker-fourth" in claims
    assert "case:hand-is-not-proof" not in claims
    suite.load(project / "conformance", "moves")


def test_the_fast_gate_refuses_a_stale_suite_and_names_the_command(tmp_path: Path) -> None:
    project = project_copy(tmp_path)
    case = project / "cases" / "hand-is-not-proof.yaml"
    text = case.read_text(encoding="utf-8")
    # A rule id added by hand: check passes, the suite's vector pins the old list.
    case.write_text(re.sub(r"(?m)^rule: \[", "rule: [formation-ladder, ", text, count=1), "utf-8")
    (problem,) = [p for p in stale_problems(project / "cases") if "claims" in p]
    assert "case:hand-is-not-proof" in problem
    done = gate_verdicts(project)
    assert done.returncode != 0
    assert "schotten conformance export conformance/" in done.stderr


def test_the_cases_vectors_are_written_again_and_the_generated_ones_kept_line_for_line(
    tmp_path: Path,
) -> None:
    project = project_copy(tmp_path)
    folder = project / "conformance"
    case = project / "cases" / "hand-is-not-proof.yaml"
    text = case.read_text(encoding="utf-8")
    case.write_text(re.sub(r"(?m)^rule: \[", "rule: [formation-ladder, ", text, count=1), "utf-8")
    before = {kind: (folder / f"{kind}.jsonl").read_bytes() for kind in KINDS}
    untouched = {k: v for k, v in suite.kinds(folder).items() if k not in CASE_KINDS}
    suite.export_cases(folder, project / "cases", CASE_KINDS)
    assert stale_problems(project / "cases") == []
    assert {k: v for k, v in suite.kinds(folder).items() if k not in CASE_KINDS} == untouched
    for kind in KINDS:
        after = (folder / f"{kind}.jsonl").read_bytes()
        if kind not in CASE_KINDS:
            assert after == before[kind]
            continue
        generated = [ln for ln in before[kind].splitlines() if not ln.startswith(CASE_PREFIX)]
        lines = after.splitlines()
        made = [dumps(v).encode() for v in case_vectors(kind, project / "cases")]
        assert lines == made + generated
        assert len(suite.load(folder, kind)) == len(lines)  # the manifest's count and SHA-256
    assert b"formation-ladder" in (folder / "claims.jsonl").read_bytes()


def test_a_suite_file_edited_by_hand_is_not_spliced_but_named(tmp_path: Path) -> None:
    project = project_copy(tmp_path)
    claims = project / "conformance" / "claims.jsonl"
    claims.write_bytes(
        claims.read_bytes().replace(b'"verdict":"granted"', b'"verdict":"refused"', 1)
    )
    with pytest.raises(suite.SuiteError, match=r"claims\.jsonl: its SHA-256 is not the one"):
        suite.export_cases(project / "conformance", project / "cases", CASE_KINDS)


def test_every_mismatch_ends_with_the_next_step(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "cases"
    shutil.copytree(ROOT / "tests" / "data" / "cases" / "valid", folder)
    case = folder / "hand-is-not-proof.yaml"
    case.write_text(
        case.read_text("utf-8").replace("formation: same-value 9", "formation: same-value 8", 1),
        "utf-8",
    )
    assert main(["check", str(case)]) == EXIT_FAILED
    out = capsys.readouterr().out
    assert "MISMATCH" in out
    assert re.search(
        r"next: if the engine is right, run `schotten approve .*hand-is-not-proof.*` and "
        r"re-read its texts; otherwise fix the position \(line \d+\)",
        out,
    ), out


def test_four_cards_without_mud_fight_is_one_message_about_mud_fight(tmp_path: Path) -> None:
    text = (ROOT / "cases" / "mud-fight-four-card-formations.yaml").read_text("utf-8")
    text = re.sub(r"(?m)^    (mud-fight|completed_first): \w+\n", "", text)
    path = tmp_path / "four.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CaseFileError) as raised:
        load_case(path)
    messages = raised.value.messages()
    assert not any("completed_first" in m for m in messages), messages
    assert any("4 under Mud Fight" in m for m in messages), messages


def test_an_invalid_published_case_causes_no_row_gap_on_the_next(tmp_path: Path) -> None:
    folder = tmp_path / "cases"
    shutil.copytree(ROOT / "cases", folder)
    case = folder / "hand-is-not-proof.yaml"
    case.write_text(case.read_text("utf-8").replace("situation:", "situaton:", 1), "utf-8")
    messages = [str(e) for e in load_folder(folder)[1]]
    assert messages and all("hand-is-not-proof" in m for m in messages), messages
    assert not any("gap" in m for m in messages)


def test_a_mistyped_table_in_a_page_is_one_message_with_no_hint_toward_the_typo(
    tmp_path: Path,
) -> None:
    from schotten.site import SiteCheckError
    from schotten.site.gate import prepare

    pages = tmp_path / "site_src"
    shutil.copytree(ROOT / "site_src", pages)
    page = pages / "edge-cases.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace('verdict_table("combat-modes")', 'verdict_table("combat-mode")'))
    with pytest.raises(SiteCheckError) as raised:
        prepare(pages, ROOT / "cases", display_root=tmp_path)
    lines = [line.strip() for line in str(raised.value).splitlines()[1:]]
    assert len(lines) == 1, lines
    assert "no published table 'combat-mode'" in lines[0]
    assert "did you mean 'combat-mode'" not in str(raised.value)


def test_a_french_spacing_fault_in_a_page_stops_the_build_at_the_pages_line(
    tmp_path: Path,
) -> None:
    from schotten.site import SiteCheckError
    from schotten.site.gate import page_spacing_problems, prepare

    for page in sorted((ROOT / "site_src").glob("*.md")):
        if page.name.count(".") == 1:  # the French pages, as they are, pass
            assert page_spacing_problems(page.read_text(encoding="utf-8"), page.name) == []
    pages = tmp_path / "site_src"
    shutil.copytree(ROOT / "site_src", pages)
    page = pages / "edge-cases.md"
    lines = page.read_text(encoding="utf-8").splitlines(keepends=True)
    lines.append("\nAttention : quatre cartes sous Combat de Boue.\n")
    page.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(SiteCheckError) as raised:
        prepare(pages, ROOT / "cases", display_root=tmp_path)
    assert f'site_src/edge-cases.md:{len(lines) + 1}: ordinary space before ":"' in str(
        raised.value
    )
