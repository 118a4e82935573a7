"""The booklet's rules and the site's rulings in the suite: each vector filed under the rulings it
exercises, an engine that took another ruling failed only there (and passing once it says so),
base-only engines passing the base game, and every position of the suite one a game reaches."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from committed_suite import committed

from schotten.board import Board, Player, Side, Stone, Variant
from schotten.cards import parse_cards
from schotten.claims import judge_claim
from schotten.cli import EXIT_FAILED, EXIT_OK, main
from schotten.conformance.alternatives import BOOKLET, claim_rulings, formation_rulings, tally
from schotten.conformance.capabilities import Capabilities
from schotten.game import Game
from schotten.position import reach_problems, table_problems
from schotten.position_data import board_from_data
from schotten.rulings import SITE_RULINGS

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "conformance"
ENGINES = Path(__file__).parent / "conformance_engines"
EXIT_INCOMPLETE = 2


def engine(name: str, *argv: str) -> str:
    words = [sys.executable, str(ENGINES / f"{name}.py"), *argv]
    return " ".join(shlex.quote(w) for w in words)


def conformance(*argv: str) -> int:
    return main(["conformance", "run", "--suite", str(SUITE), *argv])


@pytest.fixture(autouse=True)
def _no_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)


def rules_row(out: str, label: str) -> list[int]:
    """The tally by rules' row of ``label``: vectors, agree, disagree, failed, not taken, not
    asked."""
    line = next(line for line in out.splitlines() if line.split()[:1] == [label])
    return [int(w) for w in line.split()[1:]]


# -- what a vector is filed under ---------------------------------------------------------------


def _side(text: str, at: int | None = None) -> Side:
    return Side(parse_cards(text.split(", ")), at)


def test_a_proof_from_a_pool_with_a_wild_joker_is_filed_under_claim_wild_pool() -> None:
    stone = Stone(4, sides=(_side("red 1, green 1, blue 1", 3), _side("red 3, green 3")))
    board = Board.empty(Variant.TACTICAL).with_stone(stone)
    verdicts = judge_claim(board, Player.FIRST, [4])
    assert claim_rulings(board, Player.FIRST, verdicts) == ("claim-wild-pool", "elite-troop-value")
    # The same table in the base game: no wild card, the booklet's rules.
    base = Board.empty(Variant.BASE).with_stone(stone)
    assert claim_rulings(base, Player.FIRST, judge_claim(base, Player.FIRST, [4])) == ()


def test_a_formation_is_filed_under_elite_troop_value_only_when_the_troop_copies() -> None:
    # A Spy beside a red 7 and a red 8: the best colour needs it to be a red 7 too.
    assert formation_rulings(["red 7", "red 8", "spy"], False, "colour 22") == (
        "elite-troop-value",
    )
    assert formation_rulings(["blue 3", "joker", "red 3"], False, "same-value 9") == ()
    assert formation_rulings(["red 1", "red 2", "red 3"], False, "colour-run 6") == ()


def test_every_vector_names_only_site_rulings_sorted(
    vectors: dict[str, list[dict[str, Any]]],
) -> None:
    ids = {str(r) for r in SITE_RULINGS}
    for kind, items in vectors.items():
        for vector in items:
            found = vector["rulings"]
            assert found == sorted(set(found)) and set(found) <= ids, (kind, vector["id"])
        booklet = sum(1 for v in items if not v["rulings"])
        assert booklet > 0, kind  # every kind has vectors of the booklet's rules alone


def test_a_casebook_vector_carries_the_rulings_of_its_case(
    vectors: dict[str, list[dict[str, Any]]],
) -> None:
    claims = {v["id"]: v for v in vectors["claims"]}
    # The case pins claim-wild-pool by its rule ids (a wild Joker still hidden).
    cases = [v for v in claims.values() if v["id"].startswith("case:")]
    pinned = [v for v in cases if "claim-wild-pool" in v["pins"]]
    assert pinned
    assert all("claim-wild-pool" in v["rulings"] for v in pinned)


def test_the_tally_by_rules_counts_a_vector_in_each_of_its_rows() -> None:
    chosen = [
        (
            "claims",
            [
                {"id": "a", "rulings": []},
                {"id": "b", "rulings": ["claim-wild-pool", "elite-troop-value"]},
                {"id": "c", "rulings": ["pass"]},
            ],
        )
    ]
    taken = frozenset({"claim-wild-pool", "elite-troop-value"})
    rows = {
        r.label: r
        for r in tally(chosen, {"claims": ["a", "b"]}, {("claims", "b"): "disagree"}, taken)
    }
    assert (rows[BOOKLET].vectors, rows[BOOKLET].agreed) == (1, 1)
    assert rows["claim-wild-pool"].disagreed == rows["elite-troop-value"].disagreed == 1
    assert (rows["pass"].vectors, rows["pass"].not_taken) == (1, 1)


def test_a_hello_declaring_an_unknown_ruling_is_refused() -> None:
    with pytest.raises(ValueError, match=r"supports\.rulings"):
        Capabilities.from_hello({"supports": {"rulings": ["claim-proof"]}})


# -- an engine that took another ruling ----------------------------------------------------------

KINDS = ["--kind", "claims", "--kind", "provable", "--kind", "formations"]


def test_an_engine_with_another_wild_pool_ruling_fails_only_that_ruling(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    report = tmp_path / "report.jsonl"
    argv = [*KINDS, "--report", str(report)]  # every vector of these kinds: about 10 s
    status = conformance("--engine", engine("booklet_pool"), *argv)
    out = capsys.readouterr().out
    assert status == EXIT_FAILED, out
    failed = [json.loads(line) for line in report.read_text().splitlines()]
    assert failed
    by_id = {(k, v["id"]): v for k in ("claims", "provable") for v in committed(k)}
    for line in failed:
        assert "claim-wild-pool" in by_id[(line["kind"], line["vector"])]["rulings"], line
    booklet = rules_row(out, BOOKLET)
    assert booklet[1] == booklet[0] > 0 and booklet[2:4] == [0, 0]  # all agree
    assert rules_row(out, "claim-wild-pool")[2] == len(failed)

    # Once its hello says which rulings it takes, it is not asked that one: it passes.
    status = conformance("--engine", engine("booklet_pool", "--declare"), *argv)
    out = capsys.readouterr().out
    assert status == EXIT_OK, out
    assert "without the site rulings claim-wild-pool" in out
    wild = rules_row(out, "claim-wild-pool")
    assert wild[4] == wild[0] > 0 and wild[1] == 0  # every one not taken
    assert rules_row(out, BOOKLET)[1:3] == [booklet[0], 0]


# -- engines of the base game --------------------------------------------------------------------


def test_a_base_only_engine_passes_the_base_game_and_checks_nothing_tactical(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["--kind", "claims", "--kind", "formations", "--limit", "300"]
    status = conformance("--engine", engine("base_only"), "--variant", "base", *argv)
    out = capsys.readouterr().out
    assert status == EXIT_OK, out
    assert "PASS: conformant on base claims and formations" in out
    status = conformance("--engine", engine("base_only"), "--variant", "tactical", *argv)
    out = capsys.readouterr().out
    assert status == EXIT_INCOMPLETE, out
    assert "INCOMPLETE: nothing was checked" in out


def test_no_blind_mans_bluff_formation_reaches_a_base_engine(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Every formation: base_strict answers `unsupported` to a Tactical one (totals only too).
    status = conformance(
        "--engine", engine("base_strict"), "--variant", "base", "--kind", "formations"
    )
    out = capsys.readouterr().out
    assert status == EXIT_OK, out
    totals = [v for v in committed("formations") if v["totals_only"]]
    assert totals  # they exist in the suite, and were not asked
    assert "did not agree" not in out


# -- every position one a game reaches ------------------------------------------------------------


@pytest.fixture(scope="module")
def vectors() -> dict[str, list[dict[str, Any]]]:
    from schotten.conformance.wire import KINDS as ALL

    return {kind: committed(kind) for kind in ALL}


def _boards(kind: str, vector: dict[str, Any]) -> list[Board]:
    if kind in ("claims", "provable", "outcomes"):
        return [board_from_data(vector["position"])]
    if kind == "formations":
        return []
    positions = [vector["position"], *(a["position"] for a in vector.get("after", []))]
    return [Game.from_dict(p).board for p in positions]


def test_every_position_of_the_suite_is_one_a_game_reaches(
    vectors: dict[str, list[dict[str, Any]]],
) -> None:
    """The casebook's check (``schotten check`` runs it on case files): no claimed stone its
    taker could not have proven, no counts of cards alternate turns cannot give."""
    unreachable = []
    for kind, items in vectors.items():
        for vector in items:
            for board in _boards(kind, vector):
                problems = [*table_problems(board), *reach_problems(board)]
                if problems:
                    unreachable.append(f"{kind} {vector['id']}: {problems[0]}")
    assert not unreachable, f"{len(unreachable)} vectors, such as: {unreachable[:3]}"
