"""The divide of a claim: for a claim an engine answers otherwise, the report names what each
engine saw (the claimer's formation, the opponent's best completion, the witness) and the card
where they part, found by asking the engine again with the completion's cards on the table."""

from __future__ import annotations

import json
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from committed_suite import committed

from schotten.cli import EXIT_FAILED, main
from schotten.conformance.capabilities import Capabilities
from schotten.conformance.client import LocalEngine
from schotten.conformance.divide import chosen, divide_claim
from schotten.conformance.runner import run

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "conformance"
ENGINES = Path(__file__).parent / "conformance_engines"


def engine(name: str) -> str:
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(ENGINES / f'{name}.py'))}"


def claim_vector(ident: str) -> dict[str, Any]:
    (vector,) = [v for v in committed("claims") if v["id"] == ident]
    return vector


@pytest.fixture(autouse=True)
def _no_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)


def json_run(
    capsys: pytest.CaptureFixture[str], name: str, ident: str
) -> tuple[int, dict[str, Any]]:
    status = main(
        [
            "conformance",
            "run",
            "--suite",
            str(SUITE),
            "--engine",
            engine(name),
            "--kind",
            "claims",
            "--vector",
            ident,
            "--json",
        ]
    )
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    (found,) = [line for line in lines if line.get("vector") == ident]
    return status, found


def test_a_missed_completion_card_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    # Same value is thought out of reach when exactly the cards needed are unseen: with one of
    # the two fives on the table, the engine still misses the other; with both, it agrees.
    ident = "case:four-of-a-kind-with-exactly-two-fives-unseen"
    status, found = json_run(capsys, "cards_left_off_by_one", ident)
    assert status == EXIT_FAILED
    divide = found["divide"]
    assert divide["stone"] == 6
    assert divide["opponent"] == {
        "cards": ["red 5", "green 5"],
        "completion": ["blue 5", "purple 5"],
        "best": "same-value 20",
        "engine": "sum 28",
    }
    assert divide["witness"] == {
        "cards": ["blue 5", "purple 5"],
        "formation": "same-value 20",
        "engine": None,
    }
    assert divide["claimer"] == {
        "cards": ["yellow 1", "yellow 3", "yellow 6", "yellow 8"],
        "formation": "colour 18",
        "engine": "colour 18",
    }
    assert divide["parted"].startswith("at purple 5: with blue 5 put on the opponent's side")


def test_the_text_report_shows_the_divide_of_the_smallest_example(
    capsys: pytest.CaptureFixture[str],
) -> None:
    ident = "case:mud-fight-three-cards-against-you"
    status = main(
        [
            "conformance",
            "run",
            "--suite",
            str(SUITE),
            "--engine",
            engine("greedy_colour"),
            "--kind",
            "claims",
            "--vector",
            ident,
            "--vector",
            "case:colour-beats-run",
        ]
    )
    out = capsys.readouterr().out
    assert status == EXIT_FAILED
    assert "  divide, stone 5:\n" in out
    assert (
        "    opponent's side blue 7, blue 8, blue 9 + spy: best colour 31 (engine: colour 25)"
        in out
    )
    # The greedy search never counts the elite troop: the engine agrees once it is played.
    assert "    they part: at spy: on the vector, the reference completes" in out


class _MisreadsColourRuns:
    """This engine, except that a colour run is read as a mere run: in formations, and so in
    claims, where a colour run of 6 loses to a run of 15."""

    name = "misreads colour runs"

    def __init__(self) -> None:
        self.inner = LocalEngine()
        self.asked: list[str] = []

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        self.asked.append(request["type"])
        answer = self.inner.ask(request)
        if request["type"] == "formation":
            answer["formation"] = answer["formation"].replace("colour-run ", "run ")
        for verdict in answer.get("stones", []):
            if verdict["reason"] == "stronger":
                verdict.update(verdict="refused", reason="weaker")
        return answer

    def close(self) -> None:
        pass


def test_a_claimer_side_read_otherwise_is_where_they_part() -> None:
    vector = {
        "id": "x",
        "pins": "-",
        "position": {
            "variant": "base",
            "stones": [
                {
                    "number": 1,
                    "first": ["red 1", "red 2", "red 3"],
                    "second": ["blue 4", "green 5", "red 6"],
                    "completed_at": {"first": 1, "second": 2},
                },
            ],
            "discard": {"first": [], "second": []},
        },
        "claimer": "first",
        "stones": [1],
    }
    request = {"type": "claim", **{k: vector[k] for k in ("position", "claimer", "stones")}}
    vector["expect"] = LocalEngine().ask(request)["stones"]
    fake = _MisreadsColourRuns()
    answer = fake.ask(
        {"type": "claim", **{k: vector[k] for k in ("position", "claimer", "stones")}}
    )
    made = divide_claim(vector, answer, fake, Capabilities())
    assert made is not None
    assert made.claimer_formation == "colour-run 6"
    assert made.engine_claimer_formation == "run 6"
    assert made.parted == (
        "on the claimer's complete side red 1, red 2, red 3: colour-run 6 here, "
        "run 6 for the engine"
    )
    # An engine that does not declare formations is not asked one.
    fake.asked.clear()
    claims_only = Capabilities(kinds=frozenset({"claims"}))
    made = divide_claim(vector, answer, fake, claims_only)
    assert made is not None and made.engine_claimer_formation is None
    assert "formation" not in fake.asked


def test_an_engine_that_agrees_has_no_divide() -> None:
    vectors = [claim_vector("case:colour-beats-run"), *committed("claims")[:30]]
    report = run(LocalEngine(), [("claims", vectors)])
    assert report.ok and report.divides == {}


def test_each_groups_smallest_example_is_taken_apart_first() -> None:
    @dataclass(frozen=True)
    class Seen:
        kind: str
        status: str
        signature: str
        size: int
        vector: str

    many = [Seen("claims", "disagree", "a", 10 + n, f"a{n}") for n in range(30)]
    rare = Seen("claims", "disagree", "b", 500, "b0")
    other = Seen("formations", "disagree", "c", 1, "c0")
    picked = chosen([*many, rare, other], limit=5)
    assert [p.vector for p in picked] == ["a0", "b0", "a1", "a2", "a3"]


def test_a_tie_given_to_the_claimer_is_divided_on_the_completion_order(
    capsys: pytest.CaptureFixture[str],
) -> None:
    ident = "case:equal-sums-opponent-completed-first"
    status, found = json_run(capsys, "ties_to_claimer", ident)
    assert status == EXIT_FAILED
    divide = found["divide"]
    # Both sides complete: no completion to walk; the formations agree, the order decides.
    assert divide["opponent"]["completion"] == []
    assert divide["claimer"]["formation"] == divide["claimer"]["engine"]
    assert divide["parted"].startswith("on the tie: both sides are ")
    assert "the opponent's was completed first and wins it" in divide["parted"]
