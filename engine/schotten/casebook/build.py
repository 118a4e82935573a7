"""Reading a case file into a :class:`~schotten.casebook.model.Case`, every problem located.

A case file is checked in three passes, each reporting every problem it finds with the file, line,
column and key path: strict YAML (:mod:`schotten.casebook.loader`), the JSON Schema
(:mod:`schotten.casebook.schema`), then the position itself: the engine's
:mod:`schotten.position` checks (cards twice, sides over capacity, completion order, tactic cards
in the base game, whether a game reaches the table, ...), each located at its key path.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from schotten.board import STONES, Board, Player, Side, Stone, Variant
from schotten.cards import Card, Tactic, parse_card
from schotten.casebook.errors import CaseError, CaseFileError, KeyPath
from schotten.casebook.files import case_id_problem, read_case_text
from schotten.casebook.loader import Document, parse_yaml
from schotten.casebook.located import Placed, case_errors
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
    fill_decks,
    outcome_problems,
    position_problems,
    reach_problems,
    table_problems,
)
from schotten.rules import Rule
from schotten.turn import Phase

_COMBAT_MODES = (Tactic.MUD_FIGHT, Tactic.BLIND_MANS_BLUFF)
# Problems of the table alone, which the table's own check words for the case.
_TABLE_ONLY = {
    "stones",
    "side-over-capacity",
    "not-on-a-side",
    "completion-time",
    "combat-mode-discarded",
    "joker-once",
    "tactic-count",
    "game-over",
    "outcome",
}


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
    return _parse_case(text, path)


# A case is a value of its text and path alone: read again (an approve reads the folder for the
# lock, for the claims' and the moves' vectors, a build for each table), it is not parsed again.
# Refusals are not kept: each reading of an invalid file raises afresh.
@functools.lru_cache(maxsize=128)
def _parse_case(text: str, path: Path) -> Case:
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
        placed = list(self._cards(stones_data, hands, discard, play_on))
        board = self._board(stones_data, discard)
        self._check_position(board, hands, placed, play_on)
        expect = self._expect()
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
        moves = []
        for i, item in enumerate(given["moves"]):
            for who, text in item.items():
                try:
                    moves.append((PLAYER_OF[who], Move.parse(text)))
                except InvalidNotationError as exc:
                    self.error(("play_on", "moves", i, who), str(exc))
        # A move not in the notation is reported at its line; the question is then not matched
        # (the moves' numbers would not be the file's).
        unread = len(moves) < len(given["moves"])
        question = 0 if unread else self._question(given.get("question", {}), moves)
        return PlayOn(given.get("start", "claim"), (clan, tactic), tuple(moves), question)

    def _question(self, given: dict[str, Any], moves: list[tuple[Player, Move]]) -> int:
        """The index of the move the question names: the one move of ``moves`` with the same
        mover and move, or, for a move written more than once, the one of number ``move``
        (from 1). The schema requires the key; a question that names no move, or one of two
        without its number, is an error."""
        number = given.get("move")
        for who, text in given.items():
            if who == "move":
                continue
            where = ("play_on", "question", who)
            try:
                asked = (PLAYER_OF[who], Move.parse(text))
            except InvalidNotationError as exc:
                self.error(where, str(exc))
                return 0
            found = [i for i, move in enumerate(moves) if move == asked]
            written = f"'{who}: {asked[1]}'"
            if not found:
                self.error(where, f"the question names no move of play_on.moves: {written}")
            elif number is not None and number - 1 not in found:
                at = ", ".join(str(i + 1) for i in found)
                self.error(
                    ("play_on", "question", "move"),
                    f"move {number} is not {written}, which is move {at} of play_on.moves",
                )
            elif number is not None:
                return int(number) - 1
            elif len(found) > 1:
                at = " and ".join(str(i + 1) for i in found)
                self.error(
                    where,
                    f"{written} is written {len(found)} times (moves {at}): say which one the "
                    f"question is with its number, "
                    f"`question: {{{who}: ..., move: {found[-1] + 1}}}`",
                )
            else:
                return found[0]
        return 0

    def _cards(
        self,
        stones: dict[str, Any],
        hands: tuple[tuple[Card, ...], ...],
        discard: tuple[tuple[Card, ...], ...],
        play_on: PlayOn | None,
    ) -> Iterator[Placed]:
        for key, stone in stones.items():
            n = int(key)
            for name, player in PLAYER_OF.items():
                for i, text in enumerate(stone.get(name, ())):
                    yield Placed(parse_card(text), ("stones", n, name, i), player)
            for mode in _COMBAT_MODES:
                if str(mode) in stone:
                    yield Placed(mode, ("stones", n, str(mode)), PLAYER_OF[stone[str(mode)]])
        for player in Player:
            for i, card in enumerate(discard[player]):
                yield Placed(card, ("discard", NAME_OF[player], i), player)
            for i, card in enumerate(hands[player]):
                yield Placed(card, ("hands", NAME_OF[player], i), None)
        if play_on is not None:
            for deck, cards in zip(("clan", "tactic"), play_on.decks, strict=True):
                for i, card in enumerate(cards):
                    yield Placed(card, ("play_on", "decks", deck, i), None)

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
            first = given.get("completed_first")
            over = any(len(cards) > capacity for cards in sides)  # said once, on that side
            if all(complete) and first is None and not over:
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

    def _check_position(
        self,
        board: Board,
        hands: tuple[tuple[Card, ...], tuple[Card, ...]],
        placed: list[Placed],
        play_on: PlayOn | None,
    ) -> None:
        """The core's checks of the whole position (the table, the hands and the decks' tops, the
        step a play-on starts at), each at its place in the file (:mod:`.located`); then, for a
        position they find nothing wrong with, whether a game reaches the table."""
        tops = play_on.decks if play_on is not None else ((), ())
        decks = fill_decks(board, hands, {Deck.CLAN: tops[0], Deck.TACTIC: tops[1]})
        phase = Phase(play_on.start) if play_on is not None else Phase.PLAY
        # The table's sentences in the case's words; the rest of the position adds its own.
        problems = [*table_problems(board, NAME_OF), *outcome_problems(board, None, NAME_OF)]
        named = {p.code for p in problems} - {"card-twice", "tactic-in-base-game"}
        whole = position_problems(board, hands, decks, phase=phase)
        problems += [p for p in whole if p.code not in named and p.code not in _TABLE_ONLY]
        self.errors += case_errors(problems, placed, board, self.doc)
        if not self.errors:
            self.errors += case_errors(
                list(reach_problems(board, NAME_OF)), placed, board, self.doc
            )

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
