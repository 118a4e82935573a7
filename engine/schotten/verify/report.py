"""The report of a space: ``verification/SPACE.json``, from the chunks kept in the store.

It names the engine it was made on by a digest of the code of the engine's modules that decide
what the space's check compares (``rule_modules`` of the space), so that a reader (the site) can
tell whether the proof is about the engine it runs now: a change elsewhere in the engine leaves
the proof standing.

>>> len(space_digest("base-one-stone")), space_digest("base-one-stone") == space_digest("sampled")
(16, False)
"""

from __future__ import annotations

import ast
import datetime
import hashlib
import json
import platform
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import schotten
from schotten._files import write_atomically
from schotten.errors import SchottenError
from schotten.verify.check import ChunkResult
from schotten.verify.spaces import SPACES
from schotten.verify.store import Run

DEFINITIONS = {
    "base-one-stone": "base game, one stone: 3 Clan cards against 0, 1 or 2, nothing else seen",
    "base-one-stone-complete": "base game, one stone: 3 Clan cards against 3, both orders",
    "mud-one-stone": "Tactical, Mud Fight on the stone: 4 Clan cards against 0 to 3",
    "blind-one-stone": "Tactical, Blind-Man's Bluff on the stone: 3 Clan cards against 0 to 2",
    "mud-blind-one-stone": (
        "Tactical, Mud Fight and Blind-Man's Bluff on the stone: 4 Clan cards against 0 to 3"
    ),
    "elite-one-stone": (
        "Tactical, one stone: elite troops on either side, seen elsewhere or unseen, "
        "3 cards against 0 to 2"
    ),
    "sampled": "positions of seeded random games, both variants, whole board",
}


def space_digest(space_name: str) -> str:
    """The digest of the engine's modules that a space's report is a proof about."""
    return engine_digest(SPACES[space_name].rule_modules)


def engine_digest(modules: Sequence[str], folder: Path | None = None) -> str:
    """The first 16 hex digits of a SHA-256 over the code of ``modules`` (in ``folder``, by
    default the engine's own): their syntax trees without docstrings, so that a comment, a
    docstring or the layout may change without making the reports stale."""
    folder = folder or Path(schotten.__file__).parent
    digest = hashlib.sha256()
    for name in modules:
        tree = ast.parse((folder / name).read_bytes(), filename=name)
        digest.update(name.encode() + b"\0" + _code(_without_docstrings(tree)).encode() + b"\0")
    return digest.hexdigest()[:16]


def _without_docstrings(tree: ast.Module) -> ast.Module:
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            first = body[0].value if body and isinstance(body[0], ast.Expr) else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                node.body = body[1:] or [ast.Pass()]
    return tree


def _code(node: object) -> str:
    """A syntax tree as text: node types and their fields, without positions; empty fields are
    left out, so that a Python version that adds one (``type_params``) writes the same text."""
    if isinstance(node, ast.AST):
        fields = (
            f"{name}={_code(value)}"
            for name in node._fields
            if (value := getattr(node, name, None)) is not None and value != []
        )
        return f"{type(node).__name__}({' '.join(fields)})"
    if isinstance(node, list):
        return "[" + ", ".join(_code(item) for item in node) + "]"
    return repr(node)


def tool_versions() -> dict[str, str]:
    versions = {"python": platform.python_version()}
    for package in ("schotten", "dask", "distributed"):
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            versions[package] = "not installed"
    return versions


@dataclass(frozen=True)
class Totals:
    classes: int
    positions: int
    completions: int
    reasons: dict[str, dict[str, int]]
    disagreements: list[str]
    cpu_seconds: float


def totals(results: Sequence[ChunkResult]) -> Totals:
    reasons: dict[str, dict[str, int]] = {}
    for result in results:
        for reason, (classes, positions) in result.reasons.items():
            tally = reasons.setdefault(reason, {"classes": 0, "positions": 0})
            tally["classes"] += classes
            tally["positions"] += positions
    return Totals(
        classes=sum(r.classes for r in results),
        positions=sum(r.positions for r in results),
        completions=sum(r.completions for r in results),
        reasons=dict(sorted(reasons.items())),
        disagreements=sorted(d.case_id for r in results for d in r.disagreements),
        cpu_seconds=sum(r.seconds for r in results),
    )


def chunks_of(
    space_name: str, count: int, results: Sequence[ChunkResult]
) -> dict[int, ChunkResult]:
    """The results that are chunks of this split of the space, one per chunk (the first given):
    a result of another space or split, or numbered outside it, is no chunk of it."""
    chunks: dict[int, ChunkResult] = {}
    for result in results:
        if result.space == space_name and result.count == count and 0 <= result.index < count:
            chunks.setdefault(result.index, result)
    return chunks


def build_report(
    space_name: str, count: int, results: Sequence[ChunkResult], runs: Sequence[Run]
) -> dict[str, Any]:
    """The report of ``results``: complete only when they are exactly the ``count`` chunks of
    the split, each counted once, whatever else is given."""
    space = SPACES[space_name]
    chunks = chunks_of(space_name, count, results)
    sums = totals(list(chunks.values()))
    complete = chunks.keys() == set(range(count))
    if complete:
        _check_counts(space_name, count, chunks, sums)
    return {
        "space": space_name,
        "definition": DEFINITIONS[space_name],
        "complete": complete,
        "chunks": {"total": count, "done": len(chunks)},
        "positions_in_space": space.raw_size(),
        "positions_checked": sums.positions,
        "classes_in_space": space.class_count(),
        "classes_checked": sums.classes,
        "reasons": sums.reasons,
        "completions_tried": sums.completions,
        "disagreements": sums.disagreements,
        "engine": {
            "version": schotten_version(),
            "digest": space_digest(space_name),
            "modules": list(space.rule_modules),
        },
        "tools": tool_versions(),
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "wall_seconds": round(sum(r.wall for r in runs), 1),
        "cpu_seconds": round(sums.cpu_seconds, 1),
        "workers": max((r.workers for r in runs), default=0),
        "runs": [r.__dict__ for r in runs],
    }


class ReportError(SchottenError):
    """Stored chunk results whose counts are not the space's: no report is made of them."""


def _check_counts(
    space_name: str, count: int, chunks: dict[int, ChunkResult], sums: Totals
) -> None:
    """Refuse a split whose chunks do not count the space's own classes and positions (recomputed
    from the space, never read from the rows), naming the chunks whose rows disagree."""
    space = SPACES[space_name]
    classes, positions = space.class_count(), space.raw_size()
    if classes is None or positions is None:
        return  # a space of sampled positions: its size is what its chunks hold
    if (sums.classes, sums.positions) == (classes, positions):
        return
    wrong = [
        i
        for i, result in sorted(chunks.items())
        if space.chunk_counts(i, count) != (result.classes, result.positions)
    ]
    shown = ", ".join(str(i) for i in wrong[:10]) + (" ..." if len(wrong) > 10 else "")
    raise ReportError(
        f"the stored chunks of {space_name} (split in {count}) count {sums.classes} classes and "
        f"{sums.positions} positions, where the space has {classes} and {positions}: the rows "
        f"of chunk {shown} disagree with the space; remove those rows from the store (or give "
        "--store another file) and run again to compute them anew"
    )


def schotten_version() -> str:
    try:
        return metadata.version("schotten")
    except metadata.PackageNotFoundError:
        return "unknown"


def write_report(report: dict[str, Any], folder: Path) -> Path:
    """Write ``folder/SPACE.json`` all at once (never half-written, nothing left on failure)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{report['space']}.json"
    write_atomically(path, json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    return path
