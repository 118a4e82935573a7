"""The outcome kind: placements and claims from a table, judged on where they lead.

An engine whose turn is not the booklet's steps (no claim step, no draw as a move) cannot be
asked moves or games, yet it decides who takes a stone and when the game ends. An ``outcome``
request gives it a table and a sequence of actions, each by a named player, in any order:

- ``{"player": "first", "play": "red 5", "stone": 3}``: a card (a Clan card or an elite troop)
  put on that player's side of a stone; a side completed by it is completed after every other;
- ``{"player": "second", "claim": 3}``: a claim of one stone, taken when the claimer proves it
  (RULES.md, Claims: one stone a claim, so no ruling on claims made together is involved).

It answers who holds each stone, the game's outcome (``null`` while it goes on: it ends when a
player holds three adjacent stones or five) and how many actions were played (those after the end
are not). A placement that cannot be made (a card already out, a full side, a claimed stone) is
an :class:`ActionError`.

>>> from schotten.board import Variant
>>> actions = read_actions([{"player": "first", "play": "red 9", "stone": 1},
...                         {"player": "second", "claim": 1}])
>>> answer = result_data(play_out(Board.empty(Variant.BASE), actions))
>>> answer["stones"][:2], answer["outcome"], answer["played"]
([None, None], None, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from schotten import json_input
from schotten.board import Board, Player
from schotten.cards import Card, ClanCard, is_wild
from schotten.claims import judge_stone
from schotten.conformance.shown import shown
from schotten.conformance.wire import dumps
from schotten.errors import InvalidNotationError, InvalidPositionError, SchottenError
from schotten.outcome import Outcome, winning_condition
from schotten.position import check_table

MAX_ACTIONS = 200
"""The most actions one request carries: a game places 54 Clan cards at most."""


class ActionError(SchottenError, ValueError):
    """An action that cannot be read or cannot be made, said in one sentence."""


@dataclass(frozen=True)
class Placement:
    player: Player
    card: Card
    stone: int


@dataclass(frozen=True)
class StoneClaim:
    player: Player
    stone: int


Action = Placement | StoneClaim


@dataclass(frozen=True)
class Result:
    """Where the actions led: the table, how many were played, the game's outcome."""

    board: Board
    played: int
    outcome: Outcome | None


_PLAYERS = {str(p): p for p in Player}


def read_actions(data: Any) -> tuple[Action, ...]:
    """The actions of a request; :class:`ActionError` naming the first one that is malformed."""
    if not isinstance(data, list) or len(data) > MAX_ACTIONS:
        raise ActionError(f"actions: a list of at most {MAX_ACTIONS} actions")
    return tuple(_action(item, index) for index, item in enumerate(data))


def _action(item: Any, index: int) -> Action:
    where = f"actions[{index}]"
    if not isinstance(item, dict):
        raise ActionError(f"{where}: an object with a player and a play or a claim")
    name = item.get("player")
    player = _PLAYERS.get(name) if isinstance(name, str) else None
    if player is None:
        raise ActionError(f"{where}.player: 'first' or 'second'")
    keys = set(item) - {"player"}
    if keys == {"claim"}:
        return StoneClaim(player, _stone(item["claim"], f"{where}.claim"))
    if keys != {"play", "stone"}:
        raise ActionError(f"{where}: either 'claim', or 'play' and 'stone'")
    text = item["play"]
    try:
        card = json_input.card_from_text(text) if isinstance(text, str) else None
    except InvalidNotationError as error:
        raise ActionError(f"{where}.play: {error}") from None
    if card is None or not (isinstance(card, ClanCard) or is_wild(card)):
        raise ActionError(f"{where}.play: a Clan card or an elite troop")
    return Placement(player, card, _stone(item["stone"], f"{where}.stone"))


def _stone(value: Any, where: str) -> int:
    if type(value) is not int or not 1 <= value <= 9:
        raise ActionError(f"{where}: a stone from 1 to 9")
    return value


def action_data(action: Action) -> dict[str, Any]:
    """An action as a request writes it."""
    if isinstance(action, Placement):
        return {"player": str(action.player), "play": str(action.card), "stone": action.stone}
    return {"player": str(action.player), "claim": action.stone}


def next_time(board: Board) -> int:
    """A completion time after every one on the table: a side completed now."""
    times = [side.completed_at for stone in board.stones for side in stone.sides]
    return 1 + max((t for t in times if t is not None), default=0)


def place(board: Board, action: Placement, index: int = 0) -> Board:
    """The table after a placement; :class:`ActionError` when it cannot be made."""
    where = f"actions[{index}]"
    stone = board.stone(action.stone)
    if stone.claimed_by is not None:
        raise ActionError(f"{where}: stone {action.stone} is claimed: no card is put there")
    if not stone.has_room(action.player):
        raise ActionError(f"{where}: the {action.player} side of stone {action.stone} is full")
    after = board.place(action.player, action.stone, action.card, at=next_time(board))
    try:
        check_table(after)
    except InvalidPositionError as error:
        raise ActionError(f"{where}: {action.card} cannot be put there: {error}") from None
    return after


def claim(board: Board, action: StoneClaim) -> tuple[Board, bool]:
    """The table after a claim, and whether the stone was taken (proven by its claimer)."""
    verdict = judge_stone(board, action.player, action.stone)
    if not verdict.granted:
        return board, False
    taken = replace(board.stone(action.stone), claimed_by=action.player)
    return board.with_stone(taken), True


def play_out(board: Board, actions: Sequence[Action]) -> Result:
    """The actions played in order until the game ends (RULES.md, End of the game)."""
    for index, action in enumerate(actions):
        if isinstance(action, Placement):
            board = place(board, action, index)
            continue
        board, taken = claim(board, action)
        won = winning_condition(board, action.player) if taken else None
        if won is not None:
            return Result(board, index + 1, Outcome(action.player, won))
    return Result(board, len(actions), None)


def result_data(result: Result) -> dict[str, Any]:
    """The answer to an ``outcome`` request: ``stones`` (the holder of each stone, 1 to 9, or
    ``null``), ``outcome`` (``null`` or the winner and why) and ``played``."""
    outcome = result.outcome
    return {
        "stones": [
            None if s.claimed_by is None else str(s.claimed_by) for s in result.board.stones
        ],
        "outcome": None
        if outcome is None
        else {"winner": str(outcome.winner), "termination": str(outcome.termination)},
        "played": result.played,
    }


def differences(expected: dict[str, Any], answer: dict[str, Any]) -> list[tuple[str, str]]:
    """What an engine's answer to an ``outcome`` request gets wrong, as ``(text, signature)``:
    the number of actions played first (an engine that ends the game too soon differs there
    first), then the outcome, then the first stone held otherwise."""
    found = []
    want, got = expected["played"], answer.get("played")
    if got != want:
        if type(got) is int and got < want:
            how = "the game ended too soon"
        elif type(got) is int:
            how = "actions played past the end"
        else:
            how = "no count of the actions played"
        found.append((f"{want} actions played, the engine played {_said(got)}", how))
    if answer.get("outcome") != expected["outcome"]:
        text = (
            f"outcome: expected {_said(expected['outcome'])}, engine {_said(answer.get('outcome'))}"
        )
        found.append(
            (
                text,
                f"the outcome ({_ending(expected['outcome'])} → {_ending(answer.get('outcome'))})",
            )
        )
    stones = answer.get("stones")
    if not isinstance(stones, list) or len(stones) != len(expected["stones"]):
        found.append(("'stones' is not the holder of each of the 9 stones", "not 9 holders"))
        return found
    for number, (want_holder, holder) in enumerate(zip(expected["stones"], stones, strict=True), 1):
        if want_holder != holder:
            text = (
                f"stone {number}: held by {_holder(want_holder)}, the engine says {_holder(holder)}"
            )
            found.append((text, f"a stone held by {_holder(want_holder)} → {_holder(holder)}"))
            break
    return found


def _said(value: Any) -> str:
    return shown(dumps(value), 80)


def _ending(outcome: Any) -> str:
    if outcome is None:
        return "goes on"
    if isinstance(outcome, dict):
        return f"{outcome.get('winner')} wins, {outcome.get('termination')}"
    return "nonsense"


def _holder(holder: Any) -> str:
    return "nobody" if holder is None else holder if isinstance(holder, str) else _said(holder)
