"""The lock stays one-to-one with the case files through a rename, a hand edit and what ``check``
says to do about each; ``approve`` and ``retire`` stopped by a signal finish their writes, leave no
temporary file, and leave a casebook ``check`` passes; a SIGKILL's temporary file is removed by the
next run."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from schotten.casebook.approve import approve_paths
from schotten.casebook.files import LOCK_NAME
from schotten.casebook.folder import load_folder
from schotten.cli import EXIT_FAILED, EXIT_OK, main

VALID = Path(__file__).parent / "data" / "cases" / "valid"
CASE = (VALID / "three-adjacent.yaml").read_text(encoding="utf-8")
UNPUBLISHED = re.sub(r"(?m)^published: .*\n", "", CASE)


@pytest.fixture(autouse=True)
def _not_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)


def copied_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "cases"
    shutil.copytree(VALID, folder)
    assert load_folder(folder)[1] == []
    return folder


def sealed_folder(tmp_path: Path) -> Path:
    """The valid test folder, its lock written by ``approve`` (so each entry has its seal)."""
    folder = copied_folder(tmp_path)
    approve_paths([folder])
    assert '"seal"' in (folder / LOCK_NAME).read_text(encoding="utf-8")
    return folder


def messages(folder: Path) -> list[str]:
    return [str(error) for error in load_folder(folder)[1]]


def lock_data(folder: Path) -> dict[str, dict[str, object]]:
    published = json.loads((folder / LOCK_NAME).read_text(encoding="utf-8"))["published"]
    assert isinstance(published, dict)
    return published


# -- a rename -------------------------------------------------------------------------------


def test_a_renamed_case_is_one_message_and_approving_the_new_id_moves_the_entry(
    tmp_path: Path,
) -> None:
    folder = sealed_folder(tmp_path)
    (folder / "hand-is-not-proof.yaml").rename(folder / "hand-renamed.yaml")
    (only,) = messages(folder)
    assert only.startswith(f"{folder / 'hand-renamed.yaml'}:")
    assert "hand-is-not-proof" in only and "`schotten approve hand-renamed`" in only
    assert "retire" not in only
    assert main(["approve", str(folder / "hand-renamed.yaml")]) == EXIT_OK
    published = lock_data(folder)
    assert "hand-is-not-proof" not in published
    assert (published["hand-renamed"]["table"], published["hand-renamed"]["row"]) == ("faq", 1)
    assert "review" not in published["hand-renamed"]  # the verdict did not change
    assert messages(folder) == []


def test_retiring_the_old_id_of_a_renamed_case_is_refused_and_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = sealed_folder(tmp_path)
    (folder / "hand-is-not-proof.yaml").rename(folder / "hand-renamed.yaml")
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert main(["retire", str(folder / "hand-is-not-proof.yaml")]) == EXIT_FAILED
    err = capsys.readouterr().err
    assert "`schotten approve hand-renamed`" in err and "internal error" not in err
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


def test_approve_never_puts_two_entries_on_one_row(tmp_path: Path) -> None:
    folder = sealed_folder(tmp_path)
    (folder / "intruder.yaml").write_text(
        UNPUBLISHED + "published: {table: faq, row: 1}\n", encoding="utf-8"
    )
    before = (folder / LOCK_NAME).read_bytes()
    assert main(["approve", str(folder / "intruder.yaml")]) == EXIT_FAILED
    assert (folder / LOCK_NAME).read_bytes() == before


# -- a hand edit ----------------------------------------------------------------------------


def test_a_verdict_edited_by_hand_in_the_lock_is_one_message_and_approve_restores_it(
    tmp_path: Path,
) -> None:
    folder = sealed_folder(tmp_path)
    sealed = (folder / LOCK_NAME).read_text(encoding="utf-8")
    edited = sealed.replace('"verdict": "refused"', '"verdict": "granted"', 1)
    assert edited != sealed
    (folder / LOCK_NAME).write_text(edited, encoding="utf-8")
    (only,) = messages(folder)
    assert only.startswith(f"{folder / LOCK_NAME}:")
    assert "edited by hand" in only and "`schotten approve hand-is-not-proof`" in only
    report = approve_paths([folder / "hand-is-not-proof.yaml"])
    assert report.reviews == ()  # no verdict changed: no text to re-read
    assert (folder / LOCK_NAME).read_text(encoding="utf-8") == sealed
    assert messages(folder) == []


def test_a_lock_row_edited_by_hand_is_restored_from_the_case(tmp_path: Path) -> None:
    folder = sealed_folder(tmp_path)
    lock = folder / LOCK_NAME
    sealed = lock.read_text("utf-8")
    lock.write_text(sealed.replace('"row": 1', '"row": 7', 1), "utf-8")
    (only,) = messages(folder)
    assert "edited by hand" in only
    assert approve_paths([folder / "hand-is-not-proof.yaml"]).reviews == ()
    assert lock.read_text("utf-8") == sealed


def test_when_the_case_and_its_lock_entry_were_both_edited_the_texts_are_re_read(
    tmp_path: Path,
) -> None:
    folder = sealed_folder(tmp_path)
    lock = folder / LOCK_NAME
    lock.write_text(lock.read_text("utf-8").replace('"verdict": "refused"', '"verdict": "x"', 1))
    case = folder / "hand-is-not-proof.yaml"
    case.write_text(
        case.read_text("utf-8").replace("formation: same-value 9", "formation: same-value 8")
    )
    (review,) = approve_paths([case]).reviews
    assert "unknown" in review.message and "--texts-reviewed" in review.message


# -- stopped while writing ------------------------------------------------------------------

# The child stops itself in the middle of its N-th file write (after the temporary file is
# written, before its rename): exactly what a Ctrl-C or a service manager's SIGTERM does there.
STOP_AT_WRITE = textwrap.dedent(
    """
    import os, signal
    # Ctrl-C and a hang-up as in a terminal, even where this run started with SIGINT ignored (a
    # background job of a shell) or SIGHUP ignored (under nohup), which the command rightly
    # keeps ignoring.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    _fsync, _calls = os.fsync, []
    def fsync(fd):
        _fsync(fd)
        _calls.append(fd)
        if len(_calls) == {write}:
            os.kill(os.getpid(), signal.{signal})
    os.fsync = fsync
    """
)


def stopped(tmp_path: Path, signal_name: str, write: int, *argv: str) -> int:
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    prelude = STOP_AT_WRITE.format(write=write, signal=signal_name)
    code = prelude + "\nfrom schotten.cli import entrypoint\nentrypoint()\n"
    done = subprocess.run(
        [sys.executable, "-c", code, *argv],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert "Traceback" not in done.stderr.decode(), done.stderr.decode()
    return done.returncode


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


@pytest.mark.parametrize("signal_name", ["SIGINT", "SIGTERM", "SIGHUP"])
@pytest.mark.parametrize("write", [1, 2])
def test_an_approve_stopped_while_writing_finishes_its_writes(
    tmp_path: Path, signal_name: str, write: int
) -> None:
    folder = copied_folder(tmp_path)
    (folder / "new-a.yaml").write_text(
        UNPUBLISHED.replace("game: won-by-you", "game: ongoing")
        + "published: {table: faq, row: 3}\n",
        encoding="utf-8",
    )
    status = stopped(tmp_path, signal_name, write, "approve", "cases/new-a.yaml")
    assert status != EXIT_OK  # it was stopped, and says so
    assert leftovers(folder) == []
    assert messages(folder) == []  # the case and the lock agree
    assert "new-a" in lock_data(folder)
    assert "game: won-by-you" in (folder / "new-a.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize("signal_name", ["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("write", [1, 2])
def test_a_retire_stopped_while_writing_finishes_its_writes(
    tmp_path: Path, signal_name: str, write: int
) -> None:
    folder = copied_folder(tmp_path)
    status = stopped(tmp_path, signal_name, write, "retire", "cases/hand-is-not-proof.yaml")
    assert status != EXIT_OK
    assert leftovers(folder) == []
    assert messages(folder) == []
    assert set(lock_data(folder)) == {"three-adjacent"}


def test_a_killed_approve_leaves_at_most_a_temporary_file_that_the_next_run_removes(
    tmp_path: Path,
) -> None:
    folder = copied_folder(tmp_path)
    (folder / "new-a.yaml").write_text(
        UNPUBLISHED.replace("game: won-by-you", "game: ongoing")
        + "published: {table: faq, row: 3}\n",
        encoding="utf-8",
    )
    assert stopped(tmp_path, "SIGKILL", 1, "approve", "cases/new-a.yaml") == -signal.SIGKILL
    (left,) = leftovers(folder)
    (message,) = [m for m in messages(folder) if left in m]
    assert "the next `schotten approve` or `schotten retire` removes it" in message
    assert main(["approve", str(folder)]) == EXIT_OK
    assert leftovers(folder) == []
    assert messages(folder) == []
    assert "new-a" in lock_data(folder)
