"""Claims decided by proof (RULES.md, Claims).

A stone is granted when your side is complete and either the opponent's complete side is weaker
(or equal, and you completed first), or no completion of the opponent's side from the unseen pool
would be strictly stronger. The unseen pool is every card not at a stone and not face up in the
discard pile: your own hand is in it. In the Tactical variant, unplayed elite troops are wild
cards of their range, and an opponent who has played a Joker can never get the other (site
ruling ``claim-wild-pool``).

>>> from schotten.board import Board, Player, Variant
>>> from schotten.cards import parse_cards
>>> board = Board.empty(Variant.BASE)
>>> for step, (who, stone, card) in enumerate([
...     (Player.FIRST, 4, "red 1"), (Player.FIRST, 4, "green 1"), (Player.FIRST, 4, "blue 1"),
...     (Player.SECOND, 4, "red 3"), (Player.SECOND, 4, "green 3")]):
...     board = board.place(who, stone, parse_card(card), at=step)
>>> verdict = judge_stone(board, Player.FIRST, 4)
>>> verdict.granted, verdict.reason
(False, <Reason.OPPONENT_CAN_BEAT: 'opponent-can-beat'>)
>>> format_cards(verdict.witness.cards), verdict.witness.formation
('orange 3', Formation(kind=FormationKind.SAME_VALUE, total=9))
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, replace

from schotten.board import Board, Player, Stone, Variant
from schotten.cards import CLAN_CARDS, Card, ClanCard, Tactic, format_cards, parse_card  # noqa: F401
from schotten.completion import ALL_CLAN_MASK, Completion, best_completion, pool_mask
from schotten.errors import IllegalActionError
from schotten.formations import Formation
from schotten.rules import Rule


class Reason(enum.StrEnum):
    """Why a stone is granted or refused: exactly one reason per stone."""

    STRONGER = "stronger"
    TIE_COMPLETED_FIRST = "tie-completed-first"
    UNBEATABLE = "unbeatable"
    SIDE_INCOMPLETE = "side-incomplete"
    WEAKER = "weaker"
    TIE_COMPLETED_LATER = "tie-completed-later"
    OPPONENT_CAN_BEAT = "opponent-can-beat"
    STONE_CLAIMED = "stone-claimed"

    @property
    def granted(self) -> bool:
        return self in (Reason.STRONGER, Reason.TIE_COMPLETED_FIRST, Reason.UNBEATABLE)

    @property
    def rule(self) -> Rule:
        return _REASON_RULES[self]


_REASON_RULES = {
    Reason.STRONGER: Rule.FORMATION_LADDER,
    Reason.TIE_COMPLETED_FIRST: Rule.COMPLETED_FIRST,
    Reason.UNBEATABLE: Rule.CLAIM_PROOF,
    Reason.SIDE_INCOMPLETE: Rule.CLAIM_COMPLETE_SIDE,
    Reason.WEAKER: Rule.FORMATION_LADDER,
    Reason.TIE_COMPLETED_LATER: Rule.COMPLETED_FIRST,
    Reason.OPPONENT_CAN_BEAT: Rule.CLAIM_PROOF,
    Reason.STONE_CLAIMED: Rule.CLAIM_CLOSED,
}


@dataclass(frozen=True)
class Pool:
    """What the opponent of a claimer could still get: unseen Clan cards and elite troops."""

    mask: int  # the unseen Clan cards, as a set of bits (see completion.pool_mask)
    wilds: tuple[Tactic, ...]

    @property
    def clan(self) -> tuple[ClanCard, ...]:
        return tuple(c for i, c in enumerate(CLAN_CARDS) if self.mask >> i & 1)


@dataclass(frozen=True)
class Witness:
    """A completion of the opponent's side that would beat the claimer."""

    cards: tuple[Card, ...]  # taken from the unseen pool
    formation: Formation
    side: tuple[ClanCard, ...]  # the whole side as it would stand, elite troops resolved


@dataclass(frozen=True)
class StoneVerdict:
    stone: int
    reason: Reason
    mine: Formation | None = None  # the claimer's formation, if the side is complete
    theirs: Formation | None = None  # the opponent's, or their best possible if incomplete
    witness: Witness | None = None  # only for opponent-can-beat

    @property
    def granted(self) -> bool:
        return self.reason.granted

    def explain(self) -> str:
        """One line in English: the verdict and its grounds."""
        verdict = "granted" if self.granted else "refused"
        text = f"stone {self.stone}: {verdict} ({self.reason})"
        if self.mine is not None:
            text += f"; yours {describe(self.mine)}"
        if self.witness is not None:
            text += (
                f"; {format_cards(self.witness.cards)} would give them "
                f"{describe(self.witness.formation)}"
            )
        elif self.theirs is not None:
            text += f"; theirs {describe(self.theirs)}"
        return text


def describe(formation: Formation) -> str:
    return f"{formation.kind.words} {formation.total}"


def unseen_pool(board: Board, claimer: Player) -> Pool:
    """The cards the claimer's opponent could still get (RULES.md, Claims)."""
    visible = list(board.visible())
    unseen = ALL_CLAN_MASK & ~pool_mask(visible)
    wilds: list[Tactic] = []
    if board.variant is Variant.TACTICAL:
        opponent = claimer.other
        jokers_out = visible.count(Tactic.JOKER)
        if jokers_out < 2 and not board.has_played_joker(opponent):
            wilds.append(Tactic.JOKER)
        wilds += [t for t in (Tactic.SPY, Tactic.SHIELD_BEARER) if t not in visible]
    return Pool(unseen, tuple(wilds))


def side_formation(stone: Stone, player: Player) -> Formation | None:
    """The formation of a complete side (elite troops at their best), ``None`` if incomplete."""
    if not stone.is_complete(player):
        return None
    best = best_completion(stone.side(player).cards, stone.capacity, totals_only=stone.totals_only)
    assert best is not None  # a complete side always has a formation
    return best.formation


def judge_stone(
    board: Board, claimer: Player, number: int, pool: Pool | None = None
) -> StoneVerdict:
    """The verdict on one stone; ``pool`` may be passed when judging several on one board."""
    stone = board.stone(number)
    if stone.claimed_by is not None:
        return StoneVerdict(number, Reason.STONE_CLAIMED)
    mine = side_formation(stone, claimer)
    if mine is None:
        return StoneVerdict(number, Reason.SIDE_INCOMPLETE)
    opponent = claimer.other
    theirs = side_formation(stone, opponent)
    if theirs is not None:
        if mine != theirs:
            reason = Reason.STRONGER if mine > theirs else Reason.WEAKER
        elif stone.completed_first() is claimer:
            reason = Reason.TIE_COMPLETED_FIRST
        else:
            reason = Reason.TIE_COMPLETED_LATER
        return StoneVerdict(number, reason, mine, theirs)
    pool = pool or unseen_pool(board, claimer)
    best = best_completion(
        stone.side(opponent).cards,
        stone.capacity,
        totals_only=stone.totals_only,
        pool=pool.mask,
        wilds=pool.wilds,
    )
    # Against an incomplete side an equal completion still loses: the claimer completed first.
    if best is None or best.formation <= mine:
        return StoneVerdict(number, Reason.UNBEATABLE, mine, best.formation if best else None)
    return StoneVerdict(number, Reason.OPPONENT_CAN_BEAT, mine, best.formation, _witness(best))


def judge_claim(board: Board, claimer: Player, stones: Iterable[int]) -> tuple[StoneVerdict, ...]:
    """Verdicts for stones claimed together, all judged on the same position.

    Rule ``claim-together``: claiming one stone never changes the proof of another.
    """
    pool = unseen_pool(board, claimer)
    return tuple(judge_stone(board, claimer, n, pool) for n in stones)


def verify_claim(board: Board, claimer: Player, stones: tuple[int, ...]) -> None:
    """Raise :class:`~schotten.errors.IllegalActionError` naming the rule of the first refused
    stone, with every refusal explained, unless the claim takes every stone it names (rule
    ``claim-together``: one refused stone refuses the whole claim)."""
    verdicts = judge_claim(board, claimer, stones)
    if stones_taken(verdicts) == stones:
        return
    refused = [v for v in verdicts if not v.granted]
    detail = "; ".join(v.explain() for v in refused)
    proven = [str(v.stone) for v in verdicts if v.granted]
    if proven:
        detail += (
            f"; stone {', '.join(proven)} {'is' if len(proven) == 1 else 'are'} proven, "
            "but the claim is refused whole: nothing is taken"
        )
    raise IllegalActionError(refused[0].reason.rule, detail)


def stones_taken(verdicts: Iterable[StoneVerdict]) -> tuple[int, ...]:
    """The stones a claim takes (rule ``claim-together``): every stone it names when each one
    is proven, otherwise none, since a claim with a refused stone is refused whole.

    >>> from schotten.board import Board, Player, Variant
    >>> verdicts = judge_claim(Board.empty(Variant.BASE), Player.FIRST, [4])
    >>> stones_taken(verdicts), verdicts[0].reason
    ((), <Reason.SIDE_INCOMPLETE: 'side-incomplete'>)
    """
    verdicts = tuple(verdicts)
    if all(v.granted for v in verdicts):
        return tuple(v.stone for v in verdicts)
    return ()


@dataclass(frozen=True)
class Sight:
    """What a game has shown of the elite troops (the wild cards of a proof), kept move by move:
    with the mask of the Clan cards face up, :meth:`pool` is :func:`unseen_pool` of the same
    position, read from a few counts instead of the whole table.

    >>> from schotten.board import Board, Player, Variant
    >>> board = Board.empty(Variant.TACTICAL).place(Player.SECOND, 1, Tactic.JOKER, at=0)
    >>> seen = pool_mask(board.visible())
    >>> pool = Sight.of(board).pool(Variant.TACTICAL, Player.FIRST, seen)
    >>> pool == unseen_pool(board, Player.FIRST), pool.wilds
    (True, (<Tactic.SPY: 'spy'>, <Tactic.SHIELD_BEARER: 'shield-bearer'>))
    """

    jokers: tuple[bool, bool] = (False, False)  # by player: has played a Joker (rule joker-once)
    jokers_shown: int = 0
    spy_shown: bool = False
    shield_bearer_shown: bool = False

    @classmethod
    def of(cls, board: Board) -> Sight:
        visible = list(board.visible())
        return cls(
            (board.has_played_joker(Player.FIRST), board.has_played_joker(Player.SECOND)),
            visible.count(Tactic.JOKER),
            Tactic.SPY in visible,
            Tactic.SHIELD_BEARER in visible,
        )

    def showing(self, card: Tactic, player: Player) -> Sight:
        """The sight once ``player`` has played ``card``."""
        if card is Tactic.JOKER:
            jokers = (True, self.jokers[1]) if player is Player.FIRST else (self.jokers[0], True)
            return replace(self, jokers=jokers, jokers_shown=self.jokers_shown + 1)
        if card is Tactic.SPY:
            return replace(self, spy_shown=True)
        if card is Tactic.SHIELD_BEARER:
            return replace(self, shield_bearer_shown=True)
        return self  # a ruse or a combat mode changes no completion

    def pool(self, variant: Variant, claimer: Player, seen: int) -> Pool:
        """What the claimer's opponent could still get (site ruling ``claim-wild-pool``), when
        ``seen`` is the :func:`~schotten.completion.pool_mask` of the Clan cards face up."""
        wilds: list[Tactic] = []
        if variant is Variant.TACTICAL:
            if self.jokers_shown < 2 and not self.jokers[claimer.other]:
                wilds.append(Tactic.JOKER)
            if not self.spy_shown:
                wilds.append(Tactic.SPY)
            if not self.shield_bearer_shown:
                wilds.append(Tactic.SHIELD_BEARER)
        return Pool(ALL_CLAN_MASK & ~seen, tuple(wilds))


class ProofCache:
    """The verdicts of one game's claim steps, kept from move to move (and across undo).

    A verdict is kept with the stone (the same object: a Stone never changes) and the pool it was
    judged on, and reused only while it must still hold: a proof that no completion beats the
    claimer holds for every smaller pool, a witness beats while its cards are all in the pool,
    and every other verdict is decided by the stone alone.
    """

    def __init__(self) -> None:
        self._kept: dict[tuple[Player, int], tuple[Stone, Pool, StoneVerdict]] = {}

    def copy(self) -> ProofCache:
        cache = ProofCache()
        cache._kept = dict(self._kept)
        return cache

    def provable(self, board: Board, claimer: Player, seen: int, sight: Sight) -> tuple[int, ...]:
        """The unclaimed stones ``claimer`` could claim now (``judge_stone`` granted), with the
        pool of ``seen`` (the Clan cards face up) and ``sight``."""
        pool: Pool | None = None
        provable = []
        for stone in board.stones:
            if stone.claimed_by is not None:
                continue
            # Stone.is_complete, written out: this runs at every claim step.
            if len(stone.sides[claimer].cards) < (3 if stone.mud_fight is None else 4):
                continue
            pool = pool or sight.pool(board.variant, claimer, seen)
            key = (claimer, stone.number)
            kept = self._kept.get(key)
            if kept is not None and kept[0] is stone and _still_holds(kept[2], kept[1], pool):
                verdict = kept[2]
            else:
                verdict = judge_stone(board, claimer, stone.number, pool)
                self._kept[key] = (stone, pool, verdict)
            if verdict.granted:
                provable.append(stone.number)
        return tuple(provable)


def _still_holds(verdict: StoneVerdict, judged: Pool, pool: Pool) -> bool:
    if pool == judged:
        return True
    if verdict.reason is Reason.UNBEATABLE:
        return pool.mask & ~judged.mask == 0 and all(w in judged.wilds for w in pool.wilds)
    if verdict.reason is Reason.OPPONENT_CAN_BEAT:
        assert verdict.witness is not None
        cards = verdict.witness.cards
        wild_in_pool = all(c in pool.wilds for c in cards if isinstance(c, Tactic))
        return pool_mask(cards) & ~pool.mask == 0 and wild_in_pool
    return True


def _witness(best: Completion) -> Witness:
    return Witness(best.added, best.formation, best.resolved)
