"""The conformance protocol, answered by this engine: one JSON request a line in, one answer out.

Every request is an object with a ``type`` and an optional ``id`` (echoed in the answer). The
types, with what they carry and what they answer (``README.md`` of the suite has the schema and
a worked exchange):

- ``hello`` (``protocol``): ``{"protocol": PROTOCOL, "engine": <name>, "supports": {...}}``;
  always first. ``supports``: the variants, the suite's kinds, and whether the claim step is
  played as a move (:mod:`~schotten.conformance.capabilities`).
- ``claim`` (``position``: the table part of a position; ``claimer``; ``stones``):
  ``{"stones": [{"stone", "verdict", "reason", "theirs", "witness"}, ...]}``.
- ``provable`` (``position``: a table; ``claimer``): ``{"stones": [...]}``, every unclaimed
  stone the claimer can prove, ascending.
- ``formation`` (``cards``: a complete side, 3 or 4 cards; ``totals_only``):
  ``{"formation": "<kind> <total>"}``.
- ``legal`` (``position``): ``{"moves": [...]}``, every legal move of the player to move.
- ``apply`` (``position``, ``move``): ``{"ok": true, "position": ..., "points": ...}`` or
  ``{"ok": false, "rule": <rule id>}``.
- ``perft`` (``position``, ``depth``, ``divide``): ``{"nodes": N}`` (and ``"divide"``: the count
  under each first move).
- ``outcome`` (``position``: a table; ``actions``: placements and claims, each by a named
  player, in any order): ``{"stones": [...], "outcome": ..., "played": N}``, the holder of each
  stone, the game's outcome (``null`` while it goes on) and the actions played
  (:mod:`~schotten.conformance.outcomes`), for engines whose turn is not the booklet's steps.
- ``start`` (``position``) and ``step`` (``move``), for an engine that declares
  ``"incremental": true``: ``start`` keeps the position and answers ``{"moves": [...]}``; ``step``
  plays a move on the position kept and answers ``{"ok": true, "moves": [...], "outcome": ...,
  "points": ...}`` (the legal moves after it, the game's outcome and points when it ended) or
  ``{"ok": false, "rule": <rule id>}`` (nothing changed). A whole game is then one ``start`` and
  one ``step`` a move, without the position sent and read again at every move.

A request this engine cannot read is answered ``{"error": <code>, "message": ...}`` (codes:
``bad-request``, ``bad-position``, ``bad-move``, ``unsupported-protocol``; ``internal-error``
for a bug of ours), with the request's ``id`` when it has a readable one, never by a crash. An
``id`` is a whole number (``null`` or absent: none). A line longer than
:data:`~schotten.conformance.wire.MAX_LINE` bytes is answered ``bad-request`` without being kept
in memory.

>>> answer = handle({"type": "formation", "id": 7, "cards": ["red 9", "joker", "red 7"]})
>>> answer
{'id': 7, 'formation': 'colour-run 24'}
>>> handle({"type": "formation", "cards": ["red 9"]})["error"]
'bad-request'
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from typing import Any, BinaryIO, TextIO

from schotten import json_input
from schotten.board import Board, Player
from schotten.cards import Card, Tactic, is_wild
from schotten.claims import StoneVerdict, judge_claim
from schotten.completion import best_completion
from schotten.conformance.outcomes import ActionError, play_out, read_actions, result_data
from schotten.conformance.perft import divide, perft
from schotten.conformance.wire import (
    KINDS,
    MAX_LINE,
    MAX_VALUES,
    PROTOCOL,
    dumps,
    formation_data,
    game_data,
)
from schotten.errors import (
    IllegalActionError,
    InvalidNotationError,
    InvalidPositionError,
    SchottenError,
)
from schotten.formations import Formation
from schotten.game import Game
from schotten.match import round_points
from schotten.position_data import board_from_data

ENGINE_NAME = "schotten (reference)"
SUPPORTS = {"variants": ["base", "tactical"], "kinds": list(KINDS), "claim_step": True}
"""What this engine declares; ``"incremental": true`` is added on a connection that keeps a game
(a :class:`Session`: ``serve``), not where each request is answered alone."""
MAX_PERFT_DEPTH = 8  # deeper requests are refused: they would run for hours


class RequestError(SchottenError, ValueError):
    """A request this engine cannot answer; becomes ``{"error": code, "message": ...}``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def request_id(request: Any) -> int | None:
    """The ``id`` of a decoded request when it is a whole number (``true`` is not one)."""
    ident = request.get("id") if isinstance(request, Mapping) else None
    return ident if type(ident) is int else None


class Session:
    """What one connection keeps between requests: the game of ``start`` and ``step``."""

    def __init__(self) -> None:
        self.game: Game | None = None


def handle(request: Any, session: Session | None = None) -> dict[str, Any]:
    """The answer to one decoded request (an error answer for anything malformed); ``session``
    keeps the game of ``start`` and ``step`` (none: those are refused)."""
    ident = request_id(request)
    head: dict[str, Any] = {} if ident is None else {"id": ident}
    try:
        if not isinstance(request, Mapping):
            raise RequestError("bad-request", "a request is a JSON object")
        if request.get("id") is not None and ident is None:
            raise RequestError("bad-request", "id: a whole number")
        kind = request.get("type")
        answer = _HANDLERS.get(str(kind)) if isinstance(kind, str) else None
        if answer is None:
            raise RequestError("bad-request", f"unknown request type {kind!r}")
        return {**head, **answer(request, session)}
    except RequestError as error:
        return {**head, "error": error.code, "message": _short(str(error))}


def handle_line(line: str | bytes, session: Session | None = None) -> str:
    """:func:`handle` on one line of JSON text; the answer as one line (no newline)."""
    try:
        request = json_input.loads(line, MAX_LINE, MAX_VALUES)
    except json_input.JsonInputError as error:
        return dumps({"error": "bad-request", "message": str(error)})
    try:
        return dumps(handle(request, session))
    except Exception as error:  # a bug of ours: answered, so that the runner reports it
        ident = request_id(request)
        head: dict[str, Any] = {} if ident is None else {"id": ident}
        message = _short(f"{type(error).__name__}: {error}")
        return dumps({**head, "error": "internal-error", "message": message})


MAX_MESSAGE = 500


def _short(message: str) -> str:
    """A message cut to :data:`MAX_MESSAGE` characters: it may quote what it was sent."""
    return message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 1] + "…"


def serve(source: BinaryIO | TextIO | None = None, sink: TextIO | None = None) -> None:
    """Answer every line of ``source`` on ``sink`` (by default the standard input and output as
    they are when called), flushing after each answer, until EOF.

    Lines are read at most :data:`MAX_LINE` bytes at a time: a longer line is answered as a bad
    request and the rest of it skipped chunk by chunk, so that memory stays bounded."""
    source = sys.stdin.buffer if source is None else source
    sink = sys.stdout if sink is None else sink
    session = Session()
    while True:
        line = source.readline(MAX_LINE + 1)
        if not line:
            return
        if len(line) > MAX_LINE:
            size = len(line) + _skip_line(source)
            message = f"a line of {size:,} bytes: at most {MAX_LINE:,} are read"
            sink.write(dumps({"error": "bad-request", "message": message}) + "\n")
            sink.flush()
        elif line.strip():
            sink.write(handle_line(line, session) + "\n")
            sink.flush()


def _skip_line(source: BinaryIO | TextIO) -> int:
    """Read up to the end of the current line; how much was skipped."""
    skipped = 0
    while True:
        chunk = source.readline(MAX_LINE)
        skipped += len(chunk)
        if not chunk or chunk[-1:] in ("\n", b"\n"):
            return skipped


# -- the answers -------------------------------------------------------------------------------


def claim_answers(verdicts: tuple[StoneVerdict, ...]) -> list[dict[str, Any]]:
    """The verdicts as the protocol writes them."""
    return [
        {
            "stone": v.stone,
            "verdict": "granted" if v.granted else "refused",
            "reason": str(v.reason),
            "theirs": formation_data(v.theirs),
            "witness": None if v.witness is None else formation_data(v.witness.formation),
        }
        for v in verdicts
    ]


def side_formation(cards: tuple[Card, ...], totals_only: bool) -> Formation:
    """A complete side's formation, elite troops at their best."""
    best = best_completion(cards, len(cards), totals_only=totals_only)
    assert best is not None  # a complete side always has a formation
    return best.formation


def apply_answer(game: Game, move: str) -> dict[str, Any]:
    """Play a move on a copy of ``game``: the new position, or the rule that refuses it."""
    after = game.copy()
    try:
        after.apply(move)
    except IllegalActionError as error:
        return {"ok": False, "rule": str(error.rule)}
    points = None
    if after.outcome is not None:
        first, second = round_points(after)
        points = {"first": first, "second": second}
    return {"ok": True, "position": game_data(after), "points": points}


def _hello(request: Mapping[str, Any], session: Session | None) -> dict[str, Any]:
    if request.get("protocol") != PROTOCOL:
        raise RequestError(
            "unsupported-protocol",
            f"this engine speaks {PROTOCOL}, not {request.get('protocol')!r}",
        )
    supports = SUPPORTS if session is None else {**SUPPORTS, "incremental": True}
    return {"protocol": PROTOCOL, "engine": ENGINE_NAME, "supports": supports}


def _claimer(request: Mapping[str, Any]) -> Player:
    claimer = request.get("claimer")
    players = {str(p): p for p in Player}
    if not isinstance(claimer, str) or claimer not in players:
        raise RequestError("bad-request", "claimer: 'first' or 'second'")
    return players[claimer]


def provable_stones(board: Board, claimer: Player) -> list[int]:
    """The unclaimed stones ``claimer`` can prove on ``board``, ascending."""
    open_stones = [s.number for s in board.stones if s.claimed_by is None]
    return [v.stone for v in judge_claim(board, claimer, open_stones) if v.granted]


def _provable(request: Mapping[str, Any]) -> dict[str, Any]:
    board = _read(board_from_data, request)
    return {"stones": provable_stones(board, _claimer(request))}


def _claim(request: Mapping[str, Any]) -> dict[str, Any]:
    board = _read(board_from_data, request)
    claimer = _claimer(request)
    stones = request.get("stones")
    if (
        not isinstance(stones, list)
        or not stones
        or not all(type(n) is int and 1 <= n <= 9 for n in stones)
        or len(set(stones)) != len(stones)
    ):
        raise RequestError("bad-request", "stones: a list of different stones from 1 to 9")
    return {"stones": claim_answers(judge_claim(board, claimer, stones))}


def _formation(request: Mapping[str, Any]) -> dict[str, Any]:
    texts = request.get("cards")
    totals_only = request.get("totals_only", False)
    if not isinstance(texts, list) or len(texts) not in (3, 4):
        raise RequestError("bad-request", "cards: a complete side, 3 or 4 cards")
    if not isinstance(totals_only, bool):
        raise RequestError("bad-request", "totals_only: true or false")
    try:
        cards = tuple(json_input.card_from_text(t) for t in texts if isinstance(t, str))
    except InvalidNotationError as error:
        raise RequestError("bad-request", f"cards: {error}") from None
    if len(cards) != len(texts):
        raise RequestError("bad-request", "cards: strings in the card notation")
    impossible = json_input.copies_problem(cards, side=True)
    if impossible is not None:
        raise RequestError("bad-request", f"cards: no deck holds this side: {impossible}")
    if any(isinstance(c, Tactic) and not is_wild(c) for c in cards):
        raise RequestError("bad-request", "cards: only Clan cards and elite troops make a side")
    return {"formation": formation_data(side_formation(cards, totals_only))}


def _legal(request: Mapping[str, Any]) -> dict[str, Any]:
    game = _read(Game.from_dict, request)
    return {"moves": [str(m) for m in game.legal_moves()]}


def _apply(request: Mapping[str, Any]) -> dict[str, Any]:
    game = _read(Game.from_dict, request)
    move = _move(request)
    try:
        return apply_answer(game, move)
    except InvalidNotationError as error:
        raise RequestError("bad-move", str(error)) from None


def _perft(request: Mapping[str, Any]) -> dict[str, Any]:
    game = _read(Game.from_dict, request)
    depth = request.get("depth")
    split = request.get("divide", False)
    if type(depth) is not int or not 0 <= depth <= MAX_PERFT_DEPTH:
        raise RequestError("bad-request", f"depth: a whole number from 0 to {MAX_PERFT_DEPTH}")
    if not isinstance(split, bool) or (split and depth < 1):
        raise RequestError("bad-request", "divide: true or false (true needs a depth of 1 or more)")
    if not split:
        return {"nodes": perft(game, depth)}
    counts = divide(game, depth)
    return {"nodes": sum(n for _, n in counts), "divide": dict(counts)}


def _read(reader: Callable[[Any], Any], request: Mapping[str, Any]) -> Any:
    position = request.get("position")
    if not isinstance(position, Mapping):
        raise RequestError("bad-request", "position: a position object")
    try:
        return reader(position)
    except (InvalidPositionError, InvalidNotationError) as error:
        raise RequestError("bad-position", str(error)) from None
    except (TypeError, ValueError, KeyError, AttributeError) as error:
        raise RequestError("bad-position", f"unreadable position ({error})") from None


def _move(request: Mapping[str, Any]) -> str:
    move = request.get("move")
    if not isinstance(move, str):
        raise RequestError("bad-request", "move: a move in the move notation")
    problem = json_input.not_ascii(move)
    if problem is not None:
        raise RequestError("bad-move", f"move: {problem}")
    return move


def _outcome(request: Mapping[str, Any]) -> dict[str, Any]:
    board = _read(board_from_data, request)
    try:
        return result_data(play_out(board, read_actions(request.get("actions"))))
    except ActionError as error:
        raise RequestError("bad-request", str(error)) from None


def _start(request: Mapping[str, Any], session: Session | None) -> dict[str, Any]:
    if session is None:
        raise RequestError("bad-request", "start: this connection keeps no position")
    game = _read(Game.from_dict, request)
    session.game = game
    return {"moves": [str(m) for m in game.legal_moves()]}


def _step(request: Mapping[str, Any], session: Session | None) -> dict[str, Any]:
    game = session.game if session is not None else None
    if game is None:
        raise RequestError("bad-request", "step: no position kept (a start request comes first)")
    move = _move(request)
    try:
        game.apply(move)
    except IllegalActionError as error:
        return {"ok": False, "rule": str(error.rule)}
    except InvalidNotationError as error:
        raise RequestError("bad-move", str(error)) from None
    points = None
    if game.outcome is not None:
        first, second = round_points(game)
        points = {"first": first, "second": second}
    outcome = game_data(game)["outcome"] if game.outcome is not None else None
    moves = [] if game.outcome is not None else [str(m) for m in game.legal_moves()]
    return {"ok": True, "moves": moves, "outcome": outcome, "points": points}


def _stateless(
    answer: Callable[[Mapping[str, Any]], dict[str, Any]],
) -> Callable[[Mapping[str, Any], Session | None], dict[str, Any]]:
    return lambda request, _session: answer(request)


_HANDLERS: dict[str, Callable[[Mapping[str, Any], Session | None], dict[str, Any]]] = {
    "hello": _hello,
    "claim": _stateless(_claim),
    "provable": _stateless(_provable),
    "formation": _stateless(_formation),
    "legal": _stateless(_legal),
    "apply": _stateless(_apply),
    "perft": _stateless(_perft),
    "outcome": _stateless(_outcome),
    "start": _start,
    "step": _step,
}

__all__ = [
    "ENGINE_NAME",
    "SUPPORTS",
    "RequestError",
    "Session",
    "apply_answer",
    "claim_answers",
    "handle",
    "provable_stones",
    "serve",
]
