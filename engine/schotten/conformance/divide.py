"""Where an engine and this one part on a claim: the divide, in the spirit of perftree.

For a claim vector the engine answered otherwise, the first stone it differs on is taken apart:

- the claimer's side: its cards, the formation this engine gives it and, when the side is
  complete and the engine answers ``formation`` requests for it, the engine's;
- the opponent's side: its cards, this engine's best completion of it (the cards added and the
  formation), the witness when there is one, and what the engine said of each;
- the walk: the cards of this engine's completion are put on the opponent's side one at a time
  and the engine is asked about the stone again (requests it already answers). The first card
  after which the engine agrees is where they part: on the position before it, this engine sees
  that card complete the formation and the engine does not. When the engine still differs with
  the side complete, they part on the formation of a complete side (asked as a ``formation``).

Only follow-up requests of kinds the engine declares are sent; a divide is made for the smallest
vectors first (:data:`MAX_DIVIDES` at most), so that the report leads with the simplest one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from schotten.board import Board, Player
from schotten.cards import Card
from schotten.claims import judge_claim, side_formation, unseen_pool
from schotten.completion import best_completion
from schotten.conformance.capabilities import Capabilities
from schotten.conformance.client import Engine
from schotten.conformance.protocol import claim_answers
from schotten.conformance.shown import shown
from schotten.conformance.wire import board_data, dumps, formation_data
from schotten.errors import InvalidNotationError, InvalidPositionError
from schotten.position_data import board_from_data

MAX_DIVIDES = 20
"""Claim vectors taken apart in one run, the smallest first: each costs a few requests."""

COMPARED = ("verdict", "reason", "theirs", "witness")


@dataclass(frozen=True)
class Divide:
    """What each engine saw of one stone of a claim, and where they part."""

    stone: int
    claimer_cards: tuple[str, ...]
    claimer_formation: str | None  # this engine's (None: the side is incomplete)
    engine_claimer_formation: str | None  # the engine's, asked as a formation (None: not asked)
    opponent_cards: tuple[str, ...]
    completion: tuple[str, ...]  # the cards this engine adds to the opponent's side at best
    theirs: str | None  # this engine's best formation of the opponent's side
    engine_theirs: str | None
    witness: tuple[str, ...]  # the cards of this engine's witness (empty: none)
    witness_formation: str | None
    engine_witness: str | None
    parted: str  # one sentence: where they part

    def lines(self) -> list[str]:
        """The divide as lines of the text report."""
        mine = self.claimer_formation or "incomplete"
        asked = (
            ""
            if self.engine_claimer_formation is None
            else f" (engine: {self.engine_claimer_formation})"
        )
        placed = ", ".join(self.opponent_cards) or "no card"
        added = f" + {', '.join(self.completion)}" if self.completion else ""
        lines = [
            f"divide, stone {self.stone}:",
            f"  claimer's side {', '.join(self.claimer_cards) or '-'}: {mine}{asked}",
            f"  opponent's side {placed}{added}: best {self.theirs or 'none'} "
            f"(engine: {self.engine_theirs or 'none'})",
        ]
        if self.witness or self.engine_witness:
            cards = ", ".join(self.witness) or "-"
            lines.append(
                f"  witness {cards}: {self.witness_formation or 'none'} "
                f"(engine: {self.engine_witness or 'none'})"
            )
        lines.append(f"  they part: {self.parted}")
        return lines

    def data(self) -> dict[str, Any]:
        """The divide as the ``--json`` and ``--report`` lines carry it."""
        return {
            "stone": self.stone,
            "claimer": {
                "cards": list(self.claimer_cards),
                "formation": self.claimer_formation,
                "engine": self.engine_claimer_formation,
            },
            "opponent": {
                "cards": list(self.opponent_cards),
                "completion": list(self.completion),
                "best": self.theirs,
                "engine": self.engine_theirs,
            },
            "witness": {
                "cards": list(self.witness),
                "formation": self.witness_formation,
                "engine": self.engine_witness,
            },
            "parted": self.parted,
        }


def chosen(outcomes: Sequence[Any], limit: int = MAX_DIVIDES) -> list[Any]:
    """The claim disagreements to take apart, at most ``limit``: the smallest of each group
    (the example the report shows), smallest first, then the others by size."""
    claims = sorted(
        (o for o in outcomes if o.kind == "claims" and o.status == "disagree"),
        key=lambda o: (o.size, o.vector),
    )
    examples: dict[str, Any] = {}
    for outcome in claims:
        examples.setdefault(outcome.signature, outcome)
    firsts = list(examples.values())
    rest = [o for o in claims if all(o is not e for e in firsts)]
    return [*firsts, *rest][:limit]


def divide_claim(
    vector: dict[str, Any],
    answer: dict[str, Any] | None,
    engine: Engine,
    capabilities: Capabilities,
) -> Divide | None:
    """The divide of one claim vector the engine answered ``answer``; ``None`` when no stone of
    its answer can be taken apart (an error answer, verdicts missing). May raise
    :class:`~schotten.conformance.client.EngineFailure`."""
    position, stones = vector["position"], vector["stones"]
    try:
        board = board_from_data(position)
    except (InvalidPositionError, InvalidNotationError):
        return None
    claimer = Player.FIRST if vector["claimer"] == "first" else Player.SECOND
    got = answer.get("stones") if isinstance(answer, dict) else None
    if not isinstance(got, list) or len(got) != len(stones):
        return None
    expect = vector["expect"]
    for want, have in zip(expect, got, strict=True):
        if not isinstance(have, dict) or any(have.get(k) != want[k] for k in COMPARED):
            number = want["stone"]
            return _divide_stone(board, position, claimer, number, have, engine, capabilities)
    return None


def _divide_stone(
    board: Board,
    position: dict[str, Any],
    claimer: Player,
    number: int,
    have: Any,
    engine: Engine,
    capabilities: Capabilities,
) -> Divide:
    stone = board.stone(number)
    opponent = claimer.other
    have = have if isinstance(have, dict) else {}
    (verdict,) = judge_claim(board, claimer, [number])
    mine = formation_data(side_formation(stone, claimer))
    mine_cards = tuple(str(c) for c in stone.side(claimer).cards)
    asker = _Asker(engine, capabilities, stone.totals_only)
    engine_mine = asker.formation(mine_cards) if mine is not None else None
    pool = unseen_pool(board, claimer)
    best = None
    if stone.claimed_by is None and not stone.is_complete(opponent):
        best = best_completion(
            stone.side(opponent).cards,
            stone.capacity,
            totals_only=stone.totals_only,
            pool=pool.mask,
            wilds=pool.wilds,
        )
    witness = verdict.witness
    engine_theirs, engine_witness = _said(have.get("theirs")), _said(have.get("witness"))
    expected = claim_answers((verdict,))[0]
    # The walk follows the completion whose formation the engine did not see: the witness when
    # the opponent's best agrees and the witness does not, else the best.
    path: tuple[Card, ...] = () if best is None else best.added
    if witness is not None and have.get("theirs") == expected["theirs"]:
        path = witness.cards
    if engine_mine is not None and engine_mine != mine:
        parted = (
            f"on the claimer's complete side {', '.join(mine_cards)}: {mine} here, "
            f"{engine_mine} for the engine"
        )
    else:
        parted = _walk(board, position, claimer, number, path, asker)
    return Divide(
        number,
        mine_cards,
        mine,
        engine_mine,
        tuple(str(c) for c in stone.side(opponent).cards),
        tuple(str(c) for c in (best.added if best is not None else ())),
        expected["theirs"],
        engine_theirs,
        tuple(str(c) for c in witness.cards) if witness is not None else (),
        expected["witness"],
        engine_witness,
        parted,
    )


def _walk(
    board: Board,
    position: dict[str, Any],
    claimer: Player,
    number: int,
    path: Sequence[Card],
    asker: _Asker,
) -> str:
    """Put the cards of ``path`` on the opponent's side one at a time, asking the engine about
    the stone after each: the sentence saying where it first agrees (the card they part on)."""
    opponent = claimer.other
    placed: list[str] = []
    for card in path:
        before = ", ".join(placed)
        board = board.place(opponent, number, card, at=_next_time(board))
        placed.append(str(card))
        here = _position(board, position, placed)
        (verdict,) = judge_claim(board, claimer, [number])
        want = claim_answers((verdict,))[0]
        said = asker.claim(here, claimer, number)
        if said is None:
            return (
                f"not found: the engine did not answer the claim with "
                f"{', '.join(placed)} put on the opponent's side"
            )
        if all(said.get(k) == want[k] for k in COMPARED):
            where = f"with {before} put on the opponent's side" if before else "on the vector"
            best = want["theirs"] if want["theirs"] is not None else "its formation"
            return (
                f"at {card}: {where}, the reference completes the opponent's side with {card} "
                f"({best}); the engine agrees once {card} is on the table, not before"
            )
    stone = board.stone(number)
    cards = tuple(str(c) for c in stone.side(opponent).cards)
    if not stone.is_complete(opponent):
        return "not found: the engine still differs, and the opponent's side has no completion"
    want_formation = formation_data(side_formation(stone, opponent))
    engine_formation = asker.formation(cards)
    if engine_formation is None:
        return (
            f"on the opponent's complete side {', '.join(cards)} ({want_formation} here): the "
            "engine still differs, and is not asked formations"
        )
    if engine_formation != want_formation:
        return (
            f"on the opponent's complete side {', '.join(cards)}: {want_formation} here, "
            f"{engine_formation} for the engine"
        )
    mine = formation_data(side_formation(stone, claimer))
    if mine == want_formation:
        times = [stone.side(p).completed_at for p in (claimer, opponent)]
        first = stone.completed_first()
        who = "the claimer's" if first is claimer else "the opponent's"
        return (
            f"on the tie: both sides are {mine}, completed at steps {times[0]} (the claimer's) "
            f"and {times[1]}; {who} was completed first and wins it; the engine, agreeing on "
            "both formations, still differs"
        )
    return (
        f"on the verdict itself: the engine gives the opponent's complete side "
        f"{', '.join(cards)} the same formation ({want_formation}) and still differs"
    )


def _next_time(board: Board) -> int:
    """A completion time after every other on the board: a side completed now."""
    times = [s.completed_at for stone in board.stones for s in stone.sides]
    return 1 + max((t for t in times if t is not None), default=0)


def _position(board: Board, original: dict[str, Any], placed: Sequence[str]) -> dict[str, Any]:
    """``board`` as a claim request's position; the original's known hand kept, less the cards
    put on the table (the claimer's own hand is among the unseen cards)."""
    data = board_data(board, sparse=True)
    hands = original.get("hands")
    if isinstance(hands, dict):
        data["hands"] = {p: [c for c in cards if c not in placed] for p, cards in hands.items()}
    return data


def _said(value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return None if value is None else shown(value, 40)
    return f"nonsense {shown(dumps(value), 60)}"


class _Asker:
    """The follow-up requests of a divide, sent only when the engine declares their kind."""

    def __init__(self, engine: Engine, capabilities: Capabilities, totals_only: bool) -> None:
        self.engine = engine
        self.capabilities = capabilities
        self.totals_only = totals_only

    def formation(self, cards: Sequence[str]) -> str | None:
        """The engine's formation of a complete side (``None``: not asked)."""
        request = {"type": "formation", "cards": list(cards), "totals_only": self.totals_only}
        if not self.capabilities.covers("formations", request):
            return None
        answer = self.engine.ask(request)
        if "error" in answer:
            return f"an error ({shown(str(answer.get('error')), 40)})"
        return _said(answer.get("formation")) or "none"

    def claim(
        self, position: dict[str, Any], claimer: Player, number: int
    ) -> dict[str, Any] | None:
        """The engine's verdict on one stone of a position (``None``: no readable verdict)."""
        request = {
            "type": "claim",
            "position": position,
            "claimer": str(claimer),
            "stones": [number],
        }
        answer = self.engine.ask(request)
        stones = answer.get("stones")
        if not isinstance(stones, list) or len(stones) != 1 or not isinstance(stones[0], dict):
            return None
        verdict: dict[str, Any] = stones[0]
        return verdict
