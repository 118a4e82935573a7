"""Every command that writes a path the user names writes only a regular file or a new one: a
FIFO, a device or a link to one is refused with its path, and left as it was."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from schotten.cli import main

CASE = Path(__file__).resolve().parents[1] / "cases" / "hand-is-not-proof.yaml"


@pytest.mark.parametrize("option", ["--svg", "--html"])
def test_explain_refuses_a_fifo_and_a_link_to_a_device(
    tmp_path: Path, option: str, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    link = tmp_path / "null"
    link.symlink_to("/dev/null")
    for target in (fifo, link):
        assert main(["explain", str(CASE), option, str(target)]) != 0
        err = capsys.readouterr().err
        assert f"{target}: " in err and "not a regular file" in err
        assert "internal error" not in err
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert link.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null", "pipe"]
