"""Hostile input on ``schotten conformance serve`` and the one bounded JSON reader it shares with
game records: memory bounded by the limits (asserted with ``RLIMIT_AS`` in a child process),
every answer strict JSON with the request's id when it has one, never an internal error.

A long campaign: ``SCHOTTEN_FUZZ_EXAMPLES=20000 .venv/bin/pytest tests/test_hostile_server.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strength import fuzz_examples

from schotten.conformance.protocol import handle_line
from schotten.conformance.wire import MAX_LINE, PROTOCOL

EXAMPLES = fuzz_examples(150)
MEMORY = 200 * 1024 * 1024  # the address space a child may use: Python and the engine need ~40 MB


def limited(
    code: str, stdin: bytes = b"", timeout: float = 120
) -> subprocess.CompletedProcess[bytes]:
    """Run ``code`` in a Python child limited to :data:`MEMORY` bytes of address space."""
    prelude = textwrap.dedent(
        f"""
        import resource
        resource.setrlimit(resource.RLIMIT_AS, ({MEMORY}, {MEMORY}))
        """
    )
    return subprocess.run(
        [sys.executable, "-c", prelude + textwrap.dedent(code)],
        input=stdin,
        capture_output=True,
        timeout=timeout,
        check=False,
    )


def strict(text: str) -> dict[str, Any]:
    """An answer read back strictly: no ``Infinity``, no ``NaN``, an object."""
    answer = json.loads(text, parse_constant=lambda name: pytest.fail(f"{name} in {text[:80]}"))
    assert isinstance(answer, dict)
    return answer


def test_the_depth_check_keeps_no_state_per_character() -> None:
    # A 4 MB string: the pattern that matched whole strings cost ~120 bytes a character (480 MB).
    done = limited(
        """
        from schotten import json_input
        text = '{"padding": "' + "x" * 4_000_000 + '", "nested": [[[1]]]}'
        assert json_input.loads(text)["nested"] == [[[1]]]
        print("read")
        """
    )
    assert done.returncode == 0, done.stderr.decode()[-600:]
    assert done.stdout == b"read\n"


def test_a_4_mb_record_is_refused_by_replay_within_bounded_memory(tmp_path: Path) -> None:
    record = tmp_path / "big.json"
    record.write_text('{"seed": 1, "moves": ["' + "x" * (4_000_000 - 30) + '"]}')
    done = limited(
        f"""
        import sys
        from schotten.cli import main
        sys.exit(main(["replay", {str(record)!r}]))
        """
    )
    err = done.stderr.decode()
    assert done.returncode == 1, err[-600:]
    assert err.startswith("error: ") and "MemoryError" not in err and "Traceback" not in err


def test_a_line_of_200_mb_is_answered_without_being_kept(tmp_path: Path) -> None:
    # 200 MB without a newline, then a good request: a bad request, then the answer.
    done = limited(
        """
        import sys
        from schotten.cli import main
        sys.exit(main(["conformance", "serve"]))
        """,
        stdin=b'{"type":"hello","id":1,"x":"'
        + b"x" * 200_000_000
        + b'"}\n{"type":"hello","id":2,"protocol":"'
        + PROTOCOL.encode()
        + b'"}\n',
    )
    assert done.returncode == 0, done.stderr.decode()[-600:]
    first, second = (strict(line) for line in done.stdout.decode().splitlines())
    assert first["error"] == "bad-request" and "200,000," in first["message"]
    assert (
        second == {"id": 2, "protocol": PROTOCOL, "engine": second["engine"]} or second["id"] == 2
    )


def test_a_line_just_over_the_limit_is_refused_and_one_at_the_limit_read() -> None:
    head = json.dumps({"type": "hello", "id": 1, "protocol": PROTOCOL, "p": ""})
    line = head[:-2] + "x" * (MAX_LINE - len(head)) + head[-2:]
    assert len(line) == MAX_LINE
    assert strict(handle_line(line))["protocol"] == PROTOCOL
    assert strict(handle_line(line + " "))["error"] == "bad-request"


def test_an_answer_never_quotes_a_long_request_back() -> None:
    for request in (
        {"type": "hello", "id": 1, "protocol": "x" * 900_000},
        {"type": "x" * 900_000, "id": 2},
        {"type": "formation", "id": 3, "cards": ["red 1", "red 2", "x" * 900_000]},
    ):
        answer = handle_line(json.dumps(request))
        assert len(answer) < 1000 and strict(answer)["id"] == request["id"]


def test_a_bad_request_is_answered_with_its_id_and_in_strict_json() -> None:
    table = {"variant": "base", "stones": [], "discard": {"first": [], "second": []}}
    claim = {"type": "claim", "id": 7, "position": table, "stones": [1]}
    for claimer in ([], {}, 1, None, "third"):
        answer = strict(handle_line(json.dumps({**claim, "claimer": claimer})))
        assert answer["id"] == 7 and answer["error"] == "bad-request", answer
    for line in ('{"type":"hello","id":1e400}', '{"type":"hello","id":-1e999}'):
        answer = strict(handle_line(line))
        assert answer["error"] == "bad-request" and "id" not in answer
    # An id is a whole number: true is not 1, a text is not an id.
    for ident in (True, "1", 1.5, [1]):
        answer = strict(
            handle_line(json.dumps({"type": "hello", "id": ident, "protocol": PROTOCOL}))
        )
        assert answer == {"error": "bad-request", "message": "id: a whole number"}


_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**29), max_value=10**29)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=14,
)
_KEYS = ["type", "id", "position", "claimer", "stones", "cards", "move", "depth", "divide"]
_TYPES = st.sampled_from(["claim", "formation", "legal", "apply", "perft", "hello", "nope"])


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    kind=_TYPES,
    ident=st.one_of(st.integers(-(10**6), 10**6), _VALUES),
    extra=st.dictionaries(st.sampled_from(_KEYS[2:]), _VALUES, max_size=5),
)
def test_any_request_is_answered_in_strict_json_with_its_whole_number_id(
    kind: str, ident: Any, extra: dict[str, Any]
) -> None:
    answer = strict(handle_line(json.dumps({"type": kind, "id": ident, **extra})))
    assert answer.get("error") != "internal-error", answer
    if type(ident) is int:
        assert answer["id"] == ident
    else:
        assert "id" not in answer


@settings(max_examples=EXAMPLES, deadline=None)
@given(line=st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_any_bytes_are_answered_in_strict_json(line: bytes) -> None:
    answer = strict(handle_line(line))
    assert answer.get("error") != "internal-error", answer


# -- cards that no deck holds, and look-alike letters (each refused where a side enters) --------

KELVIN = "\u212a"  # KELVIN SIGN: lowercases to an ASCII k
LOOK_ALIKE_JOKER = f"jo{KELVIN}er"


@pytest.mark.parametrize(
    ("cards", "named"),
    [
        (["red 1", "red 1", "red 1"], "red 1 3 times (the game has one)"),
        (["joker", "joker", "joker"], "joker 3 times"),
        (["joker", "joker", "spy", "shield-bearer"], "joker twice (a player plays one Joker"),
        (["spy", "spy", "red 1"], "spy twice (the game has one)"),
        (["shield-bearer", "red 2", "shield-bearer"], "shield-bearer twice (the game has one)"),
    ],
)
def test_a_side_no_deck_holds_is_refused_by_the_protocol(cards: list[str], named: str) -> None:
    answer = strict(handle_line(json.dumps({"type": "formation", "id": 3, "cards": cards})))
    assert answer["error"] == "bad-request"
    assert named in answer["message"]


def test_a_look_alike_letter_is_an_error_naming_the_character_everywhere() -> None:
    from schotten.checker import check
    from schotten.errors import InvalidNotationError
    from schotten.records import Record

    named = "U+212A KELVIN SIGN is not ASCII"
    formation = {"type": "formation", "cards": [LOOK_ALIKE_JOKER, "red 1", "red 2"]}
    assert named in strict(handle_line(json.dumps(formation)))["message"]
    table = {
        "variant": "tactical",
        "stones": [{"number": 2, "first": [LOOK_ALIKE_JOKER], "second": []}],
        "discard": {"first": [], "second": []},
    }
    claim = {"type": "claim", "position": table, "claimer": "first", "stones": [2]}
    answer = strict(handle_line(json.dumps(claim)))
    assert answer["error"] == "bad-position" and named in answer["message"]
    checked = json.loads(check(json.dumps({"variant": "tactical", "mine": [LOOK_ALIKE_JOKER]})))
    assert checked == {"ok": False, "error": "unknown-card", "cards": [LOOK_ALIKE_JOKER]}
    record = {
        "format": "schotten-record/1",
        "variant": "tactical",
        "seed": 1,
        "moves": ["play red 3 at 5", f"play {LOOK_ALIKE_JOKER} at 4"],
    }
    with pytest.raises(InvalidNotationError, match="move 2: the character U\\+212A KELVIN SIGN"):
        Record.loads(json.dumps(record))
    apply = {"type": "apply", "position": {}, "move": f"play {LOOK_ALIKE_JOKER} at 4"}
    assert strict(handle_line(json.dumps(apply)))["error"] == "bad-position"  # no position yet


def test_a_look_alike_letter_in_a_case_file_is_refused_at_its_line(tmp_path: Path) -> None:
    # The case schema's card pattern is ASCII: the file's line and column and the text are named.
    from schotten.casebook.build import load_case
    from schotten.casebook.errors import CaseFileError

    source = Path(__file__).resolve().parents[1] / "cases" / "discarded-joker-still-counts.yaml"
    text = source.read_text(encoding="utf-8").replace("[joker]", f"[{LOOK_ALIKE_JOKER}]", 1)
    assert LOOK_ALIKE_JOKER in text
    copy = tmp_path / source.name
    copy.write_text(text, encoding="utf-8")
    with pytest.raises(
        CaseFileError, match=f":22:14: discard.opponent.0.: .*got '{LOOK_ALIKE_JOKER}'"
    ):
        load_case(copy)


def test_serve_reads_a_line_in_memory_a_small_multiple_of_its_size() -> None:
    import io
    import tracemalloc

    from schotten.conformance.protocol import serve

    # Empty arrays: 3 characters each, 56 bytes each once built.
    line = b'{"type":"formation","cards":[' + b"[]," * 300_000 + b"[]]}\n"
    sink = io.StringIO()
    tracemalloc.start()
    try:
        serve(io.BytesIO(line), sink)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert strict(sink.getvalue())["error"] == "bad-request"
    assert peak < 6 * len(line), f"{peak:,} bytes for a line of {len(line):,}"
