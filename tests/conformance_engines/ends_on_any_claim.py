"""Bug: the game ends on the first stone taken, as if any claim won it (the claimer wins)."""

from __future__ import annotations

from typing import Any

from _wrap import serve_with

from schotten.conformance.outcomes import (
    Placement,
    Result,
    claim,
    place,
    read_actions,
    result_data,
)
from schotten.outcome import Outcome, Termination, winning_condition
from schotten.position_data import board_from_data


def change(request: dict[str, Any]) -> dict[str, Any] | None:
    if request.get("type") != "outcome":
        return None
    board = board_from_data(request["position"])
    actions = read_actions(request["actions"])
    for index, action in enumerate(actions):
        if isinstance(action, Placement):
            board = place(board, action, index)
            continue
        board, taken = claim(board, action)
        if taken:
            why = winning_condition(board, action.player) or Termination.THREE_ADJACENT
            return result_data(Result(board, index + 1, Outcome(action.player, why)))
    return result_data(Result(board, len(actions), None))


if __name__ == "__main__":
    serve_with(change)
