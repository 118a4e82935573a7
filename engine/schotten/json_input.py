"""JSON from outside (game records, the in-page checker, the casebook's lock), read strictly and
within bounds.

:func:`loads` is ``json.loads`` with the limits an input from anybody needs: nesting deeper than
:data:`MAX_DEPTH` is refused before the parser recurses (a ``RecursionError`` is fatal in the
browser), numbers are at most :data:`MAX_DIGITS` digits, ``NaN`` and ``Infinity`` are not JSON,
and a key twice in one object is an error (the last one would silently win). Every problem is a
:class:`JsonInputError` with its line and column when there is one.

>>> loads('{"seed": 3, "moves": []}')
{'seed': 3, 'moves': []}
>>> loads('{"seed": 3,\\n "seed": 4}')
Traceback (most recent call last):
...
schotten.json_input.JsonInputError: the key "seed" is given twice in one object
>>> loads("[" * 100 + "]" * 100)
Traceback (most recent call last):
...
schotten.json_input.JsonInputError: line 1, column 21: nested deeper than 20 levels
"""

from __future__ import annotations

import json
import re
from typing import Any

from schotten.errors import SchottenError

MAX_DEPTH = 20
MAX_DIGITS = 30

# A string (escapes included) or one bracket: what the depth check has to see.
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


class JsonInputError(SchottenError, ValueError):
    """Text that is not JSON, or JSON past the limits; ``line``/``column`` from 1 (0: unknown)."""

    def __init__(self, message: str, line: int = 0, column: int = 0) -> None:
        where = f"line {line}, column {column}: " if line else ""
        super().__init__(f"{where}{message}")
        self.message = message
        self.line = line
        self.column = column


def loads(text: str | bytes) -> Any:
    """Decode JSON text (bytes must be UTF-8) within the limits above."""
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as error:
            raise JsonInputError(
                f"not UTF-8 text (byte 0x{text[error.start]:02x} at offset {error.start})"
            ) from None
    if not isinstance(text, str):
        raise JsonInputError(f"expected JSON text, not {type(text).__name__}")
    _check_depth(text)
    try:
        return json.loads(
            text,
            object_pairs_hook=_object,
            parse_int=_integer,
            parse_float=_float,
            parse_constant=_constant,
        )
    except json.JSONDecodeError as error:
        raise JsonInputError(f"not JSON ({error.msg})", error.lineno, error.colno) from None
    except _DuplicateKeyError as error:
        # The parser gives no position to the hook; the key names the object well enough.
        raise JsonInputError(
            f"the key {json.dumps(error.key)} is given twice in one object"
        ) from None
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise JsonInputError(f"nested deeper than {MAX_DEPTH} levels") from None


def position(text: str, offset: int) -> tuple[int, int]:
    """Line and column (from 1) of a character offset."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - text.rfind("\n", 0, offset)


class _DuplicateKeyError(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _check_depth(text: str) -> None:
    depth = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                line, column = position(text, match.start())
                raise JsonInputError(f"nested deeper than {MAX_DEPTH} levels", line, column)
        elif token in "]}":
            depth -= 1


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _DuplicateKeyError(key)
        result[key] = value
    return result


def _integer(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise JsonInputError(f"a number of {len(digits)} digits (at most {MAX_DIGITS})")
    return int(digits)


def _float(text: str) -> float:
    if len(text) > MAX_DIGITS + 10:
        raise JsonInputError(f"a number of {len(text)} characters")
    return float(text)


def _constant(name: str) -> Any:
    raise JsonInputError(f"{name} is not a JSON number")
