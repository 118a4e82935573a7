"""Hypothesis strategies that damage real inputs: a JSON value with one node replaced, dropped or
added, and a text with nasty snippets spliced in (non-ASCII digits, control characters, huge
numbers, deep nesting, a key twice)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

# JSON values of every kind, small; the nasty large ones are spliced in as text (json.dumps
# itself refuses an integer of thousands of digits).
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from(["first", "second", "base", "tactical", "play", "return", "red 7", "joker"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)

SNIPPETS = (
    "²",
    "⑦",
    "７",
    "٣",
    "\x00",
    "\x0c",
    "\u202e",
    "\ud800",
    "9" * 5000,
    "-" + "1" * 400,
    "[" * 60,
    "]" * 60,
    "{" * 60,
    '{"a": ' * 3000,
    "[" * 5000 + "]" * 5000,
    '"first": "x", ',
    '"seed": 1, ',
    '"start": {}, ',
    "NaN",
    "1e400",
    ", ",
    '"',
    "\\",
    "\\u0000",
    "null",
    "[]",
)


# What a digit of the notation may be replaced with: none of them is a digit to the engine.
ODD_DIGITS = ("²", "⑦", "７", "٣", "1" * 5000, "05", "10", "-1")


@st.composite
def mutated_json(draw: st.DrawFn, value: Any) -> Any:
    """``value`` (decoded JSON) with one node replaced, removed, or given a new key/item."""
    if isinstance(value, dict | list) and value and draw(st.integers(0, 3)) > 0:
        keys = sorted(value) if isinstance(value, dict) else list(range(len(value)))
        key = draw(st.sampled_from(keys))
        copy: Any = dict(value) if isinstance(value, dict) else list(value)
        action = draw(st.sampled_from(["descend", "descend", "drop", "add"]))
        if action == "descend":
            copy[key] = draw(mutated_json(value[key]))
        elif action == "drop":
            del copy[key]
        elif isinstance(copy, dict):
            copy[draw(st.text(max_size=8))] = draw(json_values)
        else:
            copy.insert(draw(st.integers(0, len(copy))), draw(json_values))
        return copy
    return draw(json_values)


@st.composite
def mutated_text(draw: st.DrawFn, text: str) -> str:
    """``text`` with a few snippets spliced in, or cut short, or a stretch of it repeated."""
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert", "insert", "cut", "replace", "repeat", "digit"]))
        snippet = draw(st.sampled_from(SNIPPETS) | st.text(max_size=4))
        digits = [i for i, c in enumerate(text) if c.isascii() and c.isdigit()]
        if action == "digit" and digits:
            at = draw(st.sampled_from(digits))
            text = text[:at] + draw(st.sampled_from(ODD_DIGITS)) + text[at + 1 :]
        elif action == "insert":
            text = text[:at] + snippet + text[at:]
        elif action == "cut":
            text = text[:at]
        elif action == "replace":
            text = text[:at] + snippet + text[at + len(snippet) :]
        elif action == "repeat":
            end = draw(st.integers(at, min(len(text), at + 20)))
            text = text[:end] + text[at:end] * 3 + text[end:]
    return text


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
