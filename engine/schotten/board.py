"""The table: nine stones with both sides, combat modes, claims, and the discard pile.

A :class:`Board` is everything a claim proof may look at: what is face up. Hands and decks are
unseen and live in :mod:`schotten.game`.

>>> board = Board.empty(Variant.BASE).place(Player.FIRST, 4, parse_card("red 7"), at=1)
>>> board.stone(4).side(Player.FIRST).cards
(ClanCard.parse('red 7'),)
>>> board.stone(4).capacity
3
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass, replace

from schotten.cards import CLAN_CARDS, Card, ClanCard, Tactic, TacticKind, parse_card  # noqa: F401
from schotten.errors import InvalidPositionError

STONES = range(1, 10)


class Player(enum.IntEnum):
    FIRST = 0
    SECOND = 1

    @property
    def other(self) -> Player:
        return _PLAYERS[1 - self]  # not Player(1 - self): an enum call is slow, and this is hot

    def __str__(self) -> str:
        return self.name.lower()


_PLAYERS = (Player.FIRST, Player.SECOND)


class Variant(enum.StrEnum):
    BASE = "base"
    TACTICAL = "tactical"

    @property
    def hand_size(self) -> int:
        return 7 if self is Variant.TACTICAL else 6


@dataclass(frozen=True)
class Side:
    """One player's cards at one stone, in the order placed.

    ``completed_at`` is the step at which the side last reached its required count (site ruling
    ``completed-first``); ``None`` while it is incomplete.
    """

    cards: tuple[Card, ...] = ()
    completed_at: int | None = None


@dataclass(frozen=True)
class Stone:
    number: int
    sides: tuple[Side, Side] = (Side(), Side())
    claimed_by: Player | None = None
    mud_fight: Player | None = None  # who played it; it affects both sides
    blind_mans_bluff: Player | None = None

    def side(self, player: Player) -> Side:
        return self.sides[player]

    @property
    def capacity(self) -> int:
        """Cards a side needs to be complete: 3, or 4 under Mud Fight."""
        return 4 if self.mud_fight is not None else 3

    @property
    def totals_only(self) -> bool:
        return self.blind_mans_bluff is not None

    def is_complete(self, player: Player) -> bool:
        return len(self.sides[player].cards) >= self.capacity

    def has_room(self, player: Player) -> bool:
        return self.claimed_by is None and len(self.sides[player].cards) < self.capacity

    def completed_first(self) -> Player | None:
        """The player whose complete side reached its count earlier (both must be complete)."""
        a, b = (s.completed_at for s in self.sides)
        if a is None or b is None or a == b:
            return None
        return Player.FIRST if a < b else Player.SECOND

    def with_side(self, player: Player, side: Side) -> Stone:
        sides = (side, self.sides[1]) if player is Player.FIRST else (self.sides[0], side)
        # The constructor, not dataclasses.replace, which is several times slower: a search
        # places a card at every other node.
        return Stone(self.number, sides, self.claimed_by, self.mud_fight, self.blind_mans_bluff)


@dataclass(frozen=True)
class Board:
    variant: Variant
    stones: tuple[Stone, ...]
    # The face-up discard pile, by the player who had played each card.
    discard: tuple[tuple[Card, ...], tuple[Card, ...]] = ((), ())

    @classmethod
    def empty(cls, variant: Variant) -> Board:
        return cls(variant, tuple(Stone(n) for n in STONES))

    def stone(self, number: int) -> Stone:
        if number not in STONES:
            raise InvalidPositionError(f"there is no stone {number}: stones are numbered 1 to 9")
        return self.stones[number - 1]

    def with_stone(self, stone: Stone) -> Board:
        i = stone.number - 1
        stones = (*self.stones[:i], stone, *self.stones[i + 1 :])
        return Board(self.variant, stones, self.discard)

    def place(self, player: Player, number: int, card: Card, *, at: int) -> Board:
        """Put a card on a side (no legality check: the game does that); ``at`` is the step."""
        stone = self.stone(number)
        side = stone.sides[player]
        cards = (*side.cards, card)
        completed_at = side.completed_at
        if completed_at is None and len(cards) >= stone.capacity:
            completed_at = at
        return self.with_stone(stone.with_side(player, Side(cards, completed_at)))

    def discard_card(self, player: Player, card: Card) -> Board:
        piles = list(self.discard)
        piles[player] = (*piles[player], card)
        return replace(self, discard=(piles[0], piles[1]))

    def placed(self) -> Iterator[tuple[Player, Card]]:
        """Every card at a stone, with the player whose side it is on."""
        for stone in self.stones:
            for player, side in zip(_PLAYERS, stone.sides, strict=True):
                for card in side.cards:
                    yield player, card

    def visible(self) -> Iterator[Card]:
        """Every card face up: at the stones (combat modes too) and in the discard pile."""
        for _, card in self.placed():
            yield card
        for stone in self.stones:
            if stone.mud_fight is not None:
                yield Tactic.MUD_FIGHT
            if stone.blind_mans_bluff is not None:
                yield Tactic.BLIND_MANS_BLUFF
        for pile in self.discard:
            yield from pile

    def tactics_played(self, player: Player) -> int:
        """Tactic cards this player has put into play (discarded ones still count)."""
        count = sum(1 for p, c in self.placed() if p is player and isinstance(c, Tactic))
        count += sum(
            1 for s in self.stones for mode in (s.mud_fight, s.blind_mans_bluff) if mode is player
        )
        return count + sum(1 for c in self.discard[player] if isinstance(c, Tactic))

    def has_played_joker(self, player: Player) -> bool:
        on_table = any(p is player and c is Tactic.JOKER for p, c in self.placed())
        return on_table or Tactic.JOKER in self.discard[player]

    def stones_held(self, player: Player) -> tuple[int, ...]:
        return tuple(s.number for s in self.stones if s.claimed_by is player)
