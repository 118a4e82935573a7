"""The whole game: the deal, the turn steps, the tactic cards, claims, the end of the game.

A :class:`Game` is the state machine of RULES.md. Each turn is a fixed sequence of steps
(:class:`Phase`): play (or pass), claim, draw. Every step is one move in the project's notation
(:mod:`schotten.moves`), checked against the rules before anything changes: a refused move raises
:class:`~schotten.errors.IllegalActionError` naming the rule it breaks, and leaves the game as it
was. Three verbs, PokerKit style: :meth:`Game.verify_move` raises, :meth:`Game.can_move` answers,
:meth:`Game.apply` checks, plays and appends an :class:`Action` to :attr:`Game.history`. For
search, :meth:`Game.push` plays a listed move unchecked and :meth:`Game.pop` undoes any move.

>>> from schotten.cards import format_cards
>>> game = Game(Variant.BASE, seed=1)
>>> game.to_move, game.phase, format_cards(game.hand(Player.FIRST))
(<Player.FIRST: 0>, <Phase.PLAY: 'play'>, 'red 3, orange 3, yellow 2, yellow 1, orange 7, yellow 5')
>>> game.apply("play red 3 at 5")
Move.parse('play red 3 at 5')
>>> game.apply("pass")
Traceback (most recent call last):
...
schotten.errors.IllegalActionError: [turn-order] first is at the claim step: expected 'claim \
<stone> ...' or 'claim none', not 'pass'
>>> game.apply("claim none"), game.phase
(Move.parse('claim none'), <Phase.DRAW: 'draw'>)
>>> game.apply("draw clan"), game.to_move, len(game.legal_moves())
(Move.parse('draw clan'), <Player.SECOND: 1>, 54)

When the engine closes the game, and what it automates (the decisions of the site rulings):

- The draw step is skipped when the mover's hand is at its size or every deck is empty, and after
  a Recruiter (rule ``recruiter``); the claim step is never skipped (``claim none``).
- Pass (site ruling ``pass``) is legal exactly when no Clan card of the hand can be placed; in the
  tactical variant the player may then still play a tactic card instead.
- The Recruiter and the discards of the ruses: see :mod:`schotten.tactics`.
- The deadlock closing (site ruling ``deadlock``) is checked whenever a turn is about to start
  (and when a game is set up from a position at a play step). It closes the game when neither
  player can play a card for the rest of the game and neither can claim a stone: that is, neither
  player has a legal play other than ``pass`` (judged as if it were their turn), neither could
  still draw (hand below its size with a card left in a deck), and no unclaimed stone is provable
  by either player. Nothing can change any more then: passes and empty claim steps would repeat
  forever. :func:`schotten.outcome.close_deadlock` then gives out the unclaimed stones and
  names the winner, if any.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from schotten import tactics
from schotten.board import Board, Player, Variant
from schotten.cards import CLAN_CARDS, TACTIC_CARDS, Card, ClanCard, Tactic, TacticKind
from schotten.claims import verify_claim
from schotten.errors import IllegalActionError, InvalidNotationError, InvalidPositionError
from schotten.moves import (
    Action,
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
from schotten.outcome import (
    Outcome,
    Termination,
    close_deadlock,
    deadlock_problems,
    winning_condition,
)
from schotten.position import fill_decks as fill_decks  # re-exported: the decks of a position
from schotten.position import position_problems
from schotten.position_data import position_from_data
from schotten.refusals import Refusal, RefusedMove
from schotten.rules import Rule
from schotten.state import GameState, frame_of
from schotten.turn import Phase as Phase  # the steps of a turn, re-exported


class Game(GameState):
    """A game of Schotten Totten, from a seeded deal or from a position.

    ``Game(variant, seed=..., first=...)`` shuffles with ``random.Random(seed)`` and deals
    alternately, starting with ``first``: 6 Clan cards each (base game), or 7 Clan cards each
    with the 10 tactic cards as a second deck (tactical).

    The state and what the rules read of it (the legal moves among them) are those of
    :class:`~schotten.state.GameState`; every part of it is an immutable value, so that a move
    is undone by putting the previous values back (:meth:`pop`) and a copy shares them.
    """

    history: list[Action]
    _undo: list[tuple[Any, ...]]
    """The state before each move of :attr:`history`, as :func:`~schotten.state.frame_of` saves
    it."""
    seed: int | None
    """The seed of the deal, ``None`` for a game set up from a position."""
    first: Player

    def __init__(
        self, variant: Variant = Variant.BASE, *, seed: int = 0, first: Player = Player.FIRST
    ) -> None:
        rng = random.Random(seed)
        clan: list[Card] = list(CLAN_CARDS)
        rng.shuffle(clan)
        tactic: list[Card] = list(TACTIC_CARDS) if variant is Variant.TACTICAL else []
        rng.shuffle(tactic)
        hands: tuple[list[Card], list[Card]] = ([], [])
        for i in range(2 * variant.hand_size):
            hands[(first + i) % 2].append(clan.pop(0))
        board = Board.empty(variant)
        self._set_state(board, hands, clan, tactic, first, Phase.PLAY, 0, False, None)
        self.history = []
        self._undo = []
        self.seed = seed
        self.first = first
        self.start: dict[str, Any] | None = None

    # -- setting up ---------------------------------------------------------------------------

    @classmethod
    def from_position(
        cls,
        board: Board,
        hands: Sequence[Iterable[Card]],
        decks: Mapping[Deck, Iterable[Card]] | None = None,
        *,
        to_move: Player = Player.FIRST,
        phase: Phase = Phase.PLAY,
        step: int | None = None,
        recruited: bool = False,
        outcome: Outcome | None = None,
    ) -> Game:
        """A game that plays on from a position.

        ``hands`` are the two hands (first player's first). ``decks`` map each deck to its cards,
        top first; ``None`` puts every card not accounted for in its deck in the engine's card
        order (see :func:`fill_decks` to fix only the top). ``step`` defaults to one more than
        every completion time on the board. A draw step with nothing to draw is skipped at once,
        and at a play step the deadlock closing is checked at once.

        Raises :class:`InvalidPositionError` naming every problem found by
        :func:`schotten.position.position_problems`, and a deadlock end on a position the closing
        did not make (rule ``deadlock``).

        >>> from schotten.cards import parse_card, parse_cards
        >>> board = Board.empty(Variant.BASE).place(Player.FIRST, 4, parse_card("red 7"), at=0)
        >>> game = Game.from_position(board, [parse_cards(["red 8"]), []], to_move=Player.SECOND)
        >>> len(game.deck(Deck.CLAN)), game.deck(Deck.CLAN)[0]
        (52, ClanCard.parse('red 1'))
        >>> Game.from_position(board, [parse_cards(["red 7"]), []])
        Traceback (most recent call last):
        ...
        schotten.errors.InvalidPositionError: red 7 is in the game twice (on the table, in first's \
hand)
        """
        hand_lists = [list(h) for h in hands]
        if len(hand_lists) != 2:
            raise InvalidPositionError(f"a position has two hands, not {len(hand_lists)}")
        if decks is None:
            decks = fill_decks(board, hand_lists)
        clan = list(decks.get(Deck.CLAN, ()))
        tactic = list(decks.get(Deck.TACTIC, ()))
        if step is None:
            times = [s.completed_at for st in board.stones for s in st.sides]
            step = max((t for t in times if t is not None), default=-1) + 1
        recruited = recruited or phase is Phase.RETURN
        problems = position_problems(
            board,
            hand_lists,
            {Deck.CLAN: clan, Deck.TACTIC: tactic},
            to_move=to_move,
            phase=phase,
            step=step,
            recruited=recruited,
            outcome=outcome,
        )
        if problems:
            raise InvalidPositionError("; ".join(map(str, problems)))
        game = cls.__new__(cls)
        hands_pair = (hand_lists[0], hand_lists[1])
        game._set_state(board, hands_pair, clan, tactic, to_move, phase, step, recruited, outcome)
        game.history = []
        game._undo = []
        if outcome is not None and outcome.termination is Termination.DEADLOCK:
            deadlock = list(
                deadlock_problems(
                    game.board, phase, game._can_draw, game.can_place, game.provable_stones
                )
            )
            if deadlock:
                raise InvalidPositionError(
                    f"[{Rule.DEADLOCK}] outcome {outcome}: " + "; ".join(deadlock)
                )
        game.seed = None
        game.first = to_move
        if outcome is None and phase is Phase.DRAW and not game._can_draw(to_move):
            game._end_turn()
        elif outcome is None and phase is Phase.PLAY:
            game._close_if_deadlocked()
        game.start = game.to_dict()
        return game

    def copy(self) -> Game:
        """An independent copy (history included)."""
        game = Game.__new__(Game)
        game.__dict__.update(self.__dict__)
        game.history = list(self.history)
        game._undo = list(self._undo)
        game._proofs = self._proofs.copy()
        return game

    # -- moves --------------------------------------------------------------------------------

    def verify_move(self, move: Move | str) -> Move:
        """Check a move against the rules; raise :class:`IllegalActionError` if it is illegal.

        Returns the move (parsed, if it was given as text).
        """
        parsed = Move.parse(move) if isinstance(move, str) else move
        if self.outcome is not None:
            raise IllegalActionError(
                Rule.GAME_OVER, f"the game is over ({self.outcome}): no move after the end"
            )
        kinds, expected = _PHASE_MOVES[self.phase]
        if not isinstance(parsed, kinds):
            raise IllegalActionError(
                Rule.TURN_ORDER,
                f"{self.to_move} is at the {self.phase} step: expected {expected}, not '{parsed}'",
            )
        _RULES[type(parsed)][0](self, parsed)
        return parsed

    def can_move(self, move: Move | str) -> bool:
        """Whether the move is legal now (notation errors count as illegal)."""
        try:
            self.verify_move(move)
        except (IllegalActionError, InvalidNotationError):
            return False
        return True

    def apply(self, move: Move | str) -> Move:
        """Check the move, play it and append it to :attr:`history`; text is parsed first.

        An illegal move raises :class:`IllegalActionError` and changes nothing.
        """
        parsed = self.verify_move(move)
        self.push(parsed)
        return parsed

    def push(self, move: Move) -> None:
        """Play a move of :meth:`legal_moves` without checking it again, as search does
        (python-chess's ``push``); :meth:`pop` undoes it. A move that is not legal here leaves
        the game in a state the rules do not reach: use :meth:`apply` for any other move.

        >>> game = Game(Variant.BASE, seed=1)
        >>> before, top = game.to_dict(), game.deck(Deck.CLAN)[0]
        >>> for move in ("play red 3 at 5", "claim none", "draw clan"):
        ...     game.push(Move.parse(move))
        >>> game.history[-1].drawn == (top,), game.hand(Player.FIRST)[-1] == top
        (True, True)
        >>> [str(game.pop()) for _ in range(3)], game.to_dict() == before
        (['draw clan', 'claim none', 'play red 3 at 5'], True)
        """
        player = self.to_move
        self._undo.append(frame_of(self))
        drawn = _RULES[type(move)][1](self, move)
        self.history.append(Action(player, move, drawn))
        self.step += 1

    def pop(self) -> Action:
        """Undo the last move played (by :meth:`apply` or :meth:`push`) and return it."""
        if not self._undo:
            raise IndexError("no move to undo: the game is at its start")
        (  # the order of schotten.state.FRAME, written out: this runs at every node of a search
            self.board,
            self.to_move,
            self.phase,
            self.step,
            self.recruited,
            self.outcome,
            self._hands,
            self._decks,
            self._tactics,
            self._seen,
            self._sight,
        ) = self._undo.pop()
        return self.history.pop()

    # -- verification, one method per kind of move -------------------------------------------

    def _verify_play(self, move: Play) -> None:
        me, card = self.to_move, move.card
        self._need_in_hand(card)
        stone = self.board.stone(move.stone)
        if isinstance(card, Tactic):
            tactics.verify_may_play_tactic(card, me, self._tactics, self._sight.jokers[me])
            if card.kind is TacticKind.COMBAT_MODE:
                tactics.verify_combat_mode(self.board, move)
                return
        if stone.claimed_by is not None:
            raise IllegalActionError(
                Rule.PLAY_CLAIMED_STONE,
                f"stone {move.stone} is claimed by {stone.claimed_by}: no card is placed there",
            )
        if not stone.has_room(me):
            raise tactics.no_room(stone, me)

    def _verify_table_ruse(self, move: Strategist | Banshee | Traitor) -> None:
        ruse, verify, _ = tactics.TABLE_RUSES[type(move)]
        self._verify_ruse(ruse)
        verify(self.board, self.to_move, move)

    def _verify_recruiter(self, move: Recruiter) -> None:
        self._verify_ruse(Tactic.RECRUITER)
        tactics.verify_recruiter(self._deck_sizes(), move)

    def _verify_return(self, move: Return) -> None:
        me = self.to_move
        tactics.verify_return(self._hands[me], me, move, self._sight.jokers[me])

    def _verify_pass(self, move: Pass) -> None:
        fit = self._clan_fit(self.to_move)
        if fit is not None:
            card, number = fit
            raise IllegalActionError(
                Rule.PASS,
                f"{self.to_move} may not pass: {card} can be placed at stone {number} "
                "(pass only when no Clan card can be placed)",
            )

    def _verify_claim(self, move: Claim) -> None:
        if move.stones and not set(move.stones) <= set(self.provable_stones()):
            verify_claim(self.board, self.to_move, move.stones)

    def _verify_draw(self, move: Draw) -> None:
        if move.deck is Deck.TACTIC and self.variant is Variant.BASE:
            raise RefusedMove(Refusal.NO_TACTIC_DECK, "the base game has no tactic deck")
        if not self._decks[move.deck]:
            raise IllegalActionError(Rule.EMPTY_DECK, f"the {move.deck} deck is empty")

    def _verify_ruse(self, ruse: Tactic) -> None:
        me = self.to_move
        self._need_in_hand(ruse)
        tactics.verify_may_play_tactic(ruse, me, self._tactics, self._sight.jokers[me])
        tactics.verify_ruse_target(self.board, me, ruse, self._room(me), self._deck_sizes())

    def _need_in_hand(self, card: Card) -> None:
        if card not in self._hands[self.to_move]:
            raise RefusedMove(Refusal.CARD_NOT_IN_HAND, f"{card} is not in {self.to_move}'s hand")

    # -- doing, one method per kind of move: each returns the cards it drew ------------------

    def _do_play(self, move: Play) -> tuple[Card, ...]:
        card = move.card
        self._give_up(card)
        if isinstance(card, Tactic) and card.kind is TacticKind.COMBAT_MODE:
            self.board = tactics.play_combat_mode(self.board, self.to_move, move)
        else:
            self.board = self.board.place(self.to_move, move.stone, card, at=self.step)
        self.phase = Phase.CLAIM
        return ()

    def _do_table_ruse(self, move: Strategist | Banshee | Traitor) -> tuple[Card, ...]:
        ruse, _, play = tactics.TABLE_RUSES[type(move)]
        self._give_up(ruse)
        self.board = play(self.board, self.to_move, move, self.step)
        self.phase = Phase.CLAIM
        return ()

    def _do_recruiter(self, move: Recruiter) -> tuple[Card, ...]:
        me = self.to_move
        self._give_up(Tactic.RECRUITER)
        self.board = self.board.discard_card(me, Tactic.RECRUITER)
        drawn = tuple(self._take_top(deck) for deck in move.decks)
        self.recruited = True
        self.phase = Phase.RETURN
        return drawn

    def _do_return(self, move: Return) -> tuple[Card, ...]:
        decks = dict(self._decks)
        for card in move.cards:
            self._give_up(card, faceup=False)
            deck = Deck.of(card)
            decks[deck] = (*decks[deck], card)
        self._decks = decks
        self.phase = Phase.CLAIM
        return ()

    def _do_pass(self, move: Pass) -> tuple[Card, ...]:
        self.phase = Phase.CLAIM
        return ()

    def _do_claim(self, move: Claim) -> tuple[Card, ...]:
        me = self.to_move
        for number in move.stones:
            self.board = self.board.with_stone(replace(self.board.stone(number), claimed_by=me))
        won = winning_condition(self.board, me) if move.stones else None
        if won is not None:
            self.outcome = Outcome(me, won)
        elif self.recruited or not self._can_draw(me):
            self._end_turn()
        else:
            self.phase = Phase.DRAW
        return ()

    def _do_draw(self, move: Draw) -> tuple[Card, ...]:
        card = self._take_top(move.deck)
        self._end_turn()
        return (card,)

    def _give_up(self, card: Card, *, faceup: bool = True) -> None:
        """Take a card out of the mover's hand; played face up, it is seen from now on, and a
        tactic card counts toward the mover's tactic cards (rule ``tactic-count``)."""
        me = self.to_move
        hand = list(self._hands[me])
        hand.remove(card)
        self._set_hand(me, tuple(hand))
        if not faceup:
            return
        if isinstance(card, ClanCard):
            self._seen |= 1 << (card.colour * 9 + card.value - 1)  # pool_mask, written out
        else:
            self._sight = self._sight.showing(card, me)
            mine, theirs = self._tactics[me] + 1, self._tactics[me.other]
            self._tactics = (mine, theirs) if me is Player.FIRST else (theirs, mine)

    def _set_hand(self, player: Player, cards: tuple[Card, ...]) -> None:
        first, second = self._hands
        self._hands = (cards, second) if player is Player.FIRST else (first, cards)

    def _take_top(self, deck: Deck) -> Card:
        """Draw the top card of a deck into the mover's hand."""
        me = self.to_move
        cards = self._decks[deck]
        self._decks = {**self._decks, deck: cards[1:]}
        self._set_hand(me, (*self._hands[me], cards[0]))
        return cards[0]

    # -- turns and the end of the game ------------------------------------------------------

    def _end_turn(self) -> None:
        self.to_move = self.to_move.other
        self.phase = Phase.PLAY
        self.recruited = False
        self._close_if_deadlocked()

    def _close_if_deadlocked(self) -> None:
        """The deadlock closing (site ruling ``deadlock``), run when a turn is about to start."""
        for player in _PLAYERS:
            if self._can_draw(player) or self.can_place(player):
                return
        if self.provable_stones(Player.FIRST) or self.provable_stones(Player.SECOND):
            return
        self.board, self.outcome = close_deadlock(self.board)

    # -- positions as data --------------------------------------------------------------------

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Game:
        """Read a position written by :meth:`to_dict`; every problem raises
        :class:`InvalidPositionError` naming it."""
        position = position_from_data(data)
        return cls.from_position(
            position.board,
            position.hands,
            position.decks,
            to_move=position.to_move,
            phase=position.phase,
            step=position.step,
            recruited=position.recruited,
            outcome=position.outcome,
        )


_PLAYERS = (Player.FIRST, Player.SECOND)
_PHASE_MOVES: dict[Phase, tuple[tuple[type[Move], ...], str]] = {
    Phase.PLAY: ((Play, Strategist, Banshee, Traitor, Recruiter, Pass), "'play ...' or 'pass'"),
    Phase.RETURN: ((Return,), Return.syntax),
    Phase.CLAIM: ((Claim,), Claim.syntax),
    Phase.DRAW: ((Draw,), Draw.syntax),
}
# Each kind of move: its check (raises IllegalActionError) and its play (on a checked move).
_RULES: dict[
    type[Move], tuple[Callable[[Game, Any], None], Callable[[Game, Any], tuple[Card, ...]]]
] = {
    Play: (Game._verify_play, Game._do_play),
    Strategist: (Game._verify_table_ruse, Game._do_table_ruse),
    Banshee: (Game._verify_table_ruse, Game._do_table_ruse),
    Traitor: (Game._verify_table_ruse, Game._do_table_ruse),
    Recruiter: (Game._verify_recruiter, Game._do_recruiter),
    Return: (Game._verify_return, Game._do_return),
    Pass: (Game._verify_pass, Game._do_pass),
    Claim: (Game._verify_claim, Game._do_claim),
    Draw: (Game._verify_draw, Game._do_draw),
}
