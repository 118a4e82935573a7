"""JSON from outside (:mod:`schotten.json_input`): read strictly, within its limits of length,
depth and digits, every refusal a :class:`JsonInputError` located where the text allows."""

from __future__ import annotations

import pytest

from schotten import json_input
from schotten.errors import SchottenError


def test_json_input_refuses_numbers_it_cannot_write_back() -> None:
    for text in ("1e400", "[-1e400]", '{"a": 1E999}', "NaN", "-Infinity"):
        with pytest.raises(json_input.JsonInputError):
            json_input.loads(text)
    assert json_input.loads("[1e300, -0.5]") == [1e300, -0.5]


def test_json_input_refuses_a_text_over_its_limit_before_decoding_it() -> None:
    with pytest.raises(json_input.JsonInputError, match="more than the 10 accepted"):
        json_input.loads('["abcdefghijk"]', limit=10)
    with pytest.raises(json_input.JsonInputError, match="more than the 10 accepted"):
        json_input.loads(b'["\xff\xff\xff\xff\xff\xff\xff"]', limit=10)


def test_brackets_inside_strings_and_escapes_do_not_count_as_depth() -> None:
    deep_text = '["' + "[" * 100 + '\\"' + "{" * 100 + '\\\\"]'
    assert json_input.loads(deep_text) == ["[" * 100 + '"' + "{" * 100 + "\\"]
    with pytest.raises(json_input.JsonInputError, match="nested deeper"):
        json_input.loads('["\\\\"' + ", [" * 30 + "]" * 30 + "]")


def test_json_input_reads_plain_json_from_text_and_from_utf8_bytes() -> None:
    assert json_input.loads('{"a": [1, 2.5, "x", true, null]}') == {"a": [1, 2.5, "x", True, None]}
    assert json_input.loads(b'{"a": "\xc3\xa9"}') == {"a": "\u00e9"}


def test_json_input_refuses_bytes_that_are_not_utf8() -> None:
    with pytest.raises(
        json_input.JsonInputError, match=r"not UTF-8 text \(byte 0xff at offset 2\)"
    ):
        json_input.loads(b'["\xff"]')


def test_json_input_refuses_what_is_not_text() -> None:
    with pytest.raises(json_input.JsonInputError, match="expected JSON text, not int"):
        json_input.loads(3)  # type: ignore[arg-type]


def test_json_input_limit_counts_bytes_for_bytes_and_characters_for_text() -> None:
    assert json_input.loads('"\u00e9"', limit=3) == "\u00e9"  # three characters
    with pytest.raises(json_input.JsonInputError, match="4 characters: more than the 3 accepted"):
        json_input.loads('"\u00e9"'.encode(), limit=3)  # four bytes


def test_json_input_locates_a_syntax_error_by_line_and_column() -> None:
    with pytest.raises(json_input.JsonInputError) as caught:
        json_input.loads('{"a": 1,\n "b": }')
    error = caught.value
    assert (error.line, error.column) == (2, 7)
    assert error.message == "not JSON (Expecting value)"
    assert str(error) == "line 2, column 7: not JSON (Expecting value)"


def test_json_input_refuses_a_key_twice_in_a_nested_object() -> None:
    with pytest.raises(json_input.JsonInputError, match='the key "b" is given twice in one object'):
        json_input.loads('{"a": {"b": 1, "b": 1}}')
    assert json_input.loads('[{"b": 1}, {"b": 2}]') == [{"b": 1}, {"b": 2}]  # two objects


def test_json_input_whole_numbers_have_at_most_thirty_digits() -> None:
    assert json_input.MAX_DIGITS == 30
    assert json_input.loads("9" * 30) == int("9" * 30)
    with pytest.raises(json_input.JsonInputError, match=r"a number of 31 digits \(at most 30\)"):
        json_input.loads("[" + "9" * 31 + "]")
    assert json_input.loads('"' + "9" * 40 + '"') == "9" * 40  # digits in a string are text


def test_json_input_nesting_is_accepted_to_twenty_levels_exactly() -> None:
    assert json_input.MAX_DEPTH == 20
    assert json_input.loads("[" * 20 + "]" * 20) is not None
    with pytest.raises(json_input.JsonInputError) as caught:
        json_input.loads('{"a":\n' + "[" * 20 + "]" * 20 + "}")
    # The object is level 1: the twentieth bracket of line 2 is the twenty-first level.
    assert (caught.value.line, caught.value.column) == (2, 20)


def test_json_input_position_counts_lines_and_columns_from_one() -> None:
    assert json_input.position("ab\ncd", 0) == (1, 1)
    assert json_input.position("ab\ncd", 4) == (2, 2)


def test_json_input_errors_are_user_errors() -> None:
    error = json_input.JsonInputError("broken")
    assert isinstance(error, SchottenError) and isinstance(error, ValueError)
    assert (str(error), error.line, error.column) == ("broken", 0, 0)
