"""The values of the casebook: a validated :class:`Case` and what it records.

These are plain frozen values; reading a file into them is :mod:`schotten.casebook.build`'s work,
writing them back as text :mod:`schotten.casebook.writer`'s.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from schotten.board import Board, Player, Variant
from schotten.cards import Card, parse_card
from schotten.claims import Reason
from schotten.moves import Move
from schotten.rules import Rule

if TYPE_CHECKING:
    from schotten.casebook.loader import Document

#: The player words of case files: ``you`` is the first player, who claims or starts the play-on.
PLAYER_OF = {"you": Player.FIRST, "opponent": Player.SECOND}
NAME_OF = {player: name for name, player in PLAYER_OF.items()}

#: The table of the FAQ; other tables are kebab-case ids the site has a heading for.
FAQ_TABLE = "faq"


@dataclass(frozen=True)
class ExpectedWitness:
    cards: tuple[Card, ...]
    formation: str  # "<kind> <total>", e.g. "same-value 9"


@dataclass(frozen=True)
class ExpectedStone:
    stone: int
    verdict: str  # granted | refused
    reason: Reason
    witness: ExpectedWitness | None = None


@dataclass(frozen=True)
class ExpectedPlayOn:
    steps: tuple[str, ...]  # "ok" or "illegal <rule id or Refusal id>", one per move
    game: str
    held: tuple[tuple[int, ...], tuple[int, ...]]  # by Player
    termination: str | None = None
    points: tuple[int, int] | None = None  # the round's points (rule match-scoring), once over


@dataclass(frozen=True)
class Expectation:
    """What ``expect:`` records; the engine's results take the same shape to be compared."""

    stones: tuple[ExpectedStone, ...] = ()
    game: str | None = None
    play_on: ExpectedPlayOn | None = None

    @classmethod
    def from_data(cls, given: dict[str, Any]) -> Expectation:
        """The expectation that ``expect:`` holds (data the schema has checked), the inverse of
        :meth:`as_data`."""
        stones = []
        for key, entry in given.get("stones", {}).items():
            witness = None
            if "witness" in entry:
                w = entry["witness"]
                witness = ExpectedWitness(tuple(parse_card(c) for c in w["cards"]), w["formation"])
            stones.append(
                ExpectedStone(int(key), entry["verdict"], Reason(entry["reason"]), witness)
            )
        play_on = None
        if "play_on" in given:
            p = given["play_on"]
            held = (tuple(p["held"].get("you", ())), tuple(p["held"].get("opponent", ())))
            points = None
            if "points" in p:
                points = (p["points"]["you"], p["points"]["opponent"])
            steps = tuple(p["steps"])
            play_on = ExpectedPlayOn(steps, p["game"], held, p.get("termination"), points)
        return cls(tuple(stones), given.get("game"), play_on)

    def as_data(self) -> dict[str, Any]:
        """The plain data written under ``expect:`` (stone numbers as int keys)."""
        data: dict[str, Any] = {}
        if self.stones:
            data["stones"] = {s.stone: _stone_data(s) for s in self.stones}
        if self.game is not None:
            data["game"] = self.game
        if self.play_on is not None:
            p = self.play_on
            play: dict[str, Any] = {
                "steps": list(p.steps),
                "game": p.game,
                "held": {NAME_OF[pl]: list(p.held[pl]) for pl in Player},
            }
            if p.termination is not None:
                play["termination"] = p.termination
            if p.points is not None:
                play["points"] = {NAME_OF[pl]: p.points[pl] for pl in Player}
            data["play_on"] = play
        return data


def _stone_data(s: ExpectedStone) -> dict[str, Any]:
    data: dict[str, Any] = {"verdict": s.verdict, "reason": str(s.reason)}
    if s.witness is not None:
        data["witness"] = {
            "cards": [str(c) for c in s.witness.cards],
            "formation": s.witness.formation,
        }
    return data


@dataclass(frozen=True)
class Publication:
    """Where a case is published on the site: row ``row`` (from 1) of the table ``table``.

    ``faq`` is the table of the FAQ; other tables are kebab-case ids the site has a heading for.
    """

    table: str
    row: int

    def __str__(self) -> str:
        return f"{self.table} row {self.row}"


@dataclass(frozen=True)
class PlayOn:
    """Moves played on from the case's position, starting at ``you``'s ``start`` step.

    ``question`` is the index in ``moves`` of the move the case's situation asks about (the
    file's ``question:``): its answer is the case's answer; the other moves show the way there,
    or try what the rules refuse."""

    start: str  # play | claim | draw
    decks: tuple[tuple[Card, ...], tuple[Card, ...]]  # the tops of the Clan and Tactic decks
    moves: tuple[tuple[Player, Move], ...]
    question: int = 0


@dataclass(frozen=True)
class Case:
    """One case file, validated. ``you`` is :attr:`Player.FIRST`."""

    id: str
    path: Path
    variant: Variant
    situation: dict[str, str]
    why: dict[str, str]
    source: str
    rules: tuple[Rule, ...]
    published: Publication | None
    board: Board
    claim: tuple[int, ...]
    expect: Expectation | None
    hands: tuple[tuple[Card, ...], tuple[Card, ...]] = ((), ())
    play_on: PlayOn | None = None
    document: Document | None = field(default=None, repr=False, compare=False)

    def line_of(self, *key_path: str | int) -> int:
        """The line (from 1) of a key's value, or of its deepest existing parent.

        ``case.line_of("expect", "stones", 4, "reason")``
        """
        if self.document is None:
            return 1
        return self.document.locate(key_path)[0]

    def column_of(self, *key_path: str | int) -> int:
        if self.document is None:
            return 1
        return self.document.locate(key_path)[1]
