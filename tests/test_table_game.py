"""The « Jouer » page's game through its JSON requests: whole games to their end, undo never past a
drawn card, claims judged with their proofs, and records that ``schotten replay`` accepts."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from schotten.board import Player, Variant
from schotten.claims import Reason, judge_stone
from schotten.game import Game
from schotten.moves import Move
from schotten.records import Record
from schotten.table_game import COMPUTER, YOU, Session, TableGame


def ask(session: Session, **request: Any) -> dict[str, Any]:
    """A request as the worker sends it: JSON text both ways."""
    answer: dict[str, Any] = json.loads(session.handle(json.dumps(request)))
    return answer


def your_move(view: dict[str, Any], rng: random.Random) -> str:
    """A random move among those the page offers (a claim: a random set of provable stones)."""
    if view["phase"] == "claim":
        stones = [s for s in view["provable"] if rng.random() < 0.8]
        return "claim " + (" ".join(map(str, stones)) or "none")
    return str(rng.choice(view["moves"])["text"])


def play_out(session: Session, rng: random.Random, undo_every: int = 0) -> dict[str, Any]:
    """Play the game to its end through requests; every ``undo_every`` moves, undo once."""
    view = ask(session, op="view")["view"]
    count = 0
    while view["outcome"] is None:
        count += 1
        if view["to_move"] == "computer":
            answer = ask(session, op="computer")
        elif undo_every and count % undo_every == 0 and view["can_undo"]:
            answer = ask(session, op="undo")
        else:
            answer = ask(session, op="move", move=your_move(view, rng))
        assert answer["ok"], answer
        view = answer["view"]
        assert count < 5000
    return dict(view)


@pytest.mark.parametrize("variant", ["base", "tactical"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_whole_games_end_and_replay(variant: str, seed: int) -> None:
    session = Session()
    assert ask(session, op="new", variant=variant, seed=seed)["ok"]
    view = play_out(session, random.Random(seed), undo_every=7)
    record = Record.loads(ask(session, op="record")["record"])
    game = record.replay()
    assert game.outcome is not None
    assert view["outcome"]["termination"] == str(game.outcome.termination)
    winner = game.outcome.winner
    assert view["outcome"]["winner"] == (
        None if winner is None else "you" if winner is YOU else "computer"
    )
    assert view["moves"] == [] and not view["provable"]


def test_the_view_never_shows_the_computers_hand() -> None:
    session = Session()
    view = ask(session, op="new", variant="tactical", seed=11)["view"]
    table = session.table
    assert table is not None
    theirs = {str(c) for c in table.game.hand(COMPUTER)}
    text = json.dumps(view)
    assert view["computer_hand"] == 7
    assert view["hand"] == [str(c) for c in table.game.hand(YOU)]
    assert not any(json.dumps(card) in text for card in theirs)


def test_every_offered_move_is_legal_and_every_legal_move_offered() -> None:
    session = Session()
    view = ask(session, op="new", variant="tactical", seed=5)["view"]
    table = session.table
    assert table is not None
    offered = [m["text"] for m in view["moves"]]
    assert offered == [str(m) for m in table.game.legal_moves()]


def test_undo_never_goes_back_past_a_drawn_card() -> None:
    rng = random.Random(8)
    for seed in range(6):
        table = TableGame(Variant.TACTICAL, seed)
        while table.game.outcome is None and len(table.game.history) < 400:
            point = table.undo_point()
            if point is not None:
                history = table.game.history
                assert all(not action.drawn for action in history[point:])
                assert history[point].player is YOU
                kept = [str(a.move) for a in history[:point]]
                copy = TableGame.from_record(table.record())
                assert copy.undo()
                assert [str(a.move) for a in copy.game.history] == kept
                assert copy.game.to_move is YOU
            if table.game.to_move is COMPUTER:
                table.computer_move()
            else:
                table.play(rng.choice(table.game.legal_moves()))


def test_undo_right_after_your_draw_is_refused() -> None:
    session = Session()
    view = ask(session, op="new", variant="base", seed=3)["view"]
    for _ in range(2):  # a card played, no claim
        view = ask(
            session,
            op="move",
            move=your_move(view, random.Random(0)) if view["phase"] == "play" else "claim none",
        )["view"]
    assert view["phase"] == "draw" and view["can_undo"]
    view = ask(session, op="move", move="draw clan")["view"]
    assert view["to_move"] == "computer"
    assert not view["can_undo"]
    assert ask(session, op="undo") == {"ok": False, "error": "nothing-to-undo", "detail": ""}


def test_a_refused_claim_names_its_witness_and_moves_nothing() -> None:
    # Three 1s on your side against two 3s with a 3 still hidden: the FAQ's example.
    session = Session()
    ask(session, op="new", variant="base", seed=1)
    table = session.table
    assert table is not None
    game = table.game
    found = None
    rng = random.Random(1)
    while game.outcome is None and found is None:
        if game.to_move is YOU:
            for stone in range(1, 10):
                verdict = judge_stone(game.board, YOU, stone)
                if verdict.reason is Reason.OPPONENT_CAN_BEAT:
                    found = stone
            if found is None:
                table.play(rng.choice(game.legal_moves()))
        else:
            table.computer_move()
    assert found is not None
    before = len(game.history)
    verdict = ask(session, op="judge", stone=found)["verdict"]
    assert verdict["granted"] is False and verdict["reason"] == "opponent-can-beat"
    expected = judge_stone(game.board, YOU, found).witness
    assert expected is not None
    assert verdict["witness"]["cards"] == [str(c) for c in expected.cards]
    assert len(game.history) == before


def test_claims_keep_their_verdicts_in_the_log() -> None:
    for seed in range(4):
        session = Session()
        ask(session, op="new", variant="base", seed=seed)
        play_out(session, random.Random(seed))
        log = ask(session, op="view")["log"]
        claims = [e for e in log if e["move"]["kind"] == "claim" and e["move"]["stones"]]
        assert claims
        for event in claims:
            assert [v["stone"] for v in event["verdicts"]] == event["move"]["stones"]
            assert all(v["granted"] for v in event["verdicts"])
            assert {v["reason"] for v in event["verdicts"]} <= {
                "stronger",
                "unbeatable",
                "tie-completed-first",
            }


def test_the_computer_draws_unseen_and_you_see_your_cards() -> None:
    session = Session()
    ask(session, op="new", variant="base", seed=2)
    play_out(session, random.Random(2))
    draws = [e for e in ask(session, op="view")["log"] if e["move"]["kind"] == "draw"]
    assert {type(e["drawn"]) for e in draws if e["player"] == "computer"} == {int}
    assert {type(e["drawn"]) for e in draws if e["player"] == "you"} == {list}


def test_a_game_kept_and_loaded_again_is_the_same(tmp_path: Path) -> None:
    session = Session()
    ask(session, op="new", variant="tactical", seed=9)
    rng = random.Random(9)
    view = ask(session, op="view")["view"]
    for _ in range(40):
        if view["outcome"] is not None:
            break
        op = (
            {"op": "computer"}
            if view["to_move"] == "computer"
            else {"op": "move", "move": your_move(view, rng)}
        )
        view = ask(session, **op)["view"]
    record = ask(session, op="record")["record"]
    again = Session()
    loaded = ask(again, op="load", record=record)
    assert loaded["view"] == view
    assert loaded["log"] == ask(session, op="view")["log"]


def test_record_replays_through_the_command_line(tmp_path: Path) -> None:
    session = Session()
    ask(session, op="new", variant="tactical", seed=21)
    play_out(session, random.Random(21))
    path = tmp_path / "game.json"
    path.write_text(ask(session, op="record")["record"], encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "schotten", "replay", str(path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    game = Record.loads(path.read_text(encoding="utf-8")).replay()
    assert f"game over: {game.outcome}" in run.stdout


@pytest.mark.parametrize(
    ("request_", "error"),
    [
        ({"op": "move", "move": "pass"}, "no-game"),
        ({"op": "new", "variant": "expert", "seed": 1}, "bad-request"),
        ({"op": "new", "variant": "base", "seed": -1}, "bad-request"),
        ({"op": "new", "variant": "base", "seed": True}, "bad-request"),
        ({"op": "load", "record": "{"}, "refused"),
        (
            {"op": "load", "record": json.dumps({"variant": "base", "seed": 1, "moves": ["pass"]})},
            "refused",
        ),
        ([], "bad-request"),
    ],
)
def test_bad_requests_are_answered(request_: Any, error: str) -> None:
    answer = json.loads(Session().handle(json.dumps(request_)))
    assert answer["ok"] is False and answer["error"] == error


def test_text_that_is_no_request_is_answered() -> None:
    session = Session()
    for text in ("", "[" * 100_000, "x" * (5 * 1024 * 1024)):
        assert json.loads(session.handle(text))["error"] == "bad-request"


def test_an_illegal_move_is_refused_and_changes_nothing() -> None:
    session = Session()
    view = ask(session, op="new", variant="base", seed=1)["view"]
    answer = ask(session, op="move", move="claim 5")
    assert answer["ok"] is False and answer["error"] == "refused"
    assert ask(session, op="view")["view"] == view
    assert ask(session, op="computer")["error"] == "not-computer-turn"


def test_the_computer_move_is_the_bots_on_a_copy() -> None:
    table = TableGame(Variant.BASE, 6)
    for move in ("play " + str(table.game.hand(YOU)[0]) + " at 1", "claim none", "draw clan"):
        table.play(Move.parse(move))
    before = table.game.to_dict()
    copy = Game.from_dict(before)
    event = table.computer_move()
    assert event.player is COMPUTER
    assert copy.can_move(event.move)
    assert table.game.history[-1].player is Player.SECOND
