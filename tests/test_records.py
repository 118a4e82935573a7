"""Game records: saved as seed, variant and moves (or a start position and moves), read back,
replayed with every move checked again."""

from __future__ import annotations

import json

import pytest
from positions import OPPONENT, YOU, cards, table

from schotten.board import Player, Variant
from schotten.errors import IllegalActionError, InvalidNotationError
from schotten.game import Game, Phase
from schotten.records import Record, play_random, random_game
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
