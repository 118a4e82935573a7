"""JSON from outside (game records, the in-page checker, the casebook's lock), read strictly and
within bounds.

:func:`loads` is ``json.loads`` with the limits an input from anybody needs: a text longer than
its ``limit`` (:data:`MAX_LENGTH` by default) is refused before anything is decoded; nesting
deeper than :data:`MAX_DEPTH` is refused before the parser recurses (a ``RecursionError`` is
fatal in the browser), by a scan whose memory does not grow with the text; numbers are at most
:data:`MAX_DIGITS` digits and finite (``1e400``, ``NaN`` and ``Infinity`` are refused: they
cannot be written back as JSON); and a key twice in one object is an error (the last one would
silently win). Every problem is a :class:`JsonInputError` with its line and column when there
is one.

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
import math
import re
from typing import Any

from schotten.cards import Card, Tactic, parse_card, quoted
from schotten.errors import InvalidNotationError, SchottenError

MAX_DEPTH = 20
MAX_DIGITS = 30
MAX_LENGTH = 8 * 1024 * 1024
"""The default limit of :func:`loads`, in characters (in bytes for bytes): twice a record's."""

# The depth check works on the text with its strings taken out, then with everything but
# brackets taken out, all by the regular expression engine (a loop in Python over each
# character made reading the suite several times slower). The string pattern is possessive: it
# keeps no backtracking state (``"(?:[^"\\]|\\.)*"`` kept about 120 bytes of it a character).
_STRING = re.compile(r'"(?>[^"\\]*)(?:\\.(?>[^"\\]*))*+"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_INNERMOST = re.compile(r"\[\]|\{\}")
_LONG_NUMBER = re.compile(f"[0-9]{{{MAX_DIGITS + 1},}}")
# What the exact scan has to see: brackets, and the quotes and backslashes that say whether a
# bracket is inside a string.
_SIGNIFICANT = re.compile(r'[\[\]{}"\\]')


class JsonInputError(SchottenError, ValueError):
    """Text that is not JSON, or JSON past the limits; ``line``/``column`` from 1 (0: unknown)."""

    def __init__(self, message: str, line: int = 0, column: int = 0) -> None:
        where = f"line {line}, column {column}: " if line else ""
        super().__init__(f"{where}{message}")
        self.message = message
        self.line = line
        self.column = column


def loads(text: str | bytes, limit: int = MAX_LENGTH, values: int | None = None) -> Any:
    """Decode JSON text (bytes must be UTF-8) of at most ``limit`` characters (bytes), within
    the limits above; ``values``: at most that many arrays, objects and items in them, counted
    before anything is built (an empty array costs 56 bytes of memory for its 3 characters:
    without such a limit, a line of ``[],[],...`` costs 30 times its size).

    >>> loads("[[],[],[]]", values=3)
    Traceback (most recent call last):
    ...
    schotten.json_input.JsonInputError: 6 values or more (at most 3)
    """
    if isinstance(text, str | bytes | bytearray) and len(text) > limit:
        raise JsonInputError(f"{len(text):,} characters: more than the {limit:,} accepted")
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as error:
            raise JsonInputError(
                f"not UTF-8 text (byte 0x{text[error.start]:02x} at offset {error.start})"
            ) from None
    if not isinstance(text, str):
        raise JsonInputError(f"expected JSON text, not {type(text).__name__}")
    _check_outside_strings(text, values)
    try:
        return json.loads(
            text,
            object_pairs_hook=_object,
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


def not_ascii(text: str) -> str | None:
    """What is wrong with ``text`` when it holds a character outside ASCII (its first one,
    named), else ``None``. Names of cards and moves are ASCII: a look-alike letter (the KELVIN
    SIGN lowercases to ``k``) would otherwise be read as the letter it resembles."""
    if text.isascii():
        return None
    char = next(c for c in text if ord(c) > 127)
    try:  # the in-page checker's trimmed standard library may lack it
        import unicodedata

        name = f" {unicodedata.name(char, '')}".rstrip()
    except ImportError:  # pragma: no cover - the browser only
        name = ""
    return f"the character U+{ord(char):04X}{name} is not ASCII (names are written in ASCII)"


def card_from_text(text: str) -> Card:
    """A card's name from outside, read as :func:`~schotten.cards.parse_card` reads it but in
    ASCII only; a look-alike character is an :class:`InvalidNotationError` naming it."""
    problem = not_ascii(text) if isinstance(text, str) else None
    if problem is not None:
        raise InvalidNotationError(f"{quoted(text)} is not a card: {problem}")
    return parse_card(text)


def copies_problem(cards: list[Card] | tuple[Card, ...], *, side: bool = False) -> str | None:
    """What makes a set of cards one that no deck holds (a card more times than the game has
    it: one of each Clan card, two Jokers, one Spy, one Shield-Bearer, one of each other tactic
    card), else ``None``: ``red 1 3 times (the game has one)``. ``side``: the cards of one
    player's side, who plays one Joker at most."""
    counts: dict[Card, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    words = {1: "once", 2: "twice"}
    for card, count in counts.items():
        has = card.copies if isinstance(card, Tactic) and not side else 1
        if count > has:
            times = words.get(count, f"{count} times")
            if side and card is Tactic.JOKER:
                return f"{card} {times} (a player plays one Joker at most)"
            return f"{card} {times} (the game has {'one' if has == 1 else 'two'})"
    return None


def position(text: str, offset: int) -> tuple[int, int]:
    """Line and column (from 1) of a character offset."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - text.rfind("\n", 0, offset)


class _DuplicateKeyError(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _check_outside_strings(text: str, values: int | None = None) -> None:
    """The depth, the length of whole numbers (checked here, by the regular expression
    engine: a hook of the parser called for each number made reading slow) and the number of
    values (an upper bound: a comma or an opening bracket outside strings each begin one)."""
    bare = _STRING.sub("", text)
    long = _LONG_NUMBER.search(bare)
    if long is not None:
        digits = len(long.group())
        raise JsonInputError(f"a number of {digits} digits (at most {MAX_DIGITS})")
    if values is not None:
        count = bare.count(",") + bare.count("[") + bare.count("{")
        if count > values:
            # Too deep is said first when it is so; by the exact scan, whose memory does not
            # grow with the text (the substitutions of the quick check build a piece a match).
            _scan_depth(text)
            raise JsonInputError(f"{count:,} values or more (at most {values:,})")
    _check_depth(bare, text)


def _check_depth(bare: str, text: str) -> None:
    brackets = _NOT_BRACKET.sub("", bare)
    for _ in range(MAX_DEPTH):
        if not brackets:
            return
        inner = _INNERMOST.sub("", brackets)  # one level of nesting a pass
        if inner == brackets:
            break  # unbalanced: the exact scan decides
        brackets = inner
    if brackets:
        _scan_depth(text)


def _scan_depth(text: str) -> None:
    """The depth check, character by character: the position of the first bracket too deep."""
    depth = 0
    in_string = False
    escaped = -1  # the offset of the character a backslash escapes
    for match in _SIGNIFICANT.finditer(text):
        offset = match.start()
        if offset == escaped:
            continue
        token = text[offset]
        if token == "\\":
            escaped = offset + 1
        elif token == '"':
            in_string = not in_string
        elif in_string:
            continue
        elif token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                line, column = position(text, offset)
                raise JsonInputError(f"nested deeper than {MAX_DEPTH} levels", line, column)
        else:
            depth -= 1


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKeyError(key)
            seen.add(key)
    return result


def _float(text: str) -> float:
    if len(text) > MAX_DIGITS + 10:
        raise JsonInputError(f"a number of {len(text)} characters")
    value = float(text)
    if not math.isfinite(value):
        raise JsonInputError(f"the number {text} is too large to be read")
    return value


def _constant(name: str) -> Any:
    raise JsonInputError(f"{name} is not a JSON number")
