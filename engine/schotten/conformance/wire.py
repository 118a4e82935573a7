"""What travels between the runner and an engine: compact JSON, positions, formations, digests.

Positions are written in the one position format of the project (:mod:`schotten.position_data`,
the format of game records' ``start``), compactly: keys of a stone whose value is the default
(``completed_at`` with both sides incomplete, ``claimed_by``, ``mud_fight``,
``blind_mans_bluff`` when nobody) are left out, as the reader allows.

>>> from schotten.board import Board, Variant
>>> board_data(Board.empty(Variant.BASE))["stones"][0]
{'number': 1, 'first': [], 'second': []}
>>> board_data(Board.empty(Variant.BASE), sparse=True)["stones"]
[]
>>> moves_digest(["draw clan", "claim none"]) == moves_digest(["claim none", "draw clan"])
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from schotten.board import Board, Player, Stone
from schotten.formations import Formation
from schotten.game import Game

PROTOCOL = "schotten-conformance/1"
"""The protocol's name and version, exchanged by ``hello``."""

SUITE_FORMAT = "schotten-conformance-suite/1"
"""The version of the suite's files (``manifest.json``)."""

KINDS = ("claims", "formations", "provable", "moves", "games", "perft", "outcomes")
"""The suite's kinds of vectors, in the suite's order."""

MAX_LINE = 1024 * 1024
"""The longest line either side of the protocol reads, in bytes: a request or an answer is a
few kilobytes (a whole position, or the legal moves of one), so a longer line is an error."""


MAX_VALUES = 50_000
"""The most arrays, objects and items either side of the protocol reads in one line: a position
is a few hundred, the legal moves of one or a perft divide a few hundred more; the limit keeps
the memory a line costs within a small multiple of its size."""


def dumps(data: Any) -> str:
    """One JSON line: compact, keys in the order written, UTF-8 characters kept; a number
    that is not finite is a ``ValueError``."""
    # allow_nan=False: Infinity and NaN are not JSON, and nothing here writes what is not JSON.
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def stone_data(stone: Stone) -> dict[str, Any]:
    data: dict[str, Any] = {
        "number": stone.number,
        **{str(p): [str(c) for c in stone.sides[p].cards] for p in Player},
    }
    times = [side.completed_at for side in stone.sides]
    if any(t is not None for t in times):
        data["completed_at"] = {str(p): times[p] for p in Player}
    for key, who in (
        ("claimed_by", stone.claimed_by),
        ("mud_fight", stone.mud_fight),
        ("blind_mans_bluff", stone.blind_mans_bluff),
    ):
        if who is not None:
            data[key] = str(who)
    return data


def board_data(board: Board, *, sparse: bool = False) -> dict[str, Any]:
    """The table part of a position (read back by ``position_data.board_from_data``);
    ``sparse`` leaves out the stones with nothing on them."""
    return {
        "variant": str(board.variant),
        "stones": [stone_data(s) for s in board.stones if not sparse or not _bare(s)],
        "discard": {str(p): [str(c) for c in board.discard[p]] for p in Player},
    }


def _bare(stone: Stone) -> bool:
    return stone == Stone(stone.number)


def game_data(game: Game) -> dict[str, Any]:
    """A whole position (read back by ``Game.from_dict``), stones compact."""
    data = game.to_dict()
    data["stones"] = [stone_data(s) for s in game.board.stones]
    return data


def formation_data(formation: Formation | None) -> str | None:
    """``same-value 9``: a formation as case files write it (four of a kind is ``same-value``)."""
    if formation is None:
        return None
    return f"{formation.kind.key} {formation.total}"


def moves_digest(moves: Iterable[str]) -> str:
    """The first 8 hex digits of SHA-256 over the moves, sorted, one per line (UTF-8)."""
    # Imported here: the checker's glue imports this module on the checker's own trimmed
    # standard library (checker_engine.mjs --runtime), which has no hashlib.
    import hashlib

    text = "\n".join(sorted(moves))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]
