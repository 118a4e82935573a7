"""The engine digest that marks a report stale: it follows the code of the modules a space
depends on, not their comments, docstrings or layout, and not the rest of the engine."""

from __future__ import annotations

import ast
import inspect
import shutil
import sys
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

import schotten
from schotten.claims import ProofCache, Sight
from schotten.game import Game
from schotten.verify.check import check_chunk
from schotten.verify.report import engine_digest, space_digest
from schotten.verify.spaces import BOARD_RULE_MODULES, GAME_RULE_MODULES, SPACES

ENGINE = Path(schotten.__file__).parent
RULE_MODULES = GAME_RULE_MODULES
# A small chunk of each space: (chunk, chunks).
SMALL_CHUNKS = {
    "base-one-stone": (3, 4000),
    "base-one-stone-complete": (3, 20000),
    "mud-one-stone": (199_999, 200_000),
    "blind-one-stone": (3, 4000),
    "mud-blind-one-stone": (3, 4000),
    "elite-one-stone": (3, 100_000),
    "sampled": (3, 400),
}


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "engine"
    folder.mkdir()
    for name in RULE_MODULES:
        shutil.copy(ENGINE / name, folder / name)
    return folder


def _first_docstring_line(tree: ast.Module) -> int:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and ast.get_docstring(node):
            return node.body[0].lineno
    raise AssertionError("no function docstring")


def test_the_digest_of_a_copy_is_the_engines(tmp_path: Path) -> None:
    assert engine_digest(RULE_MODULES, _copy(tmp_path)) == engine_digest(RULE_MODULES)


def test_comments_docstrings_and_layout_keep_the_digest(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    for name in ("claims.py", "formations.py"):
        path = folder / name
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        at = _first_docstring_line(ast.parse(text)) - 1
        lines[at] = lines[at].replace('"""', '"""Reworded. ', 1)
        assert lines[0].startswith('"""')  # the module's docstring
        lines[0] = lines[0].replace('"""', '"""A new first sentence. ', 1)
        text = "\n".join(lines).replace("\ndef ", "\n# a new comment\n\n\ndef ")
        path.write_text("# at the top\n" + text + "\n# at the end\n", encoding="utf-8")
        assert path.read_text(encoding="utf-8") != (ENGINE / name).read_text(encoding="utf-8")
    assert engine_digest(RULE_MODULES, folder) == engine_digest(RULE_MODULES)


def test_a_changed_comparison_changes_the_digest(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    path = folder / "claims.py"
    lines = path.read_text(encoding="utf-8").splitlines()
    compare = next(
        node
        for node in ast.walk(ast.parse("\n".join(lines)))
        if isinstance(node, ast.Compare) and isinstance(node.ops[0], ast.Gt)
    )
    row = compare.lineno - 1
    start, end = compare.left.end_col_offset, compare.comparators[0].col_offset
    assert compare.lineno == compare.comparators[0].lineno and start is not None
    lines[row] = lines[row][:start] + lines[row][start:end].replace(">", ">=") + lines[row][end:]
    path.write_text("\n".join(lines), encoding="utf-8")
    assert engine_digest(RULE_MODULES, folder) != engine_digest(RULE_MODULES)


def test_the_pool_of_a_games_claims_is_in_the_digest() -> None:
    # The unseen pool a claim in a game is judged against is kept by the game, move by move, in
    # Sight and ProofCache; the game itself says which stones are provable.
    for code in (Game.provable_stones, Sight.pool, ProofCache.provable):
        module = inspect.getsourcefile(code)
        assert module is not None and Path(module).name in RULE_MODULES
    assert all((ENGINE / name).is_file() for name in RULE_MODULES)


def test_the_spaces_of_one_stone_depend_on_the_board_and_the_sampled_space_on_the_game() -> None:
    assert set(SMALL_CHUNKS) == set(SPACES)
    for name, space in SPACES.items():
        expected = GAME_RULE_MODULES if name == "sampled" else BOARD_RULE_MODULES
        assert space.rule_modules == expected, name
    assert "game.py" not in BOARD_RULE_MODULES


@pytest.mark.parametrize("name", list(SMALL_CHUNKS))
def test_a_chunks_check_runs_no_code_of_the_engine_outside_its_spaces_modules(name: str) -> None:
    # The report of a space is kept as a proof while its modules are unchanged: this fails if
    # the check starts running engine code that a change could alter unseen.
    ran: set[str] = set()

    def record(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            ran.add(frame.f_code.co_filename)

    index, count = SMALL_CHUNKS[name]
    sys.setprofile(record)
    try:
        result = check_chunk(name, index, count)
    finally:
        sys.setprofile(None)
    assert result.positions > 0 and not result.disagreements
    engine = {
        Path(path).relative_to(ENGINE).as_posix()
        for path in ran
        if Path(path).is_relative_to(ENGINE)
    }
    core = {module for module in engine if "/" not in module}
    assert core <= set(SPACES[name].rule_modules), sorted(core - set(SPACES[name].rule_modules))
    assert {"claims.py", "completion.py"} <= core  # the check did judge claims


def test_a_change_outside_a_spaces_modules_keeps_its_digest(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    path = folder / "game.py"
    path.write_text(path.read_text(encoding="utf-8") + "\nMOVED = 1\n", encoding="utf-8")
    one_stone = SPACES["base-one-stone"].rule_modules
    assert engine_digest(one_stone, folder) == space_digest("base-one-stone")
    assert engine_digest(GAME_RULE_MODULES, folder) != space_digest("sampled")
