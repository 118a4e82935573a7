"""The casebook never loses work: concurrent approves, a retire that fails halfway, symbolic
links (to a case, in a loop) and file names that are not UTF-8."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from schotten.casebook.files import LOCK_NAME
from schotten.casebook.folder import load_folder
from schotten.cli import EXIT_FAILED, EXIT_OK, main

DATA = Path(__file__).parent / "data" / "cases"
VALID = DATA / "valid"
CASE = (VALID / "three-adjacent.yaml").read_text(encoding="utf-8")
UNPUBLISHED = re.sub(r"(?m)^published: .*\n", "", CASE)


@pytest.fixture(autouse=True)
def _not_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)


def published_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "cases"
    shutil.copytree(VALID, folder)
    assert load_folder(folder)[1] == []
    return folder


def schotten(*argv: str, cwd: Path, prelude: str = "") -> subprocess.CompletedProcess[bytes]:
    """``schotten`` in a child process (``prelude`` runs first, in the child)."""
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    code = prelude + "\nfrom schotten.cli import entrypoint\nentrypoint()\n"
    return subprocess.run(
        [sys.executable, "-c", code, *argv],
        cwd=cwd,
        env=env,
        capture_output=True,
        timeout=120,
        check=False,
    )


# A slow reader of the lock: each approve reads it, then waits, before it goes on. Without a lock
# on the folder both read the same old lock, and the second write drops the first one's case.
SLOW_LOCK_READER = textwrap.dedent(
    """
    import time
    from schotten import json_input
    _loads = json_input.loads
    def loads(text, *args, **kwargs):
        data = _loads(text, *args, **kwargs)
        time.sleep(1.0)
        return data
    json_input.loads = loads
    """
)


def test_two_concurrent_approves_of_new_cases_both_land_in_the_lock(tmp_path: Path) -> None:
    folder = published_folder(tmp_path)
    for name, row in (("new-a", 3), ("new-b", 4)):
        text = UNPUBLISHED + f"published: {{table: faq, row: {row}}}\n"
        (folder / f"{name}.yaml").write_text(text, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    code = SLOW_LOCK_READER + "\nfrom schotten.cli import entrypoint\nentrypoint()\n"
    children = [
        subprocess.Popen(
            [sys.executable, "-c", code, "approve", f"cases/{name}.yaml"],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for name in ("new-a", "new-b")
    ]
    for child in children:
        _out, err = child.communicate(timeout=120)
        assert child.returncode == 0, err.decode()
    lock = json.loads((folder / LOCK_NAME).read_text(encoding="utf-8"))
    assert {"new-a", "new-b"} <= set(lock["published"])
    assert load_folder(folder)[1] == []


def _failing_lock_write(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lock cannot be replaced (as on a read-only lock or folder); other files can."""
    replace = os.replace

    def refuse(src: str, dst: str, *args: object, **kwargs: object) -> None:
        if os.fspath(dst).endswith(LOCK_NAME):
            raise PermissionError(13, "Permission denied", os.fspath(dst))
        replace(src, dst)

    monkeypatch.setattr(os, "replace", refuse)


def test_a_retire_that_cannot_write_the_lock_renumbers_nothing_and_a_retry_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = published_folder(tmp_path)
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    with monkeypatch.context() as patch:
        _failing_lock_write(patch)
        assert main(["retire", str(folder / "hand-is-not-proof.yaml")]) == EXIT_FAILED
    err = capsys.readouterr().err
    assert "Permission denied" in err and "internal error" not in err
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    assert main(["retire", str(folder / "hand-is-not-proof.yaml")]) == EXIT_OK
    cases, errors = load_folder(folder)
    assert errors == []
    places = {c.id: (c.published.table, c.published.row) for c in cases if c.published}
    assert places == {"three-adjacent": ("faq", 1)}


def test_a_retry_after_a_retire_stopped_halfway_moves_no_row_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = published_folder(tmp_path)
    # A third published case, so that two rows follow the retired one.
    (folder / "third.yaml").write_text(
        UNPUBLISHED + "published: {table: faq, row: 3}\n", encoding="utf-8"
    )
    assert main(["approve", str(folder / "third.yaml")]) == EXIT_OK
    replace = os.replace
    calls = []

    def stop_after_lock(src: str, dst: str, *args: object, **kwargs: object) -> None:
        # The lock goes first; the second case file written fails (a full disk, a kill).
        calls.append(os.fspath(dst))
        if len(calls) == 3:
            raise OSError(28, "No space left on device", os.fspath(dst))
        replace(src, dst)

    with monkeypatch.context() as patch:
        patch.setattr(os, "replace", stop_after_lock)
        assert main(["retire", str(folder / "hand-is-not-proof.yaml")]) == EXIT_FAILED
    assert calls[0].endswith(LOCK_NAME)
    assert main(["retire", str(folder / "hand-is-not-proof.yaml")]) == EXIT_OK
    cases, errors = load_folder(folder)
    assert errors == []
    places = {c.id: c.published.row for c in cases if c.published}
    assert places == {"three-adjacent": 1, "third": 2}


def test_approve_through_a_symbolic_link_writes_its_target_and_keeps_the_link(
    tmp_path: Path,
) -> None:
    elsewhere = tmp_path / "drafts"
    elsewhere.mkdir()
    target = elsewhere / "x.yaml"
    target.write_text(UNPUBLISHED.replace("  game: won-by-you", "  game: ongoing"), "utf-8")
    folder = tmp_path / "cases"
    folder.mkdir()
    link = folder / "x.yaml"
    link.symlink_to(target)
    assert main(["approve", str(link)]) == EXIT_OK
    assert link.is_symlink() and link.resolve() == target.resolve()
    assert "game: won-by-you" in target.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "argv",
    [
        ("check", "cases"),
        ("check", "cases/loop.yaml"),
        ("explain", "cases/loop.yaml"),
        ("approve", "cases/loop.yaml"),
        ("approve", "cases"),
    ],
)
def test_a_symbolic_link_loop_is_a_clean_error(tmp_path: Path, argv: tuple[str, ...]) -> None:
    folder = published_folder(tmp_path)
    (folder / "loop.yaml").symlink_to("loop.yaml")
    before = (folder / LOCK_NAME).read_bytes()
    done = schotten(*argv, cwd=tmp_path)
    err = done.stderr.decode()
    assert done.returncode == EXIT_FAILED, err
    assert "internal error" not in err and "Traceback" not in err
    assert "cases/loop.yaml:1:1:" in err and "symbolic links" in err
    assert (folder / LOCK_NAME).read_bytes() == before


def test_check_json_is_utf8_whatever_the_file_names(tmp_path: Path) -> None:
    folder = published_folder(tmp_path)
    (folder / os.fsdecode(b"x\xff.yaml")).write_text(UNPUBLISHED, encoding="utf-8")
    done = schotten("check", "--json", "cases", cwd=tmp_path)
    assert done.returncode == EXIT_FAILED
    report = json.loads(done.stdout.decode("utf-8"))  # strict: a raw 0xff byte fails here
    (error,) = report["errors"]
    assert error["file"] == "cases/x\\xff.yaml"
    assert b"\xff" not in done.stdout
    assert "x\\xff.yaml" in done.stderr.decode("utf-8") or not done.stderr
