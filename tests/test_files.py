"""The one reader of untrusted files, the one atomic writer and the one CI guard
(schotten._files)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from schotten._files import (
    InputFileError,
    RefusedUnderCI,
    read_regular_file,
    read_text,
    refuse_under_ci,
    write_atomically,
)
from schotten.errors import SchottenError


def test_reads_a_regular_file_within_its_limit(tmp_path: Path) -> None:
    (tmp_path / "a").write_bytes(b"12345")
    assert read_regular_file(tmp_path / "a", limit=5) == b"12345"


def test_refuses_a_file_over_its_limit_without_reading_it_all(tmp_path: Path) -> None:
    (tmp_path / "a").write_bytes(b"123456")
    with pytest.raises(InputFileError, match="at most 5 bytes"):
        read_regular_file(tmp_path / "a", limit=5)


def test_refuses_a_fifo_without_waiting(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(InputFileError, match="a FIFO, not a regular file"):
        read_regular_file(tmp_path / "pipe", limit=5)


def test_refuses_a_link_to_a_device(tmp_path: Path) -> None:
    (tmp_path / "zero").symlink_to("/dev/zero")
    with pytest.raises(InputFileError, match="a character device"):
        read_regular_file(tmp_path / "zero", limit=5)


def test_a_missing_file_is_a_user_error(tmp_path: Path) -> None:
    with pytest.raises(SchottenError, match="cannot read it"):
        read_regular_file(tmp_path / "nothing", limit=5)


def test_text_that_is_not_utf8_is_located(tmp_path: Path) -> None:
    (tmp_path / "a").write_bytes(b"ok\nab\xffc")
    with pytest.raises(InputFileError) as caught:
        read_text(tmp_path / "a", limit=100)
    assert (caught.value.line, caught.value.column) == (2, 3)
    assert "0xff" in caught.value.problem


def test_write_replaces_the_file_and_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "a"
    target.write_text("old")
    target.chmod(0o600)
    write_atomically(target, "new\r\n")
    assert target.read_bytes() == b"new\r\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


def test_a_new_file_gets_the_mode_asked_for(tmp_path: Path) -> None:
    write_atomically(tmp_path / "a", b"\x00", mode=0o644)
    assert stat.S_IMODE((tmp_path / "a").stat().st_mode) == 0o644


def test_write_through_a_link_replaces_its_target_and_keeps_the_link(tmp_path: Path) -> None:
    (tmp_path / "real").write_text("old")
    (tmp_path / "link").symlink_to("real")
    write_atomically(tmp_path / "link", "new")
    assert (tmp_path / "link").is_symlink()
    assert (tmp_path / "real").read_text() == "new"


def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "a"
    target.write_text("old")

    def refuse(source: object, destination: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError, match="No space left"):
        write_atomically(target, "new")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["a"]


@pytest.mark.parametrize("value", ["", "0", "true"])
def test_the_ci_guard_refuses_for_any_value_even_empty(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("CI", value)
    with pytest.raises(RefusedUnderCI, match="not on CI"):
        refuse_under_ci("not on CI")
    monkeypatch.delenv("CI")
    refuse_under_ci("not on CI")


@pytest.mark.parametrize("kind", ["fifo", "device", "socket", "link to a device", "folder"])
def test_a_write_refuses_what_is_not_a_regular_file_naming_it_and_writes_nothing(
    tmp_path: Path, kind: str
) -> None:
    import socket

    from schotten._files import OutputFileError

    target = tmp_path / "out.svg"
    held = None
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "device":
        target = Path("/dev/null")
    elif kind == "socket":
        held = socket.socket(socket.AF_UNIX)
        held.bind(str(target))
    elif kind == "link to a device":
        target.symlink_to("/dev/null")
    else:
        target.mkdir()
    before = os.stat(target).st_mode
    try:
        with pytest.raises(OutputFileError, match="not a regular file") as raised:
            write_atomically(target, "<svg/>")
    finally:
        if held is not None:
            held.close()
    assert str(target) in str(raised.value)
    assert isinstance(raised.value, SchottenError)
    assert os.stat(target).st_mode == before  # still what it was
    assert not list(tmp_path.glob(".*.tmp"))
    assert not stat.S_ISREG(before)


def test_a_write_through_a_link_to_nothing_makes_the_new_file(tmp_path: Path) -> None:
    (tmp_path / "link").symlink_to(tmp_path / "new.txt")
    write_atomically(tmp_path / "link", "x")
    assert (tmp_path / "new.txt").read_text() == "x"
    assert (tmp_path / "link").is_symlink()
