"""Two simple players to measure the computer player against (:mod:`schotten.bot_bench`).

Both have the signature of :func:`schotten.bot.choose_move` and read only the mover's view.

- :func:`random_player`: a uniformly random legal move at every step, except that it claims every
  stone it can prove, as the engine's random self-play does.
- :func:`greedy_player`: the best formation now. It places the card that gives its side the
  strongest finish it can see (the formation of a complete side, or the best one the rest of its
  hand could finish, else the best the unseen cards could), plays an elite troop the same way,
  other tactic cards only when nothing else is legal, claims every stone it can prove and draws
  Clan cards.
"""

from __future__ import annotations

import random

from schotten.bot import View, legal_moves, side_rank
from schotten.cards import ClanCard, Tactic
from schotten.completion import pool_mask
from schotten.game import Game
from schotten.moves import Claim, Deck, Draw, Move, Play
from schotten.turn import Phase


def random_player(game: Game, *, seed: int) -> Move:
    """A uniformly random legal move; every provable stone at the claim step."""
    view = View.of(game)
    board_game = view.game()
    if view.phase is Phase.CLAIM:
        return Claim(board_game.provable_stones())
    return random.Random(seed).choice(legal_moves(board_game))


def greedy_player(game: Game, *, seed: int) -> Move:
    """The strongest formation now (see the module); ``seed`` is not used: it never guesses."""
    view = View.of(game)
    board_game = view.game()
    if view.phase is Phase.CLAIM:
        return Claim(board_game.provable_stones())
    if view.phase is Phase.DRAW:
        return Draw(Deck.CLAN if view.decks[0] else Deck.TACTIC)
    moves = legal_moves(board_game)
    if view.phase is not Phase.PLAY:
        return moves[0]
    clan, _ = view.unseen()
    unseen = pool_mask(clan)
    hand = pool_mask(view.hand)
    best: Move = moves[0]
    best_score = -(10**9)
    for move in moves:
        if not isinstance(move, Play):
            continue
        card = move.card
        if isinstance(card, Tactic) and not card.values:
            continue  # a combat mode: not a formation
        stone = view.board.stone(move.stone)
        cards = (*stone.sides[view.me].cards, card)
        rest = hand & ~pool_mask([card]) if isinstance(card, ClanCard) else hand
        size, totals = stone.capacity, stone.totals_only
        score = side_rank(cards, size, totals, rest)
        if score < 0:
            score = side_rank(cards, size, totals, rest | unseen) - 1000
        if score > best_score:
            best, best_score = move, score
    return best
