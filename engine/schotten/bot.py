"""The computer player: a move for the player to move, from what that player may know.

:func:`choose_move` first reads the game into a :class:`View`, a frozen value holding only what
the mover sees at the table: their own hand, the table (discards included), the size of each deck
and of the opponent's hand, the tactic cards each has played. The opponent's hand and the order
of the decks are not in it, so the player cannot peek: everything after that line reads the view
alone.

How it plays (every step bounded by counts, never by the clock, so that a seed gives one move):

- the claim step claims every stone it can prove; the draw step takes a tactic card when it holds
  none and may still play one, a Clan card otherwise;
- the play step samples the unseen cards :data:`SAMPLES` times (determinization): the opponent's
  hand, then the next cards each player will draw. In each sample every side of every stone is
  given its strongest finish (:func:`side_rank`) from what that player could hold, and the stone
  goes to the stronger finish. A card is worth, at a stone, how much more often the stone is won
  with that card placed and the rest of the hand behind it than with the stone left to future
  draws alone; tactic cards are weighed by the same measure, less a cost (each one played lets
  the opponent play one more). Stones that would complete three adjacent or a fifth weigh more.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from schotten.board import Board, Player, Stone, Variant
from schotten.cards import CLAN_CARDS, TACTIC_CARDS, Card, ClanCard, Tactic
from schotten.completion import best_completion
from schotten.game import Game
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
from schotten.turn import Phase

SAMPLES = 12
"""Deals of the unseen cards each play step weighs its moves on."""
DRAWS = 3
"""Cards each player is taken to draw, in a sample, before a stone is decided."""
TACTIC_COST = 0.3
"""What playing a tactic card costs, in stones: the opponent may then play one more."""
RECRUITER_GAIN = 0.35
"""What the Recruiter's three fresh cards are worth, in stones, before its cost."""


@dataclass(frozen=True)
class View:
    """What the player to move may know at the table, and nothing else."""

    me: Player
    phase: Phase
    step: int
    recruited: bool
    board: Board
    hand: tuple[Card, ...]
    opponent_hand: int
    """How many cards the opponent holds."""
    decks: tuple[int, int]
    """How many cards the Clan deck and the tactic deck hold."""

    @classmethod
    def of(cls, game: Game) -> View:
        me = game.to_move
        return cls(
            me,
            game.phase,
            game.step,
            game.recruited,
            game.board,
            game.hand(me),
            len(game.hand(me.other)),
            (len(game.deck(Deck.CLAN)), len(game.deck(Deck.TACTIC))),
        )

    @property
    def variant(self) -> Variant:
        return self.board.variant

    def unseen(self) -> tuple[list[ClanCard], list[Tactic]]:
        """The cards the mover cannot see (the opponent's hand and the decks), in the engine's
        card order: the Clan cards and the tactic cards."""
        seen: list[Card] = [*self.board.visible(), *self.hand]
        clan = [c for c in CLAN_CARDS if c not in seen]
        tactic: list[Tactic] = []
        if self.variant is Variant.TACTICAL:
            for card in TACTIC_CARDS:
                if card in seen:
                    seen.remove(card)  # the Joker exists twice
                else:
                    tactic.append(card)
        return clan, tactic

    def game(self) -> Game:
        """A game in this position whose hidden cards are put in a fixed order: the legal moves
        of the mover, and what a move of theirs does to the table and their hand, are those of
        the real game, since neither reads the opponent's hand nor the order of the decks."""
        clan, tactic = self.unseen()
        opponent_tactic = len(tactic) - self.decks[1]
        opponent: list[Card] = [
            *clan[: self.opponent_hand - opponent_tactic],
            *tactic[:opponent_tactic],
        ]
        mine = list(self.hand)
        hands = [mine, opponent] if self.me is Player.FIRST else [opponent, mine]
        decks: dict[Deck, Sequence[Card]] = {
            Deck.CLAN: clan[self.opponent_hand - opponent_tactic :],
            Deck.TACTIC: tactic[opponent_tactic:],
        }
        return Game.from_position(
            self.board,
            hands,
            decks,
            to_move=self.me,
            phase=self.phase,
            step=self.step,
            recruited=self.recruited,
        )


def legal_moves(game: Game) -> list[Move]:
    """The mover's legal moves in a game made by :meth:`View.game`.

    Its opponent holds stand-in cards; when the mover can neither place a card nor draw, the
    deadlock closing may judge those stand-ins unable to play and close that game, while the
    real opponent can still play: the mover's one move is then to pass.
    """
    return game.legal_moves() if game.outcome is None else [Pass()]


def choose_move(game: Game, *, seed: int) -> Move:
    """A legal move for ``game.to_move`` at the step the game is at, read from what that player
    may know (:class:`View`); the same view and seed give the same move."""
    if game.outcome is not None:
        raise ValueError("the game is over: no move to choose")
    return decide(View.of(game), seed=seed)


def decide(view: View, *, seed: int) -> Move:
    """The move of :func:`choose_move`, from the view alone."""
    if view.phase is Phase.CLAIM:
        return Claim(view.game().provable_stones())
    if view.phase is Phase.DRAW:
        return _draw(view)
    game = view.game()
    moves = legal_moves(game)
    if len(moves) == 1:
        return moves[0]
    judge = _Judge(view, random.Random(seed))
    if view.phase is Phase.RETURN:
        return _return(judge, moves)
    # A pass with nothing to draw after it changes nothing: kept from, the game could pass back
    # and forth forever while a tactic card waits in hand.
    stuck = len(view.hand) >= view.variant.hand_size or not any(view.decks)
    best, best_value = moves[0], float("-inf")
    for move in moves:
        if stuck and isinstance(move, Pass):
            continue
        value = judge.value(game, move)
        if value > best_value:
            best, best_value = move, value
    return best


def _draw(view: View) -> Draw:
    clan, tactic = view.decks
    if not clan:
        return Draw(Deck.TACTIC)
    holds_tactic = any(isinstance(c, Tactic) for c in view.hand)
    mine, theirs = view.board.tactics_played(view.me), view.board.tactics_played(view.me.other)
    if tactic and not holds_tactic and mine <= theirs:
        return Draw(Deck.TACTIC)
    return Draw(Deck.CLAN)


def _return(judge: _Judge, moves: Sequence[Move]) -> Move:
    """The two cards least worth keeping: those of the lowest best value at any stone."""
    worth = {card: judge.card_worth(card) for card in judge.view.hand}

    def kept(move: Move) -> float:
        assert isinstance(move, Return)
        return -sum(worth[c] for c in move.cards)

    return max(moves, key=kept)


# -- the strength of a side -------------------------------------------------------------------

_KIND = 64  # a rank is kind * _KIND + total: totals reach 36 (four nines)
_TOTAL, _SUM, _RUN, _COLOUR, _SAME, _COLOUR_RUN = range(6)
_VALUE_MASK = [0] + [sum(1 << (c * 9 + v - 1) for c in range(6)) for v in range(1, 10)]
_COLOUR_MASK = [0x1FF << (9 * c) for c in range(6)]


def _bit(card: ClanCard) -> int:
    return 1 << (card.colour * 9 + card.value - 1)


def _top_sum(mask: int, need: int) -> int:
    """The total of the ``need`` highest values among the cards of ``mask`` (any colour)."""
    total = 0
    for value in range(9, 0, -1):
        if need <= 0:
            break
        take = min(need, (mask & _VALUE_MASK[value]).bit_count())
        total += take * value
        need -= take
    return total


def side_rank(cards: Sequence[Card], size: int, totals_only: bool, mask: int) -> int:
    """The strongest finish of a side holding ``cards`` with Clan cards taken from ``mask`` (a
    54-bit set, as :func:`schotten.completion.pool_mask`), as one number (kind, then total);
    -1 if it cannot be finished."""
    need = size - len(cards)
    if need > mask.bit_count():
        return -1
    clan = [c for c in cards if isinstance(c, ClanCard)]
    if len(clan) < len(cards):  # an elite troop on the side: the engine's own search
        best = best_completion(cards, size, totals_only=totals_only, pool=mask)
        return -1 if best is None else best.formation.kind * _KIND + best.formation.total
    total = sum(c.value for c in clan)
    if totals_only:
        return _TOTAL * _KIND + total + _top_sum(mask, need)
    values = {c.value for c in clan}
    colours = {c.colour for c in clan}
    distinct = len(values) == len(clan)
    windows = _WINDOWS[size] if distinct else ()
    if len(colours) <= 1:
        free = mask | sum(_bit(c) for c in clan)
        for start, window in windows:
            if values <= window:
                for colour in colours or range(6):
                    if _RUN_MASKS[size][start][colour] & ~free == 0:
                        return _COLOUR_RUN * _KIND + sum(window)
    if len(values) <= 1:
        for value in values or range(9, 0, -1):
            if (mask & _VALUE_MASK[value]).bit_count() >= need:
                return _SAME * _KIND + value * size
    if len(colours) <= 1:
        best_colour = -1
        for colour in colours or range(6):
            left, got, shift = need, 0, colour * 9
            for value in range(9, 0, -1):
                if left == 0:
                    break
                if mask >> (shift + value - 1) & 1:
                    got += value
                    left -= 1
            if left == 0:
                best_colour = max(best_colour, got)
        if best_colour >= 0:
            return _COLOUR * _KIND + total + best_colour
    for _, window in windows:
        if values <= window and all(mask & _VALUE_MASK[v] for v in window - values):
            return _RUN * _KIND + sum(window)
    return _SUM * _KIND + total + _top_sum(mask, need)


_WINDOWS = {
    size: tuple((start, frozenset(range(start, start + size))) for start in range(10 - size, 0, -1))
    for size in (3, 4)
}
# The cards of each colour run, by size, lowest value and colour, as masks.
_RUN_MASKS = {
    size: {
        start: [sum(1 << (c * 9 + v - 1) for v in range(start, start + size)) for c in range(6)]
        for start in range(1, 11 - size)
    }
    for size in (3, 4)
}


# -- weighing moves -----------------------------------------------------------------------------


class _Judge:
    """The samples of one decision and the chance of winning each stone in them."""

    def __init__(self, view: View, rng: random.Random) -> None:
        self.view = view
        me = view.me
        clan, tactic = view.unseen()
        opponent_clan = view.opponent_hand - (len(tactic) - view.decks[1])
        hand_mask = sum(_bit(c) for c in view.hand if isinstance(c, ClanCard))
        self.hand_mask = hand_mask
        self.samples: list[tuple[int, int]] = []  # (my draws, the opponent's cards), as masks
        draws = min(DRAWS, view.decks[0] // 2)
        for _ in range(SAMPLES):
            cards = rng.sample(clan, min(len(clan), opponent_clan + 2 * draws))
            theirs = cards[:opponent_clan] + cards[opponent_clan + draws :]
            mine = cards[opponent_clan : opponent_clan + draws]
            self.samples.append((sum(map(_bit, mine)), sum(map(_bit, theirs))))
        # Ranks over the samples, by side: the same sides are weighed again for every card of
        # the hand at every stone (an empty side at every stone).
        self._theirs: dict[tuple[tuple[Card, ...], int, bool], list[int]] = {}
        self._mine: dict[tuple[tuple[Card, ...], int, bool, int | None], list[int]] = {}
        self.me = me
        self.weights = self._weights(view.board)

    def _weights(self, board: Board) -> list[float]:
        """How much each stone matters: more where it would make three adjacent or a fifth."""
        held = [s.claimed_by for s in board.stones]
        weights = []
        for i in range(9):
            weight = 1.0
            for start in range(max(0, i - 2), min(6, i) + 1):
                trio = held[start : start + 3]
                for player in (self.me, self.me.other):
                    others = [p for j, p in enumerate(trio) if start + j != i]
                    if all(p is player for p in others):
                        weight += 1.0
            for player in (self.me, self.me.other):
                if held.count(player) == 4:
                    weight += 1.0
            weights.append(weight)
        return weights

    def opponent_ranks(self, side: tuple[Card, ...], size: int, totals: bool) -> list[int]:
        """The opponent's ranks over the samples, for a side of theirs."""
        key = (side, size, totals)
        ranks = self._theirs.get(key)
        if ranks is None:
            ranks = self._theirs[key] = [
                side_rank(side, size, totals, theirs) for _, theirs in self.samples
            ]
        return ranks

    def my_ranks(
        self, mine: tuple[Card, ...], size: int, totals: bool, hand_mask: int | None
    ) -> list[int]:
        """The mover's ranks over the samples, for a side of theirs with ``hand_mask`` to finish
        it (``None``: their draws alone)."""
        key = (mine, size, totals, hand_mask)
        ranks = self._mine.get(key)
        if ranks is None:
            ranks = self._mine[key] = [
                side_rank(mine, size, totals, draws if hand_mask is None else draws | hand_mask)
                for draws, _ in self.samples
            ]
        return ranks

    def chance(self, stone: Stone, hand_mask: int | None) -> float:
        """How often the mover wins the stone over the samples, holding ``hand_mask`` for it
        (``None``: the stone is left to future draws)."""
        if stone.claimed_by is not None:
            return 1.0 if stone.claimed_by is self.me else 0.0
        me = self.me
        mine = stone.sides[me].cards
        size, totals = stone.capacity, stone.totals_only
        complete = len(mine) >= size
        theirs_complete = len(stone.sides[me.other].cards) >= size
        first = stone.completed_first()
        won = 0.0
        ranks = zip(
            self.my_ranks(mine, size, totals, hand_mask),
            self.opponent_ranks(stone.sides[me.other].cards, size, totals),
            strict=True,
        )
        for rank, theirs in ranks:
            if rank > theirs:
                won += 1
            elif rank == theirs:
                if complete and theirs_complete:
                    won += first is me
                elif complete:
                    won += 1
                elif not theirs_complete:
                    won += 0.5
        return won / len(self.samples)

    def gain(self, stone: Stone, placed: Stone, hand_mask: int) -> float:
        """What placing a card turning ``stone`` into ``placed`` is worth."""
        return self.weights[stone.number - 1] * (
            self.chance(placed, hand_mask) - self.chance(stone, None)
        )

    def card_worth(self, card: Card) -> float:
        """The best a card of the hand is worth at any stone with room."""
        board, me = self.view.board, self.me
        rest = self.hand_mask & ~(_bit(card) if isinstance(card, ClanCard) else 0)
        best = -1.0
        for stone in board.stones:
            if stone.has_room(me) and (isinstance(card, ClanCard) or card.values):
                placed = board.place(me, stone.number, card, at=self.view.step).stone(stone.number)
                best = max(best, self.gain(stone, placed, rest))
        return best

    def value(self, game: Game, move: Move) -> float:
        """The worth of a play-step move, in stones."""
        board, me, step = self.view.board, self.me, self.view.step
        if isinstance(move, Pass):
            return 0.0
        if isinstance(move, Recruiter):
            return RECRUITER_GAIN - TACTIC_COST
        if isinstance(move, Play):
            card = move.card
            rest = self.hand_mask & ~(_bit(card) if isinstance(card, ClanCard) else 0)
            stone = board.stone(move.stone)
            if isinstance(card, Tactic) and not card.values:  # a combat mode
                placed = game_after(game, move).stone(move.stone)
                weight = self.weights[move.stone - 1]
                change = self.chance(placed, rest) - self.chance(stone, rest)
                return weight * change - TACTIC_COST
            placed = board.place(me, move.stone, card, at=step).stone(move.stone)
            cost = TACTIC_COST if isinstance(card, Tactic) else 0.0
            return self.gain(stone, placed, rest) - cost
        assert isinstance(move, Strategist | Banshee | Traitor)
        after = game_after(game, move)
        change = 0.0
        for old, new in zip(board.stones, after.stones, strict=True):
            if old is not new:
                weight = self.weights[old.number - 1]
                change += weight * (
                    self.chance(new, self.hand_mask) - self.chance(old, self.hand_mask)
                )
        return change - TACTIC_COST


def game_after(game: Game, move: Move) -> Board:
    """The table once ``move`` (legal in ``game``) is played; the game is left as it was."""
    game.push(move)
    board = game.board
    game.pop()
    return board
