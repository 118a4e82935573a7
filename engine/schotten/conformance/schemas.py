"""JSON Schemas (draft 2020-12) of the suite's files and of the protocol's messages.

``export`` writes them beside the vectors; the tests validate every committed vector with them.

>>> sorted(SCHEMAS)
['claims', 'formations', 'games', 'moves', 'outcomes', 'perft', 'protocol', 'provable']
"""

from __future__ import annotations

from typing import Any

from schotten.claims import Reason
from schotten.formations import FormationKind
from schotten.rules import Rule
from schotten.rulings import SITE_RULINGS

DRAFT = "https://json-schema.org/draft/2020-12/schema"
_COLOURS = "red|orange|yellow|green|blue|purple"
_TACTICS = "joker|spy|shield-bearer|blind-mans-bluff|mud-fight|recruiter|strategist|banshee|traitor"

CARD: dict[str, Any] = {
    "type": "string",
    "pattern": f"^(({_COLOURS}) [1-9]|{_TACTICS})$",
    "description": "a card: '<colour> <value>' or a tactic card's name",
}
CARDS: dict[str, Any] = {"type": "array", "items": {"$ref": "#/$defs/card"}}
PLAYER: dict[str, Any] = {"enum": ["first", "second"]}
WHO: dict[str, Any] = {"enum": ["first", "second", None]}
STEP: dict[str, Any] = {"type": ["integer", "null"], "minimum": 0}
STONE: dict[str, Any] = {
    "type": "object",
    "required": ["number", "first", "second"],
    "additionalProperties": False,
    "properties": {
        "number": {"type": "integer", "minimum": 1, "maximum": 9},
        "first": {"$ref": "#/$defs/cards"},
        "second": {"$ref": "#/$defs/cards"},
        "completed_at": {
            "type": "object",
            "additionalProperties": False,
            "properties": {"first": STEP, "second": STEP},
        },
        "claimed_by": WHO,
        "mud_fight": WHO,
        "blind_mans_bluff": WHO,
    },
}
BY_PLAYER: dict[str, Any] = {
    "type": "object",
    "required": ["first", "second"],
    "additionalProperties": False,
    "properties": {"first": {"$ref": "#/$defs/cards"}, "second": {"$ref": "#/$defs/cards"}},
}
TABLE_PROPERTIES: dict[str, Any] = {
    "variant": {"enum": ["base", "tactical"]},
    "stones": {"type": "array", "maxItems": 9, "items": {"$ref": "#/$defs/stone"}},
    "discard": {"$ref": "#/$defs/by_player"},
    "hands": {"$ref": "#/$defs/by_player"},
}
TABLE: dict[str, Any] = {
    "description": "the table part of a position (a claim reads it; hands are never proof); "
    "stones with nothing on them may be left out",
    "type": "object",
    "required": ["variant", "stones", "discard"],
    "additionalProperties": False,
    "properties": TABLE_PROPERTIES,
}
POSITION: dict[str, Any] = {
    "description": "a whole position, as schotten.position_data writes it",
    "type": "object",
    "required": [*TABLE["required"], "to_move", "phase", "step", "hands", "decks"],
    "additionalProperties": False,
    "properties": {
        **TABLE_PROPERTIES,
        "stones": {
            "type": "array",
            "minItems": 9,
            "maxItems": 9,
            "items": {"$ref": "#/$defs/stone"},
        },
        "to_move": PLAYER,
        "phase": {"enum": ["play", "return", "claim", "draw"]},
        "step": {"type": "integer", "minimum": 0},
        "recruited": {"type": "boolean"},
        "decks": {
            "type": "object",
            "required": ["clan", "tactic"],
            "additionalProperties": False,
            "properties": {"clan": {"$ref": "#/$defs/cards"}, "tactic": {"$ref": "#/$defs/cards"}},
        },
        "outcome": {
            "oneOf": [
                {"type": "null"},
                {
                    "type": "object",
                    "required": ["winner", "termination"],
                    "additionalProperties": False,
                    "properties": {
                        "winner": WHO,
                        "termination": {"enum": ["five-stones", "three-adjacent", "deadlock"]},
                    },
                },
            ]
        },
    },
}
FORMATION: dict[str, Any] = {
    "type": "string",
    "pattern": "^(" + "|".join(k.key for k in FormationKind) + ") [1-9][0-9]?$",
    "description": "'<kind> <total>', as case files write a formation: 'same-value 9'",
}
VERDICT: dict[str, Any] = {
    "type": "object",
    "required": ["stone", "verdict", "reason", "theirs", "witness"],
    "additionalProperties": False,
    "properties": {
        "stone": {"type": "integer", "minimum": 1, "maximum": 9},
        "verdict": {"enum": ["granted", "refused"]},
        "reason": {"enum": [str(r) for r in Reason]},
        "theirs": {
            "description": "the opponent's formation, or their best completion; null when the "
            "proof does not look at it (side-incomplete, stone-claimed, nothing completes)",
            "oneOf": [{"type": "null"}, {"$ref": "#/$defs/formation"}],
        },
        "witness": {
            "description": "the formation of a completion that beats the claimer "
            "(opponent-can-beat only)",
            "oneOf": [{"type": "null"}, {"$ref": "#/$defs/formation"}],
        },
    },
}
MOVE: dict[str, Any] = {"type": "string", "minLength": 1, "description": "a move in notation"}
RULE: dict[str, Any] = {"enum": [str(r) for r in Rule]}
POINTS: dict[str, Any] = {
    "type": "object",
    "required": ["first", "second"],
    "additionalProperties": False,
    "properties": {
        "first": {"type": "integer", "minimum": 0, "maximum": 9},
        "second": {"type": "integer", "minimum": 0, "maximum": 9},
    },
}
ACTION: dict[str, Any] = {
    "description": "a card put on a player's side of a stone, or a claim of one stone",
    "oneOf": [
        {
            "type": "object",
            "required": ["player", "play", "stone"],
            "additionalProperties": False,
            "properties": {
                "player": PLAYER,
                "play": {"$ref": "#/$defs/card"},
                "stone": {"type": "integer", "minimum": 1, "maximum": 9},
            },
        },
        {
            "type": "object",
            "required": ["player", "claim"],
            "additionalProperties": False,
            "properties": {
                "player": PLAYER,
                "claim": {"type": "integer", "minimum": 1, "maximum": 9},
            },
        },
    ],
}
DEFS: dict[str, Any] = {
    "card": CARD,
    "cards": CARDS,
    "stone": STONE,
    "by_player": BY_PLAYER,
    "table": TABLE,
    "position": POSITION,
    "formation": FORMATION,
    "verdict": VERDICT,
    "move": MOVE,
    "rule": RULE,
    "points": POINTS,
    "action": ACTION,
}
_HEAD: dict[str, Any] = {
    "id": {"type": "string", "minLength": 1},
    "pins": {"type": "string", "minLength": 1, "description": "what the vector pins, in words"},
    "rulings": {
        "type": "array",
        "items": {"enum": sorted(str(r) for r in SITE_RULINGS)},
        "uniqueItems": True,
        "description": "the site rulings the vector depends on, sorted; empty: the booklet's rules",
    },
}


def _vector(title: str, required: list[str], properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "$schema": DRAFT,
        "title": title,
        "description": "one line of the JSON Lines file",
        "type": "object",
        "required": ["id", "pins", *required, "rulings"],
        "additionalProperties": False,
        "properties": {**_HEAD, **properties},
        "$defs": DEFS,
    }


def _request(kind: str, required: list[str], properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["type", *required],
        "properties": {"type": {"const": kind}, "id": {}, **properties},
    }


SCHEMAS: dict[str, dict[str, Any]] = {
    "claims": _vector(
        "claims: verdicts on stones claimed together",
        ["position", "claimer", "stones", "expect"],
        {
            "position": {"$ref": "#/$defs/table"},
            "claimer": PLAYER,
            "stones": {"type": "array", "minItems": 1, "items": {"type": "integer"}},
            "expect": {"type": "array", "items": {"$ref": "#/$defs/verdict"}},
        },
    ),
    "formations": _vector(
        "formations: the formation of a complete side",
        ["cards", "totals_only", "expect"],
        {
            "cards": {**CARDS, "minItems": 3, "maxItems": 4},
            "totals_only": {"type": "boolean"},
            "expect": {"$ref": "#/$defs/formation"},
        },
    ),
    "provable": _vector(
        "provable: the stones the player to move can prove, at a claim step of a real game",
        ["position", "claimer", "expect"],
        {
            "position": {"$ref": "#/$defs/table"},
            "claimer": PLAYER,
            "expect": {
                "type": "array",
                "uniqueItems": True,
                "items": {"type": "integer", "minimum": 1, "maximum": 9},
            },
        },
    ),
    "moves": _vector(
        "moves: moves accepted and moves refused on a position",
        ["position", "accepted", "after", "refused"],
        {
            "position": {"$ref": "#/$defs/position"},
            "accepted": {"type": "array", "items": {"$ref": "#/$defs/move"}},
            "after": {
                "description": "for each accepted move, in order: the position after it and "
                "the points (null while the game goes on)",
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["position", "points"],
                    "additionalProperties": False,
                    "properties": {
                        "position": {"$ref": "#/$defs/position"},
                        "points": {"oneOf": [{"type": "null"}, {"$ref": "#/$defs/points"}]},
                    },
                },
            },
            "refused": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["move", "rule"],
                    "additionalProperties": False,
                    "properties": {"move": {"$ref": "#/$defs/move"}, "rule": RULE},
                },
            },
        },
    ),
    "games": _vector(
        "games: the legal moves at every step of a whole game",
        ["position", "moves", "legal_counts", "legal_digests", "outcome", "points"],
        {
            "position": {"$ref": "#/$defs/position"},
            "moves": {"type": "array", "items": {"$ref": "#/$defs/move"}},
            "legal_counts": {"type": "array", "items": {"type": "integer", "minimum": 0}},
            "legal_digests": {
                "type": "array",
                "items": {"type": "string", "pattern": "^[0-9a-f]{8}$"},
            },
            "legal": {
                "type": "array",
                "items": {"type": "array", "items": {"$ref": "#/$defs/move"}},
            },
            "outcome": POSITION["properties"]["outcome"]["oneOf"][1],
            "points": {"$ref": "#/$defs/points"},
        },
    ),
    "perft": _vector(
        "perft: move sequences of depth 1, 2, ... from a position",
        ["position", "nodes", "divide"],
        {
            "position": {"$ref": "#/$defs/position"},
            "nodes": {"type": "array", "minItems": 1, "items": {"type": "integer", "minimum": 0}},
            "divide": {"type": "object", "additionalProperties": {"type": "integer"}},
        },
    ),
    "outcomes": _vector(
        "outcomes: placements and claims from a table, judged on who holds each stone and how "
        "the game ends",
        ["position", "actions", "expect"],
        {
            "position": {"$ref": "#/$defs/table"},
            "actions": {"type": "array", "items": {"$ref": "#/$defs/action"}},
            "expect": {
                "type": "object",
                "required": ["stones", "outcome", "played"],
                "additionalProperties": False,
                "properties": {
                    "stones": {
                        "description": "the holder of each stone, 1 to 9",
                        "type": "array",
                        "minItems": 9,
                        "maxItems": 9,
                        "items": WHO,
                    },
                    "outcome": {
                        "oneOf": [
                            {"type": "null"},
                            {
                                "type": "object",
                                "required": ["winner", "termination"],
                                "additionalProperties": False,
                                "properties": {
                                    "winner": PLAYER,
                                    "termination": {"enum": ["five-stones", "three-adjacent"]},
                                },
                            },
                        ]
                    },
                    "played": {
                        "description": "the actions played: those after the game's end are not",
                        "type": "integer",
                        "minimum": 0,
                    },
                },
            },
        },
    ),
    "protocol": {
        "$schema": DRAFT,
        "title": "schotten-conformance/1 requests (one JSON object a line on the engine's stdin)",
        "oneOf": [
            _request("hello", ["protocol"], {"protocol": {"const": "schotten-conformance/1"}}),
            _request(
                "claim",
                ["position", "claimer", "stones"],
                {
                    "position": {"$ref": "#/$defs/table"},
                    "claimer": PLAYER,
                    "stones": {"type": "array", "items": {"type": "integer"}},
                },
            ),
            _request(
                "provable",
                ["position", "claimer"],
                {"position": {"$ref": "#/$defs/table"}, "claimer": PLAYER},
            ),
            _request(
                "formation",
                ["cards"],
                {"cards": {**CARDS, "minItems": 3, "maxItems": 4}, "totals_only": {}},
            ),
            _request("legal", ["position"], {"position": {"$ref": "#/$defs/position"}}),
            _request(
                "apply",
                ["position", "move"],
                {"position": {"$ref": "#/$defs/position"}, "move": {"$ref": "#/$defs/move"}},
            ),
            _request(
                "outcome",
                ["position", "actions"],
                {
                    "position": {"$ref": "#/$defs/table"},
                    "actions": {"type": "array", "items": {"$ref": "#/$defs/action"}},
                },
            ),
            _request(
                "perft",
                ["position", "depth"],
                {
                    "position": {"$ref": "#/$defs/position"},
                    "depth": {"type": "integer", "minimum": 0},
                    "divide": {"type": "boolean"},
                },
            ),
        ],
        "$defs": DEFS,
    },
}
