"""The booklet's rules and the site's rulings: which rulings each vector of the suite depends on.

Where the booklet leaves a point open, this project decided (a site ruling of RULES.md, listed
in :data:`schotten.rulings.SITE_RULINGS`); another engine may have decided otherwise. Each
vector of the suite carries ``rulings``: the ids of the site rulings it exercises, computed here
when the suite is exported, never written by hand (``[]``: the booklet's rules only). A vector
from the casebook adds the rulings among its case's ``rule:`` ids.

A vector is filed under a ruling when it exercises what the ruling decides, whether or not
another decision would change its answer (an engine that decided otherwise may still agree on
it): so that an engine with other rulings never disagrees on a vector filed under the booklet.
What each ruling covers, by kind:

- ``claim-wild-pool``: a Tactical claim judged from the unseen pool (the claimer's side
  complete, the opponent's not) while an elite troop is unplayed and could be the opponent's;
- ``elite-troop-value``: that, or an elite troop on a side judged by its formation; a
  formation whose elite troop takes the very card beside it (computed: the best formation
  without such a copy is weaker);
- ``pass``, ``recruiter``: a position where a pass or a Recruiter is legal, or a move that
  plays one; ``empty-deck``: a game where a Recruiter is played (its cards refill the decks);
- ``ruse-target``: a play step where the mover holds a ruse that has no legal target;
- ``claim-closed``: a play step where the mover holds a combat mode and a stone is claimed;
- ``combat-mode``: a Strategist or a Banshee legal while a combat mode lies on a stone;
- ``completed-first``: a move of a Strategist, a Banshee, a Traitor or a Mud Fight (they change
  which side was completed when);
- ``claim-together``: a claim naming several stones that is refused;
- ``deadlock``, ``match-scoring``: a game closed by a deadlock, a drawn game's points;
- the moves kind adds the ruling of each refused move's rule.

An engine declares the rulings it takes in its ``hello`` (``supports.rulings``, default: all the
site's); the vectors of a ruling it does not take are not asked.

>>> formation_rulings(["red 7", "red 8", "spy"], False, "colour 22")
('elite-troop-value',)
>>> formation_rulings(["red 8", "joker", "red 6"], False, "colour-run 21")
()
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from schotten.board import Board, Player, Variant
from schotten.cards import WILD_VALUES, ClanCard, Colour, Tactic, is_wild, parse_card
from schotten.claims import Reason, StoneVerdict, unseen_pool
from schotten.conformance.wire import formation_data
from schotten.formations import evaluate
from schotten.game import Game
from schotten.rules import Rule
from schotten.rulings import SITE_RULINGS, rulings_among
from schotten.turn import Phase

BOOKLET = "booklet"
"""The label of the vectors that depend on no site ruling, in a run's tally."""

RULING_IDS: tuple[str, ...] = tuple(sorted(str(r) for r in SITE_RULINGS))

_JUDGED_BY_FORMATION = {
    Reason.STRONGER,
    Reason.WEAKER,
    Reason.TIE_COMPLETED_FIRST,
    Reason.TIE_COMPLETED_LATER,
    Reason.UNBEATABLE,
    Reason.OPPONENT_CAN_BEAT,
}
_FROM_POOL = {Reason.UNBEATABLE, Reason.OPPONENT_CAN_BEAT}
_RUSES = (Tactic.RECRUITER, Tactic.STRATEGIST, Tactic.BANSHEE, Tactic.TRAITOR)
_MODES = (Tactic.MUD_FIGHT, Tactic.BLIND_MANS_BLUFF)
_TIME_CHANGERS = ("play strategist", "play banshee", "play traitor", "play mud-fight")


def ids(rules: Iterable[Rule]) -> tuple[str, ...]:
    """The ids of the site rulings among ``rules``, sorted (a vector's ``rulings``)."""
    return tuple(sorted(str(r) for r in rulings_among(rules)))


# -- claims and provable -----------------------------------------------------------------------


def claim_rulings(
    board: Board, claimer: Player, verdicts: Iterable[StoneVerdict]
) -> tuple[str, ...]:
    """The rulings a claim's verdicts exercise: a judgement from a pool with wild elite troops,
    an elite troop on a side judged by its formation."""
    found: set[Rule] = set()
    wilds = bool(unseen_pool(board, claimer).wilds) and board.variant is Variant.TACTICAL
    for verdict in verdicts:
        if verdict.reason in _FROM_POOL and wilds:
            found |= {Rule.CLAIM_WILD_POOL, Rule.ELITE_TROOP_VALUE}
        if verdict.reason in _JUDGED_BY_FORMATION:
            stone = board.stone(verdict.stone)
            if any(is_wild(c) for side in stone.sides for c in side.cards):
                found.add(Rule.ELITE_TROOP_VALUE)
    return ids(found)


# -- formations --------------------------------------------------------------------------------


def formation_rulings(cards: Sequence[str], totals_only: bool, expect: str) -> tuple[str, ...]:
    """``elite-troop-value`` when the side's best formation (``expect``) needs an elite troop
    to copy a Clan card of the same side, or the card another troop copies: computed by trying
    every value of each troop without a copy."""
    parsed = [parse_card(c) for c in cards]
    clan = [c for c in parsed if isinstance(c, ClanCard)]
    troops = [c for c in parsed if isinstance(c, Tactic) and c in WILD_VALUES]
    if not troops:
        return ()
    choices = [[ClanCard(colour, v) for colour in Colour for v in t.values] for t in troops]
    best = None
    for picked in itertools.product(*choices):
        side = [*clan, *picked]
        if len(set(side)) < len(side):
            continue
        formation = evaluate(side, totals_only=totals_only)
        best = formation if best is None or formation > best else best
    if best is not None and formation_data(best) == expect:
        return ()
    return (str(Rule.ELITE_TROOP_VALUE),)


# -- positions of a game: moves, games, perft ---------------------------------------------------


@dataclass
class GameRulings:
    """The rulings a game's positions and moves exercise, gathered step by step."""

    found: set[Rule] = field(default_factory=set)

    def position(self, game: Game, legal: Sequence[str]) -> None:
        """What the position of ``game``, with its ``legal`` moves, exercises."""
        if game.outcome is not None:
            self.outcome(game)
            return
        if "pass" in legal:
            self.found.add(Rule.PASS)
        if any(m.startswith("play recruiter") for m in legal):
            self.found.add(Rule.RECRUITER)
        board, me = game.board, game.to_move
        if game.phase is Phase.PLAY:
            hand = game.hand(me)
            for ruse in _RUSES:
                if ruse in hand and not any(m.startswith(f"play {ruse}") for m in legal):
                    self.found.add(Rule.RUSE_TARGET)
            claimed = any(s.claimed_by is not None for s in board.stones)
            if claimed and any(m in hand for m in _MODES):
                self.found.add(Rule.CLAIM_CLOSED)
            moded = any(s.mud_fight or s.blind_mans_bluff for s in board.stones)
            takers = ("play strategist", "play banshee")
            if moded and any(m.startswith(takers) for m in legal):
                self.found.add(Rule.COMBAT_MODE)
        if game.phase is Phase.CLAIM and board.variant is Variant.TACTICAL:
            self._claim_step(board, me)

    def _claim_step(self, board: Board, me: Player) -> None:
        wilds = bool(unseen_pool(board, me).wilds)
        for stone in board.stones:
            if stone.claimed_by is not None or not stone.is_complete(me):
                continue
            if any(is_wild(c) for side in stone.sides for c in side.cards):
                self.found.add(Rule.ELITE_TROOP_VALUE)
            if wilds and not stone.is_complete(me.other):
                self.found |= {Rule.CLAIM_WILD_POOL, Rule.ELITE_TROOP_VALUE}

    def move(self, move: str) -> None:
        """What playing ``move`` exercises."""
        if move == "pass":
            self.found.add(Rule.PASS)
        if move.startswith("play recruiter"):
            self.found |= {Rule.RECRUITER, Rule.EMPTY_DECK}
        if move.startswith(_TIME_CHANGERS):
            self.found.add(Rule.COMPLETED_FIRST)

    def refused(self, move: str, rule: str) -> None:
        """What a refused ``move`` exercises: the ruling of its rule, a multi-stone claim."""
        self.found |= set(rulings_among([Rule(rule)]))
        if move.startswith("claim ") and len(move.split()) > 2:
            self.found.add(Rule.CLAIM_TOGETHER)

    def outcome(self, game: Game) -> None:
        outcome = game.outcome
        if outcome is None:
            return
        if str(outcome.termination) == str(Rule.DEADLOCK):
            self.found.add(Rule.DEADLOCK)
        if outcome.winner is None:
            self.found.add(Rule.MATCH_SCORING)

    def ids(self) -> tuple[str, ...]:
        return ids(self.found)


def tree_rulings(game: Game, depth: int) -> tuple[str, ...]:
    """The rulings exercised anywhere in the move tree of ``depth`` from ``game`` (perft)."""
    gathered = GameRulings()

    def walk(node: Game, left: int) -> None:
        legal = [str(m) for m in node.legal_moves()] if node.outcome is None else []
        gathered.position(node, legal)
        for move in legal:
            gathered.move(move)
            if left > 1:
                child = node.copy()
                child.apply(move)
                walk(child, left - 1)

    walk(game, depth)
    return gathered.ids()


# -- a run: what an engine takes, the tally by rules --------------------------------------------


def vector_rulings(vector: Mapping[str, Any]) -> tuple[str, ...]:
    """The rulings a vector of the suite declares (``rulings``; absent: none)."""
    found = vector.get("rulings", ())
    return tuple(str(r) for r in found) if isinstance(found, list) else ()


def labels(vector: Mapping[str, Any]) -> tuple[str, ...]:
    """The rows of the tally a vector counts in: ``booklet``, or each ruling it depends on."""
    return vector_rulings(vector) or (BOOKLET,)


@dataclass
class RulesRow:
    """The vectors of the booklet's rules, or of one ruling, in a run."""

    label: str
    vectors: int = 0
    agreed: int = 0
    disagreed: int = 0
    failed: int = 0
    not_taken: int = 0  # a ruling the engine does not take
    not_asked: int = 0  # not claimed for another reason, skipped, or not run


def tally(
    suite: Sequence[tuple[str, Sequence[Mapping[str, Any]]]],
    asked: Mapping[str, Iterable[str]],
    outcomes: Mapping[tuple[str, str], str],
    taken: frozenset[str],
) -> list[RulesRow]:
    """The rows of a run by rules: ``booklet`` first, then each ruling in the suite.
    ``asked``: the ids asked, by kind; ``outcomes``: (kind, id) → ``disagree`` or a failure,
    for the vectors that count against the engine; ``taken``: the rulings it takes."""
    rows: dict[str, RulesRow] = {BOOKLET: RulesRow(BOOKLET)}
    for kind, vectors in suite:
        asked_here = set(asked.get(kind, ()))
        for vector in vectors:
            ident = str(vector.get("id"))
            for label in labels(vector):
                row = rows.setdefault(label, RulesRow(label))
                row.vectors += 1
                status = outcomes.get((kind, ident))
                if ident not in asked_here:
                    if not set(vector_rulings(vector)) <= taken:
                        row.not_taken += 1
                    else:
                        row.not_asked += 1
                elif status is None:
                    row.agreed += 1
                elif status == "disagree":
                    row.disagreed += 1
                else:
                    row.failed += 1
    booklet = rows.pop(BOOKLET)
    return [booklet, *(rows[k] for k in sorted(rows))]


def rows_text(rows: Sequence[RulesRow]) -> str:
    """The tally by rules as a table: the booklet's rules, then each ruling."""
    head = ("rules", "vectors", "agree", "disagree", "failed", "not taken", "not asked")
    lines: list[tuple[str, ...]] = [head]
    for row in rows:
        counts = (row.vectors, row.agreed, row.disagreed, row.failed)
        lines.append((row.label, *map(str, counts), str(row.not_taken), str(row.not_asked)))
    widths = [max(len(r[i]) for r in lines) for i in range(len(head))]
    out = []
    for r in lines:
        cells = [c.rjust(w) for c, w in zip(r[1:], widths[1:], strict=True)]
        out.append("  ".join([r[0].ljust(widths[0]), *cells]))
    return "\n".join(out) + (
        "\n(a vector depending on several rulings counts in each of their rows; not taken: a "
        "ruling the engine does not declare in supports.rulings)"
    )
