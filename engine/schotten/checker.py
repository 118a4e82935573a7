"""One claim, judged from a position written in JSON: the entry point of the in-page checker.

The browser runs this module with Pyodide (standard library only) and calls :func:`check` with
a JSON text; the answer is JSON too. The position is one stone seen by the claimer (``you``):

.. code-block:: json

    {"variant": "base",                       // or "tactical"
     "mine": ["red 1", "green 1", "blue 1"],  // your side of the stone
     "theirs": ["red 3", "green 3"],          // the opponent's side
     "elsewhere": {"mine": [], "theirs": []}, // your / their other cards face up (optional)
     "mud_fight": false, "blind_mans_bluff": false,   // optional, tactical variant only
     "completed_first": "you"}                // optional: who completed first if both did

Cards elsewhere are out of the unseen pool; whose they are matters only for a Joker (one per
player, rule ``joker-once``). The verdict is :func:`schotten.claims.judge_stone` on that position:

>>> answer = check_position(
...     {"mine": ["red 1", "green 1", "blue 1"], "theirs": ["red 3", "green 3"]})
>>> answer["granted"], answer["reason"], answer["witness"]["cards"]
(False, 'opponent-can-beat', ['orange 3'])

A position that cannot occur is answered with an error code (never an exception), which the
page words in its language:

>>> check_position({"mine": ["red 1", "red 1"]})["error"], check_position({"mine": ["pink 3"]})
('card-twice', {'ok': False, 'error': 'unknown-card', 'cards': ['pink 3']})

Text that is not a position (not JSON, nested too deeply, a key twice, an unknown key, a wrong
type) is answered ``bad-input`` with an English ``detail`` for developers; ``internal-error``
would be a bug of the engine, answered rather than raised.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from schotten import json_input
from schotten.board import Board, Player, Side, Stone, Variant
from schotten.cards import Card, Tactic, parse_card
from schotten.claims import StoneVerdict, judge_stone
from schotten.errors import InvalidNotationError
from schotten.formations import Formation

STONE = 5  # the stone judged; the others only hold the cards seen elsewhere
MAX_INPUT = 100_000  # characters: a position is a few hundred; anything longer is not one
_KEYS = {"variant", "mine", "theirs", "elsewhere", "mud_fight", "blind_mans_bluff"}
_KEYS |= {"completed_first"}


class PositionError(ValueError):
    """A position the checker cannot judge; ``answer`` is the JSON error sent back."""

    def __init__(self, code: str, **details: Any) -> None:
        super().__init__(code)
        self.answer: dict[str, Any] = {"ok": False, "error": code, **details}


@dataclass(frozen=True)
class Position:
    """A validated checker position."""

    variant: Variant
    mine: tuple[Card, ...]
    theirs: tuple[Card, ...]
    elsewhere_mine: tuple[Card, ...]
    elsewhere_theirs: tuple[Card, ...]
    mud_fight: bool
    blind_mans_bluff: bool
    you_first: bool

    def board(self) -> Board:
        """The table: the stone with both sides and its combat modes; every card seen
        elsewhere face up in its owner's discard pile (the pool only asks what is visible)."""
        capacity = 4 if self.mud_fight else 3
        # Completion steps: the side completed first gets the smaller number.
        steps = (1, 2) if self.you_first else (2, 1)
        sides = tuple(
            Side(cards, steps[i] if len(cards) >= capacity else None)
            for i, cards in enumerate((self.mine, self.theirs))
        )
        stone = Stone(
            STONE,
            (sides[0], sides[1]),
            mud_fight=Player.FIRST if self.mud_fight else None,
            blind_mans_bluff=Player.SECOND if self.blind_mans_bluff else None,
        )
        board = Board.empty(self.variant).with_stone(stone)
        for card in self.elsewhere_mine:
            board = board.discard_card(Player.FIRST, card)
        for card in self.elsewhere_theirs:
            board = board.discard_card(Player.SECOND, card)
        return board


def check(position_json: str) -> str:
    """The checker's one call: a JSON position in, a JSON verdict or error out; it never raises
    (in the browser an exception, a ``RecursionError`` above all, can stop the whole runtime).

    >>> json.loads(check("[" * 1000 + "]" * 1000))["detail"]
    'not JSON: line 1, column 21: nested deeper than 20 levels'
    """
    if isinstance(position_json, str) and len(position_json) > MAX_INPUT:
        detail = f"not JSON: {len(position_json)} characters, at most {MAX_INPUT}"
        return json.dumps({"ok": False, "error": "bad-input", "detail": detail})
    try:
        data = json_input.loads(position_json)
    except json_input.JsonInputError as error:
        return json.dumps({"ok": False, "error": "bad-input", "detail": f"not JSON: {error}"})
    try:
        answer = check_position(data)
    except Exception as error:  # a bug of the engine: answered, never thrown at the page
        detail = f"{type(error).__name__}: {error}"[:200]
        answer = {"ok": False, "error": "internal-error", "detail": detail}
    return json.dumps(answer, ensure_ascii=False)


def check_position(data: Any) -> dict[str, Any]:
    """:func:`check` on decoded JSON."""
    try:
        position = read_position(data)
    except PositionError as error:
        return error.answer
    return verdict_answer(judge_stone(position.board(), Player.FIRST, STONE), position)


def read_position(data: Any) -> Position:
    """Validate decoded JSON; :class:`PositionError` names the first problem found."""
    if not isinstance(data, dict):
        raise PositionError("bad-input", detail="a position is a JSON object")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise PositionError("bad-input", detail=f"unknown keys: {', '.join(unknown)}")
    variant_name = data.get("variant", "base")
    if variant_name not in ("base", "tactical"):
        raise PositionError("bad-input", detail="variant is 'base' or 'tactical'")
    variant = Variant(variant_name)
    elsewhere = data.get("elsewhere", {})
    if not isinstance(elsewhere, dict) or set(elsewhere) - {"mine", "theirs"}:
        raise PositionError("bad-input", detail="elsewhere has the lists 'mine' and 'theirs'")
    mine, theirs = _cards(data.get("mine", [])), _cards(data.get("theirs", []))
    seen_mine, seen_theirs = _cards(elsewhere.get("mine", [])), _cards(elsewhere.get("theirs", []))
    flags = {key: data.get(key, False) for key in ("mud_fight", "blind_mans_bluff")}
    if any(not isinstance(v, bool) for v in flags.values()):
        raise PositionError("bad-input", detail="mud_fight and blind_mans_bluff are true or false")
    first = data.get("completed_first", "you")
    if first not in ("you", "opponent"):
        raise PositionError("bad-input", detail="completed_first is 'you' or 'opponent'")
    everything = [*mine, *theirs, *seen_mine, *seen_theirs]
    modes = [Tactic(key.replace("_", "-")) for key, on in flags.items() if on]
    counts = Counter([*everything, *modes])
    twice = [c for c, n in counts.items() if n > (c.copies if isinstance(c, Tactic) else 1)]
    if twice:
        raise PositionError("card-twice", cards=_names(twice))
    if variant is Variant.BASE:
        tactics = [c for c in counts if isinstance(c, Tactic)]
        if tactics:
            raise PositionError("tactic-in-base-game", cards=_names(tactics))
    not_troops = [c for c in (*mine, *theirs) if isinstance(c, Tactic) and not c.values]
    if not_troops:
        raise PositionError("not-on-a-side", cards=_names(not_troops))
    for cards in ((*mine, *seen_mine), (*theirs, *seen_theirs)):
        if cards.count(Tactic.JOKER) > 1:
            raise PositionError("joker-once", cards=[str(Tactic.JOKER)])
    capacity = 4 if flags["mud_fight"] else 3
    for zone, cards in (("mine", mine), ("theirs", theirs)):
        if len(cards) > capacity:
            raise PositionError(
                "side-over-capacity", zone=zone, count=len(cards), capacity=capacity
            )
    return Position(
        variant,
        mine,
        theirs,
        seen_mine,
        seen_theirs,
        flags["mud_fight"],
        flags["blind_mans_bluff"],
        first == "you",
    )


def _cards(texts: Any) -> tuple[Card, ...]:
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        raise PositionError("bad-input", detail="cards come as lists of strings")
    unknown = []
    cards = []
    for text in texts:
        try:
            cards.append(parse_card(text))
        except InvalidNotationError:
            unknown.append(text)
    if unknown:
        raise PositionError("unknown-card", cards=unknown)
    return tuple(cards)


def _names(cards: Sequence[Card]) -> list[str]:
    return sorted(str(c) for c in cards)


def formation_json(formation: Formation | None, size: int) -> dict[str, Any] | None:
    """A formation for the page: the labels' key (four of a kind has its own) and the total."""
    if formation is None:
        return None
    return {"kind": formation.kind.label_key(size), "total": formation.total}


def verdict_answer(verdict: StoneVerdict, position: Position) -> dict[str, Any]:
    """A verdict as JSON: granted, the reason (and its rule), both formations, the witness."""
    size = 4 if position.mud_fight else 3
    witness = verdict.witness
    return {
        "ok": True,
        "granted": verdict.granted,
        "reason": str(verdict.reason),
        "rule": str(verdict.reason.rule),
        "mine": formation_json(verdict.mine, size),
        "theirs": formation_json(verdict.theirs, size),
        "theirs_complete": len(position.theirs) >= size,
        "witness": None
        if witness is None
        else {
            "cards": [str(c) for c in witness.cards],
            # The cards as they would lie (an elite troop by its name), not resolved values.
            "side": [str(c) for c in (*position.theirs, *witness.cards)],
            "formation": formation_json(witness.formation, size),
        },
    }


def position_of(board: Board, number: int) -> dict[str, Any]:
    """The checker position of one stone of a board, seen by :attr:`Player.FIRST`.

    The other stones' cards and the discard pile become the cards seen elsewhere, by owner; the
    verdict on it is ``judge_stone(board, Player.FIRST, number)`` (combat modes on other stones
    and hands never enter a proof). A claimed stone has no checker position.
    """
    stone = board.stone(number)
    if stone.claimed_by is not None:
        raise ValueError(f"stone {number} is already claimed")
    elsewhere: dict[str, list[str]] = {"mine": [], "theirs": []}
    for other in board.stones:
        if other.number != number:
            for player, key in ((Player.FIRST, "mine"), (Player.SECOND, "theirs")):
                elsewhere[key] += [str(c) for c in other.side(player).cards]
    for player, key in ((Player.FIRST, "mine"), (Player.SECOND, "theirs")):
        elsewhere[key] += [str(c) for c in board.discard[player]]
    first = stone.completed_first()
    return {
        "variant": str(board.variant),
        "mine": [str(c) for c in stone.side(Player.FIRST).cards],
        "theirs": [str(c) for c in stone.side(Player.SECOND).cards],
        "elsewhere": elsewhere,
        "mud_fight": stone.mud_fight is not None,
        "blind_mans_bluff": stone.blind_mans_bluff is not None,
        "completed_first": "opponent" if first is Player.SECOND else "you",
    }


# A checker position in a page's address (``rules/#check=<code>``), never sent to a server: the
# options, then the cards of the four zones, each part after a ``-``. Options: ``b`` or ``t``
# (base game or Tactical variant), then ``m`` (Mud Fight), ``c`` (Blind-Man's Bluff), ``o`` (the
# opponent completed first), in that order. A Clan card is its colour's initial and its value
# (``r9``: the red 9), an elite troop one capital (``J``, ``S``, ``B``). checker.js reads it.
FRAGMENT = "check="
_ELITE_CODES = {"joker": "J", "spy": "S", "shield-bearer": "B"}


def fragment_of(position: dict[str, Any]) -> str:
    """The address fragment of a checker position (as :func:`position_of` gives it).

    >>> fragment_of({"mine": ["red 1", "green 1"], "theirs": ["joker"], "variant": "tactical",
    ...              "completed_first": "opponent"})
    'check=to-r1g1-J--'
    """
    options = "t" if position.get("variant") == "tactical" else "b"
    options += "m" if position.get("mud_fight") else ""
    options += "c" if position.get("blind_mans_bluff") else ""
    options += "o" if position.get("completed_first") == "opponent" else ""
    elsewhere = position.get("elsewhere", {})
    zones = (
        position.get("mine", []),
        position.get("theirs", []),
        elsewhere.get("mine", []),
        elsewhere.get("theirs", []),
    )
    parts = [options]
    for cards in zones:
        # Other tactic cards are left out: the checker offers none (they prove nothing).
        codes = (
            _ELITE_CODES.get(c) or c[0] + c.split()[1]
            for c in cards
            if " " in c or c in _ELITE_CODES
        )
        parts.append("".join(codes))
    return FRAGMENT + "-".join(parts)
