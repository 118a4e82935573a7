"""A plain brute-force reference for formations and claims, for tests only.

It follows RULES.md word for word and shares nothing with the fast proof but ``evaluate`` (the
formation of five plain Clan cards is simple enough to be checked by examples): every elite troop
tries every card of its range, and every completion of the opponent's side from the unseen pool is
enumerated.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from schotten.board import Board, Player
from schotten.cards import CLAN_CARDS, Card, ClanCard, Colour, Tactic
from schotten.claims import Reason
from schotten.formations import Formation, evaluate

RANGES = {Tactic.JOKER: range(1, 10), Tactic.SPY: (7,), Tactic.SHIELD_BEARER: (1, 2, 3)}


def brute_side(cards: Sequence[Card], *, totals_only: bool = False) -> Formation:
    """The best formation of a complete side: every elite troop tries every card of its range."""
    clan = [c for c in cards if isinstance(c, ClanCard)]
    options = [
        [ClanCard(colour, v) for colour in Colour for v in RANGES[c]]
        for c in cards
        if isinstance(c, Tactic)
    ]
    return max(
        evaluate([*clan, *chosen], totals_only=totals_only)
        for chosen in itertools.product(*options)
    )


def brute_pool(board: Board, claimer: Player) -> list[Card]:
    """The unseen pool, as RULES.md states it, one entry per card the opponent could get."""
    opponent = claimer.other
    visible: list[Card] = []
    opponent_played_joker = False
    for stone in board.stones:
        for player in Player:
            for card in stone.sides[player].cards:
                visible.append(card)
                if player is opponent and card is Tactic.JOKER:
                    opponent_played_joker = True
    for player in Player:
        visible.extend(board.discard[player])
    if Tactic.JOKER in board.discard[opponent]:
        opponent_played_joker = True
    pool: list[Card] = [c for c in CLAN_CARDS if c not in visible]
    if board.variant == "tactical":
        for wild in (Tactic.SPY, Tactic.SHIELD_BEARER):
            if wild not in visible:
                pool.append(wild)
        if visible.count(Tactic.JOKER) < 2 and not opponent_played_joker:
            pool.append(Tactic.JOKER)  # at most one: a player plays one Joker per game
    return pool


@dataclass(frozen=True)
class BruteVerdict:
    reason: Reason
    mine: Formation | None = None
    best_theirs: Formation | None = None  # over every completion, when the opponent is incomplete


def brute_judge(board: Board, claimer: Player, number: int) -> BruteVerdict:
    stone = board.stones[number - 1]
    if stone.claimed_by is not None:
        return BruteVerdict(Reason.STONE_CLAIMED)
    size = 4 if stone.mud_fight is not None else 3
    totals_only = stone.blind_mans_bluff is not None
    mine_cards = stone.sides[claimer].cards
    if len(mine_cards) < size:
        return BruteVerdict(Reason.SIDE_INCOMPLETE)
    mine = brute_side(mine_cards, totals_only=totals_only)
    opponent = claimer.other
    theirs_cards = stone.sides[opponent].cards
    if len(theirs_cards) == size:
        theirs = brute_side(theirs_cards, totals_only=totals_only)
        if mine > theirs:
            return BruteVerdict(Reason.STRONGER, mine, theirs)
        if mine < theirs:
            return BruteVerdict(Reason.WEAKER, mine, theirs)
        mine_time = stone.sides[claimer].completed_at
        theirs_time = stone.sides[opponent].completed_at
        assert mine_time is not None and theirs_time is not None
        if mine_time < theirs_time:
            return BruteVerdict(Reason.TIE_COMPLETED_FIRST, mine, theirs)
        return BruteVerdict(Reason.TIE_COMPLETED_LATER, mine, theirs)
    pool = brute_pool(board, claimer)
    best: Formation | None = None
    for added in itertools.combinations(pool, size - len(theirs_cards)):
        formation = brute_side([*theirs_cards, *added], totals_only=totals_only)
        if best is None or formation > best:
            best = formation
    if best is not None and best > mine:
        return BruteVerdict(Reason.OPPONENT_CAN_BEAT, mine, best)
    return BruteVerdict(Reason.UNBEATABLE, mine, best)
