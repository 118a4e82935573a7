"""Bug: the opponent's best colour is searched greedily: the first colour and the first cards
found (lowest values first), not the highest total within the kind."""

from __future__ import annotations

from typing import Any

from _wrap import serve_with

from schotten.board import Player
from schotten.cards import ClanCard, Colour
from schotten.claims import side_formation, unseen_pool
from schotten.conformance.protocol import handle
from schotten.formations import Formation, FormationKind
from schotten.position_data import board_from_data


def change(request: dict[str, Any]) -> dict[str, Any] | None:
    if request.get("type") != "claim":
        return None
    answer = handle({**request, "id": None})
    board = board_from_data(request["position"])
    claimer = Player.FIRST if request["claimer"] == "first" else Player.SECOND
    pool = unseen_pool(board, claimer)
    for verdict in answer.get("stones", []):
        best = verdict["theirs"]
        if verdict["reason"] not in ("opponent-can-beat", "unbeatable") or best is None:
            continue
        if not best.startswith("colour "):
            continue
        stone = board.stone(verdict["stone"])
        placed = stone.sides[claimer.other].cards
        if not all(isinstance(c, ClanCard) for c in placed):
            continue
        need = stone.capacity - len(placed)
        colours = {c.colour for c in placed if isinstance(c, ClanCard)}
        for colour in Colour:
            if colours and colour not in colours:
                continue
            found = [c for c in pool.clan if c.colour == colour][:need]
            if len(found) == need:
                total = sum(c.value for c in (*placed, *found) if isinstance(c, ClanCard))
                greedy = Formation(FormationKind.COLOUR, total)
                break
        else:
            continue
        verdict["theirs"] = f"colour {greedy.total}"
        mine = side_formation(stone, claimer)
        if mine is not None and greedy <= mine:
            verdict.update(verdict="granted", reason="unbeatable", witness=None)
        else:
            verdict["witness"] = verdict["theirs"]
    return answer


if __name__ == "__main__":
    serve_with(change)
