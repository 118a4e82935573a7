"""The in-page checker as a conformance engine: claims of the protocol answered by
:func:`schotten.checker.check`, the entry point the browser calls.

This module runs inside Pyodide (``checker_engine.mjs`` starts it in Node). Each claimed stone of
a request becomes the checker's own position (:func:`schotten.checker.position_of`, the claimer
as ``you``), goes to ``check`` as JSON text, and its JSON answer is written back as the protocol
writes verdicts. The checker has no position for a stone already taken, so such a stone is
answered ``stone-claimed`` here; other request types are answered ``unsupported``.

>>> import json
>>> answer = json.loads(answer_line(json.dumps(
...     {"type": "claim", "id": 1, "claimer": "second", "stones": [4], "position": {
...         "variant": "base", "discard": {"first": [], "second": []},
...         "stones": [{"number": 4, "second": ["red 1", "green 1", "blue 1"],
...                     "first": ["red 3", "green 3"],
...                     "completed_at": {"first": None, "second": 2}}]}})))
>>> answer["stones"][0]["reason"], answer["stones"][0]["witness"]
('opponent-can-beat', 'same-value 9')
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from schotten import json_input
from schotten.board import Board, Player
from schotten.checker import check, position_of
from schotten.conformance.wire import PROTOCOL, dumps
from schotten.errors import InvalidNotationError, InvalidPositionError
from schotten.position_data import board_from_data

ENGINE_NAME = "schotten in-page checker (schotten.checker.check)"
SUPPORTS = {"variants": ["base", "tactical"], "kinds": ["claims"], "claim_step": False}


def answer_line(line: str) -> str:
    """One protocol request in, one answer out (both JSON text)."""
    try:
        request = json_input.loads(line)
    except json_input.JsonInputError as error:
        return dumps({"error": "bad-request", "message": str(error)})
    if not isinstance(request, dict):
        return dumps({"error": "bad-request", "message": "a request is a JSON object"})
    head = {"id": request["id"]} if "id" in request else {}
    return dumps({**head, **_answer(request)})


def _answer(request: dict[str, Any]) -> dict[str, Any]:
    kind = request.get("type")
    if kind == "hello":
        if request.get("protocol") != PROTOCOL:
            return {"error": "unsupported-protocol", "message": f"this engine speaks {PROTOCOL}"}
        return {"protocol": PROTOCOL, "engine": ENGINE_NAME, "supports": SUPPORTS}
    if kind != "claim":
        return {"error": "unsupported", "message": "the in-page checker answers claims only"}
    try:
        board = board_from_data(request["position"])
    except (InvalidPositionError, InvalidNotationError, KeyError, TypeError) as error:
        return {"error": "bad-position", "message": str(error)}
    if request.get("claimer") == "second":
        board = mirror(board)
    return {"stones": [_verdict(board, n) for n in request.get("stones", [])]}


def _verdict(board: Board, number: int) -> dict[str, Any]:
    if board.stone(number).claimed_by is not None:
        return {
            "stone": number,
            "verdict": "refused",
            "reason": "stone-claimed",
            "theirs": None,
            "witness": None,
        }
    answer = json.loads(check(json.dumps(position_of(board, number))))
    if not answer.get("ok"):
        return {"stone": number, "error": answer.get("error"), "detail": answer}
    witness = answer["witness"]
    return {
        "stone": number,
        "verdict": "granted" if answer["granted"] else "refused",
        "reason": answer["reason"],
        "theirs": _formation(answer["theirs"]),
        "witness": None if witness is None else _formation(witness["formation"]),
    }


def _formation(data: dict[str, Any] | None) -> str | None:
    """The checker's ``{"kind": label key, "total"}`` as ``<kind> <total>``: the labels give
    four of a kind a key of its own (``same-value-4``), the protocol does not."""
    if data is None:
        return None
    return f"{data['kind'].removesuffix('-4')} {data['total']}"


def mirror(board: Board) -> Board:
    """The same table with the players' places exchanged (the checker judges for ``first``)."""

    def other(player: Player | None) -> Player | None:
        return None if player is None else player.other

    stones = tuple(
        replace(
            stone,
            sides=(stone.sides[1], stone.sides[0]),
            claimed_by=other(stone.claimed_by),
            mud_fight=other(stone.mud_fight),
            blind_mans_bluff=other(stone.blind_mans_bluff),
        )
        for stone in board.stones
    )
    return Board(board.variant, stones, (board.discard[1], board.discard[0]))


__all__ = ["ENGINE_NAME", "answer_line", "mirror"]
