"""The computer player (schotten.bot) and the players it is measured against: a legal move at
every step of random games of both variants, whole games to their end, the same move for the
same seed and view, no peeking at the opponent's hand or the decks, every provable stone claimed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from schotten.board import Player, Variant
from schotten.bot import View, _Judge, choose_move, legal_moves, side_rank
from schotten.bot_bench import play_game
from schotten.cards import Card, ClanCard, Tactic, parse_cards
from schotten.completion import best_completion, pool_mask
from schotten.game import Game, Phase
from schotten.moves import Claim, Deck, Move
from schotten.players import greedy_player, random_player
from schotten.records import play_random

VARIANTS = tuple(Variant)
Chooser = Callable[..., Move]


def positions(variant: Variant, seeds: range, every: int) -> Iterator[Game]:
    """Copies of the positions met in random games (every ``every``-th move), the game not over."""
    for seed in seeds:
        met: list[Game] = []

        def keep(game: Game, met: list[Game] = met, phase: int = seed % every) -> None:
            if game.outcome is None and len(game.history) % every == phase:
                met.append(game.copy())

        play_random(seed, variant, watch=keep)
        yield from met


def shuffled(game: Game, rng: random.Random) -> Game:
    """The same position for the player to move, the unseen cards dealt anew: the opponent's
    hand and the decks shuffled together (Clan cards among Clan places, tactic cards among
    tactic places: the backs of the cards tell them apart)."""
    me = game.to_move
    theirs = game.hand(me.other)
    clan_deck, tactic_deck = game.deck(Deck.CLAN), game.deck(Deck.TACTIC)
    clan = [c for c in theirs if isinstance(c, ClanCard)] + list(clan_deck)
    tactic = [c for c in theirs if isinstance(c, Tactic)] + list(tactic_deck)
    rng.shuffle(clan)
    rng.shuffle(tactic)
    held_clan = len(clan) - len(clan_deck)
    held_tactic = len(tactic) - len(tactic_deck)
    hand: list[Card] = [*clan[:held_clan], *tactic[:held_tactic]]
    hands = [list(game.hand(me)), hand] if me is Player.FIRST else [hand, list(game.hand(me))]
    decks = {Deck.CLAN: clan[held_clan:], Deck.TACTIC: tactic[held_tactic:]}
    return Game.from_position(
        game.board,
        hands,
        decks,
        to_move=me,
        phase=game.phase,
        step=game.step,
        recruited=game.recruited,
    )


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_legal_move_at_every_step_of_random_games(variant: Variant) -> None:
    phases = set()
    for game in positions(variant, range(4), every=4):
        move = choose_move(game, seed=len(game.history))
        assert move in game.legal_moves(), (str(game), str(move))
        phases.add(game.phase)
    assert {Phase.PLAY, Phase.CLAIM, Phase.DRAW} <= phases


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("opponent", [choose_move, random_player, greedy_player])
def test_whole_games_reach_their_end(variant: Variant, opponent: Chooser) -> None:
    for deal in range(2):
        for first, second in ((choose_move, opponent), (opponent, choose_move)):
            game = Game(variant, seed=deal)
            while game.outcome is None:
                assert len(game.history) < 2000
                mover = first if game.to_move is Player.FIRST else second
                move = mover(game, seed=deal + len(game.history))
                assert move in game.legal_moves(), (str(game), str(move))
                game.push(move)
            assert game.outcome is not None


def test_it_plays_a_tactic_card_rather_than_pass_when_nothing_can_be_drawn() -> None:
    # On this deal the computer once passed for ever, a tactic card in hand, the decks empty,
    # against an opponent left with nothing to play: the game never ended.
    for first, second in ((choose_move, random_player), (random_player, choose_move)):
        game = play_game(Variant.TACTICAL, 1011, first, second)
        assert game.outcome is not None


def test_the_return_step_returns_cards_of_the_hand() -> None:
    met = 0
    for game in positions(Variant.TACTICAL, range(40), every=1):
        if game.phase is Phase.RETURN:
            met += 1
            assert choose_move(game, seed=met) in game.legal_moves()
    assert met > 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_same_seed_and_view_give_the_same_move(variant: Variant) -> None:
    for game in positions(variant, range(3), every=5):
        if game.phase is Phase.PLAY:
            move = choose_move(game, seed=7)
            assert choose_move(game.copy(), seed=7) == move
            assert choose_move(game, seed=7) == move


class _Fresh(_Judge):
    """A judge that ranks every side anew, where the computer's keeps each side's ranks."""

    def opponent_ranks(self, side: tuple[Card, ...], size: int, totals: bool) -> list[int]:
        return [side_rank(side, size, totals, theirs) for _, theirs in self.samples]

    def my_ranks(
        self, mine: tuple[Card, ...], size: int, totals: bool, hand_mask: int | None
    ) -> list[int]:
        return [
            side_rank(mine, size, totals, draws if hand_mask is None else draws | hand_mask)
            for draws, _ in self.samples
        ]


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_move_is_worth_what_ranking_each_side_anew_gives(variant: Variant) -> None:
    weighed = 0
    changed_sides = set()
    for game in positions(variant, range(4), every=4):
        if game.phase is not Phase.PLAY:
            continue
        view = View.of(game)
        kept, fresh = _Judge(view, random.Random(5)), _Fresh(view, random.Random(5))
        for move in legal_moves(game):
            assert kept.value(game, move) == fresh.value(game, move), (str(game), str(move))
            weighed += 1
        changed_sides |= {(s.capacity, s.totals_only) for s in game.board.stones}
    assert weighed > 100
    if variant is Variant.TACTICAL:  # sides of four cards and totals alone were weighed too
        assert {(4, False), (3, True)} <= changed_sides, changed_sides


@pytest.mark.parametrize("variant", VARIANTS)
def test_no_peeking_the_move_is_the_same_whatever_the_unseen_cards(variant: Variant) -> None:
    rng = random.Random(f"no peeking {variant}")
    checked = changed = 0
    for game in positions(variant, range(8), every=4):
        seed = rng.randrange(1 << 30)
        move = choose_move(game, seed=seed)
        for _ in range(2):
            other = shuffled(game, rng)
            me = game.to_move
            assert other.hand(me) == game.hand(me) and other.board == game.board
            changed += sorted(map(str, other.hand(me.other))) != sorted(
                map(str, game.hand(me.other))
            )
            assert choose_move(other, seed=seed) == move, str(game)
            checked += 1
    # The test would catch a player that reads the opponent's hand: the hands did change.
    assert checked > 100 and changed > checked // 2


def test_the_view_holds_neither_the_opponents_hand_nor_the_decks() -> None:
    game = Game(Variant.TACTICAL, seed=3)
    view = View.of(game)
    assert view.hand == game.hand(Player.FIRST)
    assert view.opponent_hand == len(game.hand(Player.SECOND))
    assert view.decks == (len(game.deck(Deck.CLAN)), len(game.deck(Deck.TACTIC)))
    hidden = set(game.hand(Player.SECOND)) | set(game.deck(Deck.CLAN))
    held = {value for value in vars(view).values() if isinstance(value, ClanCard)}
    assert not held & hidden
    with pytest.raises(AttributeError):
        view.hand = ()  # type: ignore[misc]


@pytest.mark.parametrize("variant", VARIANTS)
def test_it_claims_every_provable_stone_at_the_claim_step(variant: Variant) -> None:
    proved = 0
    for game in positions(variant, range(10), every=1):
        if game.phase is Phase.CLAIM:
            provable = game.provable_stones()
            assert choose_move(game, seed=1) == Claim(provable)
            proved += bool(provable)
    assert proved > 0


@pytest.mark.parametrize(
    ("side", "size", "totals"),
    [
        ([], 3, False),
        (["red 7"], 3, False),
        (["red 7", "red 8"], 3, False),
        (["blue 3", "green 3"], 3, False),
        (["blue 3", "green 5"], 3, False),
        (["yellow 9", "yellow 1"], 3, False),
        (["red 1", "red 2", "red 3"], 3, False),
        (["red 4", "blue 9"], 4, False),
        (["red 4", "blue 9"], 3, True),
        (["joker", "red 8"], 3, False),
    ],
)
def test_side_rank_is_the_engines_strongest_finish(
    side: list[str], size: int, totals: bool
) -> None:
    rng = random.Random(str(side))
    placed = parse_cards(side)
    for _ in range(30):
        pool = [c for c in rng.sample(list(_clan()), 12) if c not in placed]
        mask = pool_mask(pool)
        best = best_completion(placed, size, totals_only=totals, pool=mask)
        expected = -1 if best is None else best.formation.kind * 64 + best.formation.total
        assert side_rank(placed, size, totals, mask) == expected


def _clan() -> tuple[ClanCard, ...]:
    from schotten.cards import CLAN_CARDS

    return CLAN_CARDS
