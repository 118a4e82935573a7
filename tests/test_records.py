"""Game records: saved as seed, variant and moves (or a start position and moves), read back,
replayed with every move checked again."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from positions import OPPONENT, YOU, cards, table

from schotten._files import InputFileError, read_regular_file
from schotten.board import Player, Variant
from schotten.errors import IllegalActionError, InvalidNotationError
from schotten.game import Game, Phase
from schotten.records import MAX_BYTES, Record, play_random, random_game
from schotten.rules import Rule


@pytest.mark.parametrize("variant", list(Variant))
def test_record_round_trips_and_replays_to_the_same_game(variant: Variant) -> None:
    game = play_random(21, variant)
    record = Record.from_game(game)
    assert record == random_game(21, variant)
    assert record.seed == 21 and record.variant is variant
    assert len(record.moves) == len(game.history)
    again = Record.loads(record.dumps())
    assert again == record
    replayed = again.replay()
    assert replayed.to_dict() == game.to_dict()
    assert replayed.outcome == game.outcome


def test_record_is_json_with_one_move_a_line() -> None:
    record = Record(Variant.BASE, ("play red 3 at 5", "claim none", "draw clan"), seed=1)
    text = record.dumps()
    assert json.loads(text) == {
        "format": "schotten-record/1",
        "variant": "base",
        "seed": 1,
        "first": "first",
        "moves": ["play red 3 at 5", "claim none", "draw clan"],
    }
    assert text.splitlines()[2] == '  "claim none",'


def test_record_first_player_is_kept() -> None:
    game = Game(Variant.BASE, seed=4, first=Player.SECOND)
    game.apply(game.legal_moves()[0])
    again = Record.loads(Record.from_game(game).dumps()).replay()
    assert again.to_dict() == game.to_dict()


def test_record_with_an_illegal_move_fails_with_its_number_and_rule() -> None:
    record = Record(Variant.BASE, ("play red 3 at 5", "claim none", "draw clan", "pass"), seed=1)
    with pytest.raises(IllegalActionError) as info:
        record.replay("games/one.json")
    assert info.value.rule is Rule.PASS
    assert str(info.value).startswith("[pass] games/one.json: move 4 ('pass'): second may not pass")


def test_record_with_a_move_out_of_turn_fails_with_its_number() -> None:
    record = Record(Variant.BASE, ("play red 3 at 5", "draw clan"), seed=1)
    with pytest.raises(IllegalActionError, match=r"move 2 \('draw clan'\)") as info:
        record.replay()
    assert info.value.rule is Rule.TURN_ORDER


def test_record_with_bad_notation_fails_with_its_number() -> None:
    text = Record(Variant.BASE, ("play red 3 at 5", "claim everything"), seed=1).dumps()
    with pytest.raises(InvalidNotationError, match=r"one\.json: move 2: 'claim everything'"):
        Record.loads(text, "one.json")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"format": "schotten-record/1",\n "variant": "base", "moves": [}', "line 2: not JSON"),
        ("[]", "a record is a JSON object"),
        ('{"variant": "base", "seed": 1, "moves": []}', 'expected "format"'),
        ('{"format": "schotten-record/1", "variant": "chess", "seed": 1, "moves": []}', "variant"),
        ('{"format": "schotten-record/1", "variant": "base", "seed": "x", "moves": []}', "seed"),
        ('{"format": "schotten-record/1", "variant": "base", "seed": 1}', '"moves" is a list'),
        (
            '{"format": "schotten-record/1", "variant": "base", "seed": 1, "moves": [], "x": 1}',
            "unknown keys x",
        ),
    ],
)
def test_record_malformed_files_are_refused_naming_the_file(text: str, message: str) -> None:
    with pytest.raises(InvalidNotationError) as info:
        Record.loads(text, "bad.json")
    assert str(info.value).startswith("bad.json")
    assert message in str(info.value)


def test_record_from_a_position_keeps_its_start() -> None:
    board = table({4: ("red 1, red 2", "blue 5")}, variant=Variant.TACTICAL)
    game = Game.from_position(
        board, (cards("red 3, traitor"), cards("blue 6")), to_move=YOU, phase=Phase.PLAY
    )
    game.apply("play traitor: blue 5 from 4 to 4")
    game.apply("claim none")
    game.apply("draw tactic")
    record = Record.loads(Record.from_game(game).dumps())
    assert record.seed is None
    replayed = record.replay()
    assert replayed.to_dict() == game.to_dict()
    assert replayed.board.stone(4).side(YOU).cards == cards("red 1, red 2, blue 5")
    assert replayed.to_move is OPPONENT


def test_random_game_is_seeded() -> None:
    one, two = random_game(8, Variant.TACTICAL), random_game(8, Variant.TACTICAL)
    assert one.moves == two.moves
    assert random_game(9, Variant.TACTICAL).moves != one.moves


# --- Malformed records: a clean error naming the problem (regressions: each was a traceback,
# a silently ignored key, or a hang) -------------------------------------------------------------

HEAD = '{"format": "schotten-record/1", "variant": "base", '


def start_record(variant: str = "base", **extra: object) -> str:
    start = Game(Variant.BASE, seed=1).to_dict()
    return json.dumps(
        {"format": "schotten-record/1", "variant": variant, "start": start, "moves": [], **extra}
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (HEAD.encode() + b'"seed": 1, "moves": ["play red \xff"]}', "not UTF-8 text"),
        (HEAD + '"seed": 1, "first": ["first"], "moves": []}', "\"first\" is 'first' or"),
        (HEAD + '"seed": 1, "first": [], "moves": []}', "\"first\" is 'first' or"),
        (HEAD + '"seed": 1, "first": {"a": 1}, "moves": []}', "\"first\" is 'first' or"),
        (HEAD + '"seed": ' + "7" * 5000 + ', "moves": []}', "a number of 5000 digits"),
        (HEAD + '"seed": -1, "moves": []}', '"seed" is a whole number'),
        (HEAD + '"seed": 1, "moves": ' + "[" * 5000 + "]" * 5000 + "}", "nested deeper than"),
        (HEAD + '"seed": 1, "seed": 2, "moves": []}', 'the key "seed" is given twice'),
        (HEAD + '"seed": NaN, "moves": []}', "NaN is not a JSON number"),
        ('{"format": "schotten-record/1", "variant": ["base"], "seed": 1, "moves": []}', "variant"),
        (start_record(seed=1), "not both: remove 'seed'"),
        (start_record(first="second"), "not both: remove 'first'"),
        (start_record("tactical"), 'says "variant": "tactical" but its start position is of the'),
    ],
)
def test_record_malformed_input_is_a_clean_error(text: str | bytes, message: str) -> None:
    with pytest.raises(InvalidNotationError) as info:
        Record.loads(text, "bad.json")
    assert str(info.value).startswith("bad.json")
    assert message in str(info.value)
    assert len(str(info.value)) < 400


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["hands"].update(third=[]), "hands: unknown keys: third"),
        (lambda d: d["discard"].update(nobody=["red 1"]), "discard: unknown keys: nobody"),
        (lambda d: d["decks"].update(spare=[]), "decks: unknown keys: spare"),
        (lambda d: d.update(to_move=["first"]), "to_move: expected 'first' or 'second'"),
        (lambda d: d.update(variant=["base"]), "variant: expected one of base, tactical"),
        (lambda d: d["stones"][0].update(claimed_by=[]), r"claimed_by: expected 'first'"),
        (lambda d: d["stones"][0]["completed_at"].update(third=1), "unknown keys: third"),
        (lambda d: d["outcome"] is None and d.update(outcome={"winner": None}), "termination"),
    ],
)
def test_record_start_position_malformed_is_a_clean_error(
    change: Callable[[dict[str, Any]], object], message: str
) -> None:
    start = Game(Variant.BASE, seed=1).to_dict()
    change(start)
    record = {"format": "schotten-record/1", "variant": "base", "start": start, "moves": []}
    with pytest.raises(InvalidNotationError, match=r"bad\.json: start position: ") as info:
        Record.loads(json.dumps(record), "bad.json")
    assert message in str(info.value)


def test_record_file_read_only_when_a_small_regular_file(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(Record(Variant.BASE, ("play red 3 at 5",), seed=1).dumps())
    assert Record.loads(read_regular_file(path, MAX_BYTES)).moves == ("play red 3 at 5",)
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    with pytest.raises(InputFileError, match=r"fifo\.json: a FIFO, not a regular file"):
        read_regular_file(fifo, MAX_BYTES)  # opening a FIFO with no writer would block for ever
    endless = tmp_path / "zero.json"
    endless.symlink_to("/dev/zero")
    with pytest.raises(InputFileError, match=r"a character device, not a regular file"):
        read_regular_file(endless, MAX_BYTES)
    with pytest.raises(InputFileError, match=r"a folder, not a regular file"):
        read_regular_file(tmp_path, MAX_BYTES)
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (MAX_BYTES + 1))
    with pytest.raises(
        InputFileError, match=f"{MAX_BYTES + 1} bytes or more: this file is at most"
    ):
        read_regular_file(big, MAX_BYTES)
    with pytest.raises(InputFileError, match="No such file"):
        read_regular_file(tmp_path / "missing.json", MAX_BYTES)


def test_record_from_a_position_with_the_second_player_to_move_round_trips() -> None:
    board = table({4: ("red 1, red 2", "blue 5")})
    game = Game.from_position(board, (cards("red 3"), cards("blue 6")), to_move=OPPONENT)
    game.apply("play blue 6 at 4")
    record = Record.from_game(game)
    assert Record.loads(record.dumps()) == record
    assert record.replay().to_dict() == game.to_dict()


def test_record_starting_from_a_deadlock_end_that_did_not_happen_is_refused() -> None:
    start = Game(Variant.BASE, seed=1).to_dict()
    start["outcome"] = {"winner": None, "termination": "deadlock"}
    record = {"format": "schotten-record/1", "variant": "base", "start": start, "moves": []}
    with pytest.raises(InvalidNotationError, match=r"start position: \[deadlock\] outcome draw"):
        Record.loads(json.dumps(record), "bad.json")
