"""Bug: a stone whose two sides are complete goes to the stronger side, whoever claims it (a
weaker side's claim hands the stone to the opponent instead of being refused)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from _wrap import serve_with

from schotten.claims import Reason, judge_stone
from schotten.conformance.outcomes import Placement, Result, place, read_actions, result_data
from schotten.outcome import Outcome, winning_condition
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
        verdict = judge_stone(board, action.player, action.stone)
        if verdict.granted:
            taker = action.player
        elif verdict.reason in (Reason.WEAKER, Reason.TIE_COMPLETED_LATER):
            taker = action.player.other
        else:
            continue
        board = board.with_stone(replace(board.stone(action.stone), claimed_by=taker))
        won = winning_condition(board, taker)
        if won is not None:
            return result_data(Result(board, index + 1, Outcome(taker, won)))
    return result_data(Result(board, len(actions), None))


if __name__ == "__main__":
    serve_with(change)
