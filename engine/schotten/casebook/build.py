"""Reading a case file into a :class:`~schotten.casebook.model.Case`, every problem located.

A case file is checked in three passes, each reporting every problem it finds with the file, line,
column and key path: strict YAML (:mod:`schotten.casebook.loader`), the JSON Schema
(:mod:`schotten.casebook.schema`), then the position itself: the engine's
:mod:`schotten.position` checks (cards twice, sides over capacity, completion order, tactic cards
in the base game, whether a game reaches the table, ...), each located at its key path.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from schotten.board import STONES, Board, Player, Side, Stone, Variant
from schotten.cards import Card, Tactic, TacticKind, parse_card
from schotten.casebook.errors import CaseError, CaseFileError, KeyPath, format_key_path
from schotten.casebook.files import case_id_problem, read_case_text
from schotten.casebook.loader import Document, parse_yaml
from schotten.casebook.model import (
    NAME_OF,
    PLAYER_OF,
    Case,
    Expectation,
    PlayOn,
    Publication,
)
from schotten.casebook.schema import PLAYERS, json_keys, schema_errors
from schotten.claims import Reason
from schotten.errors import InvalidNotationError
from schotten.moves import Deck, Move
from schotten.position import (
    Problem,
    fill_decks,
    outcome_problems,
    position_problems,
    reach_problems,
    table_problems,
)
from schotten.rules import Rule
from schotten.turn import Phase

_COMBAT_MODES = (Tactic.MUD_FIGHT, Tactic.BLIND_MANS_BLUFF)


def load_case(path: str | Path) -> Case:
    """Read and validate one case file; :class:`CaseFileError` lists all of its problems."""
    path = Path(path)
    problem = case_id_problem(path)
    if problem is not None:
        raise CaseFileError([CaseError(path, 1, 1, (), problem)])
    return parse_case(read_case_text(path), path)


def _publication(given: dict[str, Any] | None) -> Publication | None:
    return None if given is None else Publication(given["table"], given["row"])


def parse_case(text: str, path: Path) -> Case:
    """Validate a case from its text; ``path`` names it in messages and gives its id."""
    doc = parse_yaml(text, path)
    errors = list(doc.errors)
    if doc.data is None:
        # A null document (``---``, ``~``, ``null``): what a truncated write or a bad merge leaves.
        line, column = doc.locate(())
        empty = "the file holds no case (an empty or null document): restore it or delete it"
        raise CaseFileError(errors or [CaseError(path, line, column, (), empty)])
    if not isinstance(doc.data, dict):
        raise CaseFileError([*errors, doc.error((), "a case file is a mapping of keys")])
    data = json_keys(doc.data)
    errors += schema_errors(doc, data)
    if errors:
        raise CaseFileError(errors)
    builder = _Builder(doc, data)
    case = builder.build()
    if builder.errors:
        raise CaseFileError(builder.errors)
    return case


def _side_of(player: str) -> str:
    return "your side" if player == "you" else "the opponent's side"


def _key_path_of(problem: Problem) -> tuple[KeyPath, str, bool]:
    """Where a problem of the position is in a case file, its message and whether the key (not
    the value) is meant: ``stones.4.you[2]`` for a card of a side, ``stones.4.claimed_by`` for a
    claim, ``discard.you[0]``, or the ``stones`` key for the table as a whole."""
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


@dataclass(frozen=True)
class _Placed:
    card: Card
    key_path: KeyPath
    owner: Player | None  # who played it, when it is on the table or discarded


class _Builder:
    """The checks a schema cannot make, then the :class:`Case` (valid data only)."""

    def __init__(self, doc: Document, data: dict[str, Any]) -> None:
        self.doc = doc
        self.data = data
        self.variant = Variant(data["variant"])
        self.errors: list[CaseError] = []

    def error(self, key_path: KeyPath, message: str, *, key: bool = False) -> None:
        self.errors.append(self.doc.error(key_path, message, key=key))

    def build(self) -> Case:
        data = self.data
        stones_data: dict[str, Any] = data.get("stones", {})
        hands = self._by_player("hands")
        discard = self._by_player("discard")
        play_on = self._play_on()
        cards = list(self._cards(stones_data, hands, discard, play_on))
        self._check_cards(cards)
        board = self._board(stones_data, discard)
        self._check_hands(hands)
        self._check_table(board)
        expect = self._expect()
        if play_on is not None and not self.errors:
            self._check_start(board, hands, play_on)
        case = Case(
            id=self.doc.path.stem,
            path=self.doc.path,
            variant=self.variant,
            situation=dict(data["situation"]),
            why=dict(data["why"]),
            source=data["source"],
            rules=tuple(Rule(r) for r in data["rule"]),
            published=_publication(data.get("published")),
            board=board,
            claim=tuple(data.get("claim", ())),
            expect=expect,
            hands=hands,
            play_on=play_on,
            document=self.doc,
        )
        return case

    def _by_player(self, key: str) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        given = self.data.get(key, {})
        you, opponent = (tuple(parse_card(c) for c in given.get(p, ())) for p in PLAYERS)
        return you, opponent

    def _play_on(self) -> PlayOn | None:
        given = self.data.get("play_on")
        if given is None:
            return None
        decks = given.get("decks", {})
        clan, tactic = (tuple(parse_card(c) for c in decks.get(d, ())) for d in ("clan", "tactic"))
        for i, card in enumerate(clan):
            if isinstance(card, Tactic):
                self.error(("play_on", "decks", "clan", i), f"{card} is a tactic card")
        for i, card in enumerate(tactic):
            if not isinstance(card, Tactic):
                self.error(("play_on", "decks", "tactic", i), f"{card} is a Clan card")
        moves = []
        for i, item in enumerate(given["moves"]):
            for who, text in item.items():
                try:
                    moves.append((PLAYER_OF[who], Move.parse(text)))
                except InvalidNotationError as exc:
                    self.error(("play_on", "moves", i, who), str(exc))
        return PlayOn(given.get("start", "claim"), (clan, tactic), tuple(moves))

    def _cards(
        self,
        stones: dict[str, Any],
        hands: tuple[tuple[Card, ...], ...],
        discard: tuple[tuple[Card, ...], ...],
        play_on: PlayOn | None,
    ) -> Iterator[_Placed]:
        for key, stone in stones.items():
            n = int(key)
            for name, player in PLAYER_OF.items():
                for i, text in enumerate(stone.get(name, ())):
                    yield _Placed(parse_card(text), ("stones", n, name, i), player)
            for mode in _COMBAT_MODES:
                if str(mode) in stone:
                    yield _Placed(mode, ("stones", n, str(mode)), PLAYER_OF[stone[str(mode)]])
        for player in Player:
            for i, card in enumerate(discard[player]):
                yield _Placed(card, ("discard", NAME_OF[player], i), player)
            for i, card in enumerate(hands[player]):
                yield _Placed(card, ("hands", NAME_OF[player], i), None)
        if play_on is not None:
            for deck, cards in zip(("clan", "tactic"), play_on.decks, strict=True):
                for i, card in enumerate(cards):
                    yield _Placed(card, ("play_on", "decks", deck, i), None)

    def _check_cards(self, cards: list[_Placed]) -> None:
        seen: dict[Card, list[_Placed]] = {}
        for placed in cards:
            card = placed.card
            if isinstance(card, Tactic) and self.variant is Variant.BASE:
                self.error(placed.key_path, f"{card} is a tactic card: the base game has none")
                continue
            earlier = seen.setdefault(card, [])
            copies = card.copies if isinstance(card, Tactic) else 1
            if len(earlier) >= copies:
                first = earlier[0]
                line = self.doc.locate(first.key_path)[0]
                times = "once" if copies == 1 else f"{copies} times"
                self.error(
                    placed.key_path,
                    f"{card} is already at {format_key_path(first.key_path)} (line {line}): "
                    f"the game has it {times}",
                )
            earlier.append(placed)
            discarded = placed.key_path[0] == "discard"
            if discarded and isinstance(card, Tactic) and card.kind is TacticKind.COMBAT_MODE:
                self.error(placed.key_path, f"{card} is never discarded: it stays on its stone")
            if isinstance(card, Tactic) and placed.key_path[0] == "stones":
                if card.kind is TacticKind.RUSE:
                    self.error(placed.key_path, f"{card} is a ruse: it is never placed on a side")
                elif card.kind is TacticKind.COMBAT_MODE and len(placed.key_path) == 4:
                    self.error(
                        placed.key_path,
                        f"{card} is a combat mode: it lies on the stone ({card}: <player>), "
                        "not on a side",
                    )
        for player in Player:
            jokers = [
                p
                for p in cards
                if p.card is Tactic.JOKER and p.owner is player and p.key_path[0] != "hands"
            ]
            if len(jokers) > 1:
                self.error(
                    jokers[1].key_path,
                    f"{NAME_OF[player]} has played two Jokers: one per player over the game "
                    f"({Rule.JOKER_ONCE})",
                )

    def _board(self, stones_data: dict[str, Any], discard: tuple[tuple[Card, ...], ...]) -> Board:
        board = Board(
            self.variant,
            tuple(Stone(n) for n in STONES),
            (discard[Player.FIRST], discard[Player.SECOND]),
        )
        step = 0
        for n in STONES:
            given = stones_data.get(str(n))
            if given is None:
                continue
            mud = given.get(str(Tactic.MUD_FIGHT))
            bluff = given.get(str(Tactic.BLIND_MANS_BLUFF))
            capacity = 4 if mud is not None else 3
            sides = [tuple(parse_card(c) for c in given.get(p, ())) for p in PLAYERS]
            complete = [len(cards) >= capacity for cards in sides]
            for p, cards in zip(PLAYERS, sides, strict=True):
                if len(cards) > capacity:
                    under = " (Mud Fight)" if mud is not None else ""
                    self.error(
                        ("stones", n, p),
                        f"{len(cards)} cards on this side: a side holds {capacity}{under}",
                    )
            first = given.get("completed_first")
            if all(complete) and first is None:
                self.error(
                    ("stones", n),
                    "both sides are complete: say which was completed first "
                    "(completed_first: you | opponent)",
                    key=True,
                )
            if first is not None and not all(complete):
                self.error(
                    ("stones", n, "completed_first"),
                    "completed_first is only for a stone where both sides are complete",
                    key=True,
                )
            # Completion steps: only their order on one stone matters; the game goes on above.
            order = [PLAYER_OF[first]] if first is not None else []
            order += [pl for pl in Player if pl not in order]
            times: dict[Player, int] = {}
            for pl in order:
                if complete[pl]:
                    step += 1
                    times[pl] = step
            taken = given.get("claimed_by")
            if taken is not None and any(sides) and not complete[PLAYER_OF[taken]]:
                self.error(
                    ("stones", n, "claimed_by"),
                    f"{taken} took this stone, so {_side_of(taken)} must be complete",
                )
            stone = Stone(
                n,
                (
                    Side(sides[Player.FIRST], times.get(Player.FIRST)),
                    Side(sides[Player.SECOND], times.get(Player.SECOND)),
                ),
                claimed_by=PLAYER_OF[taken] if taken is not None else None,
                mud_fight=PLAYER_OF[mud] if mud is not None else None,
                blind_mans_bluff=PLAYER_OF[bluff] if bluff is not None else None,
            )
            board = board.with_stone(stone)
        return board

    def _check_hands(self, hands: tuple[tuple[Card, ...], ...]) -> None:
        size = self.variant.hand_size
        for player in Player:
            if len(hands[player]) > size:
                self.error(
                    ("hands", NAME_OF[player]),
                    f"{len(hands[player])} cards in hand: at most {size} in the "
                    f"{self.variant} game ({Rule.HAND_SIZE})",
                )

    def _check_table(self, board: Board) -> None:
        """The engine's checks of the table (:mod:`schotten.position`), each at its place in the
        file; the ones the checks above already located, in the case's words, are not repeated."""
        problems = [*table_problems(board, NAME_OF), *outcome_problems(board, None, NAME_OF)]
        for problem in problems:
            if problem.code == "tactic-count" and self.variant is Variant.TACTICAL:
                played = [board.tactics_played(p) for p in Player]
                self.error(
                    ("stones",),
                    f"tactic cards played: you {played[0]}, opponent {played[1]}; a player may "
                    f"lead by one at most ({Rule.TACTIC_COUNT})",
                    key=True,
                )
            elif problem.code == "game-over" and problem.player is not None:
                self.error(
                    ("stones",),
                    f"{NAME_OF[problem.player]} already holds five stones or three adjacent ones: "
                    f"the game would be over ({Rule.GAME_END})",
                    key=True,
                )
        if self.errors:
            return
        # Anything the located checks above do not cover, then how a game reaches the table.
        for problem in [*problems, *reach_problems(board, NAME_OF)]:
            if problem.code not in ("tactic-count", "game-over"):
                path, message, key = _key_path_of(problem)
                self.error(path, message, key=key)

    def _check_start(
        self, board: Board, hands: tuple[tuple[Card, ...], tuple[Card, ...]], spec: PlayOn
    ) -> None:
        """The game must accept the position at ``you``'s start step, hands and decks included
        (the moves are played when the case is run, :func:`schotten.casebook.run.run_case`)."""
        decks = fill_decks(board, hands, {Deck.CLAN: spec.decks[0], Deck.TACTIC: spec.decks[1]})
        problems = position_problems(board, hands, decks, phase=Phase(spec.start))
        if problems:
            reasons = "; ".join(map(str, problems))
            message = f"the game cannot start from this position: {reasons}"
            self.error(("play_on",), message, key=True)

    def _expect(self) -> Expectation | None:
        given = self.data.get("expect")
        if given is None:
            return None
        for key, entry in given.get("stones", {}).items():
            reason = Reason(entry["reason"])
            verdict = "granted" if reason.granted else "refused"
            if entry["verdict"] != verdict:
                self.error(
                    ("expect", "stones", int(key), "verdict"),
                    f"reason {reason} means the stone is {verdict}, not {entry['verdict']}",
                )
        return Expectation.from_data(given)
