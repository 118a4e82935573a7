"""The ``schotten`` command, called as ``main([...])`` with captured output."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from schotten.board import Variant
from schotten.casebook.build import load_case
from schotten.cli import EXIT_FAILED, EXIT_OK, EXIT_USAGE, main
from schotten.records import Record

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).parent / "data" / "cases"
VALID, BROKEN, MISMATCH = DATA / "valid", DATA / "broken", DATA / "mismatch"


@pytest.fixture(autouse=True)
def _plain_output(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)


# -- usage -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "the following arguments are required: COMMAND"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
        (["explain"], "the following arguments are required: CASE"),
        (["approve"], "the following arguments are required: CASE"),
        (["replay"], "the following arguments are required: RECORD"),
        (["check", "--colour"], "unrecognized arguments: --colour"),
    ],
)
def test_usage_errors_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == EXIT_USAGE
    assert message in capsys.readouterr().err


def test_help_documents_the_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert "exit status:" in out
    assert "1  a case disagrees with the engine" in out
    assert "2  usage error" in out


# -- check -------------------------------------------------------------------------------------


def test_check_prints_a_table_and_exits_0_when_all_agree(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", str(VALID)]) == EXIT_OK
    out = capsys.readouterr().out
    header, *rows = out.splitlines()
    assert header.split() == ["case", "expected", "engine", "status"]
    assert rows[0].split()[0] == "hand-is-not-proof"
    assert rows[0].endswith("ok")
    assert "4 refused opponent-can-beat; ongoing" in rows[0]
    assert "\x1b[" not in out  # no colour when stdout is not a terminal
    assert out.rstrip().endswith("4 cases: 4 ok, 0 mismatches, 0 invalid")


def test_check_colours_the_status_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    assert main(["check", str(VALID / "three-adjacent.yaml")]) == EXIT_OK
    assert "\x1b[32mok\x1b[0m" in capsys.readouterr().out
    monkeypatch.setenv("NO_COLOR", "")
    assert main(["check", str(VALID / "three-adjacent.yaml")]) == EXIT_OK
    assert "\x1b[" not in capsys.readouterr().out


def test_check_exits_1_on_a_mismatch_and_names_its_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", str(MISMATCH / "witness-changed.yaml")]) == EXIT_FAILED
    out = capsys.readouterr().out
    assert "MISMATCH" in out
    assert (
        f"{MISMATCH / 'witness-changed.yaml'}:17: expect.stones.4.witness.cards: "
        "recorded [purple 3], engine [orange 3]"
    ) in out


def test_check_exits_1_on_an_invalid_file_and_prints_its_errors(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = main(["check", str(VALID / "three-adjacent.yaml"), str(BROKEN / "bad-card.yaml")])
    assert status == EXIT_FAILED
    captured = capsys.readouterr()
    assert "bad-card" in captured.out and "INVALID" in captured.out
    assert captured.err.startswith(f"error: {BROKEN / 'bad-card.yaml'}:8:27: stones.4.you[2]: ")


def test_check_of_a_missing_path_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "no/such/folder"]) == EXIT_FAILED
    assert capsys.readouterr().err == "error: no/such/folder: no such file or folder\n"


def test_check_defaults_to_the_cases_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "cases").mkdir()
    shutil.copy(VALID / "mud-fight-needs-four.yaml", tmp_path / "cases")
    monkeypatch.chdir(tmp_path)
    assert main(["check"]) == EXIT_OK
    assert "mud-fight-needs-four" in capsys.readouterr().out


def test_check_json_report(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["check", "--json", str(VALID), str(MISMATCH / "witness-changed.yaml")])
    assert status == EXIT_FAILED
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False
    by_id = {case["id"]: case for case in report["cases"]}
    proof = by_id["hand-is-not-proof"]
    assert proof["ok"] is True
    assert proof["file"] == str(VALID / "hand-is-not-proof.yaml")
    assert proof["stones"] == [
        {
            "stone": 4,
            "verdict": "refused",
            "reason": "opponent-can-beat",
            "witness": {"cards": ["orange 3"], "formation": "same-value 9"},
            "expected": {
                "verdict": "refused",
                "reason": "opponent-can-beat",
                "witness": {"cards": ["orange 3"], "formation": "same-value 9"},
            },
            "ok": True,
        }
    ]
    stale = by_id["witness-changed"]
    assert stale["ok"] is False
    assert stale["stones"][0]["ok"] is False
    assert stale["mismatches"][0]["line"] == 17
    assert by_id["pass-only-when-nothing-fits"]["play_on"]["steps"][0] == "illegal pass"


def test_check_json_lists_invalid_files(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--json", str(BROKEN / "card-twice.yaml")]) == EXIT_FAILED
    report = json.loads(capsys.readouterr().out)
    assert report["cases"] == []
    (error,) = report["errors"]
    assert (error["line"], error["column"]) == (10, 16)


# -- explain -----------------------------------------------------------------------------------


def test_explain_draws_the_position_and_the_proof(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(VALID / "hand-is-not-proof.yaml")]) == EXIT_OK
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if "red 1, green 1, blue 1" in line)
    assert " ".join(row.split()) == "red 3, green 3, · 4 red 1, green 1, blue 1 <- claimed now"
    assert "your hand: orange 3" in out
    assert "stone 4: refused (opponent-can-beat, rule claim-proof)" in out
    assert "unseen cards that would beat you: orange 3" in out
    assert "witness: orange 3 would give them red 3, green 3, orange 3 = same value 9" in out


def test_explain_marks_mud_fight_and_claimed_stones(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(VALID / "mud-fight-needs-four.yaml")]) == EXIT_OK
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if "red 9" in line)
    assert "blue 1, ·, ·, ·" in row  # four slots under Mud Fight
    assert "Mud Fight (opponent)" in row
    assert main(["explain", str(VALID / "three-adjacent.yaml")]) == EXIT_OK
    assert "claimed by you" in capsys.readouterr().out


def test_explain_takes_a_case_id_from_the_cases_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "cases").mkdir()
    shutil.copy(VALID / "three-adjacent.yaml", tmp_path / "cases")
    monkeypatch.chdir(tmp_path)
    assert main(["explain", "three-adjacent"]) == EXIT_OK
    assert "game: won-by-you" in capsys.readouterr().out
    assert main(["explain", "no-such-case"]) == EXIT_FAILED
    assert capsys.readouterr().err == (
        "error: no case 'no-such-case': not a file, and no cases/no-such-case.yaml\n"
    )


def test_explain_shows_the_play_on(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(VALID / "pass-only-when-nothing-fits.yaml")]) == EXIT_OK
    out = capsys.readouterr().out
    assert "1. you: pass  -> illegal pass" in out
    assert "5. opponent: play green 6 at 2  -> ok" in out


def test_explain_colours_cards_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    assert main(["explain", str(VALID / "hand-is-not-proof.yaml")]) == EXIT_OK
    assert "\x1b[31mred 1\x1b[0m" in capsys.readouterr().out
    monkeypatch.setenv("NO_COLOR", "1")
    assert main(["explain", str(VALID / "hand-is-not-proof.yaml")]) == EXIT_OK
    assert "\x1b[" not in capsys.readouterr().out


def test_explain_of_an_invalid_case_prints_every_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["explain", str(BROKEN / "several-errors.yaml")]) == EXIT_FAILED
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 8
    assert all(line.startswith(f"error: {BROKEN / 'several-errors.yaml'}:") for line in err)


# -- approve -----------------------------------------------------------------------------------


def test_approve_re_records_and_prints_what_changed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "witness-changed.yaml"
    shutil.copy(MISMATCH / path.name, path)
    assert main(["approve", str(path)]) == EXIT_OK
    assert capsys.readouterr().out == (
        f"{path}: re-recorded\n  expect.stones.4.witness.cards: [purple 3] -> [orange 3]\n"
    )
    assert main(["check", str(path)]) == EXIT_OK
    capsys.readouterr()
    assert main(["approve", str(path)]) == EXIT_OK
    assert capsys.readouterr().out == f"{path}: unchanged\n"


def test_approve_refuses_to_run_in_ci(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "witness-changed.yaml"
    shutil.copy(MISMATCH / path.name, path)
    monkeypatch.setenv("CI", "true")
    assert main(["approve", str(path)]) == EXIT_FAILED
    assert "approve does not run when CI is set" in capsys.readouterr().err
    assert path.read_text() == (MISMATCH / path.name).read_text()


def test_approve_writes_nothing_when_one_case_is_invalid(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "witness-changed.yaml"
    shutil.copy(MISMATCH / good.name, good)
    bad = shutil.copy(BROKEN / "bad-card.yaml", tmp_path)
    assert main(["approve", str(good), str(bad)]) == EXIT_FAILED
    assert "bad-card.yaml:8:27" in capsys.readouterr().err
    assert good.read_text() == (MISMATCH / good.name).read_text()


# -- replay ------------------------------------------------------------------------------------


def _record(tmp_path: Path, moves: tuple[str, ...]) -> Path:
    path = tmp_path / "game.json"
    path.write_text(Record(Variant.BASE, moves, seed=1).dumps())
    return path


def test_replay_checks_every_move_and_prints_the_state(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _record(tmp_path, ("play red 3 at 5", "claim none", "draw clan"))
    assert main(["replay", str(path)]) == EXIT_OK
    assert capsys.readouterr().out == (
        f"{path}: 3 moves replayed from seed 1 (base), all legal\n"
        "game ongoing: second to move at the play step; stones held: first [], second []\n"
    )


def test_replay_error_names_the_move_number_and_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _record(tmp_path, ("play red 3 at 5", "claim 5"))
    assert main(["replay", str(path)]) == EXIT_FAILED
    assert capsys.readouterr().err == (
        f"error: [claim-complete-side] {path}: move 2 ('claim 5'): stone 5: refused "
        "(side-incomplete)\n"
    )


def test_replay_of_a_broken_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text("{\n")
    assert main(["replay", str(path)]) == EXIT_FAILED
    assert capsys.readouterr().err.startswith(f"error: {path}, line 2: not JSON")
    assert main(["replay", str(tmp_path / "missing.json")]) == EXIT_FAILED
    assert "No such file or directory" in capsys.readouterr().err


# -- schema ------------------------------------------------------------------------------------


def test_schema_command_prints_the_checked_in_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == EXIT_OK
    printed = capsys.readouterr().out
    checked_in = (ROOT / "cases" / "case.schema.json").read_text(encoding="utf-8")
    assert printed == checked_in, "cases/case.schema.json is stale: `schotten schema > ...`"
    assert json.loads(printed)["title"] == "Schotten Totten case"


def test_fixtures_load() -> None:
    """The valid fixtures stay valid (the other tests rely on them)."""
    assert [load_case(p).id for p in sorted(VALID.glob("*.yaml"))] == [
        "hand-is-not-proof",
        "mud-fight-needs-four",
        "pass-only-when-nothing-fits",
        "three-adjacent",
    ]


def test_the_command_starts_without_numpy_or_the_verification() -> None:
    # Every command but verify starts without NumPy and the spaces: an editor's `check` or a
    # conformance run's engine pays nothing for them.
    script = (
        "import sys\n"
        "from schotten.cli import build_parser\n"
        "build_parser().parse_args(['verify', 'base-one-stone'])\n"
        "loaded = [m for m in sys.modules if m == 'numpy' or m.startswith('schotten.verify.')]\n"
        "print(sorted(loaded))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert done.stdout == "['schotten.verify.names']\n"


def test_every_command_but_verify_works_without_the_verify_extra() -> None:
    # NumPy is in the verify extra only: an editor's install (cases, site) has no NumPy.
    script = (
        "import sys; sys.modules['numpy'] = None\n"
        "from schotten.cli import main\n"
        "assert main(['check', 'cases/hand-is-not-proof.yaml']) == 0\n"
        "sys.exit(main(['verify', 'base-one-stone']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        "error: schotten verify needs numpy, from the verify extra: pip install 'schotten[verify]'"
    )
