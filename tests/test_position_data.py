"""Positions as data (:mod:`schotten.position_data`): written out as JSON-safe data and read
back, every malformed part named by its key before the rules look at the position."""

from __future__ import annotations

import json
from typing import Any

import pytest

from schotten.board import Player, Variant
from schotten.errors import InvalidPositionError
from schotten.game import Game
from schotten.moves import Deck
from schotten.outcome import Outcome, Termination
from schotten.position_data import board_from_data, position_from_data, position_to_data
from schotten.turn import Phase


def test_position_bad_fields_are_named() -> None:
    data = Game(Variant.BASE, seed=1).to_dict()
    with pytest.raises(InvalidPositionError, match="unknown keys: colour"):
        Game.from_dict({**data, "colour": "red"})
    with pytest.raises(InvalidPositionError, match="phase: expected one of play, return"):
        Game.from_dict({**data, "phase": "dance"})
    bad = json.loads(json.dumps(data))
    bad["hands"]["first"][0] = "pink 3"
    with pytest.raises(InvalidPositionError, match=r"hands\.first: 'pink 3' is not a card"):
        Game.from_dict(bad)


def data_of() -> dict[str, Any]:
    """A fresh base deal as data, read back from its JSON text."""
    data: dict[str, Any] = json.loads(json.dumps(Game(Variant.BASE, seed=1).to_dict()))
    return data


def test_position_data_round_trips_a_game_in_progress() -> None:
    game = Game(Variant.TACTICAL, seed=11)
    for _ in range(25):
        game.apply(game.legal_moves()[0])
    position = game.position()
    data = json.loads(json.dumps(position_to_data(position)))
    assert position_from_data(data) == position


def test_position_data_writes_cards_in_notation_and_players_by_name() -> None:
    game = Game(Variant.BASE, seed=3)
    card = game.hand(Player.FIRST)[0]
    game.apply(f"play {card} at 4")
    data = position_to_data(game.position())
    assert data["stones"][3]["first"] == [str(card)]
    assert data["stones"][3]["completed_at"] == {"first": None, "second": None}
    assert (data["variant"], data["to_move"], data["phase"]) == ("base", "first", "claim")
    assert data["decks"]["tactic"] == [] and len(data["decks"]["clan"]) == 54 - 12
    assert data["outcome"] is None


def test_position_data_reads_an_outcome_and_the_recruiter_flag() -> None:
    data = data_of()
    data["outcome"] = {"winner": "second", "termination": "five-stones"}
    data["recruited"] = True
    position = position_from_data(data)
    assert position.outcome == Outcome(Player.SECOND, Termination.FIVE_STONES)
    assert position.recruited and position.phase is Phase.PLAY
    assert position.decks[Deck.CLAN] == Game(Variant.BASE, seed=1).deck(Deck.CLAN)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"to_move": "third"}, "to_move: expected 'first' or 'second', not 'third'"),
        ({"step": -1}, "step: expected a whole number, not -1"),
        ({"step": True}, "step: expected a whole number, not True"),
        ({"recruited": "yes"}, "recruited: expected true or false, not 'yes'"),
        ({"outcome": {"winner": None}}, "termination: missing"),
        ({"outcome": {"who": "first"}}, "outcome: expected null or {winner, termination}"),
        ({"variant": "expert"}, "variant: expected one of base, tactical, not 'expert'"),
        ({"hands": {"first": []}}, "hands.second: expected a list of cards"),
        ({"decks": {"clan": [], "spare": []}}, "decks: unknown keys: spare"),
        ({"a b": 1}, "unknown keys: 'a b'"),
    ],
)
def test_position_data_names_the_key_at_fault(change: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidPositionError) as caught:
        position_from_data({**data_of(), **change})
    assert str(caught.value) == message


def test_position_data_needs_a_mapping_of_nine_stones_each_at_its_place() -> None:
    with pytest.raises(InvalidPositionError, match="a position is a mapping, not list"):
        position_from_data([])
    data = data_of()
    with pytest.raises(InvalidPositionError, match="stones: expected the 9 stones, not 8"):
        position_from_data({**data, "stones": data["stones"][:8]})
    data["stones"][2]["number"] = 4
    with pytest.raises(InvalidPositionError, match=r"^stones\[2\]: expected number 3$"):
        position_from_data(data)


def test_position_data_completion_steps_are_whole_numbers() -> None:
    data = data_of()
    data["stones"][0]["completed_at"]["second"] = -2
    with pytest.raises(
        InvalidPositionError, match=r"stones\[0\]\.completed_at\.second: expected a step"
    ):
        position_from_data(data)


def test_board_from_data_fills_the_stones_left_out() -> None:
    board = board_from_data(
        {
            "variant": "tactical",
            "stones": [
                {"number": 2, "first": [], "second": ["red 4", "joker"], "mud_fight": "first"}
            ],
            "discard": {"first": ["banshee"], "second": []},
        }
    )
    assert [s.number for s in board.stones if any(side.cards for side in s.sides)] == [2]
    assert board.stone(2).mud_fight is Player.FIRST
    assert [str(c) for c in board.stone(2).side(Player.SECOND).cards] == ["red 4", "joker"]
    assert [str(c) for c in board.discard[0]] == ["banshee"]


def test_board_from_data_wants_its_stones_in_order_each_once() -> None:
    stones = [{"number": 3, "first": [], "second": []}, {"number": 2, "first": [], "second": []}]
    with pytest.raises(InvalidPositionError, match="numbered 1 to 9 in order, each once, not 2"):
        board_from_data({"variant": "base", "stones": stones, "discard": {}})


def test_board_from_data_checks_the_table() -> None:
    stones = [{"number": 1, "first": ["red 1"], "second": []}]
    with pytest.raises(
        InvalidPositionError, match=r"red 1 is on the table 2 times \(the game has 1\)"
    ):
        board_from_data(
            {"variant": "base", "stones": stones, "discard": {"first": ["red 1"], "second": []}}
        )
