"""Fuzzing game records and positions: real records of random self-play, damaged as JSON and as
text, are read or refused with InvalidNotationError; a record read replays to a game or fails
on a move with IllegalActionError or InvalidNotationError. Positions written by the engine,
damaged, are read or refused with InvalidPositionError. Never another exception."""

from __future__ import annotations

import functools
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mutations import dumps, mutated_json, mutated_text
from strength import examples

from schotten.board import Variant
from schotten.errors import IllegalActionError, InvalidNotationError, InvalidPositionError
from schotten.game import Game
from schotten.records import Record, play_random

SEEDS = (1, 2)
FUZZ = settings(
    max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@functools.cache
def records() -> tuple[str, ...]:
    """Records of whole random games, and of games started from a position part way."""
    texts = []
    for seed in SEEDS:
        for variant in Variant:
            game = play_random(seed, variant)
            texts.append(Record.from_game(game).dumps())
            middle = Game(variant, seed=seed)
            for action in game.history[: len(game.history) // 2]:
                middle.apply(action.move)
            restarted = Game.from_dict(middle.to_dict())
            for action in game.history[len(game.history) // 2 :][:12]:
                restarted.apply(action.move)
            texts.append(Record.from_game(restarted).dumps())
    return tuple(texts)


@functools.cache
def positions() -> tuple[dict[str, Any], ...]:
    found = []
    for variant in Variant:
        game = Game(variant, seed=5)
        for action in play_random(5, variant).history:
            game.apply(action.move)
            if len(game.history) % 9 == 0:
                found.append(game.to_dict())
        found.append(game.to_dict())  # the end, deadlock or not
    return tuple(found)


def read_and_replay(text: str | bytes) -> None:
    try:
        record = Record.loads(text, "fuzz.json")
    except InvalidNotationError as error:
        assert str(error).startswith("fuzz.json"), error
        assert "\n" not in str(error)
        return
    try:
        game = record.replay("fuzz.json")
    except (IllegalActionError, InvalidNotationError) as error:
        assert str(error).startswith(("fuzz.json", "[")), error
        return
    assert game.variant is record.variant


def test_fuzz_records_replay_unharmed() -> None:
    for text in records():
        read_and_replay(text)
        assert Record.loads(text).replay() is not None


@FUZZ
@given(st.data())
def test_fuzz_record_damaged_as_json(data: st.DataObject) -> None:
    text = data.draw(st.sampled_from(records()))
    read_and_replay(dumps(data.draw(mutated_json(json.loads(text)))))


@FUZZ
@given(st.data())
def test_fuzz_record_damaged_as_text(data: st.DataObject) -> None:
    text = data.draw(st.sampled_from(records()))
    read_and_replay(data.draw(mutated_text(text)))


@FUZZ
@given(st.data())
def test_fuzz_record_damaged_as_bytes(data: st.DataObject) -> None:
    raw = bytearray(data.draw(st.sampled_from(records())).encode("utf-8"))
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(raw) - 1))
        raw[at] = data.draw(st.integers(0, 255))
    read_and_replay(bytes(raw))


@FUZZ
@given(st.data())
def test_fuzz_position_damaged(data: st.DataObject) -> None:
    position = data.draw(st.sampled_from(positions()))
    damaged = data.draw(mutated_json(position))
    try:
        game = Game.from_dict(damaged)
    except InvalidPositionError as error:
        assert "\n" not in str(error)
        return
    assert Game.from_dict(game.to_dict()).to_dict() == game.to_dict()
