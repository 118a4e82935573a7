"""The incremental path of the protocol: an engine that keeps the game between ``start`` and
``step`` is sent each move alone (all of a game at once); an engine that answers each request
alone is still sent the whole position at every move, and both are checked the same way."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest
from committed_suite import committed

from schotten.cli import EXIT_FAILED, EXIT_OK, main
from schotten.conformance.checks import check_vector
from schotten.conformance.client import LocalEngine
from schotten.conformance.protocol import Session, handle
from schotten.conformance.wire import PROTOCOL

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "conformance"
ENGINES = Path(__file__).parent / "conformance_engines"
SERVE = f"{shlex.quote(sys.executable)} -m schotten conformance serve"


def engine(name: str) -> str:
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(ENGINES / f'{name}.py'))}"


def conformance(*argv: str) -> int:
    return main(["conformance", "run", "--suite", str(SUITE), *argv])


def test_a_connection_declares_that_it_keeps_a_game_and_a_lone_answer_does_not() -> None:
    hello = {"type": "hello", "protocol": PROTOCOL}
    assert handle(hello, Session())["supports"]["incremental"] is True
    assert "incremental" not in handle(hello)["supports"]
    assert handle({"type": "step", "move": "draw clan"}, Session())["error"] == "bad-request"
    assert handle({"type": "start", "position": {}})["error"] == "bad-request"


def test_a_kept_game_answers_what_the_whole_positions_answer() -> None:
    game = committed("games")[0]
    session = Session()
    listed = handle({"type": "start", "position": game["position"]}, session)
    position = game["position"]
    for move in game["moves"][:30]:
        assert listed["moves"] == handle({"type": "legal", "position": position})["moves"]
        applied = handle({"type": "apply", "position": position, "move": move})
        listed = handle({"type": "step", "move": move}, session)
        assert listed["ok"] is True
        position = applied["position"]
    assert handle({"type": "step", "move": "play nothing"}, session)["error"] == "bad-move"


def test_the_games_are_checked_alike_on_both_paths() -> None:
    games = committed("games")
    for vector in (games[1], games[250]):
        assert check_vector("games", vector, LocalEngine(), incremental=True) == []
        assert check_vector("games", vector, LocalEngine(), incremental=False) == []
        wrong = {**vector, "outcome": {"winner": "second", "termination": "five-stones"}}
        found = check_vector("games", wrong, LocalEngine(), incremental=True)
        assert [f.signature for f in found] == ["games: the outcome"]


def test_an_engine_answering_each_request_alone_still_passes_the_games(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = conformance("--engine", engine("alone"), "--kind", "games", "--limit", "2")
    out = capsys.readouterr().out
    assert status == EXIT_OK, out
    assert "2/2 vectors agree" in out


def test_a_wrong_step_of_a_kept_game_fails(capsys: pytest.CaptureFixture[str]) -> None:
    status = conformance(
        "--engine", engine("kept_step_drops_a_move"), "--kind", "games", "--limit", "4"
    )
    out = capsys.readouterr().out
    assert status == EXIT_FAILED, out
    assert "the legal moves before a" in out
    status = conformance("--engine", SERVE, "--kind", "games", "--limit", "4")
    assert status == EXIT_OK, capsys.readouterr().out
