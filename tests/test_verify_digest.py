"""The engine digest that marks a report stale: it follows the rule modules' code, not their
comments, docstrings or layout."""

from __future__ import annotations

import ast
import inspect
import shutil
from pathlib import Path

import schotten
from schotten.claims import ProofCache, Sight
from schotten.game import Game
from schotten.verify.report import RULE_MODULES, engine_digest

ENGINE = Path(schotten.__file__).parent


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
    assert engine_digest(_copy(tmp_path)) == engine_digest()


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
    assert engine_digest(folder) == engine_digest()


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
    assert engine_digest(folder) != engine_digest()


def test_the_pool_of_a_games_claims_is_in_the_digest() -> None:
    # The unseen pool a claim in a game is judged against is kept by the game, move by move, in
    # Sight and ProofCache; the game itself says which stones are provable.
    for code in (Game.provable_stones, Sight.pool, ProofCache.provable):
        module = inspect.getsourcefile(code)
        assert module is not None and Path(module).name in RULE_MODULES
    assert all((ENGINE / name).is_file() for name in RULE_MODULES)
