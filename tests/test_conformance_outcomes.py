"""The outcome kind: placements and claims from a table, checked on who holds each stone and
whether and why the game ended. The reference engine passes it; an engine that ends the game on
any stone taken, and one that hands a stone to the stronger side whoever claims it, both fail."""

from __future__ import annotations

import json
import shlex
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strength import examples

from schotten.board import Board, Variant
from schotten.claims import Reason, judge_stone
from schotten.conformance.capabilities import Capabilities
from schotten.conformance.client import LocalEngine, ProcessEngine, handshake
from schotten.conformance.outcomes import (
    ActionError,
    Placement,
    claim,
    place,
    play_out,
    read_actions,
    result_data,
)
from schotten.conformance.outcomes_gen import outcome_vector
from schotten.conformance.protocol import handle
from schotten.conformance.runner import RunReport, run
from schotten.position_data import board_from_data

ENGINES = Path(__file__).parent / "conformance_engines"
SAMPLE = 40  # generated vectors of each variant, from the start of the kind


def engine(name: str) -> str:
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(ENGINES / f'{name}.py'))}"


@pytest.fixture(scope="module")
def vectors() -> list[dict[str, Any]]:
    return [outcome_vector(v, i) for v in Variant for i in range(SAMPLE)]


def through(name: str, vectors: list[dict[str, Any]]) -> RunReport:
    process = ProcessEngine(engine(name), 60)
    try:
        _, declared = handshake(process, 60)
        return run(process, [("outcomes", vectors)], capabilities=declared)
    finally:
        process.close()


def play(*actions: dict[str, Any], board: Board | None = None) -> dict[str, Any]:
    start = board if board is not None else Board.empty(Variant.BASE)
    return result_data(play_out(start, read_actions(list(actions))))


def side(player: str, stone: int, *cards: str) -> list[dict[str, Any]]:
    return [{"player": player, "play": card, "stone": stone} for card in cards]


def test_a_weaker_sides_claim_is_refused_and_the_stronger_takes_the_stone() -> None:
    both = [*side("first", 1, "red 9", "red 8", "red 7"), *side("second", 1, "red 1", "blue 5")]
    both += side("second", 1, "green 3")
    refused = play(*both, {"player": "second", "claim": 1})
    assert refused == {"stones": [None] * 9, "outcome": None, "played": 7}
    taken = play(*both, {"player": "second", "claim": 1}, {"player": "first", "claim": 1})
    assert taken["stones"][0] == "first" and taken["outcome"] is None


def test_three_adjacent_stones_end_the_game_and_later_actions_are_not_played() -> None:
    actions: list[dict[str, Any]] = []
    for stone, colour in ((4, "red"), (5, "blue"), (6, "green")):
        actions += side("first", stone, f"{colour} 9", f"{colour} 8", f"{colour} 7")
        actions += side("second", stone, f"{colour} 1", f"{colour} 2", f"{colour} 4")
        actions.append({"player": "first", "claim": stone})
    actions.append({"player": "second", "play": "yellow 1", "stone": 1})
    answer = play(*actions)
    assert answer["outcome"] == {"winner": "first", "termination": "three-adjacent"}
    assert answer["played"] == len(actions) - 1
    assert answer["stones"][3:6] == ["first"] * 3


@pytest.mark.parametrize(
    ("actions", "problem"),
    [
        ("nothing", "actions: a list"),
        ([{"player": "third", "claim": 1}], "actions[0].player"),
        ([{"player": "first", "claim": 10}], "actions[0].claim: a stone from 1 to 9"),
        ([{"player": "first", "play": "traitor", "stone": 1}], "a Clan card or an elite troop"),
        ([{"player": "first", "play": "red 9", "stone": 1, "claim": 1}], "either 'claim'"),
        (side("first", 1, "red 9", "red 8", "red 7", "red 6"), "side of stone 1 is full"),
        ([*side("first", 1, "red 9"), *side("second", 2, "red 9")], "red 9 cannot be put there"),
    ],
)
def test_an_action_that_cannot_be_made_is_a_bad_request(actions: Any, problem: str) -> None:
    request = {
        "type": "outcome",
        "id": 4,
        "position": {"variant": "base", "stones": [], "discard": {"first": [], "second": []}},
        "actions": actions,
    }
    answer = handle(json.loads(json.dumps(request)))
    assert answer["id"] == 4 and answer["error"] == "bad-request"
    assert problem in answer["message"]
    with pytest.raises(ActionError):
        play_out(Board.empty(Variant.BASE), read_actions(actions))


def test_the_vectors_end_some_games_and_leave_others_going(
    vectors: list[dict[str, Any]],
) -> None:
    endings = Counter(
        v["expect"]["outcome"]["termination"] if v["expect"]["outcome"] else "goes on"
        for v in vectors
    )
    assert set(endings) == {"goes on", "three-adjacent", "five-stones"}
    assert all(v["expect"]["played"] == len(v["actions"]) for v in vectors)
    # Claims by the weaker side of a stone both sides completed, and stones taken that leave
    # the game going on: what the two classic bugs of this kind need.
    weaker, taken_going_on = Counter[str](), 0
    for vector in vectors:
        board = board_from_data(vector["position"])
        actions = read_actions(vector["actions"])
        for index, action in enumerate(actions):
            if isinstance(action, Placement):
                board = place(board, action, index)
                continue
            reason = judge_stone(board, action.player, action.stone).reason
            weaker[board.variant] += reason in (Reason.WEAKER, Reason.TIE_COMPLETED_LATER)
            board, taken = claim(board, action)
            taken_going_on += taken and index < len(actions) - 1
    assert min(weaker[v] for v in Variant) >= SAMPLE
    assert taken_going_on >= SAMPLE


def test_the_reference_engine_passes_the_outcome_kind(vectors: list[dict[str, Any]]) -> None:
    report = run(LocalEngine(), [("outcomes", vectors)])
    assert report.ok and report.tallies[0].agreed == len(vectors)
    # And through the protocol, as a process, declaring the kind in its hello.
    assert (
        "outcomes"
        in handle({"type": "hello", "protocol": "schotten-conformance/1"})["supports"]["kinds"]
    )


def test_an_engine_that_ends_the_game_on_any_claim_fails(vectors: list[dict[str, Any]]) -> None:
    report = through("ends_on_any_claim", vectors)
    assert report.complete and not report.ok
    signatures = {o.signature for o in report.outcomes}
    assert "outcomes: the game ended too soon" in signatures
    assert len(report.outcomes) > len(vectors) // 2


def test_an_engine_that_gives_the_stone_to_the_stronger_side_fails(
    vectors: list[dict[str, Any]],
) -> None:
    report = through("stronger_takes_the_stone", vectors)
    assert report.complete and not report.ok
    first = report.outcomes[0].findings
    texts = [f.text for o in report.outcomes for f in o.findings]
    assert any("held by nobody, the engine says" in t for t in texts), first


def test_an_engine_that_does_not_list_the_kind_is_not_asked_it(
    vectors: list[dict[str, Any]],
) -> None:
    claims_only = Capabilities.from_hello({"supports": {"kinds": ["claims"]}})
    report = run(LocalEngine(), [("outcomes", vectors)], capabilities=claims_only)
    assert report.tallies[0].not_claimed == len(vectors)
    assert claims_only.covers("outcomes", vectors[0]) is False
    assert Capabilities().covers("outcomes", vectors[0])


_ACTION = st.fixed_dictionaries(
    {"player": st.sampled_from(["first", "second", "third", 1])},
    optional={
        "play": st.sampled_from(["red 9", "red 8", "blue 9", "joker", "spy", "traitor", "x", 3]),
        "stone": st.integers(0, 10),
        "claim": st.one_of(st.integers(0, 10), st.booleans(), st.none()),
    },
)


@settings(max_examples=examples(200), deadline=None)
@given(actions=st.lists(_ACTION, max_size=12), variant=st.sampled_from(["base", "tactical"]))
def test_any_actions_get_an_answer_or_a_bad_request(
    actions: list[dict[str, Any]], variant: str
) -> None:
    table = {"variant": variant, "stones": [], "discard": {"first": [], "second": []}}
    answer = handle({"type": "outcome", "position": table, "actions": actions})
    assert answer.get("error") in (None, "bad-request"), answer
    if "error" not in answer:
        assert len(answer["stones"]) == 9 and 0 <= answer["played"] <= len(actions)
