"""The casebook library: strict loading, validation with located errors, replay, approve."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from schotten.board import Player, Variant
from schotten.cards import parse_card, parse_cards
from schotten.casebook import CaseFileError, Publication
from schotten.casebook.approve import approve
from schotten.casebook.build import load_case, parse_case
from schotten.casebook.folder import check_cases, load_cases
from schotten.casebook.loader import parse_yaml
from schotten.casebook.lock import entry_of, read_lock, write_lock
from schotten.casebook.run import run_case
from schotten.casebook.writer import expect_block
from schotten.claims import Reason
from schotten.moves import Move

DATA = Path(__file__).parent / "data" / "cases"
VALID, BROKEN, MISMATCH = DATA / "valid", DATA / "broken", DATA / "mismatch"


def errors_of(path: Path) -> list[str]:
    """What makes a case file invalid: found when it is read, or (a move naming the wrong player)
    when its play-on is played."""
    with pytest.raises(CaseFileError) as info:
        run_case(load_case(path))
    return [str(e) for e in info.value.errors]


# -- strict YAML -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("duplicate-key", ":9:5: stones.4.you: duplicate key 'you' (first defined on line 8)"),
        (
            "unknown-key",
            ":9:5: stones.4.colour: unknown key 'colour' (expected: blind-mans-bluff, claimed_by, "
            "completed_first, mud-fight, opponent, you)",
        ),
        (
            "yes-boolean",
            ":10:22: stones.4.completed_first: bare 'yes' means true or false to YAML 1.1",
        ),
        ("bad-card", ":8:27: stones.4.you[2]: expected a card: '<colour> <value>'"),
        (
            "card-twice",
            ":10:16: stones.5.opponent[0]: red 1 is already at stones.4.you[0] (line 8): "
            "the game has it once",
        ),
        ("side-over-capacity", ":8:10: stones.4.you: 4 cards on this side: a side holds 3"),
        (
            "missing-completed-first",
            ":7:3: stones.4: both sides are complete: say which was completed first",
        ),
        (
            "combat-mode-in-base",
            ":9:16: stones.4.mud-fight: mud-fight is a tactic card: the base game has none",
        ),
        ("hand-over-size", ":7:13: hands.opponent: 7 cards in hand: at most 6 in the base game"),
        ("bad-move", ":12:12: play_on.moves[0].you: 'claim everything' is not a move"),
        ("wrong-mover", ":14:17: play_on.moves[1].opponent: opponent is not to move"),
        ("not-yaml", ":2:4: a list [...] or {...} is not closed"),
        ("no-question", ":10:3: play_on: missing key 'question': a play-on states the move"),
        (
            "question-not-played",
            ":11:19: play_on.question.you: the question names no move of play_on.moves: "
            "'you: play red 1 at 4'",
        ),
        (
            "question-twice",
            ":11:19: play_on.question.you: 'you: pass' is written 2 times (moves 1 and 2): say "
            "which one the question is with its number, `question: {you: ..., move: 2}`",
        ),
    ],
)
def test_broken_case_names_file_line_column_and_key(name: str, expected: str) -> None:
    path = BROKEN / f"{name}.yaml"
    errors = errors_of(path)
    assert any(e.startswith(f"{path}{expected}") for e in errors), errors


def test_every_error_of_a_file_is_listed_at_once() -> None:
    path = BROKEN / "several-errors.yaml"
    located = [e.split(": ")[0].removeprefix(f"{path}:") for e in errors_of(path)]
    assert located == [
        "2:6",  # why: missing 'es'
        "4:21",  # an unknown rule id
        "8:27",  # red 10
        "9:22",  # bare 'on'
        "9:22",  # ... which is not a player either
        "10:3",  # stone 12
        "13:1",  # claim given twice
        "15:9",  # an unknown game state
    ]


def test_yaml11_booleans_stay_text_and_are_reported() -> None:
    doc = parse_yaml("a: [on, off, 'yes', true]\n", Path("x.yaml"))
    assert doc.data == {"a": ["on", "off", "yes", True]}
    assert [e.key_path for e in doc.errors] == [("a", 0), ("a", 1)]


def test_duplicate_key_keeps_the_first_value() -> None:
    doc = parse_yaml("a: 1\na: 2\n", Path("x.yaml"))
    assert doc.data == {"a": 1}
    assert [str(e) for e in doc.errors] == [
        "x.yaml:2:1: a: duplicate key 'a' (first defined on line 1)"
    ]


def test_unsafe_tags_are_refused() -> None:
    with pytest.raises(CaseFileError, match=r"tag !!python/object:os.system: case files use no"):
        parse_case("!!python/object:os.system {}\n", Path("x.yaml"))


# -- positions a schema cannot check -----------------------------------------------------------

HEAD = """\
situation: {fr: a, es: b}
why: {fr: c, es: d}
source: RULES.md
rule: [claim-proof]
"""


def problems(body: str) -> list[str]:
    with pytest.raises(CaseFileError) as info:
        parse_case(HEAD + body, Path("x.yaml"))
    return [e.message for e in info.value.errors]


def test_completed_first_only_when_both_sides_are_complete() -> None:
    body = "variant: base\nstones:\n  4: {you: [red 1], completed_first: you}\nclaim: [4]\n"
    assert problems(body) == ["completed_first is only for a stone where both sides are complete"]


def test_mud_fight_allows_four_cards_and_no_more() -> None:
    four = "you: [red 1, red 2, red 3, red 4], mud-fight: you, opponent: [blue 1, blue 2, blue 3]"
    four += "}\n  5: {opponent: [green 1]"  # turns alternate: four cards placed against five
    case = parse_case(
        HEAD + f"variant: tactical\nstones:\n  4: {{{four}}}\nclaim: [4]\n", Path("x")
    )
    assert case.board.stone(4).capacity == 4
    assert case.board.stone(4).is_complete(Player.FIRST)


def test_a_ruse_is_never_on_a_side() -> None:
    body = "variant: tactical\nstones:\n  4: {you: [traitor]}\nclaim: [4]\n"
    assert problems(body) == ["traitor is a ruse: it is never placed on a side"]


def test_the_joker_exists_twice_and_once_per_player() -> None:
    body = (
        "variant: tactical\nstones:\n  4: {you: [joker]}\n  5: {you: [joker]}\n"
        "discard: {opponent: [banshee]}\nclaim: [4]\n"
    )
    assert problems(body) == [
        "you has played two Jokers: one per player over the game (joker-once)"
    ]
    body = "variant: tactical\nstones:\n  4: {you: [joker], opponent: [joker]}\n"
    body += "hands: {you: [joker]}\n"
    assert problems(body + "claim: [4]\n") == [
        "joker is already at stones.4.you[0] (line 7): the game has it 2 times"
    ]


def test_tactic_count_lead_of_two_is_impossible() -> None:
    body = (
        "variant: tactical\nstones:\n  4: {you: [spy], mud-fight: you}\n"
        "discard: {you: [banshee]}\nclaim: [4]\n"
    )
    assert problems(body) == [
        "tactic cards played: you 3, opponent 0; a player may lead by one at most (tactic-count)"
    ]


def test_a_finished_game_is_not_a_position() -> None:
    claimed = "\n".join(f"  {n}: {{claimed_by: opponent}}" for n in (1, 2, 3))
    assert problems(f"variant: base\nstones:\n{claimed}\nclaim: [4]\n") == [
        "opponent already holds five stones or three adjacent ones: the game would be over "
        "(game-end)"
    ]


def test_a_claimed_stone_with_cards_has_its_takers_side_complete() -> None:
    body = "variant: base\nstones:\n  4: {claimed_by: you, you: [red 1]}\nclaim: [5]\n"
    assert problems(body) == ["you took this stone, so your side must be complete"]


def test_a_case_needs_a_claim_or_a_play_on() -> None:
    assert problems("variant: base\n") == ["a case needs `claim`, `play_on`, or both"]


def test_an_empty_claim_is_refused() -> None:
    assert problems("variant: base\nclaim: []\n") == ["at least 1 expected, got 0"]


def test_a_recorded_verdict_must_match_its_reason() -> None:
    body = (
        "variant: base\nclaim: [4]\nexpect:\n  stones:\n    4: {verdict: granted, reason: weaker}\n"
    )
    assert problems(body) == ["reason weaker means the stone is refused, not granted"]


def test_a_witness_is_recorded_exactly_for_opponent_can_beat() -> None:
    body = "variant: base\nclaim: [4]\nexpect:\n  stones:\n    4: {verdict: refused, reason: "
    assert problems(body + "opponent-can-beat}\n") == ["missing key 'witness'"]
    witness = "side-incomplete, witness: {cards: [red 1], formation: sum 6}}\n"
    assert problems(body + witness) == [
        "not allowed here (a witness is recorded only for opponent-can-beat)"
    ]


# -- the Case value ----------------------------------------------------------------------------


def test_case_maps_you_to_the_first_player_and_completion_order() -> None:
    case = load_case(VALID / "three-adjacent.yaml")
    assert case.id == "three-adjacent"
    assert case.variant is Variant.BASE
    assert case.claim == (3, 4)
    assert case.published == Publication("faq", 2)
    stone = case.board.stone(3)
    assert stone.side(Player.FIRST).cards == parse_cards(["red 9", "red 8", "red 7"])
    assert stone.completed_first() is Player.SECOND
    assert case.board.stone(4).side(Player.FIRST).completed_at is not None
    assert case.board.stone(2).claimed_by is Player.FIRST


def test_case_hands_and_lines_of_keys() -> None:
    case = load_case(VALID / "hand-is-not-proof.yaml")
    assert case.hands == ((parse_card("orange 3"),), ())
    assert case.situation["es"].startswith("Tu 1-1-1")
    assert case.line_of("expect", "stones", 4, "reason") == 27
    assert case.line_of("stones", 4, "you", 2) == 15
    assert case.line_of("expect", "play_on") == 24  # absent: its nearest parent


def test_play_on_moves_are_parsed() -> None:
    case = load_case(VALID / "pass-only-when-nothing-fits.yaml")
    assert case.play_on is not None
    assert case.play_on.start == "play"
    assert case.play_on.moves[0] == (Player.FIRST, Move.parse("pass"))


def test_load_cases_sorts_by_table_row_then_id() -> None:
    assert [c.id for c in load_cases(VALID)] == [
        "hand-is-not-proof",
        "three-adjacent",
        "mud-fight-needs-four",
        "pass-only-when-nothing-fits",
    ]


def test_load_cases_refuses_a_table_row_used_twice() -> None:
    with pytest.raises(CaseFileError) as info:
        load_cases(DATA / "row-twice")
    (error,) = info.value.errors
    assert (error.path.name, error.line, error.column) == ("second.yaml", 5, 30)
    assert error.message == (
        "faq row 1 is already used by first.yaml (line 11): each row holds one case"
    )


def _publish(source: Path, dest: Path, table: str, row: int) -> None:
    """Copy a case, published at (table, row), and record it in the folder's lock."""
    text = source.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^published: .*$", "", text)
    dest.write_text(text + f"published: {{table: {table}, row: {row}}}\n", encoding="utf-8")
    entries = read_lock(dest.parent) or {}
    entry = entry_of(load_case(dest))
    assert entry is not None
    write_lock(dest.parent, [*entries.values(), entry])


def test_load_cases_refuses_a_gap_in_a_tables_rows(tmp_path: Path) -> None:
    _publish(VALID / "three-adjacent.yaml", tmp_path / "a.yaml", "faq", 1)
    _publish(VALID / "three-adjacent.yaml", tmp_path / "b.yaml", "tactical", 1)
    _publish(VALID / "three-adjacent.yaml", tmp_path / "c.yaml", "tactical", 3)
    with pytest.raises(CaseFileError) as info:
        load_cases(tmp_path)
    (error,) = info.value.errors
    assert error.path.name == "c.yaml"
    assert error.key_path == ("published", "row")
    assert "no case has row 2 of table tactical" in error.message


def test_tables_are_ordered_faq_first_then_by_id_and_row(tmp_path: Path) -> None:
    for name, table, row in [
        ("a", "tactical", 1),
        ("b", "faq", 2),
        ("c", "faq", 1),
        ("d", "rulings", 1),
        ("e", "tactical", 2),
    ]:
        _publish(VALID / "three-adjacent.yaml", tmp_path / f"{name}.yaml", table, row)
    shutil.copy(VALID / "mud-fight-needs-four.yaml", tmp_path / "f.yaml")
    assert [c.id for c in load_cases(tmp_path)] == ["c", "b", "d", "a", "e", "f"]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("{table: faq}", "missing key 'row'"),
        ("{table: Faq, row: 1}", "expected a table id in kebab-case"),
        ("{table: faq, row: 0}", "expected a row number from 1, got 0"),
        ("{table: faq, row: 1, col: 2}", "unknown key 'col'"),
        ("3", "expected keys and values (`key: value`), got 3"),
    ],
)
def test_published_is_a_table_and_a_row(tmp_path: Path, value: str, message: str) -> None:
    path = tmp_path / "x.yaml"
    text = (VALID / "three-adjacent.yaml").read_text(encoding="utf-8")
    path.write_text(re.sub(r"(?m)^published: .*$", f"published: {value}", text), "utf-8")
    with pytest.raises(CaseFileError) as info:
        load_case(path)
    assert any(message in e.message for e in info.value.errors), info.value


def test_load_cases_refuses_a_case_it_would_not_read(tmp_path: Path) -> None:
    shutil.copy(VALID / "three-adjacent.yaml", tmp_path / "three-adjacent.yml")
    with pytest.raises(CaseFileError, match=r"three-adjacent.yml:1:1: case files end in .yaml"):
        load_cases(tmp_path)


def test_load_cases_lists_the_errors_of_every_file(tmp_path: Path) -> None:
    for name in ("bad-card", "side-over-capacity"):
        shutil.copy(BROKEN / f"{name}.yaml", tmp_path)
    with pytest.raises(CaseFileError) as info:
        load_cases(tmp_path)
    assert sorted(e.path.name for e in info.value.errors) == [
        "bad-card.yaml",
        "side-over-capacity.yaml",
    ]


# -- running -----------------------------------------------------------------------------------


def test_run_case_gives_the_engine_verdict_and_witness() -> None:
    result = run_case(load_case(VALID / "hand-is-not-proof.yaml"))
    assert result.ok
    (verdict,) = result.verdicts
    assert verdict.reason is Reason.OPPONENT_CAN_BEAT
    assert verdict.witness is not None
    assert verdict.witness.cards == (parse_card("orange 3"),)
    assert result.game == "ongoing"


def test_granted_stones_taken_together_can_win_the_game() -> None:
    result = run_case(load_case(VALID / "three-adjacent.yaml"))
    assert result.ok
    assert [v.granted for v in result.verdicts] == [True, True]
    assert result.game == "won-by-you"


def test_play_on_records_a_refused_move_and_goes_on() -> None:
    result = run_case(load_case(VALID / "pass-only-when-nothing-fits.yaml"))
    assert result.ok
    assert result.computed.play_on is not None
    assert result.computed.play_on.steps == ("illegal pass", "ok", "ok", "ok", "ok")
    assert result.computed.play_on.held == ((1,), ())


def test_play_on_to_the_end_records_termination_and_points() -> None:
    body = """\
variant: base
stones:
  1: {claimed_by: you}
  2: {claimed_by: you}
  3: {you: [red 9, red 8, red 7], opponent: [blue 1, blue 2, green 4], completed_first: you}
hands: {you: [green 5], opponent: [green 6]}
play_on:
  question: {you: claim 3}
  moves:
    - you: claim 3
    - opponent: pass
"""
    result = run_case(parse_case(HEAD + body, Path("x.yaml")))
    assert result.computed.as_data()["play_on"] == {
        "steps": ["ok", "illegal game-over"],
        "game": "won-by-you",
        "held": {"you": [1, 2, 3], "opponent": []},
        "termination": "three-adjacent",
        "points": {"you": 5, "opponent": 0},
    }


def test_a_changed_witness_is_a_mismatch_at_its_line() -> None:
    result = run_case(load_case(MISMATCH / "witness-changed.yaml"))
    assert not result.ok
    (mismatch,) = result.mismatches
    assert (mismatch.line, mismatch.what) == (17, "expect.stones.4.witness.cards")
    assert (mismatch.recorded, mismatch.computed) == ("[purple 3]", "[orange 3]")
    assert "orange 3 would give them same value 9" in result.report()


def test_a_missing_expectation_is_a_mismatch() -> None:
    result = run_case(load_case(MISMATCH / "not-recorded.yaml"))
    (mismatch,) = result.mismatches
    assert mismatch.what == "expect"
    assert mismatch.recorded == "nothing"
    assert "schotten approve" in mismatch.computed


def test_check_cases_replays_a_folder() -> None:
    results = check_cases(VALID)
    assert [r.ok for r in results] == [True] * 4


# -- approve -----------------------------------------------------------------------------------


def test_approve_rewrites_only_the_expectations(tmp_path: Path) -> None:
    path = tmp_path / "witness-changed.yaml"
    original = (MISMATCH / path.name).read_text()
    path.write_text(original)
    approval = approve(load_case(path))
    assert [c.what for c in approval.changes] == ["expect.stones.4.witness.cards"]
    text = path.read_text()
    assert (
        text.replace("orange 3", "purple 3").replace("same-value 9}\n", "same-value 9}   # stale\n")
        == original
    )
    assert "# Notes below the expectations stay where they are." in text
    assert run_case(load_case(path)).ok
    assert not approve(load_case(path)).changed
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary file left


def test_approve_adds_missing_expectations_at_the_end(tmp_path: Path) -> None:
    path = tmp_path / "not-recorded.yaml"
    original = (MISMATCH / path.name).read_text()
    path.write_text(original)
    approve(load_case(path))
    assert path.read_text() == original + (
        "expect:\n  stones:\n    2: {verdict: granted, reason: stronger}\n  game: ongoing\n"
    )


def test_approve_records_play_on_steps_one_per_line(tmp_path: Path) -> None:
    path = tmp_path / "p.yaml"
    text = (VALID / "pass-only-when-nothing-fits.yaml").read_text()
    path.write_text(text.split("expect:")[0])
    approve(load_case(path))
    assert path.read_text() == text


def test_expect_block_uses_the_documented_layout() -> None:
    result = run_case(load_case(VALID / "hand-is-not-proof.yaml"))
    assert expect_block(result.computed) == (
        "expect:\n"
        "  stones:\n"
        "    4:\n"
        "      verdict: refused\n"
        "      reason: opponent-can-beat\n"
        "      witness: {cards: [orange 3], formation: same-value 9}\n"
        "  game: ongoing\n"
    )


# -- the documented format ---------------------------------------------------------------------

README = Path(__file__).resolve().parents[1] / "cases" / "README.md"


def test_the_readme_example_case_is_valid_and_agrees_with_the_engine(tmp_path: Path) -> None:
    text = README.read_text(encoding="utf-8")
    example = text.split("## A first case", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "hand-is-not-proof.yaml"
    path.write_text(example, encoding="utf-8")
    result = run_case(load_case(path))
    assert result.ok, result.report()
    assert result.case.published == Publication("faq", 2)


# -- positions no game reaches -----------------------------------------------------------------


def located(body: str) -> list[str]:
    with pytest.raises(CaseFileError) as info:
        parse_case(HEAD + body, Path("x.yaml"))
    return [str(e) for e in info.value.errors]


def test_a_stone_claimed_against_a_stronger_complete_side_is_refused() -> None:
    body = (
        "variant: base\nstones:\n"
        "  4:\n    you: [purple 3, purple 4, purple 5]\n    opponent: [red 1, blue 3, green 4]\n"
        "    claimed_by: opponent\n    completed_first: you\n"
        "  5: {you: [red 7], opponent: [red 8, red 9]}\nclaim: [5]\n"
    )
    assert located(body) == [
        "x.yaml:10:17: stones.4.claimed_by: stone 4 is claimed by opponent, whose side makes "
        "sum 8, but the other side's colour run 12 beats it: no claim of this stone could have "
        "been granted (claim-proof)"
    ]


def test_a_stone_claimed_on_a_tie_the_other_side_completed_first_is_refused() -> None:
    body = (
        "variant: base\nstones:\n"
        "  4: {you: [purple 3, purple 4, purple 5], opponent: [red 3, red 4, red 5], "
        "claimed_by: you, completed_first: opponent}\n"
        "  5: {you: [red 7], opponent: [blue 8]}\nclaim: [5]\n"
    )
    (error,) = problems(body)
    assert error.startswith("stone 4 is claimed by you, whose side makes colour run 12, but the ")
    assert "ties it (colour run 12) and was completed first" in error
    # Completed first by the taker, the same tie is the taker's: the case is valid.
    valid = body.replace("completed_first: opponent", "completed_first: you")
    assert parse_case(HEAD + valid, Path("x.yaml")).board.stone(4).claimed_by is Player.FIRST


def test_cards_placed_that_no_game_reaches_are_refused() -> None:
    """Eleven cards against five: the opponent would have passed five times with a hand of Clan
    cards and room on every stone."""
    body = (
        "variant: base\nstones:\n"
        "  1: {you: [red 1, red 2, red 3], opponent: [blue 1]}\n"
        "  2: {you: [red 4, red 5, red 6], opponent: [blue 2]}\n"
        "  3: {you: [red 7, red 8, red 9], opponent: [blue 3]}\n"
        "  4: {you: [green 1, green 2], opponent: [blue 4, blue 5]}\nclaim: [1]\n"
    )
    assert located(body) == [
        "x.yaml:6:1: stones: cards put into play: you 11, opponent 5; turns alternate, so "
        "opponent passed at least 5 times, but a pass needs a hand without a Clan card that can "
        "be placed, and opponent never lacked Clan cards in hand (6 dealt) nor room on the open "
        "stones: no game reaches these counts (pass)"
    ]
    # Ten cards against eleven: one turn apart, no pass needed.
    more = (
        "  5: {opponent: [yellow 1, yellow 2, yellow 3]}\n  6: {opponent: [yellow 4, yellow 5]}\n"
    )
    reached = body.replace("claim: [1]\n", more + "claim: [1]\n")
    assert parse_case(HEAD + reached, Path("x.yaml")).board.stone(6).side(Player.SECOND).cards


def test_a_play_on_is_played_once_when_the_case_is_run(monkeypatch: pytest.MonkeyPatch) -> None:
    from schotten.game import Game

    applied: list[Move] = []
    apply = Game.apply

    def counted(game: Game, move: Move | str) -> Move:
        applied.append(Move.parse(move) if isinstance(move, str) else move)
        return apply(game, move)

    monkeypatch.setattr(Game, "apply", counted)
    case = load_case(VALID / "pass-only-when-nothing-fits.yaml")
    assert case.play_on is not None
    assert applied == []  # reading checks the file and the position; it plays nothing
    run_case(case)
    assert applied == [move for _, move in case.play_on.moves]


def test_a_wrong_mover_is_found_when_the_case_is_run_and_located() -> None:
    path = BROKEN / "wrong-mover.yaml"
    case = load_case(path)  # the file reads; only playing it shows the mistake
    with pytest.raises(CaseFileError) as info:
        run_case(case)
    (error,) = info.value.errors
    assert error.key_path == ("play_on", "moves", 1, "opponent")
    assert str(error).startswith(f"{path}:14:17: play_on.moves[1].opponent: opponent is not to")


def test_a_discard_pile_in_the_base_game_is_named_at_the_pile() -> None:
    # The core's check of the whole position, located by the casebook: once read as a count of
    # cards no game reaches, which sent the editor to the stones.
    body = "variant: base\nstones:\n  4: {you: [red 1]}\ndiscard:\n  you: [red 9]\nclaim: [4]\n"
    with pytest.raises(CaseFileError) as info:
        parse_case(HEAD + body, Path("x.yaml"))
    (error,) = info.value.errors
    assert error.key_path == ("discard",)
    assert error.message == "the base game has no discard pile (only ruses discard cards)"


def test_a_deck_top_of_the_wrong_kind_and_a_card_twice_in_a_deck_are_located() -> None:
    body = (
        "variant: tactical\nstones:\n  4: {you: [red 1, red 2, red 3]}\n"
        "hands: {you: [blue 5], opponent: [purple 9]}\n"
        "play_on:\n  start: play\n  decks: {clan: [joker, red 2], tactic: [red 9]}\n"
        "  question: {you: claim 4}\n  moves:\n    - you: claim 4\n"
    )
    with pytest.raises(CaseFileError) as info:
        parse_case(HEAD + body, Path("x.yaml"))
    found = {(e.key_path, e.message) for e in info.value.errors}
    assert found == {
        (("play_on", "decks", "clan", 0), "joker is a tactic card"),
        (("play_on", "decks", "tactic", 0), "red 9 is a Clan card"),
        (
            ("play_on", "decks", "clan", 1),
            "red 2 is already at stones.4.you[1] (line 7): the game has it once",
        ),
    }


def test_a_case_read_again_is_the_same_value_and_a_changed_file_is_read_anew(
    tmp_path: Path,
) -> None:
    path = tmp_path / "hand-is-not-proof.yaml"
    shutil.copy(VALID / "hand-is-not-proof.yaml", path)
    first = load_case(path)
    assert load_case(path) is first  # parsed once: an approve reads the folder several times
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("source:", "source: 'changed'\nx_unused:", 1), encoding="utf-8")
    with pytest.raises(CaseFileError):  # the changed text is checked, not the kept case
        load_case(path)
    with pytest.raises(CaseFileError):  # and so on every reading of it
        load_case(path)
    path.write_text(text, encoding="utf-8")
    assert load_case(path) == first
