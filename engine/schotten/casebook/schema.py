"""The JSON Schema of a case file, built from the engine's own names (cards, rules, reasons).

``cases/case.schema.json`` is this schema as text (``schotten schema`` prints it); a test keeps
the two identical. Checks a schema cannot express (a card twice, a side over capacity, ...) are
in :mod:`schotten.casebook.case`.

>>> case_schema()["properties"]["variant"]["enum"]
['base', 'tactical']
>>> schema_text().startswith("{")
True
"""

from __future__ import annotations

import json
from typing import Any

from schotten.board import STONES, Variant
from schotten.cards import Colour, Tactic
from schotten.claims import Reason
from schotten.formations import FormationKind
from schotten.labels import LANGUAGES
from schotten.outcome import Termination
from schotten.rules import Rule

PLAYERS = ("you", "opponent")
GAME_STATES = ("ongoing", "won-by-you", "won-by-opponent", "draw")
STARTS = ("play", "claim", "draw")
TERMINATIONS = tuple(str(t) for t in Termination)
DECKS = ("clan", "tactic")


def formation_name(kind: FormationKind) -> str:
    """``same-value``: a formation kind as written in case files and labels."""
    return kind.key


def step_results() -> list[str]:
    return ["ok", *(f"illegal {rule}" for rule in Rule)]


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
            "moves": {"type": "array", "items": move, "minItems": 1},
        },
        "required": ["moves"],
        "additionalProperties": False,
    }
    expect_play_on = {
        "type": "object",
        "properties": {
            "steps": {
                "type": "array",
                "items": {
                    "enum": step_results(),
                    "description": "'ok' or 'illegal <rule id>'",
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
