"""The committed conformance suite (``conformance/``): well-formed, complete, what this engine
answers, and made again byte for byte by ``export``."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest
from committed_suite import committed

from schotten.board import Variant
from schotten.cli import EXIT_FAILED, main
from schotten.conformance import suite
from schotten.conformance.checks import check_vector
from schotten.conformance.client import LocalEngine
from schotten.conformance.outcomes_gen import OUTCOMES, outcome_vector
from schotten.conformance.runner import run
from schotten.conformance.vectors import (
    GAMES,
    GENERATED_CLAIMS,
    case_claim_vectors,
    claim_vector,
    formation_vector,
    game_vector,
    move_vector,
    perft_vector,
    provable_vectors,
)
from schotten.conformance.wire import KINDS, dumps
from schotten.position_data import board_from_data

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "conformance"
CASES = ROOT / "cases"


def lines(kind: str) -> list[str]:
    return (SUITE / f"{kind}.jsonl").read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def vectors() -> dict[str, list[dict[str, Any]]]:
    return {kind: committed(kind) for kind in KINDS}


def spread(items: list[Any], count: int) -> list[Any]:
    if len(items) <= count:
        return items
    return [items[i * len(items) // count] for i in range(count)]


# -- the files ---------------------------------------------------------------------------------


def test_manifest_counts_and_digests_match_the_files() -> None:
    manifest = suite.manifest(SUITE)
    assert set(manifest["kinds"]) == set(KINDS)
    for kind, entry in manifest["kinds"].items():
        data = (SUITE / entry["file"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"], kind
        assert data.count(b"\n") == entry["vectors"], kind


def test_every_vector_id_is_unique_and_has_its_line_of_prose(
    vectors: dict[str, list[dict[str, Any]]],
) -> None:
    for kind, items in vectors.items():
        ids = [v["id"] for v in items]
        assert len(ids) == len(set(ids)), kind
        assert all(v["pins"].strip() for v in items), kind


def test_each_id_read_from_its_line_is_the_decoded_vectors(
    vectors: dict[str, list[dict[str, Any]]],
) -> None:
    for kind in KINDS:
        read = suite.read(SUITE, kind)
        assert len(read) == len(vectors[kind]), kind
        assert [read.ident(i) for i in range(len(read))] == [v["id"] for v in vectors[kind]]


def test_a_line_not_written_as_the_export_writes_is_decoded_for_its_id() -> None:
    lines = [b'{"pins": "id last", "id": "x1"}', b'{"id": "spaced id"}', b'{"id":"\\u0041"}']
    read = suite.KindFile(Path("claims.jsonl"), tuple(enumerate(lines, 1)))
    assert [read.ident(i) for i in range(3)] == ["x1", "spaced id", "A"]
    damaged = suite.KindFile(Path("claims.jsonl"), ((7, b'{"id" "x1"}'),))
    with pytest.raises(suite.SuiteError, match=r"^claims\.jsonl:7: not JSON"):
        damaged.ident(0)


@pytest.mark.parametrize("kind", KINDS)
def test_vectors_follow_their_schema(kind: str, vectors: dict[str, list[dict[str, Any]]]) -> None:
    schema = json.loads((SUITE / f"{kind}.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for vector in spread(vectors[kind], {"games": 30, "moves": 100}.get(kind, 400)):
        errors = sorted(validator.iter_errors(vector), key=str)
        assert not errors, f"{kind} {vector['id']}: {errors[0].message}"


def test_the_protocol_schema_accepts_the_requests_the_runner_sends(
    vectors: dict[str, list[dict[str, Any]]],
) -> None:
    schema = json.loads((SUITE / "protocol.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    claim = vectors["claims"][0]
    game = vectors["games"][0]
    for request in (
        {"type": "hello", "protocol": "schotten-conformance/1"},
        {"type": "claim", **{k: claim[k] for k in ("position", "claimer", "stones")}},
        {"type": "formation", "cards": ["red 1", "joker", "red 3"], "totals_only": False},
        {"type": "legal", "position": game["position"]},
        {"type": "apply", "position": game["position"], "move": game["moves"][0]},
        {"type": "perft", "position": game["position"], "depth": 2, "divide": True},
        {"type": "provable", **{k: vectors["provable"][0][k] for k in ("position", "claimer")}},
        {"type": "outcome", **{k: vectors["outcomes"][0][k] for k in ("position", "actions")}},
    ):
        validator.validate(request)
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({"type": "claim", "position": claim["position"]})


def test_the_committed_files_are_compact_json_lines() -> None:
    for kind in KINDS:
        for line in spread(lines(kind), 50):
            assert line == dumps(json.loads(line)), kind


# -- what the suite covers ---------------------------------------------------------------------


def test_claims_cover_every_reason_both_variants_and_the_rules_asked_for(
    vectors: dict[str, list[dict[str, Any]]],
) -> None:
    claims = vectors["claims"]
    generated = [v for v in claims if not v["id"].startswith("case:")]
    assert len(generated) >= GENERATED_CLAIMS >= 10_000
    cases = {p.stem for p in CASES.glob("*.yaml")}
    with_claims = {v["id"].removeprefix("case:") for v in claims if v["id"].startswith("case:")}
    assert with_claims <= cases and len(with_claims) >= 40
    seen: Counter[tuple[str, str]] = Counter()
    features: Counter[str] = Counter()
    for vector in generated:
        position = vector["position"]
        stones = {s["number"]: s for s in position["stones"]}
        for verdict in vector["expect"]:
            seen[(position["variant"], verdict["reason"])] += 1
            stone = stones.get(verdict["stone"], {})
            features["mud fight"] += "mud_fight" in stone
            features["blind-man's bluff"] += "blind_mans_bluff" in stone
            features["elite troop on a claimed stone"] += any(
                card in ("joker", "spy", "shield-bearer")
                for card in [*stone.get("first", []), *stone.get("second", [])]
            )
        features["several stones together"] += len(vector["stones"]) > 1
        features["claimed stones"] += any("claimed_by" in s for s in stones.values())
        features["hand known"] += "hands" in vector["position"]
        features["wild pool"] += "wild pool" in vector["pins"]
    reasons = {
        "stronger",
        "tie-completed-first",
        "unbeatable",
        "side-incomplete",
        "weaker",
        "tie-completed-later",
        "opponent-can-beat",
        "stone-claimed",
    }
    for variant in Variant:
        for reason in reasons:
            assert seen[(str(variant), reason)] >= 50, (variant, reason)
    assert len(features) == 7
    for feature, count in features.items():
        assert count >= 200, feature
    # The tables are real tables: each one reads back and passes check_table.
    for vector in spread(generated, 300):
        board_from_data(vector["position"])


def test_games_are_at_least_200_of_each_variant_with_a_few_in_full(
    vectors: dict[str, list[dict[str, Any]]],
) -> None:
    games = vectors["games"]
    for variant in Variant:
        mine = [g for g in games if g["position"]["variant"] == str(variant)]
        assert len(mine) >= GAMES >= 200
        assert any("legal" in g for g in mine)
        for game in mine[:5]:
            assert len(game["legal_counts"]) == len(game["moves"]) == len(game["legal_digests"])


def test_provable_stones_come_from_both_variants_with_and_without_a_proof(
    vectors: dict[str, list[dict[str, Any]]],
) -> None:
    provable = vectors["provable"]
    for variant in Variant:
        mine = [v for v in provable if v["position"]["variant"] == str(variant)]
        assert len(mine) >= GAMES * 5
        assert sum(1 for v in mine if v["expect"]) > len(mine) // 2
        assert sum(1 for v in mine if not v["expect"]) >= GAMES
        assert any(len(v["expect"]) > 1 for v in mine)
    assert provable[:6] == provable_vectors(Variant.BASE, 0)


def test_every_accepted_move_has_the_position_after_it(
    vectors: dict[str, list[dict[str, Any]]],
) -> None:
    for vector in vectors["moves"]:
        assert len(vector["after"]) == len(vector["accepted"]), vector["id"]
        for after in vector["after"]:
            assert after["position"] != vector["position"]


def test_moves_refuse_with_many_different_rules(
    vectors: dict[str, list[dict[str, Any]]],
) -> None:
    rules = {r["rule"] for v in vectors["moves"] for r in v["refused"]}
    assert len(rules) >= 15
    assert {"pass", "tactic-count", "joker-once", "play-capacity", "claim-proof"} <= rules


# -- the engine's answers are the suite's ------------------------------------------------------


SAMPLE = {
    "claims": 1500,
    "formations": 1000,
    "provable": 400,
    "moves": 100,
    "games": 4,
    "perft": 0,
    "outcomes": 60,
}


def test_this_engine_agrees_with_the_committed_suite(
    vectors: dict[str, list[dict[str, Any]]],
) -> None:
    chosen = [(kind, spread(vectors[kind], SAMPLE[kind])) for kind in KINDS if SAMPLE[kind]]
    report = run(LocalEngine(), chosen)
    assert report.failure is None
    assert not report.outcomes, report.outcomes[0].findings


def test_perft_numbers_at_the_fast_depths(vectors: dict[str, list[dict[str, Any]]]) -> None:
    engine = LocalEngine()
    for vector in vectors["perft"]:
        for depth, nodes in enumerate(vector["nodes"][:3], 1):
            request = {"type": "perft", "position": vector["position"], "depth": depth}
            assert engine.ask(request) == {"nodes": nodes}, (vector["id"], depth)


def test_a_changed_answer_fails_naming_the_vector(
    vectors: dict[str, list[dict[str, Any]]],
) -> None:
    vector = next(v for v in vectors["claims"] if v["id"] == "case:hand-is-not-proof")
    assert check_vector("claims", vector, LocalEngine()) == []
    wrong = {**vector, "expect": [{**vector["expect"][0], "reason": "unbeatable"}]}
    report = run(LocalEngine(), [("claims", [wrong])])
    (disagreement,) = report.disagreements
    assert disagreement.vector == "case:hand-is-not-proof"
    assert [f.text for f in disagreement.findings] == [
        "stone 4 reason: expected unbeatable, engine opponent-can-beat"
    ]


# -- export: the same bytes for the same engine, never under CI --------------------------------


def test_export_makes_the_committed_vectors_again_byte_for_byte() -> None:
    claims = lines("claims")
    cased = case_claim_vectors(CASES)
    assert claims[: len(cased)] == [dumps(v) for v in cased]
    for index in (0, 1, 2, 777, 5003, GENERATED_CLAIMS - 1):
        assert claims[len(cased) + index] == dumps(claim_vector(index))
    formations = lines("formations")
    for index in (0, 5, 1999):
        assert formations[index] == dumps(formation_vector(index))
    moves = lines("moves")
    generated_moves = [line for line in moves if line.startswith('{"id":"m')]
    assert generated_moves[0] == dumps(move_vector(0))
    games = lines("games")
    assert games[0] == dumps(game_vector(Variant.BASE, 0))
    assert games[GAMES + 3] == dumps(game_vector(Variant.TACTICAL, 3))
    assert lines("perft")[0] == dumps(perft_vector(Variant.BASE, 1, False))
    outcomes = lines("outcomes")
    assert outcomes[0] == dumps(outcome_vector(Variant.BASE, 0))
    assert outcomes[OUTCOMES + 7] == dumps(outcome_vector(Variant.TACTICAL, 7))


def test_export_writes_a_suite_and_keeps_the_other_kinds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CI", raising=False)
    suite.export(tmp_path, None, ["formations"])
    assert (tmp_path / "formations.jsonl").read_text(encoding="utf-8") == (
        SUITE / "formations.jsonl"
    ).read_text(encoding="utf-8")
    assert json.loads((tmp_path / "formations.schema.json").read_text()) == json.loads(
        (SUITE / "formations.schema.json").read_text()
    )
    assert list(suite.manifest(tmp_path)["kinds"]) == ["formations"]


@pytest.mark.parametrize("value", ["", "1", "true", "yes"])
def test_export_is_refused_when_ci_is_set(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    value: str,
) -> None:
    monkeypatch.setenv("CI", value)
    target = tmp_path / "suite"
    assert main(["conformance", "export", str(target), "--kind", "perft"]) == EXIT_FAILED
    assert "not rewritten when CI is set" in capsys.readouterr().err
    assert not target.exists()
