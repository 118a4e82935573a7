"""Random whole games: the invariants of RULES.md hold after every move of a thousand games, and
on fewer games, every move the engine lists is accepted and every move it refuses is not listed.
"""

from __future__ import annotations

import itertools
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from strength import examples

from schotten.board import Player, Stone, Variant
from schotten.cards import CLAN_CARDS, TACTIC_CARDS, Card, Tactic, TacticKind
from schotten.claims import judge_claim
from schotten.game import Game, Phase
from schotten.moves import (
    Banshee,
    Claim,
    Deck,
    Draw,
    Move,
    Pass,
    Play,
    Recruiter,
    Return,
    Strategist,
    Traitor,
)
from schotten.outcome import Termination
from schotten.position import check_table
from schotten.records import Record, play_random

# Random games only ever move the card objects they were dealt (CLAN_CARDS and the Tactic
# members), so a card is told by its identity: a card made anew would fail the check, never pass it.
EVERY_CARD = {
    Variant.BASE: (frozenset(map(id, CLAN_CARDS)), len(CLAN_CARDS), 0),
    Variant.TACTICAL: (
        frozenset(map(id, [*CLAN_CARDS, *TACTIC_CARDS])),
        len(CLAN_CARDS) + len(TACTIC_CARDS),
        2,
    ),
}


class Invariants:
    """Checks a game after each move: cards, capacities, claimed stones, hands."""

    def __init__(self) -> None:
        self.claimed: dict[int, Stone] = {}
        self.moves = 0

    def __call__(self, game: Game) -> None:
        self.moves += 1
        board = game.board
        groups = [*game.hands, game.deck(Deck.CLAN), game.deck(Deck.TACTIC), *board.discard]
        groups += [side.cards for stone in board.stones for side in stone.sides]
        groups.append([Tactic.MUD_FIGHT for s in board.stones if s.mud_fight is not None])
        groups.append(
            [Tactic.BLIND_MANS_BLUFF for s in board.stones if s.blind_mans_bluff is not None]
        )
        # Every card in exactly one place (hands, decks, sides, combat modes, discard piles):
        # each card of the game somewhere, nothing else, and only the Joker twice.
        ids = list(map(id, itertools.chain.from_iterable(groups)))
        every, count, jokers = EVERY_CARD[game.variant]
        assert len(ids) == count
        assert frozenset(ids) == every
        assert ids.count(id(Tactic.JOKER)) == jokers
        for stone in board.stones:
            mine, theirs = stone.sides
            capacity = 3 if stone.mud_fight is None else 4
            assert len(mine.cards) <= capacity and len(theirs.cards) <= capacity
        # Claimed stones never change.
        for number, stone in self.claimed.items():
            now = board.stones[number - 1]
            assert now is stone or now == stone
        self.claimed = {s.number: s for s in board.stones if s.claimed_by is not None}
        limit = game.variant.hand_size + (2 if game.phase is Phase.RETURN else 0)
        assert all(len(hand) <= limit for hand in game.hands)


def check_end(game: Game) -> None:
    """The game ended, and its outcome is what the board says."""
    outcome = game.outcome
    assert outcome is not None
    check_table(game.board)
    wins = {p: _winning(game, p) for p in Player}
    if outcome.termination is Termination.DEADLOCK:
        # Nobody can play or claim any more, and the winner is the one player meeting a condition.
        assert not any(game.can_place(p) for p in Player)
        assert not any(game.provable_stones(p) for p in Player)
        winners = [p for p, won in wins.items() if won]
        assert outcome.winner == (winners[0] if len(winners) == 1 else None)
    else:
        assert outcome.winner is not None
        assert wins[outcome.winner] == outcome.termination
        # It ended at once, in the claim step that took the winning stone.
        last = game.history[-1].move
        assert isinstance(last, Claim) and last.stones


def _winning(game: Game, player: Player) -> Termination | None:
    held = set(game.stones_held(player))
    if any({n, n + 1, n + 2} <= held for n in range(1, 8)):
        return Termination.THREE_ADJACENT
    return Termination.FIVE_STONES if len(held) >= 5 else None


def test_random_games_keep_the_invariants() -> None:
    ends: Counter[tuple[Variant, Termination]] = Counter()
    for variant in Variant:
        for seed in range(500):
            invariants = Invariants()
            game = play_random(seed, variant, watch=invariants)
            assert invariants.moves == len(game.history)
            check_end(game)
            assert game.outcome is not None
            ends[variant, game.outcome.termination] += 1
    # Both variants end in both winning ways; only tactic cards make a deadlock reachable here.
    for variant in Variant:
        assert ends[variant, Termination.THREE_ADJACENT] > 0
        assert ends[variant, Termination.FIVE_STONES] > 0
    assert ends[Variant.TACTICAL, Termination.DEADLOCK] > 0


def candidates(game: Game) -> list[Move]:
    """A superset of the legal moves at this step: right and wrong cards, stones and decks."""
    me = game.to_move
    hand = game.hand(me)
    stones = range(1, 10)
    # Every card at a stone (either side), with its stone and the next one (a wrong source).
    placed = [
        (card, stone.number, stone.number % 9 + 1)
        for stone in game.board.stones
        for side in stone.sides
        for card in side.cards
    ]
    moves: list[Move] = [Pass(), *(Draw(d) for d in Deck)]
    moves += (Claim((n,)) for n in stones)
    for card in [*hand, *CLAN_CARDS[:3], Tactic.JOKER, Tactic.MUD_FIGHT]:
        if not (isinstance(card, Tactic) and card.kind is TacticKind.RUSE):
            moves += (Play(card, n) for n in stones)
    if Tactic.STRATEGIST in hand:
        for card, at, wrong in placed:
            moves += (Strategist(card, at, to) for to in [None, *stones])
            moves.append(Strategist(card, wrong, None))
    if Tactic.BANSHEE in hand:
        for card, at, wrong in placed:
            moves += (Banshee(card, at), Banshee(card, wrong))
    if Tactic.TRAITOR in hand:
        for card, at, wrong in placed:
            moves += (Traitor(card, at, to) for to in stones)
            moves.append(Traitor(card, wrong, at))
    for size in (1, 2, 3):
        moves += (Recruiter(d) for d in itertools.product(Deck, repeat=size))
    pool: list[Card] = [*hand, CLAN_CARDS[0]]
    moves += (Return(pair) for pair in itertools.permutations(pool, 2))
    moves += (Return((c,)) for c in pool)
    return moves


@settings(max_examples=examples(20), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), variant=st.sampled_from(Variant))
def test_legal_moves_are_exactly_the_moves_apply_accepts(seed: int, variant: Variant) -> None:
    def check(game: Game) -> None:
        if game.outcome is not None:
            assert game.legal_move_count() == 0
            return
        legal = game.legal_moves()
        assert game.legal_move_count() == len(legal)
        assert len(set(legal)) == len(legal)
        assert all(game.can_move(m) for m in legal)
        listed = set(legal)
        for move in candidates(game):
            assert game.can_move(move) == (move in listed), move
        if game.phase is Phase.CLAIM:
            me = game.to_move
            open_stones = [s.number for s in game.board.stones if s.claimed_by is None]
            fresh = judge_claim(game.board, me, open_stones)
            assert game.provable_stones() == tuple(v.stone for v in fresh if v.granted)
        if len(game.history) % 7 == 0:
            again = Game.from_dict(game.to_dict())
            assert again.legal_moves() == legal

    game = play_random(seed, variant, watch=check)
    check_end(game)
    assert Record.loads(Record.from_game(game).dumps()).replay().to_dict() == game.to_dict()
