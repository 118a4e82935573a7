"""Fuzzing the in-page checker: positions taken from real games, damaged as JSON and as text,
always get an answer (a verdict or an error code), never an exception, never ``internal-error``;
a verdict is the engine's own on the position read."""

from __future__ import annotations

import functools
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mutations import dumps, mutated_json, mutated_text
from strength import examples

from schotten.board import Board, Player, Variant
from schotten.checker import STONE, check, position_of, read_position, verdict_answer
from schotten.claims import judge_stone
from schotten.game import Game
from schotten.records import play_random

FUZZ = settings(
    max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@functools.cache
def inputs() -> tuple[dict[str, Any], ...]:
    """Checker positions of the open stones of random games, every ten moves."""
    boards: list[Board] = []

    def watch(game: Game) -> None:
        if len(game.history) % 10 == 0 or game.outcome is not None:
            boards.append(game.board)

    for variant in Variant:
        play_random(3, variant, watch=watch)
    return tuple(
        position_of(board, stone.number)
        for board in boards
        for stone in board.stones
        if stone.claimed_by is None
    )


def answered(text: Any) -> dict[str, Any]:
    answer = json.loads(check(text))
    assert isinstance(answer, dict) and answer["ok"] in (True, False)
    assert answer.get("error") != "internal-error", answer
    if answer["ok"]:
        data = json.loads(text)
        position = read_position(data)
        verdict = judge_stone(position.board(), Player.FIRST, STONE)
        assert answer == verdict_answer(verdict, position)
    return answer


def test_fuzz_checker_inputs_unharmed_are_judged() -> None:
    assert len(inputs()) > 20
    for data in inputs():
        assert answered(dumps(data))["ok"] is True


@FUZZ
@given(st.data())
def test_fuzz_checker_damaged_as_json(data: st.DataObject) -> None:
    position = data.draw(st.sampled_from(inputs()))
    answered(dumps(data.draw(mutated_json(position))))


@FUZZ
@given(st.data())
def test_fuzz_checker_damaged_as_text(data: st.DataObject) -> None:
    position = data.draw(st.sampled_from(inputs()))
    answered(data.draw(mutated_text(dumps(position))))
