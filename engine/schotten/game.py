"""The whole game: the deal, the turn steps, the tactic cards, claims, the end of the game.

A :class:`Game` is the state machine of RULES.md. Each turn is a fixed sequence of steps
(:class:`Phase`): play (or pass), claim, draw. Every step is one move in the project's notation
(:mod:`schotten.moves`), checked against the rules before anything changes: a refused move raises
:class:`~schotten.errors.IllegalActionError` naming the rule it breaks, and leaves the game as it
was. Three verbs, PokerKit style: :meth:`Game.verify_move` raises, :meth:`Game.can_move` answers,
:meth:`Game.apply` checks, plays and appends to :attr:`Game.history`.

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
- The Recruiter's target is the decks: with both empty it cannot be played (rule
  ``ruse-target``). It draws three cards, or all that remain, then returns two cards (one if the
  hand holds only one), each to the bottom of its own deck, in the order written; never a Joker
  its player must keep (rule ``joker-once``).
- A card a ruse discards goes to the pile of the player on whose side it stood (a Joker taken by
  the Banshee still counts as its owner's Joker and tactic card); the ruse goes to the pile of
  the player who played it.
- The deadlock closing (site ruling ``deadlock``) is checked whenever a turn is about to start
  (and when a game is set up from a position at a play step). It closes the game when neither
  player can play a card for the rest of the game and neither can claim a stone: that is, neither
  player has a legal play other than ``pass`` (judged as if it were their turn), neither could
  still draw (hand below its size with a card left in a deck), and no unclaimed stone is provable
  by either player. Nothing can change any more then: passes and empty claim steps would repeat
  forever. Each unclaimed stone goes to the player whose side is complete, otherwise to the
  higher total (an elite troop counts its highest value), equal totals to nobody; then a player
  who now holds five stones or three adjacent ones wins; neither or both: a draw.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from schotten import tactics
from schotten.board import Board, Player, Stone, Variant
from schotten.cards import (
    CLAN_CARDS,
    TACTIC_CARDS,
    Card,
    ClanCard,
    Tactic,
    TacticKind,
    format_cards,
)
from schotten.claims import Pool, Reason, StoneVerdict, judge_claim, judge_stone, stones_taken
from schotten.completion import ALL_CLAN_MASK, pool_mask
from schotten.errors import IllegalActionError, InvalidNotationError, InvalidPositionError
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
from schotten.outcome import Outcome, Termination, close_deadlock, deadlock_taker, winning_condition
from schotten.position import fill_decks as fill_decks  # re-exported: the decks of a position
from schotten.position import position_problems
from schotten.position_data import GamePosition, position_from_data, position_to_data
from schotten.rules import Rule
from schotten.tactics import distinct
from schotten.turn import Phase as Phase  # the steps of a turn, re-exported


class Game:
    """A game of Schotten Totten, from a seeded deal or from a position.

    ``Game(variant, seed=..., first=...)`` shuffles with ``random.Random(seed)`` and deals
    alternately, starting with ``first``: 6 Clan cards each (base game), or 7 Clan cards each
    with the 10 tactic cards as a second deck (tactical).
    """

    variant: Variant
    board: Board
    to_move: Player
    phase: Phase
    step: int
    """A counter that grows by one with every move; a side's ``completed_at`` is read on it."""
    recruited: bool
    """The player to move played the Recruiter this turn: no normal draw."""
    outcome: Outcome | None
    history: list[Move]
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
        self._setup(Board.empty(variant), hands, clan, tactic, first, Phase.PLAY, 0, False, None)
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

        Raises :class:`InvalidPositionError` naming every problem: a card missing or twice, a
        side over its capacity, a hand over its size, a tactic card in the base game, a Recruiter
        step without the Recruiter played (rule ``recruiter``), a deadlock end on a position the
        closing did not make (rule ``deadlock``), ...

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
        game._setup(board, hands_pair, clan, tactic, to_move, phase, step, recruited, outcome)
        if outcome is not None and outcome.termination is Termination.DEADLOCK:
            deadlock = list(game._deadlock_problems(phase))
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

    def _setup(
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
        self.variant = board.variant
        self.board = board
        self._hands = hands
        self._decks = {Deck.CLAN: clan, Deck.TACTIC: tactic}
        self.to_move = to_move
        self.phase = phase
        self.step = step
        self.recruited = recruited
        self.outcome = outcome
        self.history = []
        self._tactics = [board.tactics_played(p) for p in Player]
        self._joker = [board.has_played_joker(p) for p in Player]
        visible = list(board.visible())
        self._seen = pool_mask(visible)
        self._shown = Counter(c for c in visible if isinstance(c, Tactic))
        self._rooms: tuple[Board | None, dict[Player, list[int]]] = (None, {})
        # Verdicts by (claimer, stone), kept with the Stone they were judged on. The unseen pool
        # only ever shrinks (a card once face up stays face up), so a verdict stays true while
        # its stone is the same object, except a refusal, which holds only while its witness
        # cards are still unseen; that is checked on every use.
        self._verdicts: dict[tuple[Player, int], tuple[Stone, StoneVerdict]] = {}

    def copy(self) -> Game:
        """An independent copy (history included)."""
        game = Game.__new__(Game)
        game.__dict__.update(self.__dict__)
        game._hands = (list(self._hands[0]), list(self._hands[1]))
        game._decks = {d: list(cards) for d, cards in self._decks.items()}
        game.history = list(self.history)
        game._tactics = list(self._tactics)
        game._joker = list(self._joker)
        game._verdicts = dict(self._verdicts)
        game._shown = Counter(self._shown)
        return game

    # -- reading the state --------------------------------------------------------------------

    def hand(self, player: Player) -> tuple[Card, ...]:
        return tuple(self._hands[player])

    @property
    def hands(self) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        return tuple(self._hands[0]), tuple(self._hands[1])

    def deck(self, deck: Deck) -> tuple[Card, ...]:
        """The cards of a deck, top (next drawn) first."""
        return tuple(self._decks[deck])

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
        return tuple(v.stone for v in self._judge_open(who) if v.granted)

    def can_place(self, player: Player | None = None) -> bool:
        """Whether ``player`` has a play other than ``pass`` (as if it were their turn)."""
        who = self.to_move if player is None else player
        if self._clan_fit(who) is not None:
            return True
        return next(self._tactic_moves(who), None) is not None

    # -- moves --------------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move of the player to move, in a fixed order.

        At the claim step: ``claim none`` and every non-empty set of the provable stones.

        >>> game = Game(Variant.TACTICAL, seed=7)
        >>> moves = game.legal_moves()
        >>> len(moves), moves[0]
        (63, Move.parse('play purple 3 at 1'))
        """
        if self.outcome is not None:
            return []
        me = self.to_move
        if self.phase is Phase.PLAY:
            room = self._room(me)
            moves: list[Move] = []
            for card in self._clan_in_hand(me):  # Clan cards are all different
                plays = _PLAYS[card]
                moves += [plays[n] for n in room]
            moves += self._tactic_moves(me)
            if self._clan_fit(me) is None:
                moves.append(Pass())
            return moves
        if self.phase is Phase.RETURN:
            return tactics.return_moves(self._hands[me], self._joker[me])
        if self.phase is Phase.CLAIM:
            provable = self.provable_stones()
            claims: list[Move] = [Claim()]
            for size in range(1, len(provable) + 1):
                claims += (Claim(c) for c in itertools.combinations(provable, size))
            return claims
        return [Draw(d) for d in self._drawable()]

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
        self._do(parsed)
        return parsed

    def _do(self, move: Move) -> None:
        """Play a verified move."""
        _RULES[type(move)][1](self, move)
        self.history.append(move)
        self.step += 1

    # -- verification, one method per kind of move -------------------------------------------

    def _verify_play(self, move: Play) -> None:
        me, card = self.to_move, move.card
        self._need_in_hand(card)
        stone = self.board.stone(move.stone)
        if isinstance(card, Tactic):
            tactics.verify_may_play_tactic(card, me, self._tactics, self._joker[me])
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
        ruse, verify, _ = _TABLE_RUSES[type(move)]
        self._verify_ruse(ruse)
        verify(self.board, self.to_move, move)

    def _verify_recruiter(self, move: Recruiter) -> None:
        self._verify_ruse(Tactic.RECRUITER)
        tactics.verify_recruiter(self._deck_sizes(), move)

    def _verify_return(self, move: Return) -> None:
        me = self.to_move
        tactics.verify_return(self._hands[me], me, move, self._joker[me])

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
        if not move.stones:
            return
        provable = self.provable_stones()
        if all(n in provable for n in move.stones):
            return
        verdicts = judge_claim(self.board, self.to_move, move.stones)
        if stones_taken(verdicts) == move.stones:
            return
        refused = [v for v in verdicts if not v.granted]
        detail = "; ".join(v.explain() for v in refused)
        proven = [str(v.stone) for v in verdicts if v.granted]
        if proven:
            # Rule claim-together: a claim is legal only when every stone it names is proven.
            detail += (
                f"; stone {', '.join(proven)} {'is' if len(proven) == 1 else 'are'} proven, "
                "but the claim is refused whole: nothing is taken"
            )
        raise IllegalActionError(refused[0].reason.rule, detail)

    def _verify_draw(self, move: Draw) -> None:
        if move.deck is Deck.TACTIC and self.variant is Variant.BASE:
            raise IllegalActionError(Rule.TURN_ORDER, "the base game has no tactic deck")
        if not self._decks[move.deck]:
            raise IllegalActionError(Rule.EMPTY_DECK, f"the {move.deck} deck is empty")

    def _verify_ruse(self, ruse: Tactic) -> None:
        me = self.to_move
        self._need_in_hand(ruse)
        tactics.verify_may_play_tactic(ruse, me, self._tactics, self._joker[me])
        tactics.verify_ruse_target(self.board, me, ruse, self._room(me), self._deck_sizes())

    def _need_in_hand(self, card: Card) -> None:
        if card not in self._hands[self.to_move]:
            raise IllegalActionError(Rule.TURN_ORDER, f"{card} is not in {self.to_move}'s hand")

    # -- doing, one method per kind of move ---------------------------------------------------

    def _do_play(self, move: Play) -> None:
        me, card = self.to_move, move.card
        self._hands[me].remove(card)
        if isinstance(card, Tactic):
            self._count_tactic(card)
            if card.kind is TacticKind.COMBAT_MODE:
                self.board = tactics.play_combat_mode(self.board, me, move)
                self.phase = Phase.CLAIM
                return
        else:
            self._seen |= pool_mask((card,))
        self.board = self.board.place(me, move.stone, card, at=self.step)
        self.phase = Phase.CLAIM

    def _do_table_ruse(self, move: Strategist | Banshee | Traitor) -> None:
        ruse, _, play = _TABLE_RUSES[type(move)]
        self._play_ruse(ruse)
        self.board = play(self.board, self.to_move, move, self.step)

    def _do_recruiter(self, move: Recruiter) -> None:
        me = self.to_move
        self._play_ruse(Tactic.RECRUITER)
        self.board = self.board.discard_card(me, Tactic.RECRUITER)
        for deck in move.decks:
            self._hands[me].append(self._decks[deck].pop(0))
        self.recruited = True
        self.phase = Phase.RETURN

    def _do_return(self, move: Return) -> None:
        hand = self._hands[self.to_move]
        for card in move.cards:
            hand.remove(card)
            self._decks[Deck.of(card)].append(card)
        self.phase = Phase.CLAIM

    def _do_pass(self, move: Pass) -> None:
        self.phase = Phase.CLAIM

    def _do_claim(self, move: Claim) -> None:
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

    def _do_draw(self, move: Draw) -> None:
        self._hands[self.to_move].append(self._decks[move.deck].pop(0))
        self._end_turn()

    def _play_ruse(self, ruse: Tactic) -> None:
        self._hands[self.to_move].remove(ruse)
        self._count_tactic(ruse)
        self.phase = Phase.CLAIM

    def _count_tactic(self, card: Tactic) -> None:
        # A tactic card once played stays face up for the rest of the game.
        self._shown[card] += 1
        self._tactics[self.to_move] += 1
        if card is Tactic.JOKER:
            self._joker[self.to_move] = True

    # -- turns and the end of the game ------------------------------------------------------

    def _end_turn(self) -> None:
        self.to_move = self.to_move.other
        self.phase = Phase.PLAY
        self.recruited = False
        self._close_if_deadlocked()

    def _deadlock_problems(self, phase: Phase) -> Iterator[str]:
        """Why this position cannot be the end of a deadlock closing (site ruling ``deadlock``):
        the closing happens as a turn starts, when nobody can draw, place or claim, and it
        closes every stone that goes to somebody."""
        if phase is not Phase.PLAY:
            yield f"the closing happens as a turn starts, not at the {phase} step"
        for player in Player:
            if self._can_draw(player):
                yield f"{player} can still draw"
            if self.can_place(player):
                yield f"{player} can still place a card"
            provable = self.provable_stones(player)
            if provable:
                yield f"{player} can still claim stone {', '.join(map(str, provable))}"
        for stone in self.board.stones:
            taker = deadlock_taker(stone) if stone.claimed_by is None else None
            if taker is not None:
                yield f"stone {stone.number} is left open, but the closing gives it to {taker}"

    def _close_if_deadlocked(self) -> None:
        """The deadlock closing (site ruling ``deadlock``), run when a turn is about to start."""
        for player in Player:
            if self._can_draw(player) or self.can_place(player):
                return
        if self.provable_stones(Player.FIRST) or self.provable_stones(Player.SECOND):
            return
        self.board, self.outcome = close_deadlock(self.board)

    # -- what a player could do -------------------------------------------------------------

    def _can_draw(self, player: Player) -> bool:
        return len(self._hands[player]) < self.variant.hand_size and bool(self._drawable())

    def _drawable(self) -> list[Deck]:
        return [d for d in (Deck.CLAN, Deck.TACTIC) if self._decks[d]]

    def _clan_in_hand(self, player: Player) -> list[ClanCard]:
        return [c for c in self._hands[player] if isinstance(c, ClanCard)]

    def _room(self, player: Player) -> list[int]:
        """The unclaimed stones with room on ``player``'s side (kept while the board is the same
        object: a Board never changes)."""
        board, rooms = self._rooms
        if board is not self.board:
            board = self.board
            rooms = {}
            self._rooms = (board, rooms)
        room = rooms.get(player)
        if room is None:
            # Stone.has_room, written out: this runs after nearly every move.
            room = rooms[player] = [
                s.number
                for s in board.stones
                if s.claimed_by is None
                and len(s.sides[player].cards) < (3 if s.mud_fight is None else 4)
            ]
        return room

    def _clan_fit(self, player: Player) -> tuple[ClanCard, int] | None:
        """A Clan card of the hand and a stone where it can be placed, if any (rule ``pass``)."""
        for card in self._hands[player]:
            if isinstance(card, ClanCard):
                room = self._room(player)
                return (card, room[0]) if room else None
        return None

    def _tactic_moves(self, player: Player) -> Iterator[Move]:
        """Every legal play of a tactic card by ``player``, as if it were their turn."""
        cards = distinct(c for c in self._hands[player] if isinstance(c, Tactic))
        if not cards or self._tactics[player] > self._tactics[player.other]:
            return
        for card in cards:
            kind = card.kind
            if kind is TacticKind.ELITE_TROOP:
                if card is Tactic.JOKER and self._joker[player]:
                    continue
                yield from (_PLAYS[card][n] for n in self._room(player))
            elif kind is TacticKind.COMBAT_MODE:
                plays = _PLAYS[card]
                yield from (plays[s.number] for s in self.board.stones if s.claimed_by is None)
            else:
                room, decks = self._room(player), self._deck_sizes()
                yield from tactics.ruse_moves(self.board, player, card, room, decks)

    def _deck_sizes(self) -> dict[Deck, int]:
        return {deck: len(cards) for deck, cards in self._decks.items()}

    def _judge_open(self, player: Player) -> list[StoneVerdict]:
        """Verdicts on every unclaimed stone where ``player``'s side is complete."""
        board = self.board
        pool = None
        verdicts = []
        for stone in board.stones:
            if stone.claimed_by is not None or len(stone.sides[player].cards) < stone.capacity:
                continue
            key = (player, stone.number)
            cached = self._verdicts.get(key)
            if cached is not None and cached[0] is stone and self._still_true(cached[1], player):
                verdicts.append(cached[1])
                continue
            pool = pool or self._pool(player)
            verdict = judge_stone(board, player, stone.number, pool)
            self._verdicts[key] = (stone, verdict)
            verdicts.append(verdict)
        return verdicts

    def _still_true(self, verdict: StoneVerdict, claimer: Player) -> bool:
        if verdict.reason is not Reason.OPPONENT_CAN_BEAT:
            return True
        assert verdict.witness is not None
        cards = verdict.witness.cards
        if pool_mask(cards) & self._seen:
            return False
        return all(self._wild_unseen(c, claimer) for c in cards if isinstance(c, Tactic))

    def _pool(self, claimer: Player) -> Pool:
        """``unseen_pool(self.board, claimer)``, from the counts the game keeps."""
        wilds: tuple[Tactic, ...] = ()
        if self.variant is Variant.TACTICAL:
            wilds = tuple(w for w in _WILDS if self._wild_unseen(w, claimer))
        return Pool(ALL_CLAN_MASK & ~self._seen, wilds)

    def _wild_unseen(self, wild: Tactic, claimer: Player) -> bool:
        """Whether the claimer's opponent could still get this elite troop (as in
        ``unseen_pool``: site ruling ``claim-wild-pool``)."""
        if wild is Tactic.JOKER:
            return self._shown[wild] < 2 and not self._joker[claimer.other]
        return not self._shown[wild]

    # -- positions as data --------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The position as JSON-safe data (cards in notation); :meth:`from_dict` reads it back.

        >>> game = Game(Variant.BASE, seed=3)
        >>> Game.from_dict(game.to_dict()).to_dict() == game.to_dict()
        True
        """
        return position_to_data(self.position())

    def position(self) -> GamePosition:
        """The position as a value: everything :meth:`from_position` takes."""
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

    def __str__(self) -> str:
        lines = [f"{self.variant}, step {self.step}: {self.to_move} at the {self.phase} step"]
        if self.outcome is not None:
            lines[0] = f"{self.variant}, step {self.step}: {self.outcome}"
        for stone in self.board.stones:
            modes = [str(t) for t, p in tactics.modes(stone) if p is not None]
            held = f" claimed by {stone.claimed_by}" if stone.claimed_by is not None else ""
            mine, theirs = (format_cards(s.cards) for s in stone.sides)
            extra = f" [{', '.join(modes)}]" if modes else ""
            lines.append(f"  {stone.number}: {mine or '-'} | {theirs or '-'}{extra}{held}")
        for player in Player:
            lines.append(f"  {player} hand: {format_cards(self._hands[player]) or '-'}")
        return "\n".join(lines)


# -- matches -----------------------------------------------------------------------------------


def round_points(game: Game) -> tuple[int, int]:
    """Points of a finished round (rule ``match-scoring``): the winner scores 5, the loser one per
    stone held; in a drawn round each player scores one per stone held.

    >>> game = Game.from_dict(Game(seed=0).to_dict())
    >>> round_points(game)
    Traceback (most recent call last):
    ...
    ValueError: the round is not over: no points yet
    """
    if game.outcome is None:
        raise ValueError("the round is not over: no points yet")
    winner = game.outcome.winner
    points = [5 if p is winner else len(game.stones_held(p)) for p in Player]
    return points[0], points[1]


class Match:
    """Several rounds and their points (rule ``match-scoring``).

    Rounds are dealt with the seeds given; the first player alternates from round to round unless
    given (the booklet leaves it open).
    """

    def __init__(self, variant: Variant = Variant.BASE) -> None:
        self.variant = variant
        self.rounds: list[Game] = []

    def new_round(self, seed: int, first: Player | None = None) -> Game:
        if self.rounds and not self.rounds[-1].is_over:
            raise ValueError(f"round {len(self.rounds)} is not over")
        if first is None:
            first = Player(len(self.rounds) % 2)
        game = Game(self.variant, seed=seed, first=first)
        self.rounds.append(game)
        return game

    @property
    def points(self) -> tuple[int, int]:
        """The total points of the finished rounds."""
        totals = [0, 0]
        for game in self.rounds:
            if game.is_over:
                for player, points in zip(Player, round_points(game), strict=True):
                    totals[player] += points
        return totals[0], totals[1]


# Every play of a card at a stone (by card, then stone), made once: legal_moves hands them out.
_EVERY_CARD: tuple[Card, ...] = (*CLAN_CARDS, *TACTIC_CARDS)
_PLAYS: dict[Card, dict[int, Move]] = {
    card: {n: Play(card, n) for n in range(1, 10)}
    for card in distinct(_EVERY_CARD)
    if not (isinstance(card, Tactic) and card.kind is TacticKind.RUSE)
}
_WILDS = (Tactic.JOKER, Tactic.SPY, Tactic.SHIELD_BEARER)  # in the order of unseen_pool
_PHASE_MOVES: dict[Phase, tuple[tuple[type[Move], ...], str]] = {
    Phase.PLAY: ((Play, Strategist, Banshee, Traitor, Recruiter, Pass), "'play ...' or 'pass'"),
    Phase.RETURN: ((Return,), Return.syntax),
    Phase.CLAIM: ((Claim,), Claim.syntax),
    Phase.DRAW: ((Draw,), Draw.syntax),
}
# The ruses that act on the table: the card, its check and its play (their rules are in tactics).
_TABLE_RUSES: dict[type[Move], tuple[Tactic, Callable[..., None], Callable[..., Board]]] = {
    Strategist: (Tactic.STRATEGIST, tactics.verify_strategist, tactics.play_strategist),
    Banshee: (
        Tactic.BANSHEE,
        tactics.verify_banshee,
        lambda board, player, move, step: tactics.play_banshee(board, player, move),
    ),
    Traitor: (Tactic.TRAITOR, tactics.verify_traitor, tactics.play_traitor),
}
# Each kind of move: its check (raises IllegalActionError) and its play (on a checked move).
_RULES: dict[type[Move], tuple[Callable[[Game, Any], None], Callable[[Game, Any], None]]] = {
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
