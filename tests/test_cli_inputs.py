"""The command line on hostile input: `schotten replay` on files that are not records, and an
internal error reported in one line (the stack only under `--debug`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from schotten.board import Variant
from schotten.cli import EXIT_FAILED, EXIT_OK, EXIT_USAGE, main
from schotten.errors import SchottenError
from schotten.records import Record


def one_error_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ")
    assert "Traceback" not in err
    return lines[0]


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "not-utf-8", "deep", "long-seed"])
def test_replay_refuses_what_is_not_a_record_in_one_line(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    head = '{"format": "schotten-record/1", "variant": "base", '
    if kind == "fifo":
        os.mkfifo(path)  # opened, it would wait for a writer for ever
    elif kind == "dev-zero":
        path.symlink_to("/dev/zero")  # read, it would never end
    elif kind == "not-utf-8":
        path.write_bytes(head.encode() + b'"seed": 1, "moves": ["\xe9"]}')
    elif kind == "deep":
        path.write_text(head + '"seed": 1, "moves": ' + "[" * 100_000 + "]" * 100_000 + "}")
    else:
        path.write_text(head + '"seed": ' + "9" * 5000 + ', "moves": []}')
    assert main(["replay", str(path)]) == EXIT_FAILED
    assert one_error_line(capsys.readouterr().err).startswith(f"error: {path}")


def test_internal_error_is_one_line_asking_for_a_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.json"
    path.write_text(Record(Variant.BASE, ("play red 3 at 5",), seed=1).dumps())

    def broken(self: Record, source: str = "") -> None:
        raise KeyError("a bug\nover two lines")

    monkeypatch.setattr(Record, "replay", broken)
    assert main(["replay", str(path)]) == EXIT_FAILED
    line = one_error_line(capsys.readouterr().err)
    assert line.startswith("error: internal error: KeyError: ")
    assert "please report it with the command you ran" in line
    assert "--debug" in line

    assert main(["--debug", "replay", str(path)]) == EXIT_FAILED
    err = capsys.readouterr().err
    assert "Traceback (most recent call last):" in err
    assert 'raise KeyError("a bug' in err
    assert err.splitlines()[-1].startswith("error: internal error: KeyError: ")


def test_debug_changes_nothing_on_success_and_usage_errors_stay_argparse(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text(Record(Variant.BASE, ("play red 3 at 5",), seed=1).dumps())
    assert main(["--debug", "replay", str(path)]) == EXIT_OK
    assert capsys.readouterr().err == ""
    with pytest.raises(SystemExit) as info:
        main(["--no-such-option", "replay", str(path)])
    assert info.value.code == EXIT_USAGE
    assert "unrecognized arguments: --no-such-option" in capsys.readouterr().err


def test_any_user_error_is_one_line_with_its_own_exit_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every :class:`SchottenError`, from any part of the project, is said the same way."""
    path = tmp_path / "game.json"
    path.write_text(Record(Variant.BASE, ("play red 3 at 5",), seed=1).dumps())

    class Refused(SchottenError):
        exit_status = 3

    def refuse(self: Record, source: str = "") -> None:
        raise Refused("the store is locked by another run")

    monkeypatch.setattr(Record, "replay", refuse)
    assert main(["replay", str(path)]) == 3
    assert one_error_line(capsys.readouterr().err) == "error: the store is locked by another run"


def test_python_dash_m_schotten_is_the_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "schotten", "replay"], capture_output=True, text=True, check=False
    )
    assert done.returncode == EXIT_USAGE
    assert done.stderr.startswith("usage: python -m schotten replay")
