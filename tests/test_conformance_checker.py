"""A second engine passes the claims of the suite: the in-page checker's entry point
(``schotten.checker.check``), through its glue in CPython and under Pyodide in Node."""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

import pytest
from committed_suite import committed

from schotten.cli import EXIT_OK, main
from schotten.conformance.checker_glue import answer_line, mirror
from schotten.conformance.client import LocalEngine
from schotten.conformance.wire import PROTOCOL, board_data
from schotten.position_data import board_from_data
from schotten.site import runtime

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "conformance"
ADAPTER = ROOT / "engine" / "schotten" / "conformance" / "checker_engine.mjs"


def test_mirror_exchanges_the_players_places_and_back() -> None:
    claims = committed("claims")
    for vector in claims[::500]:
        board = board_from_data(vector["position"])
        flipped = mirror(board)
        assert mirror(flipped) == board
        for stone, other in zip(board.stones, flipped.stones, strict=True):
            assert other.sides == (stone.sides[1], stone.sides[0])
        assert board_data(flipped)["discard"] == {
            "first": board_data(board)["discard"]["second"],
            "second": board_data(board)["discard"]["first"],
        }


def test_the_checker_glue_agrees_with_the_engine_on_the_claims() -> None:
    claims = committed("claims")
    reference = LocalEngine()
    chosen = [v for v in claims if v["id"].startswith("case:")] + claims[::40]
    assert any(v["claimer"] == "second" for v in chosen)
    assert any(len(v["stones"]) > 1 for v in chosen)
    for vector in chosen:
        request = {"type": "claim", **{k: vector[k] for k in ("position", "claimer", "stones")}}
        answer = json.loads(answer_line(json.dumps(request)))
        assert answer == reference.ask(request) == {"stones": vector["expect"]}, vector["id"]


def test_the_checker_glue_answers_hello_and_refuses_other_requests() -> None:
    hello = json.loads(answer_line(json.dumps({"type": "hello", "id": 1, "protocol": PROTOCOL})))
    assert hello["protocol"] == PROTOCOL and hello["id"] == 1
    legal = json.loads(answer_line(json.dumps({"type": "legal", "position": {}})))
    assert legal["error"] == "unsupported"
    assert json.loads(answer_line("{"))["error"] == "bad-request"


def test_the_checker_under_pyodide_in_node_passes_the_claims(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    node = shutil.which("node")
    assert node is not None, "node is needed (scripts/setup installs it with npm)"
    assert (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").is_file(), "run scripts/setup"
    monkeypatch.chdir(ROOT)
    command = f"{shlex.quote(node)} {shlex.quote(str(ADAPTER))}"
    ids = ["case:hand-is-not-proof", "case:two-stones-in-one-claim", "case:stone-already-claimed"]
    argv = ["conformance", "run", "--suite", str(SUITE), "--engine", command]
    argv += ["--kind", "claims", "--start-timeout", "180"]
    # One start of Pyodide: 120 vectors spread over the file, and three named ones besides.
    status = main([*argv, "--limit", "120", *(f"--vector={i}" for i in ids)])
    out = capsys.readouterr().out
    assert status == EXIT_OK, out
    assert "PASS: conformant on claims: 123/123 vectors agree" in out


def test_the_checker_as_a_reader_downloads_it_passes_every_claim(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The built site's checker files (its Pyodide, its trimmed standard library and its engine,
    # as bytecode): what a browser runs, on all the claim vectors of the suite.
    node = shutil.which("node")
    assert node is not None, "node is needed (scripts/setup installs it with npm)"
    shipped = tmp_path / runtime.CHECKER_DIR
    shutil.copytree(runtime.STATIC, shipped)  # as MkDocs copies them, before the runtime
    runtime.install_runtime(tmp_path)
    monkeypatch.chdir(ROOT)
    command = shlex.join([node, str(ADAPTER), "--runtime", str(shipped)])
    argv = ["conformance", "run", "--suite", str(SUITE), "--engine", command]
    status = main([*argv, "--kind", "claims", "--start-timeout", "180"])
    out = capsys.readouterr().out
    total = len(committed("claims"))
    assert status == EXIT_OK, out
    assert f"PASS: conformant on claims: {total}/{total} vectors agree" in out


def test_the_checker_glue_answers_a_deeply_nested_line_as_a_bad_request() -> None:
    answer = json.loads(answer_line("[" * 100_000 + "]" * 100_000))
    assert answer["error"] == "bad-request" and "nested deeper" in answer["message"]
