"""Fuzzing the casebook: mutated copies of the real case files (bytes, tokens, lines) and of the
lock give a located error or a case the engine replays, never another exception, in bounded time.

The suite runs a few hundred examples; a long campaign:
``SCHOTTEN_FUZZ_EXAMPLES=20000 .venv/bin/pytest tests/test_gate_fuzz.py``.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from datetime import timedelta
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strength import fuzz_examples

from schotten.casebook import CaseFileError
from schotten.casebook.build import load_case
from schotten.casebook.files import LOCK_NAME
from schotten.casebook.folder import load_folder
from schotten.casebook.run import run_case

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "cases"
SMALL = ROOT / "tests" / "data" / "cases" / "valid"  # a folder with a lock, quick to load
TEXTS = [p.read_bytes() for p in sorted(CASES.glob("*.yaml"))]
EXAMPLES = fuzz_examples(150)
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=timedelta(seconds=3),  # generous on a loaded machine; a hang is far beyond it
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# What a hostile or careless edit puts in a case file.
NASTY = [
    "~", "null", "---", "...", "&a x", "*a", "&a [*a]", "!!int two", "!!float x", "!!binary AA==",
    "!!python/object:os.system {}", "!foo", "0x4", "04", "+4", "4.0", "0b100", "4_0", "1e3",
    ".inf", "²", "٤", "４", "9" * 5000, "-1", "0", "10", "[4.0]", "[]", "{}", "{", "[", "]", "}",
    "'", '"', "- ", ": ", "? ", "|", ">", "%YAML 1.1", "\t", "yes", "on", "\x00", "\f", "\x1b",
    "\ufeff", "\u2028", "\x85", "[" * 200 + "]" * 200, "{a: 1, a: 2}", "red 99", "joker", "red ²",
    "red ⑦", "play red 3 at " + "5" * 5000, "claim 2 3", "claim none", "\n  - you: pass",
    "\n    you: [red 1]", "\n  4: {}", "<<: {x: 1}", "=", "2001-12-14",
]  # fmt: skip
TOKEN = re.compile(rb"[A-Za-z0-9_.+-]+|[^\sA-Za-z0-9_.+-]")


@st.composite
def mutated_case(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(TEXTS)))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["byte", "token", "line", "cut"]))
        if kind == "byte" and data:
            at = draw(st.integers(0, len(data) - 1))
            op = draw(st.sampled_from(["insert", "delete", "replace"]))
            value = draw(st.integers(0, 255))
            if op == "insert":
                data.insert(at, value)
            elif op == "delete":
                del data[at]
            else:
                data[at] = value
        elif kind == "token":
            tokens = list(TOKEN.finditer(bytes(data)))
            if tokens:
                token = draw(st.sampled_from(tokens))
                nasty = draw(st.sampled_from(NASTY)).encode()
                data[token.start() : token.end()] = nasty
        elif kind == "line":
            lines = bytes(data).split(b"\n")
            i = draw(st.integers(0, len(lines) - 1))
            op = draw(st.sampled_from(["duplicate", "delete", "indent", "dedent", "swap"]))
            if op == "duplicate":
                lines.insert(i, lines[i])
            elif op == "delete":
                del lines[i]
            elif op == "indent":
                lines[i] = b"  " + lines[i]
            elif op == "dedent":
                lines[i] = lines[i].lstrip(b" ")
            else:
                j = draw(st.integers(0, len(lines) - 1))
                lines[i], lines[j] = lines[j], lines[i]
            data = bytearray(b"\n".join(lines))
        else:
            data = data[: draw(st.integers(0, len(data)))]
    return bytes(data)


def check_one(path: Path) -> CaseFileError | None:
    """A located error (returned), or a valid case the engine replays (``None``); nothing else.
    The error may come as the file is read or as the case is played: a play-on's move by the
    wrong player is found only then."""
    try:
        run_case(load_case(path))
    except CaseFileError as exc:
        assert exc.errors, "an error must say why"
        for error in exc.errors:
            assert error.path == path
            assert error.line >= 1 and error.column >= 1
            assert error.message and len(error.message) < 1000
        return exc
    return None


@FUZZ
@given(mutated_case())
def test_mutated_case_files_give_a_located_error_or_a_case(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "case.yaml"
        path.write_bytes(data)
        check_one(path)


@settings(max_examples=max(EXAMPLES // 5, 10), deadline=None)
@given(st.data())
def test_a_mutated_lock_gives_errors_never_an_exception(data: st.DataObject) -> None:
    lock = bytearray((SMALL / LOCK_NAME).read_bytes())
    for _ in range(data.draw(st.integers(1, 3))):
        tokens = list(TOKEN.finditer(bytes(lock)))
        token = data.draw(st.sampled_from(tokens))
        replacement = data.draw(st.sampled_from([*NASTY, "1", '"x"', "true", "[]", "{}", ""]))
        lock[token.start() : token.end()] = replacement.encode()
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "cases"
        shutil.copytree(SMALL, copy)
        (copy / LOCK_NAME).write_bytes(bytes(lock))
        cases, errors = load_folder(copy)
        assert cases
        for error in errors:
            assert error.line >= 1 and error.column >= 1


def test_a_play_on_move_by_the_wrong_player_is_a_located_error(tmp_path: Path) -> None:
    # Found by the fuzz test above (a line deleted): the file reads, and the move by the wrong
    # player is found as the case is played, at its own line.
    text = (CASES / "traitor-without-a-target.yaml").read_text(encoding="utf-8")
    assert text.count("    - you: pass\n") == 1
    mutated = text.replace("    - you: pass\n", "")
    path = tmp_path / "case.yaml"
    path.write_text(mutated, encoding="utf-8")
    error = check_one(path)
    assert error is not None
    [found] = error.errors
    moved = mutated.splitlines()[found.line - 1]
    assert moved.strip() == "- opponent: play blue 4 at 4"
    assert "opponent is not to move" in found.message
