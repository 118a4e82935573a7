"""The protocol as this engine answers it (``schotten conformance serve``): every request type,
and a clean error answer for anything malformed, never a crash."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from strength import examples

from schotten.board import Board, Player, Variant
from schotten.cards import parse_card
from schotten.conformance.protocol import handle, handle_line
from schotten.conformance.wire import KINDS, PROTOCOL, board_data, game_data
from schotten.game import Game
from schotten.records import play_random


def deal(variant: Variant = Variant.BASE, seed: int = 1) -> dict[str, Any]:
    return game_data(Game(variant, seed=seed))


def test_hello_names_the_protocol_and_refuses_another_version() -> None:
    assert handle({"type": "hello", "id": 8, "protocol": PROTOCOL}) == {
        "id": 8,
        "protocol": PROTOCOL,
        "engine": "schotten (reference)",
        "supports": {"variants": ["base", "tactical"], "kinds": list(KINDS), "claim_step": True},
    }
    answer = handle({"type": "hello", "protocol": "schotten-conformance/0"})
    assert answer["error"] == "unsupported-protocol"


def hand_is_not_proof() -> Board:
    """Your three 1s against their two 3s; one 3 unseen."""
    board = Board.empty(Variant.BASE)
    moves = [(Player.FIRST, "red 1"), (Player.FIRST, "green 1"), (Player.FIRST, "blue 1")]
    moves += [(Player.SECOND, "red 3"), (Player.SECOND, "green 3")]
    for step, (player, text) in enumerate(moves):
        board = board.place(player, 4, parse_card(text), at=step)
    return board


def test_claim_answers_each_stone_with_reason_and_formations() -> None:
    board = hand_is_not_proof()
    request = {"type": "claim", "position": board_data(board, sparse=True)}
    answer = handle({**request, "claimer": "first", "stones": [4, 5]})
    assert answer == {
        "stones": [
            {
                "stone": 4,
                "verdict": "refused",
                "reason": "opponent-can-beat",
                "theirs": "same-value 9",
                "witness": "same-value 9",
            },
            {
                "stone": 5,
                "verdict": "refused",
                "reason": "side-incomplete",
                "theirs": None,
                "witness": None,
            },
        ]
    }


def test_the_claimers_hand_in_the_position_is_never_proof() -> None:
    board = hand_is_not_proof()
    position = board_data(board)
    with_hand = {**position, "hands": {"first": ["orange 3"], "second": []}}
    ask = {"type": "claim", "claimer": "first", "stones": [4]}
    assert handle({**ask, "position": with_hand}) == handle({**ask, "position": position})


def test_formation_elite_troops_and_totals_only() -> None:
    assert handle({"type": "formation", "cards": ["red 9", "joker", "red 7"]}) == {
        "formation": "colour-run 24"
    }
    cards = ["red 1", "red 2", "red 3", "spy"]
    assert handle({"type": "formation", "cards": cards, "totals_only": True}) == {
        "formation": "total 13"
    }
    assert handle({"type": "formation", "cards": ["red 8", "red 9", "red 1"]}) == {
        "formation": "colour 18"
    }


def test_legal_apply_and_perft_on_a_deal() -> None:
    position = deal()
    moves = handle({"type": "legal", "position": position})["moves"]
    assert len(moves) == 54 and moves[0] == "play red 3 at 1"
    applied = handle({"type": "apply", "position": position, "move": moves[0]})
    assert applied["ok"] is True and applied["points"] is None
    assert applied["position"]["phase"] == "claim"
    refused = handle({"type": "apply", "position": applied["position"], "move": "pass"})
    assert refused == {"ok": False, "rule": "turn-order"}
    assert handle({"type": "perft", "position": position, "depth": 2}) == {"nodes": 54}
    split = handle({"type": "perft", "position": position, "depth": 1, "divide": True})
    assert split["nodes"] == 54 and set(split["divide"]) == set(moves)


def test_apply_ending_the_game_gives_the_points() -> None:
    game = play_random(2, Variant.BASE)
    replay = Game(Variant.BASE, seed=2)
    for action in game.history[:-1]:
        replay.apply(action.move)
    answer = handle(
        {"type": "apply", "position": game_data(replay), "move": str(game.history[-1].move)}
    )
    assert answer["ok"] is True
    assert answer["position"]["outcome"] is not None
    assert sum(answer["points"].values()) >= 5


def test_malformed_requests_are_answered_with_an_error_code() -> None:
    position = deal()
    cases = [
        ("[1, 2]", "bad-request"),
        ('{"type": "dance"}', "bad-request"),
        ("not json", "bad-request"),
        ('{"type": "claim", "position": {}, "claimer": "first", "stones": [1]}', "bad-position"),
        (json.dumps({"type": "legal", "position": {**position, "phase": "lunch"}}), "bad-position"),
        (json.dumps({"type": "apply", "position": position, "move": "dance"}), "bad-move"),
        (json.dumps({"type": "perft", "position": position, "depth": 99}), "bad-request"),
        (json.dumps({"type": "formation", "cards": ["red 1", "red 2", "traitor"]}), "bad-request"),
        (json.dumps({"type": "formation", "cards": ["red 1", "pink 2", "red 3"]}), "bad-request"),
    ]
    for line, code in cases:
        assert json.loads(handle_line(line))["error"] == code, line


def test_a_deeply_nested_line_is_a_bad_request_not_a_crash() -> None:
    answer = json.loads(handle_line("[" * 100_000 + "]" * 100_000))
    assert answer["error"] == "bad-request" and "nested deeper" in answer["message"]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


@settings(max_examples=examples(100), deadline=None)
@given(
    kind=st.sampled_from(["claim", "formation", "legal", "apply", "perft", "hello", "outcome"]),
    extra=st.dictionaries(
        st.sampled_from(
            ["position", "claimer", "stones", "cards", "move", "depth", "divide", "actions"]
        ),
        json_values,
    ),
)
def test_any_request_gets_an_answer_not_a_crash(kind: str, extra: dict[str, Any]) -> None:
    answer = json.loads(handle_line(json.dumps({"type": kind, **extra})))
    assert isinstance(answer, dict)
    assert answer.get("error") != "internal-error", answer


def test_serve_over_pipes_answers_line_by_line() -> None:
    requests = [
        {"type": "hello", "id": 1, "protocol": PROTOCOL},
        {"type": "formation", "id": 2, "cards": ["red 1", "green 1", "blue 1"]},
        {"type": "frobnicate", "id": 3},
    ]
    text = "".join(json.dumps(r) + "\n" for r in requests)
    done = subprocess.run(
        [sys.executable, "-m", "schotten", "conformance", "serve"],
        input=text,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a["id"] for a in answers] == [1, 2, 3]
    assert answers[1]["formation"] == "same-value 3"
    assert answers[2]["error"] == "bad-request"
    assert done.stderr == ""


def test_the_worked_exchange_of_the_suites_readme_is_what_serve_answers() -> None:
    readme = (Path(__file__).resolve().parents[1] / "conformance" / "README.md").read_text()
    block = readme.split("```text\n", 1)[1].split("```", 1)[0]
    game = Game(Variant.BASE, seed=1)
    game.apply("play red 3 at 5")
    position = json.dumps(game_data(game), separators=(",", ":"))
    lines = [line for line in block.splitlines() if line.strip()]
    pairs = list(zip(lines[::2], lines[1::2], strict=True))
    assert len(pairs) == 8
    checked = 0
    for asked, answered in pairs:
        assert asked.startswith("→ ") and answered.startswith("← ")
        request = json.loads(asked[2:].replace('"position":P', f'"position":{position}'))
        answer = json.loads(handle_line(json.dumps(request)))
        if "..." in answered:
            shown = answered[2:].split("...")[0]
            assert json.dumps(answer, separators=(",", ":"), ensure_ascii=False).startswith(
                shown.rstrip(",")
            )
        else:
            assert answer == json.loads(answered[2:]), asked
            checked += 1
    assert checked == 7
