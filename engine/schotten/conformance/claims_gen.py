"""Generated claim positions: random tables shaped so that every reason and rule of claims occurs.

Each position comes from its own seed (``claims <index>``), so any vector can be made again alone.
A recipe picks the variant, the stones claimed together, the combat modes, the elite troops on
the sides, ties with an order of completion, claimed stones, and cards seen elsewhere; the table
is kept only when it could occur in a game (``check_table``, nobody has won yet, a Joker per
player) and a game reaches it (``reach_problems``: claims that could be proven, cards put into
play in numbers alternate turns give).

>>> position = claim_position(3)
>>> position.board.variant, position.claimer, position.stones
(<Variant.TACTICAL: 'tactical'>, <Player.FIRST: 0>, (1,))
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass, replace

from schotten.board import Board, Player, Side, Stone, Variant
from schotten.cards import CLAN_CARDS, Card, ClanCard, Colour, Tactic
from schotten.errors import InvalidPositionError
from schotten.outcome import winning_condition
from schotten.position import check_table, reach_problems

ELITE_TROOPS = (Tactic.JOKER, Tactic.JOKER, Tactic.SPY, Tactic.SHIELD_BEARER)
RUSES = (Tactic.RECRUITER, Tactic.STRATEGIST, Tactic.BANSHEE, Tactic.TRAITOR)


@dataclass(frozen=True)
class ClaimPosition:
    board: Board
    claimer: Player
    stones: tuple[int, ...]
    hand: tuple[Card, ...]  # cards known to be in the claimer's hand: never proof


def claim_position(index: int) -> ClaimPosition:
    """The generated claim position number ``index`` (the same for the same index, always)."""
    rng = random.Random(f"claims {index}")
    variant = Variant.TACTICAL if index % 2 else Variant.BASE
    while True:
        position = _attempt(rng, variant)
        if position is not None:
            return position


class _Cards:
    """The cards not yet on the table, drawn at random or by name."""

    def __init__(self, rng: random.Random, variant: Variant) -> None:
        self.rng = rng
        self.left: list[Card] = list(CLAN_CARDS)
        if variant is Variant.TACTICAL:
            self.left += ELITE_TROOPS
        rng.shuffle(self.left)

    def clan(self) -> ClanCard:
        for i, card in enumerate(self.left):
            if isinstance(card, ClanCard):
                return self.left.pop(i)  # type: ignore[return-value]
        raise IndexError("no Clan card left")

    def any(self) -> Card:
        return self.left.pop()

    def named(self, card: Card) -> bool:
        if card in self.left:
            self.left.remove(card)
            return True
        return False

    def elite(self) -> Tactic | None:
        troops = [c for c in self.left if isinstance(c, Tactic)]
        if not troops:
            return None
        troop = self.rng.choice(troops)
        self.left.remove(troop)
        return troop


def _attempt(rng: random.Random, variant: Variant) -> ClaimPosition | None:
    tactical = variant is Variant.TACTICAL
    cards = _Cards(rng, variant)
    claimer = Player(rng.randrange(2))
    count = rng.choices((1, 2, 3), weights=(70, 20, 10))[0]
    targets = sorted(rng.sample(range(1, 10), count))
    stones = {n: Stone(n) for n in range(1, 10)}
    clock = itertools.count(rng.randrange(5, 40), rng.randrange(1, 4))
    modes: dict[int, tuple[bool, bool]] = {}
    for n in targets:
        mud = tactical and rng.random() < 0.25
        bluff = tactical and rng.random() < 0.25
        modes[n] = (mud, bluff)
        stones[n] = _target(rng, cards, stones[n], claimer, mud, bluff, clock)
    others = [n for n in range(1, 10) if n not in targets]
    rng.shuffle(others)
    # Half the tables are lean (the claimed stones only); the others add cards seen elsewhere,
    # often the very cards the opponent would need, and cards known in the claimer's hand.
    lean = rng.random() < 0.5
    for n in others[: 0 if lean else rng.choice((0, 1, 1, 2))]:
        stones[n] = _elsewhere(rng, cards, stones[n], clock)
    wanted = [] if lean else _wanted(stones, targets, claimer.other)
    hand: list[Card] = []
    for want in wanted:
        if rng.random() < 0.15 and cards.named(want):
            n = rng.choice(others[:2])
            player = Player(rng.randrange(2))
            side = stones[n].sides[player]
            if len(side.cards) < 2 and stones[n].claimed_by is None:
                stones[n] = stones[n].with_side(player, Side((*side.cards, want)))
            else:
                hand.append(want)
        elif rng.random() < 0.08 and cards.named(want):
            hand.append(want)
    board = Board(variant, tuple(stones[n] for n in range(1, 10)))
    if tactical:
        for _ in range(rng.choice((0, 0, 1, 2, 3))):
            owner = Player(rng.randrange(2))
            card: Card = rng.choice(RUSES) if rng.random() < 0.6 else cards.any()
            if card in board.visible() or (not isinstance(card, Tactic) and rng.random() < 0.5):
                continue
            board = board.discard_card(owner, card)
    board = _mode_owners(rng, board, modes)
    if board.variant is Variant.BASE and any(board.discard):
        return None
    try:
        check_table(board)
    except InvalidPositionError:
        return None
    if any(winning_condition(board, p) for p in Player):
        return None
    reached = _reachable(cards, board, targets, others)
    if reached is None:
        return None
    board = reached
    size = board.variant.hand_size
    return ClaimPosition(board, claimer, tuple(targets), tuple(hand[:size]))


def _reachable(cards: _Cards, board: Board, targets: list[int], others: list[int]) -> Board | None:
    """The table made one that a game reaches (:func:`~schotten.position.reach_problems`, the
    check the casebook runs), or ``None``. A stone claimed by the player whose side loses (or
    ties, completed later) is given to the other one, who could prove it; a player far behind in
    cards put into play gets Clan cards on other stones (never completing a side), as the turns
    they played. Tables already reachable are kept as they are."""
    for _ in range(2 * len(CLAN_CARDS)):
        problem = next(reach_problems(board), None)
        if problem is None:
            return None if any(winning_condition(board, p) for p in Player) else board
        if problem.code == "claim-unproven" and problem.stone is not None:
            stone = board.stone(problem.stone)
            assert stone.claimed_by is not None
            board = board.with_stone(replace(stone, claimed_by=stone.claimed_by.other))
        elif problem.code == "card-count" and problem.player is not None:
            room = [
                n
                for n in others
                if n not in targets
                and board.stone(n).claimed_by is None
                and len(board.stone(n).sides[problem.player].cards) < board.stone(n).capacity - 1
            ]
            if not room:
                return None
            stone = board.stone(room[0])
            side = stone.sides[problem.player]
            board = board.with_stone(
                stone.with_side(problem.player, Side((*side.cards, cards.clan())))
            )
        else:
            return None
    return None


def _wanted(stones: dict[int, Stone], targets: list[int], opponent: Player) -> list[Card]:
    """Clan cards the opponent's sides of the claimed stones would like: their values in other
    colours, their colours one or two values away. Where such a card lies decides proofs."""
    wanted: list[Card] = []
    for n in targets:
        for card in stones[n].sides[opponent].cards:
            if isinstance(card, ClanCard):
                wanted += [ClanCard(c, card.value) for c in Colour if c != card.colour]
                wanted += [
                    ClanCard(card.colour, v)
                    for v in (card.value - 2, card.value - 1, card.value + 1, card.value + 2)
                    if 1 <= v <= 9
                ]
    return sorted(set(wanted), key=wanted.index)


def _mode_owners(rng: random.Random, board: Board, modes: dict[int, tuple[bool, bool]]) -> Board:
    for n, (mud, bluff) in modes.items():
        stone = board.stone(n)
        if mud or bluff:
            board = board.with_stone(
                replace(
                    stone,
                    mud_fight=Player(rng.randrange(2)) if mud else None,
                    blind_mans_bluff=Player(rng.randrange(2)) if bluff else None,
                )
            )
    return board


def _target(
    rng: random.Random,
    cards: _Cards,
    stone: Stone,
    claimer: Player,
    mud: bool,
    bluff: bool,
    clock: Iterator[int],
) -> Stone:
    """A stone that is claimed: the claimer's side (usually complete) and the opponent's."""
    size = 4 if mud else 3
    opponent = claimer.other
    mine = _side_cards(rng, cards, size if rng.random() < 0.88 else rng.randrange(size))
    shape = rng.choices(("empty", "partial", "full", "tie"), weights=(10, 40, 30, 20))[0]
    if shape == "tie" and len(mine) == size and all(isinstance(c, ClanCard) for c in mine):
        theirs = _tie_of(rng, cards, mine)  # type: ignore[arg-type]
    else:
        n = {"empty": 0, "partial": rng.randrange(1, size), "full": size, "tie": size}[shape]
        theirs = _side_cards(rng, cards, n)
    times = [next(clock) if len(side) == size else None for side in (mine, theirs)]
    if times[0] is not None and times[1] is not None and rng.random() < 0.5:
        times.reverse()
    sides = {claimer: Side(mine, times[0]), opponent: Side(theirs, times[1])}
    stone = replace(stone, sides=(sides[Player.FIRST], sides[Player.SECOND]))
    if rng.random() < 0.07:
        taker = Player(rng.randrange(2))
        if stone.sides[taker].completed_at is None:
            stone = Stone(stone.number)  # a stone taken with its cards unlisted
        stone = replace(stone, claimed_by=taker)
    return stone


def _side_cards(rng: random.Random, cards: _Cards, n: int) -> tuple[Card, ...]:
    side: list[Card] = []
    if n and rng.random() < 0.25:
        troop = cards.elite()
        if troop is not None:
            side.append(troop)
    while len(side) < n:
        side.append(_shaped_card(rng, cards, side))
    rng.shuffle(side)
    return tuple(side)


def _shaped_card(rng: random.Random, cards: _Cards, side: list[Card]) -> Card:
    """A Clan card, often one that builds a formation with the side (a run, a colour, a value)."""
    clan = [c for c in side if isinstance(c, ClanCard)]
    if clan and rng.random() < 0.6:
        base = rng.choice(clan)
        wanted = [
            ClanCard(base.colour, v)
            for v in (base.value - 2, base.value - 1, base.value + 1, base.value + 2)
            if 1 <= v <= 9
        ]
        wanted += [ClanCard(c, base.value) for c in Colour if c != base.colour]
        wanted += [ClanCard(base.colour, v) for v in range(1, 10)]
        rng.shuffle(wanted)
        for card in wanted:
            if cards.named(card):
                return card
    return cards.clan()


def _tie_of(rng: random.Random, cards: _Cards, mine: tuple[ClanCard, ...]) -> tuple[Card, ...]:
    """The same values with the colours renamed: the same formation, the same total."""
    for _ in range(10):
        colours = list(Colour)
        rng.shuffle(colours)
        theirs = tuple(ClanCard(colours[c.colour], c.value) for c in mine)
        if all(c in cards.left for c in theirs) and len(set(theirs)) == len(theirs):
            for card in theirs:
                cards.named(card)
            return theirs
    return _side_cards(rng, cards, len(mine))


def _elsewhere(rng: random.Random, cards: _Cards, stone: Stone, clock: Iterator[int]) -> Stone:
    """Another stone: a few cards on each side, sometimes complete, sometimes taken."""
    sides = []
    for _ in Player:
        n = rng.choice((0, 1, 1, 2, 3))
        side = tuple(cards.any() if rng.random() < 0.1 else cards.clan() for _ in range(n))
        sides.append(Side(side, next(clock) if n == 3 else None))
    stone = replace(stone, sides=(sides[0], sides[1]))
    takers = [p for p in Player if stone.is_complete(p)]
    if takers and rng.random() < 0.3:
        stone = replace(stone, claimed_by=rng.choice(takers))
    return stone


def features(position: ClaimPosition) -> list[str]:
    """What a position exercises, in words, for the vector's line of prose."""
    board = position.board
    words = []
    visible = list(board.visible())
    wild_unseen = [t for t in (Tactic.JOKER, Tactic.SPY, Tactic.SHIELD_BEARER) if t not in visible]
    if board.variant is Variant.TACTICAL and wild_unseen:
        words.append("wild pool")
    if any(s.claimed_by is not None for s in board.stones):
        words.append("claimed stones")
    if any(board.discard):
        words.append("discards")
    return words
