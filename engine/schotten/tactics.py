"""The tactic cards' rules (RULES.md, Tactic cards), as functions of the table.

Who may play a tactic card (rules ``tactic-count``, ``joker-once``), where a combat mode goes,
what each ruse may target (``ruse-target``) and what it does to the board. Every ``verify_*``
raises :class:`~schotten.errors.IllegalActionError` naming the rule it breaks and changes nothing;
every ``play_*`` returns the new board of a verified move. The hands, the decks and the counts of
tactic cards played are the game's (:mod:`schotten.game`), which passes in what a rule needs.

What the engine does with the ruses, exactly:

- The Recruiter's target is the decks: with both empty it cannot be played (rule
  ``ruse-target``). It draws three cards, or all that remain, then returns two cards (one if the
  hand holds only one), each to the bottom of its own deck, in the order written; never a Joker
  its player must keep (rule ``joker-once``).
- A card a ruse discards goes to the pile of the player on whose side it stood (a Joker taken by
  the Banshee still counts as its owner's Joker and tactic card); the ruse goes to the pile of
  the player who played it.

>>> from schotten.cards import parse_card
>>> board = Board.empty(Variant.TACTICAL).place(Player.SECOND, 4, parse_card("red 7"), at=0)
>>> [str(m) for m in ruse_moves(board, Player.FIRST, Tactic.BANSHEE, room=[], decks={})]
['play banshee: red 7 at 4']
>>> play_banshee(board, Player.FIRST, Banshee(parse_card("red 7"), 4)).discard[Player.SECOND]
(ClanCard.parse('red 7'),)
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import TypeVar

from schotten.board import STONES, Board, Player, Side, Stone, Variant
from schotten.cards import Card, ClanCard, Tactic, TacticKind, format_cards
from schotten.errors import IllegalActionError
from schotten.moves import (
    PLAYS,
    Banshee,
    Deck,
    Move,
    Play,
    Recruiter,
    Return,
    Strategist,
    Traitor,
)
from schotten.refusals import Refusal, RefusedMove
from schotten.rules import Rule

_T = TypeVar("_T")


# -- who may play a tactic card -------------------------------------------------------------


def verify_may_play_tactic(
    card: Tactic, player: Player, played: Sequence[int], joker_played: bool
) -> None:
    """Rules ``tactic-count`` (at most one ahead) and ``joker-once``; ``played`` counts the
    tactic cards each player has played, by player."""
    mine, theirs = played[player], played[player.other]
    if mine > theirs:
        raise IllegalActionError(
            Rule.TACTIC_COUNT,
            f"{player} has played {mine} tactic cards and the opponent {theirs}: "
            "no tactic card while ahead",
        )
    if card is Tactic.JOKER and joker_played:
        raise IllegalActionError(
            Rule.JOKER_ONCE, f"{player} has played a Joker already: one per player per game"
        )


# -- combat modes -----------------------------------------------------------------------------


def verify_combat_mode(board: Board, move: Play) -> None:
    """A combat mode goes on any unclaimed stone (rule ``claim-closed``)."""
    if board.stone(move.stone).claimed_by is not None:
        raise RefusedMove(
            Refusal.MODE_ON_CLAIMED_STONE,
            f"stone {move.stone} is claimed: no combat mode is played on it",
        )


def play_combat_mode(board: Board, player: Player, move: Play) -> Board:
    assert isinstance(move.card, Tactic)
    return board.with_stone(with_mode(board.stone(move.stone), move.card, player))


def with_mode(stone: Stone, mode: Tactic, player: Player) -> Stone:
    """The stone with a combat mode played on it by ``player``."""
    if mode is Tactic.BLIND_MANS_BLUFF:
        return replace(stone, blind_mans_bluff=player)
    # Mud Fight: a side of three now needs a fourth card; its completion time starts over.
    new = replace(stone, mud_fight=player)
    for p in Player:
        side = new.sides[p]
        if side.completed_at is not None and len(side.cards) < new.capacity:
            new = new.with_side(p, Side(side.cards, None))
    return new


def modes(stone: Stone) -> tuple[tuple[Tactic, Player | None], ...]:
    """The two combat modes of a stone and who played each (``None``: not on this stone)."""
    return (Tactic.MUD_FIGHT, stone.mud_fight), (Tactic.BLIND_MANS_BLUFF, stone.blind_mans_bluff)


# -- ruses ------------------------------------------------------------------------------------


def verify_strategist(board: Board, player: Player, move: Strategist) -> None:
    source = _open_stone(board, move.source, "no ruse takes from it")
    _need_on_side(source, player, move.card, Rule.STRATEGIST, "your")
    if move.target is None:
        return
    if move.target == move.source:
        raise IllegalActionError(
            Rule.STRATEGIST,
            f"the Strategist moves a card to another stone, not back to stone {move.source}",
        )
    _need_room(_open_stone(board, move.target, "no ruse puts a card on it"), player)


def play_strategist(board: Board, player: Player, move: Strategist, step: int) -> Board:
    board = take(board, player, move.source, move.card)
    if move.target is None:
        board = board.discard_card(player, move.card)
    else:
        board = board.place(player, move.target, move.card, at=step)
    return board.discard_card(player, Tactic.STRATEGIST)


def verify_banshee(board: Board, player: Player, move: Banshee) -> None:
    stone = _open_stone(board, move.stone, "no ruse takes from it")
    _need_on_side(stone, player.other, move.card, Rule.BANSHEE, "the opponent's")


def play_banshee(board: Board, player: Player, move: Banshee) -> Board:
    # The card discarded goes to the pile of the player on whose side it stood.
    board = take(board, player.other, move.stone, move.card)
    board = board.discard_card(player.other, move.card)
    return board.discard_card(player, Tactic.BANSHEE)


def verify_traitor(board: Board, player: Player, move: Traitor) -> None:
    if not isinstance(move.card, ClanCard):
        raise IllegalActionError(
            Rule.TRAITOR, f"the Traitor takes a Clan card only, not {move.card}"
        )
    source = _open_stone(board, move.source, "no ruse takes from it")
    _need_on_side(source, player.other, move.card, Rule.TRAITOR, "the opponent's")
    _need_room(_open_stone(board, move.target, "no ruse puts a card on it"), player)


def play_traitor(board: Board, player: Player, move: Traitor, step: int) -> Board:
    board = take(board, player.other, move.source, move.card)
    board = board.place(player, move.target, move.card, at=step)
    return board.discard_card(player, Tactic.TRAITOR)


def verify_recruiter(decks: Mapping[Deck, int], move: Recruiter) -> None:
    """``decks``: how many cards each deck holds. Three cards, or as many as remain."""
    total = sum(decks.values())
    if len(move.decks) != min(3, total):
        raise IllegalActionError(
            Rule.RECRUITER,
            f"the Recruiter draws 3 cards, or as many as remain ({total} left): "
            f"{min(3, total)}, not {len(move.decks)}",
        )
    for deck, n in Counter(move.decks).items():
        if n > decks.get(deck, 0):
            raise IllegalActionError(
                Rule.RECRUITER,
                f"the {deck} deck holds {decks.get(deck, 0)} cards: {n} cannot be drawn",
            )


def verify_return(hand: Sequence[Card], player: Player, move: Return, joker_played: bool) -> None:
    """The Recruiter's second half: two cards of the hand (one if it holds only one). A Joker
    that its player must keep (rule ``joker-once``: they have played the other) is not one of
    them: put back under the tactic deck, it could reach the opponent."""
    if joker_played and Tactic.JOKER in move.cards:
        raise RefusedMove(
            Refusal.JOKER_KEPT,
            f"{player} has played a Joker: the other stays in {player}'s hand to the end of the "
            "game and is not returned",
        )
    returnable = _returnable(hand, joker_played)
    need = min(2, len(returnable))
    if len(move.cards) != need:
        raise IllegalActionError(
            Rule.RECRUITER, f"the Recruiter returns {need} cards, not {len(move.cards)}"
        )
    missing = Counter(move.cards) - Counter(hand)
    if missing:
        raise IllegalActionError(
            Rule.RECRUITER, f"{format_cards(missing.elements())} is not in {player}'s hand"
        )


def return_moves(hand: Sequence[Card], joker_played: bool) -> list[Move]:
    """Every legal Return from this hand, in a fixed order."""
    returnable = _returnable(hand, joker_played)
    need = min(2, len(returnable))
    picks = itertools.permutations(range(len(returnable)), need)
    return [Return(c) for c in distinct(tuple(returnable[i] for i in p) for p in picks)]


def _returnable(hand: Sequence[Card], joker_played: bool) -> list[Card]:
    """The cards of the hand the Recruiter may put back: all but a Joker its player must keep.
    The Recruiter drew at least one card, so at least one is left."""
    return [c for c in hand if not (joker_played and c is Tactic.JOKER)]


def tactic_moves(
    board: Board,
    player: Player,
    hand: Sequence[Card],
    played: Sequence[int],
    joker_played: bool,
    room: Sequence[int],
    decks: Mapping[Deck, int],
) -> Iterator[Move]:
    """Every legal play of a tactic card of ``hand`` by ``player``: rules ``tactic-count`` and
    ``joker-once``, then where each card may go (``played``: tactic cards played, by player)."""
    cards = distinct(c for c in hand if isinstance(c, Tactic))
    if not cards or played[player] > played[player.other]:
        return
    for card in cards:
        kind = card.kind
        if kind is TacticKind.ELITE_TROOP:
            if card is Tactic.JOKER and joker_played:
                continue
            yield from (PLAYS[card][n] for n in room)
        elif kind is TacticKind.COMBAT_MODE:
            plays = PLAYS[card]
            yield from (plays[s.number] for s in board.stones if s.claimed_by is None)
        else:
            yield from ruse_moves(board, player, card, room, decks)


def verify_ruse_target(
    board: Board, player: Player, ruse: Tactic, room: Sequence[int], decks: Mapping[Deck, int]
) -> None:
    """Rule ``ruse-target``: a ruse with no legal target cannot be played. A Traitor with a Clan
    card to take but no room on its player's side is refused for that (``ruse-without-room``)."""
    if next(ruse_moves(board, player, ruse, room, decks), None) is None:
        if ruse is Tactic.TRAITOR and next(ruse_moves(board, player, ruse, STONES, decks), None):
            raise RefusedMove(
                Refusal.RUSE_WITHOUT_ROOM,
                f"the Traitor has a card to take but no room on {player}'s side to put it",
            )
        raise IllegalActionError(
            Rule.RUSE_TARGET, f"the {name(ruse)} has no legal target: it cannot be played"
        )


def ruse_moves(
    board: Board, player: Player, ruse: Tactic, room: Sequence[int], decks: Mapping[Deck, int]
) -> Iterator[Move]:
    """Every legal play of a ruse, the count limit aside. ``room``: the unclaimed stones with
    room on ``player``'s side; ``decks``: how many cards each deck holds."""
    opponent = player.other
    open_stones = [s for s in board.stones if s.claimed_by is None]
    if ruse is Tactic.STRATEGIST:
        for stone in open_stones:
            for card in distinct(stone.sides[player].cards):
                for n in room:
                    if n != stone.number:
                        yield Strategist(card, stone.number, n)
                yield Strategist(card, stone.number, None)
    elif ruse is Tactic.BANSHEE:
        for stone in open_stones:
            for card in distinct(stone.sides[opponent].cards):
                yield Banshee(card, stone.number)
    elif ruse is Tactic.TRAITOR:
        if room:
            for stone in open_stones:
                for card in distinct(stone.sides[opponent].cards):
                    if isinstance(card, ClanCard):
                        yield from (Traitor(card, stone.number, n) for n in room)
    elif ruse is Tactic.RECRUITER:
        clan, tactic = decks.get(Deck.CLAN, 0), decks.get(Deck.TACTIC, 0)
        draws = min(3, clan + tactic)
        for from_clan in range(draws, -1, -1):
            if from_clan <= clan and draws - from_clan <= tactic and draws:
                yield Recruiter((Deck.CLAN,) * from_clan + (Deck.TACTIC,) * (draws - from_clan))


# The ruses that act on the table, by move: the card, its check and its play.
TABLE_RUSES: dict[type[Move], tuple[Tactic, Callable[..., None], Callable[..., Board]]] = {
    Strategist: (Tactic.STRATEGIST, verify_strategist, play_strategist),
    Banshee: (
        Tactic.BANSHEE,
        verify_banshee,
        lambda board, player, move, step: play_banshee(board, player, move),
    ),
    Traitor: (Tactic.TRAITOR, verify_traitor, play_traitor),
}


def recruiter_pending(board: Board, player: Player) -> str | None:
    """Why ``player`` cannot be in the middle of a Recruiter turn, or ``None`` if they can be:
    the Recruiter exists only in the tactical variant, and lies face up in the discard pile of
    the player who played it."""
    if board.variant is Variant.BASE:
        return "the base game has no Recruiter"
    if Tactic.RECRUITER not in board.discard[player]:
        return f"the Recruiter is not in {player}'s discard pile: {player} has not played it"
    return None


# -- shared pieces ----------------------------------------------------------------------------


def take(board: Board, player: Player, number: int, card: Card) -> Board:
    """The board with ``card`` gone from a side; the side is incomplete again (its completion
    time is cleared, and set anew when it is completed again: site ruling ``completed-first``)."""
    stone = board.stone(number)
    cards = list(stone.sides[player].cards)
    cards.remove(card)
    return board.with_stone(stone.with_side(player, Side(tuple(cards), None)))


def no_room(stone: Stone, player: Player) -> IllegalActionError:
    """The refusal of a card placed on a full side (rule ``play-capacity``)."""
    held = len(stone.sides[player].cards)
    mud = " under Mud Fight" if stone.mud_fight is not None else ""
    return IllegalActionError(
        Rule.PLAY_CAPACITY,
        f"{player}'s side of stone {stone.number} is full ({held} of {stone.capacity}{mud})",
    )


def name(card: Tactic) -> str:
    """A tactic card's name in messages: ``Shield Bearer``."""
    return card.value.replace("-", " ").title()


def distinct(items: Iterable[_T]) -> list[_T]:
    """The items once each, in their first order."""
    return list(dict.fromkeys(items))


def _open_stone(board: Board, number: int, closed: str) -> Stone:
    stone = board.stone(number)
    if stone.claimed_by is not None:
        raise IllegalActionError(
            Rule.CLAIM_CLOSED, f"stone {number} is claimed by {stone.claimed_by}: {closed}"
        )
    return stone


def _need_room(stone: Stone, player: Player) -> None:
    if not stone.has_room(player):
        raise no_room(stone, player)


def _need_on_side(stone: Stone, owner: Player, card: Card, rule: Rule, whose: str) -> None:
    if isinstance(card, Tactic) and card.kind is TacticKind.COMBAT_MODE:
        raise RefusedMove(
            Refusal.MODE_ON_NO_SIDE, f"{card} lies on the stone, on no side, and is never removed"
        )
    if card not in stone.side(owner).cards:
        raise IllegalActionError(rule, f"{card} is not on {whose} side of stone {stone.number}")
