"""Bug: "enough unseen cards of a value" is checked with > instead of >=: when exactly as many
cards of the value are unseen as the side still needs, same value is thought out of reach."""

from __future__ import annotations

import copy
from typing import Any

from _wrap import serve_with

from schotten.board import Player
from schotten.cards import ClanCard
from schotten.claims import unseen_pool
from schotten.conformance.protocol import handle
from schotten.position_data import board_from_data


def change(request: dict[str, Any]) -> dict[str, Any] | None:
    if request.get("type") != "claim":
        return None
    board = board_from_data(request["position"])
    claimer = Player.FIRST if request["claimer"] == "first" else Player.SECOND
    pool = unseen_pool(board, claimer)
    answers = []
    for number in request["stones"]:
        stone = board.stone(number)
        placed = stone.sides[claimer.other].cards
        values = {c.value for c in placed if isinstance(c, ClanCard)}
        need = stone.capacity - len(placed)
        position = copy.deepcopy(request["position"])
        if len(values) == 1 and need > 0 and stone.claimed_by is None:
            (value,) = values
            unseen = [c for c in pool.clan if c.value == value]
            if len(unseen) == need:
                # The count is judged "not enough": one of them is treated as seen.
                position["discard"][str(claimer)] = [
                    *position["discard"][str(claimer)],
                    str(unseen[0]),
                ]
        single = {**request, "position": position, "stones": [number], "id": None}
        answers += handle(single)["stones"]
    return {"stones": answers}


if __name__ == "__main__":
    serve_with(change)
