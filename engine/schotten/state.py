"""The state of a game between two moves, and what the rules read of it.

:class:`GameState` holds every part of the state as an immutable value (the board, the hands, the
decks, who is to move and at which step, the face-up counts its claims are judged by) and answers
the questions of the rules: which moves are legal, which stones a player could prove, whether a
player could still place or draw a card. :class:`schotten.game.Game` adds the moves that change
it, as python-chess's ``Board`` adds the moves to its ``BaseBoard``.

>>> from schotten.game import Game
>>> game = Game(Variant.BASE, seed=1)
>>> isinstance(game, GameState), game.legal_move_count(), len(game.deck(Deck.CLAN))
(True, 54, 42)
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from schotten import tactics
from schotten.board import Board, Player, Variant
from schotten.cards import Card, ClanCard
from schotten.claims import ProofCache, Sight
from schotten.completion import pool_mask
from schotten.moves import PLAYS, Claim, Deck, Draw, Move, Pass
from schotten.outcome import Outcome
from schotten.position_data import GamePosition, position_to_data
from schotten.turn import Phase

# Every part of the state a move may replace: Game.push saves them (frame_of), Game.pop puts them
# back, in this order.
FRAME = (
    "board",
    "to_move",
    "phase",
    "step",
    "recruited",
    "outcome",
    "_hands",
    "_decks",
    "_tactics",
    "_seen",
    "_sight",
)
frame_of = operator.attrgetter(*FRAME)


class GameState:
    """A game's state: read it here, change it through :class:`schotten.game.Game`'s moves."""

    variant: Variant
    board: Board
    to_move: Player
    phase: Phase
    step: int
    """A counter that grows by one with every move; a side's ``completed_at`` is read on it."""
    recruited: bool
    """The player to move played the Recruiter this turn: no normal draw."""
    outcome: Outcome | None

    def _set_state(
        self,
        board: Board,
        hands: tuple[list[Card], list[Card]],
        clan: list[Card],
        tactic: list[Card],
        to_move: Player,
        phase: Phase,
        step: int,
        recruited: bool,
        outcome: Outcome | None,
    ) -> None:
        """Set every part of the state (the decks top first)."""
        self.variant = board.variant
        self._hand_size = board.variant.hand_size
        self.board = board
        self._hands = (tuple(hands[0]), tuple(hands[1]))
        self._decks = {Deck.CLAN: tuple(clan), Deck.TACTIC: tuple(tactic)}
        self.to_move = to_move
        self.phase = phase
        self.step = step
        self.recruited = recruited
        self.outcome = outcome
        self._tactics = (board.tactics_played(Player.FIRST), board.tactics_played(Player.SECOND))
        self._seen = pool_mask(board.visible())  # the Clan cards face up
        self._sight = Sight.of(board)
        self._proofs = ProofCache()
        self._rooms: tuple[Board | None, dict[Player, tuple[tuple[int, ...], _Pick]]] = (None, {})

    # -- reading the state --------------------------------------------------------------------

    def hand(self, player: Player) -> tuple[Card, ...]:
        return self._hands[player]

    @property
    def hands(self) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        return self._hands

    def deck(self, deck: Deck) -> tuple[Card, ...]:
        """The cards of a deck, top (next drawn) first."""
        return self._decks[deck]

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def tactics_played(self, player: Player) -> int:
        """Tactic cards this player has played over the game (rule ``tactic-count``)."""
        return self._tactics[player]

    def stones_held(self, player: Player) -> tuple[int, ...]:
        return self.board.stones_held(player)

    def provable_stones(self, player: Player | None = None) -> tuple[int, ...]:
        """The unclaimed stones ``player`` (default: the player to move) could claim now."""
        who = self.to_move if player is None else player
        return self._proofs.provable(self.board, who, self._seen, self._sight)

    def can_place(self, player: Player | None = None) -> bool:
        """Whether ``player`` has a play other than ``pass`` (as if it were their turn)."""
        who = self.to_move if player is None else player
        if self._clan_fit(who) is not None:
            return True
        return next(self._tactic_moves(who), None) is not None

    # -- the legal moves ---------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move of the player to move, in a fixed order.

        At the claim step: ``claim none`` and every non-empty set of the provable stones.

        >>> from schotten.game import Game
        >>> game = Game(Variant.TACTICAL, seed=7)
        >>> moves = game.legal_moves()
        >>> len(moves), moves[0]
        (63, Move.parse('play purple 3 at 1'))
        """
        if self.outcome is not None:
            return []
        me = self.to_move
        phase = self.phase
        if phase is Phase.PLAY:
            room, pick = self._room_and_pick(me)
            moves: list[Move] = []
            clan = tactic = False
            for card in self._hands[me]:
                if isinstance(card, ClanCard):  # Clan cards are all different
                    moves += pick(PLAYS[card])
                    clan = True
                else:
                    tactic = True
            if tactic:
                moves += self._tactic_moves(me)
            if not (clan and room):  # rule pass: no Clan card can be placed
                moves.append(_PASS)
            return moves
        if phase is Phase.CLAIM:
            provable = self.provable_stones()
            if not provable:
                return [_CLAIM_NONE]
            claims: list[Move] = [_CLAIM_NONE]
            for size in range(1, len(provable) + 1):
                claims += (Claim(c) for c in itertools.combinations(provable, size))
            return claims
        if phase is Phase.RETURN:
            return tactics.return_moves(self._hands[me], self._sight.jokers[me])
        return [_DRAWS[d] for d in self._drawable()]

    def legal_move_count(self) -> int:
        """``len(self.legal_moves())``, without making the moves: perft's last ply.

        >>> from schotten.game import Game
        >>> game = Game(Variant.TACTICAL, seed=7)
        >>> game.legal_move_count() == len(game.legal_moves())
        True
        """
        if self.outcome is not None:
            return 0
        me = self.to_move
        phase = self.phase
        if phase is Phase.PLAY:
            hand = self._hands[me]
            room = self._room(me)
            clan = len([card for card in hand if isinstance(card, ClanCard)])
            count = clan * len(room)
            if clan < len(hand):
                count += sum(1 for _ in self._tactic_moves(me))
            return count if clan and room else count + 1
        if phase is Phase.CLAIM:
            return 1 << len(self.provable_stones())  # claim none and every set of stones
        if phase is Phase.RETURN:
            return len(tactics.return_moves(self._hands[me], self._sight.jokers[me]))
        return len(self._drawable())

    # -- what a player could do -------------------------------------------------------------

    def _can_draw(self, player: Player) -> bool:
        decks = self._decks
        full = len(self._hands[player]) >= self._hand_size
        return not full and bool(decks[Deck.CLAN] or decks[Deck.TACTIC])

    def _drawable(self) -> list[Deck]:
        return [d for d in _DECKS if self._decks[d]]

    def _room(self, player: Player) -> tuple[int, ...]:
        """The unclaimed stones with room on ``player``'s side."""
        return self._room_and_pick(player)[0]

    def _room_and_pick(self, player: Player) -> tuple[tuple[int, ...], _Pick]:
        """The room on ``player``'s side and a function taking a card's plays (by stone) to its
        plays at those stones; kept while the board is the same object (a Board never changes)."""
        board, rooms = self._rooms
        if board is not self.board:
            board = self.board
            rooms = {}
            self._rooms = (board, rooms)
        kept = rooms.get(player)
        if kept is None:
            # Stone.has_room, written out: this runs after nearly every move.
            room = tuple(
                [
                    s.number
                    for s in board.stones
                    if s.claimed_by is None
                    and len(s.sides[player].cards) < (3 if s.mud_fight is None else 4)
                ]
            )
            kept = rooms[player] = (room, _pick(room))
        return kept

    def _clan_fit(self, player: Player) -> tuple[ClanCard, int] | None:
        """A Clan card of the hand and a stone where it can be placed, if any (rule ``pass``)."""
        for card in self._hands[player]:
            if isinstance(card, ClanCard):
                room = self._room(player)
                return (card, room[0]) if room else None
        return None

    def _tactic_moves(self, player: Player) -> Iterator[Move]:
        """Every legal play of a tactic card by ``player``, as if it were their turn."""
        room, decks = self._room(player), self._deck_sizes()
        played, joker = self._tactics, self._sight.jokers[player]
        return tactics.tactic_moves(
            self.board, player, self._hands[player], played, joker, room, decks
        )

    def _deck_sizes(self) -> dict[Deck, int]:
        return {deck: len(cards) for deck, cards in self._decks.items()}

    # -- the position as data -----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The position as JSON-safe data (cards in notation), read back by
        :meth:`schotten.game.Game.from_dict`.

        >>> from schotten.game import Game
        >>> game = Game(Variant.BASE, seed=3)
        >>> Game.from_dict(game.to_dict()).to_dict() == game.to_dict()
        True
        """
        return position_to_data(self.position())

    def position(self) -> GamePosition:
        """The position as a value: everything :meth:`schotten.game.Game.from_position` takes."""
        return GamePosition(
            self.board,
            self.hands,
            {deck: self.deck(deck) for deck in Deck},
            self.to_move,
            self.phase,
            self.step,
            self.recruited,
            self.outcome,
        )

    def __str__(self) -> str:
        return str(self.position())


_Pick = Callable[[Mapping[int, Move]], tuple[Move, ...]]


def _pick(room: tuple[int, ...]) -> _Pick:
    """The plays at the stones of ``room`` out of a card's plays by stone, looked up in C."""
    if len(room) > 1:
        return operator.itemgetter(*room)
    return lambda plays: tuple(plays[n] for n in room)  # itemgetter of one item is no tuple


_PASS = Pass()
_CLAIM_NONE = Claim()
_DECKS = (Deck.CLAN, Deck.TACTIC)
_DRAWS = {deck: Draw(deck) for deck in _DECKS}
