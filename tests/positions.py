"""Building tables and games for tests from short text, and random claim positions for property
tests."""

from __future__ import annotations

import random
from collections.abc import Mapping
from math import comb

import pytest
from hypothesis import strategies as st

from schotten.board import Board, Player, Side, Stone, Variant
from schotten.cards import CLAN_CARDS, Card, Tactic, parse_cards
from schotten.errors import IllegalActionError
from schotten.game import Game, Phase
from schotten.moves import Move
from schotten.position import check_table

YOU, OPPONENT = Player.FIRST, Player.SECOND


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(t for t in text.split(",") if t.strip())


def table(
    stones: Mapping[int, tuple[str, str]],
    *,
    variant: Variant = Variant.BASE,
    opponent_first: frozenset[int] = frozenset(),
    mud: frozenset[int] = frozenset(),
    bluff: frozenset[int] = frozenset(),
    claimed: Mapping[int, Player] | None = None,
    discard: tuple[str, str] = ("", ""),
) -> Board:
    """A board from ``{stone: ("your cards", "opponent's cards")}``.

    Cards are placed in the order given, your side first unless the stone is in
    ``opponent_first``; so on a stone where both sides are complete, the side placed first
    completed first.
    """
    board = Board.empty(variant)
    for number in mud:
        board = board.with_stone(Stone(number, mud_fight=OPPONENT))
    for number in bluff:
        old = board.stone(number)
        board = board.with_stone(
            Stone(number, old.sides, mud_fight=old.mud_fight, blind_mans_bluff=OPPONENT)
        )
    step = 0
    for number, (mine, theirs) in stones.items():
        order = [(YOU, mine), (OPPONENT, theirs)]
        if number in opponent_first:
            order.reverse()
        for player, text in order:
            for card in cards(text):
                board = board.place(player, number, card, at=step)
                step += 1
    for number, player in (claimed or {}).items():
        old = board.stone(number)
        board = board.with_stone(Stone(number, old.sides, claimed_by=player))
    for player, text in zip(Player, discard, strict=True):
        for card in cards(text):
            board = board.discard_card(player, card)
    check_table(board)
    return board


def start(
    stones: Mapping[int, tuple[str, str]],
    hands: tuple[str, str] = ("", ""),
    *,
    variant: Variant = Variant.BASE,
    to_move: Player = YOU,
    phase: Phase = Phase.PLAY,
    **board: object,
) -> Game:
    """A game from a :func:`table` and two hands; the rest is in the decks."""
    position = table(stones, variant=variant, **board)  # type: ignore[arg-type]
    return Game.from_position(
        position, (cards(hands[0]), cards(hands[1])), to_move=to_move, phase=phase
    )


def refused(game: Game, move: str) -> IllegalActionError:
    """The error of an illegal move, after checking that it changed nothing and that the engine
    neither accepts nor lists it."""
    before = game.to_dict()
    with pytest.raises(IllegalActionError) as info:
        game.apply(move)
    assert game.to_dict() == before
    assert not game.can_move(move)
    assert Move.parse(move) not in game.legal_moves()
    return info.value


WILDS = (Tactic.JOKER, Tactic.JOKER, Tactic.SPY, Tactic.SHIELD_BEARER)


@st.composite
def claim_positions(draw: st.DrawFn, *, max_completions: int = 3000) -> tuple[Board, int]:
    """A random table and the stone you claim (stone 1), small enough for the brute force.

    Variant, Mud Fight, Blind-Man's Bluff, elite troops on both sides and elsewhere, cards on
    other stones and in the discard pile: all drawn at random. The number of cards left unseen is
    cut so that the opponent's completions stay under ``max_completions``.
    """
    variant = draw(st.sampled_from(Variant))
    tactical = variant is Variant.TACTICAL
    mud = tactical and draw(st.booleans())
    bluff = tactical and draw(st.booleans())
    size = 4 if mud else 3
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    deck: list[Card] = [*CLAN_CARDS, *(WILDS if tactical else ())]
    rng.shuffle(deck)
    jokers_by = {YOU: 0, OPPONENT: 0}

    def take(player: Player) -> Card:
        # One Joker per player over the game: skip a second one for the same player.
        for i, card in enumerate(deck):
            if card is Tactic.JOKER and jokers_by[player]:
                continue
            if card is Tactic.JOKER:
                jokers_by[player] += 1
            return deck.pop(i)
        raise AssertionError("deck exhausted")

    claimed = draw(st.integers(0, 19)) == 0
    mine_count = size if draw(st.integers(0, 9)) else size - 1
    theirs_count = draw(st.integers(0, size))
    mine = tuple(take(YOU) for _ in range(mine_count))
    theirs = tuple(take(OPPONENT) for _ in range(theirs_count))
    need = size - theirs_count
    # Hide just enough: the opponent's completions must stay few enough to enumerate.
    hidden = len(deck)
    while hidden > need and comb(hidden, need) > max_completions:
        hidden -= 1
    hidden = draw(st.integers(min(need, hidden), hidden)) if need else hidden
    elsewhere = [deck.pop() for _ in range(len(deck) - hidden)]
    stones = [Stone(n) for n in range(1, 10)]
    times = rng.sample(range(100), 2)
    sides = [
        Side(mine, times[0] if mine_count == size else None),
        Side(theirs, times[1] if theirs_count == size else None),
    ]
    stones[0] = Stone(
        1,
        (sides[0], sides[1]),
        claimed_by=OPPONENT if claimed else None,
        mud_fight=OPPONENT if mud else None,
        blind_mans_bluff=YOU if bluff else None,
    )
    discard: tuple[list[Card], list[Card]] = ([], [])
    slots = [(n, p) for n in range(2, 10) for p in Player for _ in range(3)]
    rng.shuffle(slots)
    placed: dict[tuple[int, Player], list[Card]] = {}
    for card in elsewhere:
        owner = rng.choice(list(Player))
        if card is Tactic.JOKER:
            if jokers_by[owner]:
                owner = owner.other
            jokers_by[owner] += 1
        if slots and rng.random() < 0.8:
            number, owner = _slot_for(slots, owner)
            placed.setdefault((number, owner), []).append(card)
        else:
            discard[owner].append(card)
    for (number, owner), side_cards in placed.items():
        stone = stones[number - 1]
        stones[number - 1] = stone.with_side(owner, Side(tuple(side_cards)))
    for number in range(2, 10):
        stone = stones[number - 1]
        for player in Player:
            side = stone.sides[player]
            if len(side.cards) == 3:
                stone = stone.with_side(player, Side(side.cards, 200 + number * 2 + player))
        stones[number - 1] = stone
    board = Board(variant, tuple(stones), (tuple(discard[0]), tuple(discard[1])))
    return board, 1


def _slot_for(slots: list[tuple[int, Player]], owner: Player) -> tuple[int, Player]:
    for i, (_, player) in enumerate(slots):
        if player is owner:
            return slots.pop(i)
    return slots.pop()
