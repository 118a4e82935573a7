"""The claim checker's entry point (schotten.checker), its form and its run-time files.

Verdicts must be the engine's own: every answer is compared with ``judge_stone`` on the same
position, including the stones claimed in the casebook."""

from __future__ import annotations

import functools
import json
import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from schotten.board import Board, Player, Variant
from schotten.cards import parse_card
from schotten.casebook import Case
from schotten.casebook.folder import load_cases
from schotten.checker import (
    STONE,
    check,
    check_position,
    fragment_of,
    position_of,
    read_position,
)
from schotten.claims import judge_stone
from schotten.site import labels, runtime, widgets
from schotten.site.words import format_megabytes

CASES = Path(__file__).resolve().parents[1] / "cases"


def engine_answer(board: Board, number: int) -> dict[str, Any]:
    """What the checker must say, from the engine directly."""
    verdict = judge_stone(board, Player.FIRST, number)
    witness = verdict.witness
    return {
        "granted": verdict.granted,
        "reason": str(verdict.reason),
        "mine": None if verdict.mine is None else verdict.mine.total,
        "theirs": None if verdict.theirs is None else verdict.theirs.total,
        "witness": None if witness is None else [str(c) for c in witness.cards],
    }


def checker_answer(position: dict[str, Any]) -> dict[str, Any]:
    answer = json.loads(check(json.dumps(position)))
    assert answer["ok"], answer
    return {
        "granted": answer["granted"],
        "reason": answer["reason"],
        "mine": answer["mine"] and answer["mine"]["total"],
        "theirs": answer["theirs"] and answer["theirs"]["total"],
        "witness": answer["witness"] and answer["witness"]["cards"],
    }


@functools.cache
def cases() -> dict[str, Case]:
    return {case.id: case for case in load_cases(CASES)}


def single_stone_claims() -> list[tuple[str, int]]:
    return [
        (case.id, n)
        for case in cases().values()
        for n in case.claim
        if case.board.stone(n).claimed_by is None
    ]


CASE_CLAIMS = single_stone_claims()


@pytest.mark.parametrize(("case_id", "stone"), CASE_CLAIMS)
def test_checker_verdicts_equal_the_engine_on_the_casebook(case_id: str, stone: int) -> None:
    case = cases()[case_id]
    position = position_of(case.board, stone)
    assert checker_answer(position) == engine_answer(case.board, stone)
    # The position the checker rebuilds gives the same verdict as the case's own board.
    rebuilt = read_position(position).board()
    assert engine_answer(rebuilt, STONE) == engine_answer(case.board, stone)


def test_the_casebook_gives_the_checker_positions_to_check() -> None:
    assert len(CASE_CLAIMS) >= 10


def test_claim_proof_hand_is_not_proof() -> None:
    answer = json.loads(
        check(
            json.dumps(
                {
                    "mine": ["red 1", "green 1", "blue 1"],
                    "theirs": ["red 3", "green 3"],
                    "elsewhere": {"mine": ["blue 3", "purple 3"], "theirs": ["yellow 3"]},
                }
            )
        )
    )
    assert answer == {
        "ok": True,
        "granted": False,
        "reason": "opponent-can-beat",
        "rule": "claim-proof",
        "mine": {"kind": "same-value", "total": 3},
        "theirs": {"kind": "same-value", "total": 9},
        "theirs_complete": False,
        "mine_side": [["red 1", None], ["green 1", None], ["blue 1", None]],
        "theirs_side": [["red 3", None], ["green 3", None]],
        "witness": {
            "cards": ["orange 3"],
            "side": ["red 3", "green 3", "orange 3"],
            "side_as": [["red 3", None], ["green 3", None], ["orange 3", None]],
            "formation": {"kind": "same-value", "total": 9},
        },
    }


def test_an_elite_troop_in_the_answer_comes_with_the_card_it_becomes() -> None:
    answer = check_position(
        {
            "variant": "tactical",
            "mine": ["yellow 1", "yellow 2", "yellow 3"],
            "theirs": ["joker", "red 9", "red 8"],
        }
    )
    assert answer["theirs_side"] == [["joker", "red 7"], ["red 9", None], ["red 8", None]]
    answer = check_position(
        {"variant": "tactical", "mine": ["spy", "red 6"], "theirs": ["blue 1", "red 8", "red 9"]}
    )
    assert answer["mine_side"] == [["spy", None], ["red 6", None]]  # incomplete: as placed


def test_claim_proof_every_card_that_could_beat_you_is_seen() -> None:
    answer = check_position(
        {
            "mine": ["red 1", "green 1", "blue 1"],
            "theirs": ["red 3", "green 3"],
            "elsewhere": {"mine": ["blue 3", "purple 3"], "theirs": ["yellow 3", "orange 3"]},
        }
    )
    assert answer["granted"] is True and answer["reason"] == "unbeatable"
    assert answer["theirs"] == {"kind": "sum", "total": 15}  # red 3, green 3 and a 9 at best


@pytest.mark.parametrize(
    ("first", "reason"), [("you", "tie-completed-first"), ("opponent", "tie-completed-later")]
)
def test_completed_first_decides_equal_formations(first: str, reason: str) -> None:
    answer = check_position(
        {
            "mine": ["red 4", "green 5", "blue 9"],
            "theirs": ["yellow 4", "orange 5", "purple 9"],
            "completed_first": first,
        }
    )
    assert answer["reason"] == reason
    assert answer["theirs_complete"] is True


def test_mud_fight_four_of_a_kind_has_its_own_formation_key() -> None:
    answer = check_position(
        {
            "variant": "tactical",
            "mine": ["red 5", "green 5", "blue 5", "purple 5"],
            "theirs": [],
            "mud_fight": True,
        }
    )
    assert answer["mine"] == {"kind": "same-value-4", "total": 20}
    assert answer["mine"]["kind"] in labels("fr")["formations"]


def test_mud_fight_side_of_three_is_incomplete() -> None:
    answer = check_position(
        {"variant": "tactical", "mine": ["red 9", "red 8", "red 7"], "mud_fight": True}
    )
    assert answer["reason"] == "side-incomplete" and answer["granted"] is False


def test_blind_mans_bluff_counts_totals_only() -> None:
    answer = check_position(
        {
            "variant": "tactical",
            "mine": ["red 9", "blue 9", "yellow 8"],
            "theirs": ["green 1", "green 2", "green 3"],
            "blind_mans_bluff": True,
        }
    )
    assert answer["reason"] == "stronger"
    assert answer["mine"] == {"kind": "total", "total": 26}


def test_claim_wild_pool_opponent_who_played_a_joker_gets_no_other() -> None:
    # Only a Joker standing for blue 7 could still give them a colour run 7-8-9.
    position = {
        "variant": "tactical",
        "mine": ["red 1", "red 2", "red 3"],
        "theirs": ["blue 9", "blue 8"],
        "elsewhere": {"mine": ["blue 7", "spy"], "theirs": []},
    }
    unseen = check_position(position)
    assert unseen["reason"] == "opponent-can-beat"
    assert unseen["witness"]["cards"] == ["joker"]
    assert unseen["witness"]["formation"] == {"kind": "colour-run", "total": 24}
    mine = check_position({**position, "elsewhere": {"mine": ["blue 7", "spy", "joker"]}})
    assert mine["reason"] == "opponent-can-beat"  # your Joker leaves the other one open
    theirs = check_position(
        {**position, "elsewhere": {"mine": ["blue 7", "spy"], "theirs": ["joker"]}}
    )
    assert theirs["reason"] == "unbeatable"


@pytest.mark.parametrize(
    ("position", "error"),
    [
        ({"mine": ["red 7", "red 7"]}, {"error": "card-twice", "cards": ["red 7"]}),
        ({"mine": ["red 7"], "theirs": ["red 7"]}, {"error": "card-twice", "cards": ["red 7"]}),
        (
            {
                "variant": "tactical",
                "mine": ["joker"],
                "theirs": ["joker"],
                "elsewhere": {"mine": ["joker"]},
            },
            {"error": "card-twice", "cards": ["joker"]},
        ),
        ({"mine": ["red 10"]}, {"error": "unknown-card", "cards": ["red 10"]}),
        ({"theirs": ["pink 3", "red 1"]}, {"error": "unknown-card", "cards": ["pink 3"]}),
        (
            {"mine": ["red 1", "red 2", "red 3", "red 4"]},
            {"error": "side-over-capacity", "zone": "mine", "count": 4, "capacity": 3},
        ),
        (
            {
                "variant": "tactical",
                "theirs": ["red 1", "red 2", "red 3", "red 4", "red 5"],
                "mud_fight": True,
            },
            {"error": "side-over-capacity", "zone": "theirs", "count": 5, "capacity": 4},
        ),
        ({"mine": ["joker"]}, {"error": "tactic-in-base-game", "cards": ["joker"]}),
        ({"mud_fight": True}, {"error": "tactic-in-base-game", "cards": ["mud-fight"]}),
        (
            {"variant": "tactical", "mine": ["traitor"]},
            {"error": "not-on-a-side", "cards": ["traitor"]},
        ),
        (
            {"variant": "tactical", "mine": ["joker"], "elsewhere": {"mine": ["joker"]}},
            {"error": "joker-once", "cards": ["joker"]},
        ),
    ],
)
def test_impossible_positions_answer_an_error_code(
    position: dict[str, Any], error: dict[str, Any]
) -> None:
    answer = json.loads(check(json.dumps(position)))
    assert answer == {"ok": False, **error}
    assert answer["error"] in labels("es")["checker"]["errors"]


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[]",
        json.dumps({"mine": "red 7"}),
        json.dumps({"mine": [7]}),
        json.dumps({"variant": "expert"}),
        json.dumps({"colour": "red"}),
        json.dumps({"mud_fight": "yes"}),
        json.dumps({"completed_first": "me"}),
        json.dumps({"elsewhere": ["red 1"]}),
        json.dumps({"elsewhere": {"deck": ["red 1"]}}),
    ],
)
def test_unreadable_positions_answer_bad_input(text: str) -> None:
    answer = json.loads(check(text))
    assert answer["ok"] is False and answer["error"] == "bad-input"
    assert answer["detail"]


def test_every_error_code_has_a_message_in_each_language() -> None:
    codes = {"bad-input", "unknown-card", "card-twice", "side-over-capacity", "not-on-a-side"}
    codes |= {"tactic-in-base-game", "joker-once"}
    for lang in ("fr", "es"):
        assert set(labels(lang)["checker"]["errors"]) == codes


def test_position_of_a_claimed_stone_is_refused() -> None:
    board = Board.empty(Variant.BASE)
    board = board.with_stone(replace(board.stone(3), claimed_by=Player.SECOND))
    with pytest.raises(ValueError, match="already claimed"):
        position_of(board, 3)
    assert position_of(board.place(Player.FIRST, 3 + 1, parse_card("red 1"), at=1), 4)["mine"] == [
        "red 1"
    ]


# The form and the run-time files.


def _form(lang: str) -> ET.Element:
    # ElementTree writes HTML void elements unclosed; close them to read the form back as XML.
    return ET.fromstring(re.sub(r"<input([^>]*)>", r"<input\1/>", widgets.claim_checker(lang)))


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_claim_checker_form_has_real_controls_and_page_labels(lang: str) -> None:
    root = _form(lang)
    names = labels(lang)
    data = json.loads(root.get("data-labels") or "")
    assert data["reasons"] == names["reasons"] and data["checker"] == names["checker"]
    open_button = root.find("button")
    assert open_button is not None and open_button.text == names["checker"]["open"]
    # Offered by checker.js once it listens: a click before that would be lost.
    assert open_button.get("disabled") == "disabled"
    cards = [b for b in root.iter("button") if b.get("data-card")]
    assert len(cards) == 54 + 3  # the Clan cards, then Joker, Spy, Shield Bearer
    first = cards[0]
    assert first.get("data-card") == "red 1"
    assert first.get("aria-label") == f"1 {names['colours']['red']}"  # as players say it
    assert first.get("type") == "button" and first.get("aria-pressed") == "false"
    radios = [i.get("value") for i in root.iter("input") if i.get("type") == "radio"]
    assert radios == ["mine", "theirs", "elsewhere-mine", "elsewhere-theirs"]
    live = [e for e in root.iter() if e.get("aria-live") == "polite"]
    assert len(live) == 3  # the loading status, what a shared link did, and the answer
    form = root.find("form")
    assert form is not None and form.get("hidden") == "hidden"
    script = root.find("script")
    assert script is not None and script.get("type") == "module"
    assert "assets/checker/checker.js" in (script.text or "")


# --- Hostile input: always an answer, never an exception (regressions) ----------------------


@pytest.mark.parametrize(
    ("text", "error", "detail"),
    [
        ("[" * 40_000 + "]" * 40_000, "bad-input", "nested deeper than"),
        ('{"mine": ' + "[" * 50 + "]" * 50 + "}", "bad-input", "nested deeper than"),
        ('{"mine": [], "mine": ["red 1"]}', "bad-input", 'the key "mine" is given twice'),
        ('{"mud_fight": ' + "1" * 5000 + "}", "bad-input", "a number of 5000 digits"),
        ('{"mud_fight": NaN}', "bad-input", "NaN is not a JSON number"),
        (" " * 200_000, "bad-input", "200000 characters"),
        ("{", "bad-input", "not JSON: line 1, column 2"),
    ],
)
def test_check_answers_malformed_json(text: str, error: str, detail: str) -> None:
    answer = json.loads(check(text))
    assert answer["ok"] is False and answer["error"] == error
    assert detail in answer["detail"]


@pytest.mark.parametrize("card", ["red ²", "red ⑦", "red ７", "red " + "1" * 5000, "red 07"])
def test_check_answers_non_ascii_or_long_values_as_unknown_cards(card: str) -> None:
    answer = json.loads(check(json.dumps({"mine": [card]})))
    assert answer == {"ok": False, "error": "unknown-card", "cards": [card]}


@pytest.mark.parametrize("value", [None, 3, b"\xff\xfe", ["{}"]])
def test_check_answers_what_is_not_text(value: Any) -> None:
    answer = json.loads(check(value))
    assert answer["ok"] is False and answer["error"] == "bad-input"


def test_fragment_writes_every_zone_and_option_of_a_position() -> None:
    position = {
        "variant": "tactical",
        "mine": ["red 9", "joker"],
        "theirs": ["purple 1", "spy", "shield-bearer"],
        "elsewhere": {"mine": ["yellow 3", "recruiter"], "theirs": ["orange 4", "green 5"]},
        "mud_fight": True,
        "blind_mans_bluff": True,
        "completed_first": "opponent",
    }
    assert fragment_of(position) == "check=tmco-r9J-p1SB-y3-o4g5"
    assert fragment_of({"mine": ["blue 2"]}) == "check=b-b2---"


def test_every_published_claim_case_has_a_checker_link_per_open_stone() -> None:
    for case in load_cases(CASES):
        for stone in case.claim:
            url = widgets.checker_url(case.board, stone)
            if case.board.stone(stone).claimed_by is not None:
                assert url is None
            else:
                assert url == "../rules/#" + fragment_of(position_of(case.board, stone))


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_the_closed_checker_says_what_it_downloads_and_offers_an_example(lang: str) -> None:
    root = _form(lang)
    words = labels(lang)["checker"]
    shipped = runtime.shipped(runtime.STATIC)
    assert root.get("data-version") == shipped.version
    said = [p.text for p in root.iter("p") if p.get("class") == "schotten-checker__download"]
    size = format_megabytes(shipped.first_open_bytes, lang)
    assert said == [words["download"].format(size=size)]
    assert size.endswith({"fr": "\u00a0Mo", "es": "\u00a0MB"}[lang])
    (example,) = (a for a in root.iter("a") if a.get("class", "").endswith("__example"))
    assert example.text == words["example"]
    assert example.get("href") == "#" + fragment_of(widgets.EXAMPLE)
    # Instructive: refused because a 3 is still hidden, which the answer shows.
    verdict = json.loads(check(json.dumps(widgets.EXAMPLE)))
    assert verdict["granted"] is False and verdict["witness"]["cards"] == ["orange 3"]
