"""The JSON Schema of a case file, built from the engine's own names (cards, rules, reasons).

``cases/case.schema.json`` is this schema as text (``schotten schema`` prints it); a test keeps
the two identical. :func:`schema_errors` checks a case's data against it,
each violation located and worded for an editor; checks a schema cannot express (a card twice, a
side over capacity, ...) are in :mod:`schotten.casebook.build`.

>>> case_schema()["properties"]["variant"]["enum"]
['base', 'tactical']
>>> schema_text().startswith("{")
True
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import jsonschema  # type: ignore[import-untyped]

from schotten.board import STONES, Variant
from schotten.cards import Colour, Tactic
from schotten.casebook.errors import CaseError, KeyPath
from schotten.casebook.hints import suggest_card, suggest_rule, suggest_word
from schotten.casebook.loader import Document, is_ascii_number
from schotten.casebook.model import PLAYER_OF
from schotten.claims import Reason
from schotten.formations import FormationKind
from schotten.labels import LANGUAGES
from schotten.outcome import Termination
from schotten.refusals import Refusal
from schotten.rules import Rule

PLAYERS = tuple(PLAYER_OF)  # you, opponent
GAME_STATES = ("ongoing", "won-by-you", "won-by-opponent", "draw")
STARTS = ("play", "claim", "draw")
TERMINATIONS = tuple(str(t) for t in Termination)
DECKS = ("clan", "tactic")


def formation_name(kind: FormationKind) -> str:
    """``same-value``: a formation kind as written in case files and labels."""
    return kind.key


def step_results() -> list[str]:
    """``ok``, or ``illegal`` and the finest id of the refusal: a rule id, or one of the finer
    reasons of :class:`~schotten.refusals.Refusal`."""
    return ["ok", *(f"illegal {rule}" for rule in Rule), *(f"illegal {r}" for r in Refusal)]


_COLOURS = "|".join(str(c) for c in Colour)
_TACTICS = "|".join(t.value for t in Tactic)
CARD_PATTERN = rf"^(?:(?:{_COLOURS}) [1-9]|{_TACTICS})$"
_KINDS = "|".join(formation_name(k) for k in sorted(FormationKind, reverse=True))
FORMATION_PATTERN = rf"^(?:{_KINDS}) [1-9][0-9]?$"
TABLE_PATTERN = r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$"


def _stone_keys(value: dict[str, Any]) -> dict[str, Any]:
    return {str(n): value for n in STONES}


def _by_player(value: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {p: value for p in PLAYERS},
        "additionalProperties": False,
    }


def case_schema() -> dict[str, Any]:
    """The schema, as a new dict each time (callers may not share a mutable one)."""
    cards = {"type": "array", "items": {"$ref": "#/$defs/card"}}
    player = {"$ref": "#/$defs/player"}
    stone_list = {
        "type": "array",
        "items": {"type": "integer", "minimum": 1, "maximum": 9},
        "uniqueItems": True,
    }
    text = {
        "type": "object",
        "properties": {lang: {"type": "string", "minLength": 1} for lang in LANGUAGES},
        "required": list(LANGUAGES),
        "additionalProperties": False,
    }
    stone = {
        "type": "object",
        "description": "one stone: both sides, completion order, claim and combat modes",
        "properties": {
            "you": {**cards, "maxItems": 4},
            "opponent": {**cards, "maxItems": 4},
            "completed_first": player,
            "claimed_by": player,
            str(Tactic.MUD_FIGHT): player,
            str(Tactic.BLIND_MANS_BLUFF): player,
        },
        "additionalProperties": False,
    }
    verdict = {
        "type": "object",
        "properties": {
            "verdict": {"enum": ["granted", "refused"]},
            "reason": {"enum": [str(r) for r in Reason], "description": "a reason of the engine"},
            "witness": {
                "type": "object",
                "properties": {
                    "cards": {**cards, "minItems": 1},
                    "formation": {
                        "type": "string",
                        "pattern": FORMATION_PATTERN,
                        "description": "a formation: '<kind> <total>', e.g. 'same-value 9'",
                    },
                },
                "required": ["cards", "formation"],
                "additionalProperties": False,
            },
        },
        "required": ["verdict", "reason"],
        "additionalProperties": False,
        "if": {"properties": {"reason": {"const": str(Reason.OPPONENT_CAN_BEAT)}}},
        "then": {"required": ["witness"]},
        "else": {"properties": {"witness": False}},
    }
    move = {
        "type": "object",
        "description": "one move: '<you|opponent>: <move>'",
        "properties": {p: {"type": "string", "minLength": 1} for p in PLAYERS},
        "minProperties": 1,
        "maxProperties": 1,
        "additionalProperties": False,
    }
    play_on = {
        "type": "object",
        "properties": {
            "start": {"enum": list(STARTS)},
            "decks": {
                "type": "object",
                "properties": {d: cards for d in DECKS},
                "additionalProperties": False,
            },
            "question": {
                "type": "object",
                "description": (
                    "the move the situation asks about: '<you|opponent>: <move>', one of "
                    "`moves`; with 'move: <number>' (from 1) when that move is written twice"
                ),
                "properties": {
                    **{p: {"type": "string", "minLength": 1} for p in PLAYERS},
                    "move": {"type": "integer", "minimum": 1},
                },
                "minProperties": 1,
                "maxProperties": 2,
                "oneOf": [{"required": [p]} for p in PLAYERS],
                "additionalProperties": False,
            },
            "moves": {"type": "array", "items": move, "minItems": 1},
        },
        "required": ["question", "moves"],
        "additionalProperties": False,
    }
    expect_play_on = {
        "type": "object",
        "properties": {
            "steps": {
                "type": "array",
                "items": {
                    "enum": step_results(),
                    "description": "'ok' or 'illegal <rule id or finer refusal id>'",
                },
            },
            "game": {"enum": list(GAME_STATES)},
            "held": _by_player(stone_list),
            "termination": {"enum": list(TERMINATIONS)},
            "points": {
                "type": "object",
                "properties": {p: {"type": "integer", "minimum": 0} for p in PLAYERS},
                "required": list(PLAYERS),
                "additionalProperties": False,
            },
        },
        "required": ["steps", "game", "held"],
        "additionalProperties": False,
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://schotten-totten.example/case.schema.json",
        "title": "Schotten Totten case",
        "description": (
            "One position of Schotten Totten seen from the claiming player ('you'), at the claim "
            "step, with the verdicts the engine gave (cases/README.md)."
        ),
        "type": "object",
        "properties": {
            "situation": text,
            "why": text,
            "source": {"type": "string", "minLength": 1},
            "rule": {
                "type": "array",
                "items": {"enum": [str(r) for r in Rule], "description": "a rule id"},
                "minItems": 1,
                "uniqueItems": True,
            },
            "published": {
                "type": "object",
                "description": "where the case is published: a table of the site and its row",
                "properties": {
                    "table": {
                        "type": "string",
                        "pattern": TABLE_PATTERN,
                        "description": "a table id in kebab-case, e.g. 'faq'",
                    },
                    "row": {"type": "integer", "minimum": 1},
                },
                "required": ["table", "row"],
                "additionalProperties": False,
            },
            "variant": {"enum": [str(v) for v in Variant]},
            "stones": {
                "type": "object",
                "properties": _stone_keys(stone),
                "additionalProperties": False,
            },
            "hands": _by_player(cards),
            "discard": _by_player(cards),
            "claim": {**stone_list, "minItems": 1},
            "play_on": play_on,
            "expect": {
                "type": "object",
                "properties": {
                    "stones": {
                        "type": "object",
                        "properties": _stone_keys(verdict),
                        "additionalProperties": False,
                    },
                    "game": {"enum": list(GAME_STATES)},
                    "play_on": expect_play_on,
                },
                "additionalProperties": False,
            },
        },
        "required": ["situation", "why", "source", "rule", "variant"],
        "anyOf": [{"required": ["claim"]}, {"required": ["play_on"]}],
        # A play-on needs the whole state: both hands, complete.
        "dependentSchemas": {
            "play_on": {
                "required": ["hands"],
                "properties": {"hands": {"required": list(PLAYERS)}},
            }
        },
        "additionalProperties": False,
        "$defs": {
            "card": {
                "type": "string",
                "pattern": CARD_PATTERN,
                "description": (
                    "a card: '<colour> <value>' (colour among "
                    + ", ".join(str(c) for c in Colour)
                    + "; value 1-9) or a tactic card ("
                    + ", ".join(t.value for t in Tactic)
                    + ")"
                ),
            },
            "player": {"enum": list(PLAYERS)},
        },
    }


def schema_text() -> str:
    """The schema as written in ``cases/case.schema.json``."""
    return json.dumps(case_schema(), indent=2, ensure_ascii=False) + "\n"


def _is_integer(checker: Any, instance: Any) -> bool:
    # JSON Schema counts 4.0 as an integer; a case file writes whole numbers as whole numbers.
    return isinstance(instance, int) and not isinstance(instance, bool)


@cache
def _validator() -> jsonschema.protocols.Validator:
    base = jsonschema.Draft202012Validator
    strict = jsonschema.validators.extend(
        base, type_checker=base.TYPE_CHECKER.redefine("integer", _is_integer)
    )
    validator: jsonschema.protocols.Validator = strict(case_schema())
    return validator


def schema_errors(doc: Document, data: Any) -> list[CaseError]:
    """Every schema violation, located at the offending key or value."""
    errors: list[CaseError] = []
    for error in _validator().iter_errors(data):
        key_path = tuple(_path_step(p) for p in error.absolute_path)
        if error.validator == "additionalProperties":
            allowed = sorted(error.schema.get("properties", {}))
            for name in sorted(set(error.instance) - set(allowed), key=str):
                step = _path_step(name)
                where = ", ".join(allowed)
                message = f"unknown key {_show(name)} (expected: {where})"
                meant = suggest_word(str(name), allowed)
                if meant is not None:
                    message = (
                        f"unknown key {_show(name)}: did you mean {meant!r}? (expected: {where})"
                    )
                errors.append(doc.error((*key_path, step), message, key=True))
            continue
        if error.schema is False:
            # jsonschema leaves the forbidden key out of the path: find it by identity.
            parent = _at(data, key_path)
            if isinstance(parent, dict):
                key_path += tuple(_path_step(k) for k, v in parent.items() if v is error.instance)
        errors.append(doc.error(key_path, _schema_message(error)))
    return errors


def _at(data: Any, key_path: KeyPath) -> Any:
    for step in key_path:
        data = data[str(step)] if isinstance(data, dict) else data[step]
    return data


def _schema_message(error: jsonschema.ValidationError) -> str:
    schema = error.schema
    if schema is False:
        return f"not allowed here (a witness is recorded only for {Reason.OPPONENT_CAN_BEAT})"
    validator = error.validator
    described = isinstance(schema, dict) and "description" in schema
    if validator in ("pattern", "enum") and described:
        return f"expected {schema['description']}, got {_show(error.instance)}{_hint(error)}"
    if validator == "enum":
        choices = ", ".join(map(str, error.validator_value))
        return f"expected one of {choices}, got {_show(error.instance)}{_hint(error)}"
    if validator == "required" and error.message.startswith("'question'"):
        return (
            "missing key 'question': a play-on states the move its situation asks about, "
            "one of its moves (`question: {you: <move>}`)"
        )
    if validator == "required":
        return f"missing key {error.message.split(' is a required')[0]}"
    if validator == "anyOf" and not error.absolute_path:
        return "a case needs `claim`, `play_on`, or both"
    if validator == "minItems":
        return f"at least {error.validator_value} expected, got {len(error.instance)}"
    if validator == "maxItems":
        return f"at most {error.validator_value} expected, got {len(error.instance)}"
    if validator == "uniqueItems":
        return f"an item is listed twice in {_show(error.instance)}"
    if validator == "minimum" and error.absolute_path and error.absolute_path[-1] == "row":
        return f"expected a row number from 1, got {_show(error.instance)}"
    if validator == "minimum" and error.absolute_path and error.absolute_path[-1] == "move":
        return f"expected a move number from 1, got {_show(error.instance)}"
    if validator in ("oneOf", "minProperties") and list(error.absolute_path)[-1:] == ["question"]:
        return "a question names one move and its mover: `you: <move>` or `opponent: <move>`"
    if validator in ("minimum", "maximum"):
        return f"expected a stone from 1 to 9, got {_show(error.instance)}"
    if validator == "type":
        return _type_message(error)
    return str(error.message)[:200]


def _hint(error: jsonschema.ValidationError) -> str:
    """``: did you mean 'red 5'?`` for a value close to one the format takes."""
    value = error.instance
    if not isinstance(value, str):
        return ""
    description = str(error.schema.get("description", "")) if isinstance(error.schema, dict) else ""
    if description.startswith("a card"):
        meant = suggest_card(value)
    elif description == "a rule id":
        meant = suggest_rule(value)
    elif error.validator == "enum":
        meant = suggest_word(value, [str(v) for v in error.validator_value])
    else:
        meant = None
    return f": did you mean {meant!r}?" if meant is not None and meant != value else ""


def _type_message(error: jsonschema.ValidationError) -> str:
    path = list(error.absolute_path)
    text_field = len(path) == 1 and path[0] in ("situation", "why")
    if error.validator_value == "object" and text_field:
        return (
            f"one text per language: write `{path[0]}: {{fr: ..., es: ...}}`, or `{path[0]}:` "
            "then one indented line per language (`fr: ...`, `es: ...`)"
        )
    if error.instance is None and error.validator_value == "string":
        return "the text is empty: write it after the key (in double quotes if it holds `: `)"
    return f"expected {_type_name(error.validator_value)}, got {_show(error.instance)}"


def _show(value: Any, limit: int = 60) -> str:
    if value is None:
        return "nothing"
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _type_name(kind: Any) -> str:
    names = {
        "object": "keys and values (`key: value`)",
        "array": "a list",
        "string": "text",
        "integer": "a whole number",
    }
    kinds = kind if isinstance(kind, list) else [kind]
    return " or ".join(names.get(k, str(k)) for k in kinds)


def json_keys(value: Any) -> Any:
    """The data as JSON sees it: mapping keys are text (YAML reads ``4:`` as a number)."""
    if isinstance(value, dict):
        return {str(k): json_keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_keys(v) for v in value]
    return value


def _path_step(step: Any) -> str | int:
    if isinstance(step, str) and is_ascii_number(step):
        return int(step)
    return step if isinstance(step, int) else str(step)
