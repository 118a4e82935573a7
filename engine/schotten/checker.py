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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from schotten import json_input
from schotten.board import Board, Player, Side, Stone, Variant
from schotten.cards import Card
from schotten.claims import StoneVerdict, judge_stone
from schotten.completion import best_completion
from schotten.errors import InvalidNotationError, SchottenError
from schotten.formations import Formation
from schotten.position import Problem, table_problems
from schotten.troops import troops_as

STONE = 5  # the stone judged; the others only hold the cards seen elsewhere
MAX_INPUT = 100_000  # characters: a position is a few hundred; anything longer is not one
_KEYS = {"variant", "mine", "theirs", "elsewhere", "mud_fight", "blind_mans_bluff"}
_KEYS |= {"completed_first"}
# The table's problems a checker position can have, in the order the checker names them.
_CODES = ("card-twice", "tactic-in-base-game", "not-on-a-side", "joker-once", "side-over-capacity")


class PositionError(SchottenError, ValueError):
    """A position the checker cannot judge; ``answer`` is the JSON error sent back."""

    def __init__(self, code: str, **details: Any) -> None:
        super().__init__(code)
        self.answer: dict[str, Any] = {"ok": False, "error": code, **details}


@dataclass(frozen=True)
class CheckerPosition:
    """A position the checker has read and found possible: one stone, the cards seen elsewhere."""

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


def read_position(data: Any) -> CheckerPosition:
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
    position = CheckerPosition(
        variant,
        mine,
        theirs,
        seen_mine,
        seen_theirs,
        flags["mud_fight"],
        flags["blind_mans_bluff"],
        first == "you",
    )
    _refuse_problems(position)
    return position


def _refuse_problems(position: CheckerPosition) -> None:
    """The first of the table's problems the checker names (in the order of ``_CODES``), with
    the cards or the side at fault. Its table is one stone and the cards seen elsewhere laid in
    the discard piles: only the problems of that stone and of counting cards apply."""
    found: dict[str, list[Problem]] = {}
    for problem in table_problems(position.board()):
        found.setdefault(problem.code, []).append(problem)
    for code in _CODES:
        problems = found.get(code)
        if not problems:
            continue
        if code == "side-over-capacity":
            zone = "mine" if problems[0].player is Player.FIRST else "theirs"
            count = len(position.mine if zone == "mine" else position.theirs)
            capacity = 4 if position.mud_fight else 3
            raise PositionError(code, zone=zone, count=count, capacity=capacity)
        raise PositionError(code, cards=_names([c for p in problems for c in p.cards]))


def _cards(texts: Any) -> tuple[Card, ...]:
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        raise PositionError("bad-input", detail="cards come as lists of strings")
    unknown = []
    cards = []
    for text in texts:
        try:
            cards.append(json_input.card_from_text(text))
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


def verdict_answer(verdict: StoneVerdict, position: CheckerPosition) -> dict[str, Any]:
    """A verdict as JSON: granted, the reason (and its rule), both formations, the witness."""
    size = 4 if position.mud_fight else 3
    witness = verdict.witness
    theirs_complete = len(position.theirs) >= size
    return {
        "ok": True,
        "granted": verdict.granted,
        "reason": str(verdict.reason),
        "rule": str(verdict.reason.rule),
        "mine": formation_json(verdict.mine, size),
        "theirs": formation_json(verdict.theirs, size),
        "theirs_complete": theirs_complete,
        # Each side as it stands, an elite troop with the Clan card it becomes ([card, as]):
        # the page words it as the site's pages do ("le Joker en 3 jaune").
        "mine_side": _side_as(position.mine, size, position.blind_mans_bluff),
        "theirs_side": _side_as(position.theirs, size, position.blind_mans_bluff)
        if theirs_complete
        else [[str(c), None] for c in position.theirs],
        "witness": None
        if witness is None
        else {
            "cards": [str(c) for c in witness.cards],
            # The cards as they would lie (an elite troop by its name), not resolved values.
            "side": [str(c) for c in (*position.theirs, *witness.cards)],
            "side_as": _pairs(troops_as((*position.theirs, *witness.cards), witness.side)),
            "formation": formation_json(witness.formation, size),
        },
    }


def _side_as(cards: Sequence[Card], size: int, totals_only: bool) -> list[list[str | None]]:
    """A complete side's cards with what each elite troop becomes; as placed if incomplete."""
    if len(cards) < size:
        return [[str(c), None] for c in cards]
    best = best_completion(cards, size, totals_only=totals_only)
    assert best is not None  # a complete side has a formation
    return _pairs(troops_as(cards, best.resolved))


def _pairs(pairs: Sequence[tuple[Card, Card | None]]) -> list[list[str | None]]:
    return [[str(card), None if becomes is None else str(becomes)] for card, becomes in pairs]


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
