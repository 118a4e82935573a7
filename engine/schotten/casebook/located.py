"""The core's position problems (:mod:`schotten.position`) at their place in a case file.

The core decides whether a position can occur and says where, as far as a position knows it (a
stone, a player, the index of a card on a side or in a pile, the cards at fault); the case file
knows more: every card at its key path (``stones.4.you[2]``, ``hands.opponent[0]``,
``play_on.decks.clan[1]``). :func:`case_errors` puts each problem there, in the words of an editor
of case files, and each at most once.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from schotten.board import Board, Player, Variant
from schotten.cards import Card, Tactic, TacticKind
from schotten.casebook.errors import CaseError, KeyPath, format_key_path
from schotten.casebook.loader import Document
from schotten.casebook.model import NAME_OF
from schotten.position import Problem
from schotten.rules import Rule


@dataclass(frozen=True)
class Placed:
    """A card where the case file writes it."""

    card: Card
    key_path: KeyPath
    owner: Player | None  # who played it, when it is on the table or discarded


def case_errors(
    problems: Sequence[Problem], placed: Sequence[Placed], board: Board, doc: Document
) -> list[CaseError]:
    """Each problem at its key path in ``doc`` (file, line, column); one error per place and
    message, whichever check found it (the table's and the whole position's overlap)."""
    errors: dict[tuple[KeyPath, str], CaseError] = {}
    for problem in problems:
        for key_path, message, key in _places(problem, placed, board, doc):
            if (key_path, message) not in errors:
                errors[key_path, message] = doc.error(key_path, message, key=key)
    return list(errors.values())


Place = tuple[KeyPath, str, bool]  # key path, message, whether the key (not the value) is meant


def _places(
    problem: Problem, placed: Sequence[Placed], board: Board, doc: Document
) -> Iterator[Place]:
    base = board.variant is Variant.BASE
    code, n, player, index = problem.code, problem.stone, problem.player, problem.index
    if code == "tactic-in-base-game":
        for p in placed:
            if p.card in problem.cards:
                yield p.key_path, f"{p.card} is a tactic card: the base game has none", False
    elif code == "card-twice" and not (base and isinstance(problem.cards[0], Tactic)):
        # (In the base game a tactic card is wrong once, as a tactic card.)
        yield from _copies(problem.cards[0], placed, doc)
    elif code == "card-twice":
        return
    elif code == "not-on-a-side" and n is not None and player is not None and index is not None:
        if base:
            return
        card = board.stone(n).sides[player].cards[index]
        on_side: KeyPath = ("stones", n, NAME_OF[player], index)
        if isinstance(card, Tactic) and card.kind is TacticKind.COMBAT_MODE:
            message = (
                f"{card} is a combat mode: it lies on the stone ({card}: <player>), not on a side"
            )
        else:
            message = f"{card} is a ruse: it is never placed on a side"
        yield on_side, message, False
    elif code == "combat-mode-discarded" and player is not None and index is not None:
        card = problem.cards[0]
        where = ("discard", NAME_OF[player], index)
        yield where, f"{card} is never discarded: it stays on its stone", False
    elif code == "joker-once" and player is not None:
        jokers = [
            p
            for p in placed
            if p.card is Tactic.JOKER and p.owner is player and p.key_path[0] != "hands"
        ]
        message = (
            f"{NAME_OF[player]} has played two Jokers: one per player over the game "
            f"({Rule.JOKER_ONCE})"
        )
        yield jokers[1].key_path, message, False
    elif code == "side-over-capacity" and n is not None and player is not None:
        stone = board.stone(n)
        held = len(stone.sides[player].cards)
        if stone.mud_fight is not None:
            message = f"{held} cards on this side: a side holds {stone.capacity} (Mud Fight)"
        else:
            message = (
                f"{held} cards on this side: a side holds 3, or 4 under Mud Fight "
                f"(mud-fight: you | opponent on this stone, if it was played)"
            )
        yield ("stones", n, NAME_OF[player]), message, False
    elif code == "hand-size" and player is not None:
        held = sum(1 for p in placed if p.key_path[:2] == ("hands", NAME_OF[player]))
        size = board.variant.hand_size
        message = (
            f"{held} cards in hand: at most {size} in the {board.variant} game ({Rule.HAND_SIZE})"
        )
        yield ("hands", NAME_OF[player]), message, False
    elif code == "wrong-deck" and index is not None:
        card = problem.cards[0]
        if isinstance(card, Tactic):
            yield ("play_on", "decks", "clan", index), f"{card} is a tactic card", False
        else:
            yield ("play_on", "decks", "tactic", index), f"{card} is a Clan card", False
    elif code == "discard-in-base-game":
        yield ("discard",), problem.message, True
    elif code == "tactic-count":
        played = [board.tactics_played(p) for p in Player]
        message = (
            f"tactic cards played: you {played[0]}, opponent {played[1]}; a player may lead by "
            f"one at most ({Rule.TACTIC_COUNT})"
        )
        yield ("stones",), message, True
    elif code == "game-over" and player is not None:
        message = (
            f"{NAME_OF[player]} already holds five stones or three adjacent ones: the game "
            f"would be over ({Rule.GAME_END})"
        )
        yield ("stones",), message, True
    else:
        yield _where(problem)


def _copies(card: Card, placed: Sequence[Placed], doc: Document) -> Iterator[Place]:
    """Every copy of ``card`` beyond those the game has, pointing at the first."""
    places = [p for p in placed if p.card == card]
    copies = card.copies if isinstance(card, Tactic) else 1
    times = "once" if copies == 1 else f"{copies} times"
    for extra in places[copies:]:
        first = places[0]
        line = doc.locate(first.key_path)[0]
        message = (
            f"{card} is already at {format_key_path(first.key_path)} (line {line}): "
            f"the game has it {times}"
        )
        yield extra.key_path, message, False


def _where(problem: Problem) -> Place:
    """Where a problem of the position is in a case file, from what the problem says of its
    place: ``stones.4.you[2]`` for a card of a side, ``stones.4.claimed_by`` for a claim,
    ``discard.you[0]``, or the ``stones`` key for the table as a whole."""
    n, player, index = problem.stone, problem.player, problem.index
    path: KeyPath = ("stones",)
    key = True
    if n is not None and player is not None and problem.code == "claim-unproven":
        path, key = ("stones", n, "claimed_by"), False
    elif n is not None and player is not None:
        path = ("stones", n, NAME_OF[player]) + (() if index is None else (index,))
        key = index is None
    elif n is not None:
        path = ("stones", n)
    elif player is not None and index is not None:
        path, key = ("discard", NAME_OF[player], index), False
    return path, problem.message, key
