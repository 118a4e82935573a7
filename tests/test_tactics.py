"""The tactic cards (RULES.md, Tactic cards): the count limit, the Joker rule, elite troops,
combat modes, the four ruses and their targets, and completion times after a ruse."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import partial

import pytest
from positions import OPPONENT, YOU, cards, refused, table
from positions import start as start_game

from schotten.board import Board, Side, Variant
from schotten.cards import CLAN_CARDS, ClanCard, Tactic
from schotten.errors import IllegalActionError
from schotten.game import Game, Phase
from schotten.moves import Banshee, Deck, Move, Pass, Play, Recruiter, Return, Strategist, Traitor
from schotten.rules import Rule
from schotten.tactics import (
    recruiter_pending,
    ruse_moves,
    take,
    verify_may_play_tactic,
    verify_recruiter,
    verify_ruse_target,
    with_mode,
)

start = partial(start_game, variant=Variant.TACTICAL)


def kinds(game: Game) -> set[type[Move]]:
    return {type(m) for m in game.legal_moves()}


# --- Count limit and the Joker --------------------------------------------------------------


def test_tactic_count_at_most_one_ahead() -> None:
    game = start({2: ("spy", "")}, ("joker, red 1", "mud-fight"))
    assert game.tactics_played(YOU) == 1
    error = refused(game, "play joker at 3")
    assert error.rule is Rule.TACTIC_COUNT
    assert "first has played 1 tactic cards and the opponent 0" in str(error)
    assert all(isinstance(m.card, ClanCard) for m in game.legal_moves() if isinstance(m, Play))
    game.apply("play red 1 at 3")
    game.apply("claim none")
    game.apply("draw clan")
    game.apply("play mud-fight at 5")  # the opponent catches up
    game.apply("claim none")
    game.apply("draw clan")
    assert Move.parse("play joker at 3") in game.legal_moves()


def test_tactic_count_discarded_ruses_still_count() -> None:
    game = start({}, ("shield-bearer, red 1", ""), discard=("traitor", ""))
    assert refused(game, "play shield-bearer at 1").rule is Rule.TACTIC_COUNT


def test_joker_once_per_player_the_other_stays_in_hand() -> None:
    game = start({1: ("joker", "spy")}, ("joker", ""))
    error = refused(game, "play joker at 2")
    assert error.rule is Rule.JOKER_ONCE
    assert game.legal_moves() == [Pass()]
    game.apply("pass")
    assert game.hand(YOU) == cards("joker")


def test_joker_once_a_discarded_joker_counts() -> None:
    # Your Joker was taken by the opponent's Banshee: it lies in your discard pile, still played.
    game = start({}, ("joker, red 1", ""), discard=("joker", "banshee"))
    assert refused(game, "play joker at 2").rule is Rule.JOKER_ONCE


# --- Elite troops ---------------------------------------------------------------------------


def test_elite_troop_goes_on_your_side_and_counts_toward_capacity() -> None:
    game = start({4: ("red 1, red 2", "")}, ("spy, shield-bearer", ""))
    game.apply("play spy at 4")
    assert game.board.stone(4).side(YOU).cards == cards("red 1, red 2, spy")
    assert game.board.stone(4).is_complete(YOU)
    assert game.tactics_played(YOU) == 1


def test_elite_troop_needs_room() -> None:
    game = start({4: ("red 1, red 2, red 3", "")}, ("joker", ""))
    assert refused(game, "play joker at 4").rule is Rule.PLAY_CAPACITY


def test_elite_troop_value_best_for_its_owner() -> None:
    game = start({4: ("red 9, red 7", "blue 1, green 2, yellow 4")}, ("joker", ""))
    game.apply("play joker at 4")
    assert game.provable_stones() == (4,)  # red 7-8-9 with the Joker as red 8
    game.apply("claim 4")
    assert game.board.stone(4).claimed_by is YOU


# --- Combat modes ---------------------------------------------------------------------------


def test_combat_mode_on_any_unclaimed_stone() -> None:
    game = start({3: ("red 1, red 2, red 3", "blue 1")}, ("mud-fight, blind-mans-bluff", ""))
    stones = {m.stone for m in game.legal_moves() if isinstance(m, Play)}
    assert stones == set(range(1, 10))
    game.apply("play blind-mans-bluff at 3")
    assert game.board.stone(3).blind_mans_bluff is YOU
    assert game.tactics_played(YOU) == 1


def test_combat_mode_not_on_a_claimed_stone() -> None:
    game = start({}, ("mud-fight", ""), claimed={6: OPPONENT})
    assert refused(game, "play mud-fight at 6").rule is Rule.CLAIM_CLOSED


def test_combat_mode_is_never_removed() -> None:
    game = start({4: ("", "red 1")}, ("banshee", ""), mud=frozenset({4}))
    error = refused(game, "play banshee: mud-fight at 4")
    assert error.rule is Rule.COMBAT_MODE
    game.apply("play banshee: red 1 at 4")
    assert game.board.stone(4).mud_fight is OPPONENT


def test_mud_fight_a_full_side_needs_a_fourth_card() -> None:
    # Two equal sums of 15; you completed first. Under Mud Fight both sides need a fourth card,
    # and the side that gets it first is now the one completed first.
    game = start(
        {4: ("red 1, orange 5, yellow 9", "blue 1, green 5, purple 9")},
        ("red 8, green 2", "mud-fight, red 2"),
        to_move=OPPONENT,
    )
    assert game.board.stone(4).completed_first() is YOU
    game.apply("play mud-fight at 4")
    stone = game.board.stone(4)
    assert stone.capacity == 4
    assert [s.completed_at for s in stone.sides] == [None, None]
    assert not stone.is_complete(YOU)
    game.apply("claim none")
    game.apply("draw clan")
    game.apply("play red 8 at 1")
    game.apply("claim none")
    game.apply("draw clan")
    game.apply("play red 2 at 4")  # the opponent's fourth card
    assert game.board.stone(4).side(OPPONENT).completed_at == game.step - 1
    game.apply("claim none")
    game.apply("draw clan")
    game.apply("play green 2 at 4")  # yours: an equal sum of 17, completed later
    assert game.board.stone(4).completed_first() is OPPONENT
    assert refused(game, "claim 4").rule is Rule.COMPLETED_FIRST
    assert game.provable_stones(OPPONENT) == (4,)


def test_mud_fight_capacity_four() -> None:
    game = start({4: ("red 1, red 2, red 3", "")}, ("red 4, red 5", "blue 1"), mud=frozenset({4}))
    assert not game.board.stone(4).is_complete(YOU)
    game.apply("play red 4 at 4")
    assert game.board.stone(4).is_complete(YOU)
    game.apply("claim none")
    game.apply("draw clan")
    game.apply("play blue 1 at 1")
    game.apply("claim none")
    game.apply("draw clan")
    assert refused(game, "play red 5 at 4").rule is Rule.PLAY_CAPACITY


def test_blind_mans_bluff_only_totals_count() -> None:
    # Your colour run 1-2-3 beats their sum of 24, until only totals count.
    game = start(
        {4: ("red 1, red 2, red 3", "blue 9, green 8, purple 7")},
        ("", "blind-mans-bluff"),
        to_move=OPPONENT,
    )
    assert game.provable_stones(YOU) == (4,)
    game.apply("play blind-mans-bluff at 4")
    assert game.provable_stones(OPPONENT) == (4,)
    assert game.provable_stones(YOU) == ()
    game.apply("claim 4")
    assert game.board.stone(4).claimed_by is OPPONENT


# --- Recruiter ------------------------------------------------------------------------------


def test_recruiter_draws_three_then_returns_two_to_their_decks() -> None:
    hand = "recruiter, red 1, red 2, red 3, red 4, red 5, red 6"
    game = start({}, (hand, ""))
    assert {str(m) for m in game.legal_moves() if isinstance(m, Recruiter)} == {
        "play recruiter: draw clan, clan, clan",
        "play recruiter: draw clan, clan, tactic",
        "play recruiter: draw clan, tactic, tactic",
        "play recruiter: draw tactic, tactic, tactic",
    }
    top_clan, top_tactic = game.deck(Deck.CLAN)[0], game.deck(Deck.TACTIC)[0]
    game.apply("play recruiter: draw tactic, clan, clan")
    assert game.phase is Phase.RETURN
    assert len(game.hand(YOU)) == 9
    assert top_clan in game.hand(YOU) and top_tactic in game.hand(YOU)
    assert all(isinstance(m, Return) and len(m.cards) == 2 for m in game.legal_moves())
    assert refused(game, "return red 1").rule is Rule.RECRUITER
    assert refused(game, "return red 1, purple 9").rule is Rule.RECRUITER
    game.apply(f"return red 1, {top_tactic}")
    assert game.deck(Deck.CLAN)[-1] == ClanCard.parse("red 1")
    assert game.deck(Deck.TACTIC)[-1] == top_tactic
    assert game.phase is Phase.CLAIM
    game.apply("claim none")
    # No normal draw after a Recruiter: the hand is back at its limit and the turn is over.
    assert (game.to_move, len(game.hand(YOU))) == (OPPONENT, 7)
    assert game.board.discard[YOU] == (Tactic.RECRUITER,)


def test_recruiter_draws_as_many_as_remain() -> None:
    board = table({}, variant=Variant.TACTICAL)
    hands = (cards("recruiter, red 1"), ())
    rest = [c for c in CLAN_CARDS if c not in hands[0]]
    deck = tuple(rest[:1])
    board = replace(board, discard=(tuple(rest[1:]), ()))
    tactic = tuple(t for t in dict.fromkeys(Tactic) if t is not Tactic.RECRUITER)[:1]
    others = [t for t in _every_tactic() if t is not Tactic.RECRUITER]
    others.remove(tactic[0])
    game = _with_tactics_out(board, hands, {Deck.CLAN: deck, Deck.TACTIC: tactic}, others)
    assert [str(m) for m in game.legal_moves() if isinstance(m, Recruiter)] == [
        "play recruiter: draw clan, tactic"
    ]
    assert refused(game, "play recruiter: draw clan, clan, tactic").rule is Rule.RECRUITER
    assert refused(game, "play recruiter: draw clan, clan").rule is Rule.RECRUITER


def test_recruiter_without_cards_to_draw_cannot_be_played() -> None:
    board = table({}, variant=Variant.TACTICAL)
    hands = (cards("recruiter, red 1"), ())
    rest = [c for c in CLAN_CARDS if c not in hands[0]]
    board = replace(board, discard=(tuple(rest), ()))
    others = [t for t in _every_tactic() if t is not Tactic.RECRUITER]
    game = _with_tactics_out(board, hands, {Deck.CLAN: (), Deck.TACTIC: ()}, others)
    assert refused(game, "play recruiter: draw clan").rule is Rule.RUSE_TARGET


def test_recruiter_returns_one_card_when_the_hand_holds_only_one() -> None:
    board = table({}, variant=Variant.TACTICAL)
    hands = (cards("recruiter"), ())
    board = replace(board, discard=(CLAN_CARDS[1:], ()))
    others = [t for t in _every_tactic() if t is not Tactic.RECRUITER]
    game = _with_tactics_out(board, hands, {Deck.CLAN: CLAN_CARDS[:1], Deck.TACTIC: ()}, others)
    game.apply("play recruiter: draw clan")
    assert game.hand(YOU) == CLAN_CARDS[:1]
    assert [str(m) for m in game.legal_moves()] == ["return red 1"]
    assert refused(game, "return red 1, red 1").rule is Rule.RECRUITER
    game.apply("return red 1")
    assert (game.hand(YOU), game.deck(Deck.CLAN)) == ((), CLAN_CARDS[:1])


def test_recruiter_never_returns_the_joker_its_player_must_keep() -> None:
    # You have played a Joker: the other one stays in your hand (rule joker-once), so it is not
    # one of the cards the Recruiter puts back, where the opponent could draw it.
    game = start({1: ("joker", "spy")}, ("joker, recruiter, red 1, red 2", ""))
    game.apply("play recruiter: draw clan, clan, clan")
    assert all(Tactic.JOKER not in m.cards for m in game.legal_moves() if isinstance(m, Return))
    assert Move.parse("return red 1, red 2") in game.legal_moves()
    error = refused(game, "return joker, red 1")
    assert error.rule is Rule.JOKER_ONCE
    assert "first has played a Joker" in str(error)
    game.apply("return red 1, red 2")
    assert Tactic.JOKER in game.hand(YOU)


def test_recruiter_returns_one_card_when_the_rest_is_a_joker_to_keep() -> None:
    # Every tactic card is out but your Joker and your Recruiter; one Clan card is left to draw.
    board = table(
        {1: ("joker", "spy")},
        variant=Variant.TACTICAL,
        discard=("strategist, banshee", "traitor, shield-bearer"),
    )
    board = board.with_stone(replace(board.stone(8), mud_fight=YOU))
    board = board.with_stone(replace(board.stone(9), blind_mans_bluff=OPPONENT))
    board = replace(
        board, discard=((*board.discard[YOU], *CLAN_CARDS[1:]), board.discard[OPPONENT])
    )
    game = Game.from_position(
        board, (cards("joker, recruiter"), ()), {Deck.CLAN: CLAN_CARDS[:1], Deck.TACTIC: ()}
    )
    game.apply("play recruiter: draw clan")
    assert [str(m) for m in game.legal_moves()] == ["return red 1"]
    assert refused(game, "return joker, red 1").rule is Rule.JOKER_ONCE
    assert refused(game, "return joker").rule is Rule.JOKER_ONCE
    game.apply("return red 1")
    assert game.hand(YOU) == (Tactic.JOKER,)


def _every_tactic() -> list[Tactic]:
    return [Tactic.JOKER, *Tactic]


def _with_tactics_out(
    board: Board,
    hands: tuple[tuple[ClanCard | Tactic, ...], ...],
    decks: Mapping[Deck, tuple[ClanCard | Tactic, ...]],
    tactics: list[Tactic],
) -> Game:
    """The game with ``tactics`` played: combat modes on stones 8 and 9, the rest discarded,
    shared so that you are one behind or level (you may play a tactic card)."""
    piles: tuple[list[ClanCard | Tactic], list[ClanCard | Tactic]] = ([], [])
    counts = [0, 0]
    for card in tactics:
        owner = OPPONENT if counts[OPPONENT] <= counts[YOU] else YOU
        if card is Tactic.JOKER and Tactic.JOKER in piles[owner]:
            owner = owner.other
        counts[owner] += 1
        if card is Tactic.MUD_FIGHT:
            board = board.with_stone(replace(board.stone(8), mud_fight=owner))
        elif card is Tactic.BLIND_MANS_BLUFF:
            board = board.with_stone(replace(board.stone(9), blind_mans_bluff=owner))
        else:
            piles[owner].append(card)
    discard = (
        (*board.discard[YOU], *piles[YOU]),
        (*board.discard[OPPONENT], *piles[OPPONENT]),
    )
    board = replace(board, discard=discard)
    return Game.from_position(board, hands, decks)


# --- Strategist -----------------------------------------------------------------------------


def test_strategist_moves_your_card_to_another_stone_with_room() -> None:
    game = start(
        {1: ("red 5, red 6", "blue 1"), 2: ("green 1, green 2, green 3", "")}, ("strategist", "")
    )
    assert refused(game, "play strategist: red 6 from 1 to 2").rule is Rule.PLAY_CAPACITY
    assert refused(game, "play strategist: red 6 from 1 to 1").rule is Rule.STRATEGIST
    assert refused(game, "play strategist: blue 1 from 1 to 3").rule is Rule.STRATEGIST
    game.apply("play strategist: red 6 from 1 to 3")
    assert game.board.stone(1).side(YOU).cards == cards("red 5")
    assert game.board.stone(3).side(YOU).cards == cards("red 6")
    assert game.board.discard[YOU] == (Tactic.STRATEGIST,)


def test_strategist_discards_your_card_face_up() -> None:
    game = start({1: ("red 5, red 6, red 7", "")}, ("strategist", ""))
    game.apply("play strategist: red 7 from 1 to discard")
    assert game.board.discard[YOU] == cards("red 7, strategist")
    side = game.board.stone(1).side(YOU)
    assert (side.cards, side.completed_at) == (cards("red 5, red 6"), None)


def test_strategist_moves_elite_troops_too() -> None:
    game = start({1: ("joker", "spy")}, ("strategist", "red 1"))
    moves = {str(m) for m in game.legal_moves() if isinstance(m, Strategist)}
    assert "play strategist: joker from 1 to 5" in moves
    assert not any("spy" in m for m in moves)
    game.apply("play strategist: joker from 1 to 5")
    assert game.board.stone(5).side(YOU).cards == (Tactic.JOKER,)


def test_strategist_not_from_a_claimed_stone() -> None:
    game = start(
        {1: ("red 5, red 6, red 7", ""), 2: ("red 1", "")}, ("strategist", ""), claimed={1: YOU}
    )
    assert refused(game, "play strategist: red 7 from 1 to 3").rule is Rule.CLAIM_CLOSED
    assert refused(game, "play strategist: red 1 from 2 to 1").rule is Rule.CLAIM_CLOSED
    game.apply("play strategist: red 1 from 2 to discard")


# --- Banshee --------------------------------------------------------------------------------


def test_banshee_discards_an_opponent_card_face_up() -> None:
    game = start({3: ("red 1", "blue 9, spy")}, ("banshee", "green 1"))
    assert refused(game, "play banshee: red 1 at 3").rule is Rule.BANSHEE
    assert {str(m) for m in game.legal_moves() if isinstance(m, Banshee)} == {
        "play banshee: blue 9 at 3",
        "play banshee: spy at 3",
    }
    game.apply("play banshee: spy at 3")
    assert game.board.stone(3).side(OPPONENT).cards == cards("blue 9")
    # The removed card goes under the player who had played it; the Banshee under yours.
    assert game.board.discard == ((Tactic.BANSHEE,), (Tactic.SPY,))
    assert (game.tactics_played(YOU), game.tactics_played(OPPONENT)) == (1, 1)


def test_banshee_not_on_a_claimed_stone() -> None:
    game = start({3: ("", "blue 9"), 4: ("", "blue 8")}, ("banshee", ""), claimed={3: OPPONENT})
    assert refused(game, "play banshee: blue 9 at 3").rule is Rule.CLAIM_CLOSED
    assert [str(m) for m in game.legal_moves() if isinstance(m, Banshee)] == [
        "play banshee: blue 8 at 4"
    ]


# --- Traitor --------------------------------------------------------------------------------


def test_traitor_takes_clan_cards_only() -> None:
    game = start({3: ("", "joker, blue 9")}, ("traitor", ""))
    assert refused(game, "play traitor: joker from 3 to 4").rule is Rule.TRAITOR
    assert all(
        m.card == ClanCard.parse("blue 9") for m in game.legal_moves() if isinstance(m, Traitor)
    )


def test_traitor_moves_an_opponent_clan_card_to_your_side() -> None:
    game = start({3: ("red 1", "blue 9, blue 8, blue 7")}, ("traitor", ""))
    game.apply("play traitor: blue 9 from 3 to 5")
    assert game.board.stone(3).side(OPPONENT).cards == cards("blue 8, blue 7")
    assert game.board.stone(3).side(OPPONENT).completed_at is None
    assert game.board.stone(5).side(YOU).cards == cards("blue 9")
    assert game.board.discard[YOU] == (Tactic.TRAITOR,)


def test_traitor_same_stone_allowed() -> None:
    game = start({3: ("red 1, red 2", "red 3")}, ("traitor", ""))
    game.apply("play traitor: red 3 from 3 to 3")
    stone = game.board.stone(3)
    assert stone.side(YOU).cards == cards("red 1, red 2, red 3")
    assert stone.side(YOU).completed_at == game.step - 1


def test_traitor_needs_room_and_open_stones() -> None:
    game = start(
        {3: ("red 1, red 2, red 3", "blue 9"), 4: ("", "blue 8")},
        ("traitor", ""),
        claimed={4: OPPONENT},
    )
    assert refused(game, "play traitor: blue 9 from 3 to 3").rule is Rule.PLAY_CAPACITY
    assert refused(game, "play traitor: blue 8 from 4 to 5").rule is Rule.CLAIM_CLOSED
    assert refused(game, "play traitor: blue 9 from 3 to 4").rule is Rule.CLAIM_CLOSED
    game.apply("play traitor: blue 9 from 3 to 5")


# --- Ruses without a target ------------------------------------------------------------------


def test_ruse_with_no_legal_target_cannot_be_played() -> None:
    # The opponent has no card on an open stone: neither the Banshee nor the Traitor has a target.
    game = start({2: ("red 1", "blue 1")}, ("banshee, traitor", ""), claimed={2: OPPONENT})
    assert refused(game, "play banshee: blue 1 at 2").rule is Rule.RUSE_TARGET
    assert refused(game, "play traitor: blue 1 from 2 to 3").rule is Rule.RUSE_TARGET
    assert game.legal_moves() == [Pass()]


def test_ruse_strategist_needs_a_card_of_yours() -> None:
    game = start({2: ("", "blue 1")}, ("strategist", ""))
    assert refused(game, "play strategist: blue 1 from 2 to 3").rule is Rule.RUSE_TARGET
    assert kinds(game) == {Pass}


# --- Completion order after a ruse (site ruling completed-first) -----------------------------


def test_completed_first_a_side_completed_again_takes_the_new_time() -> None:
    # Equal runs 4-5-6; you completed first. The Banshee takes your blue 6: when you complete
    # again, the opponent's side is the one completed first.
    game = start(
        {5: ("red 4, red 5, blue 6", "yellow 4, orange 5, purple 6")},
        ("green 6", "banshee"),
        to_move=OPPONENT,
    )
    assert game.provable_stones(YOU) == (5,)
    game.apply("play banshee: blue 6 at 5")
    assert game.provable_stones(OPPONENT) == ()  # red 3 or red 6 would give you a colour run
    game.apply("claim none")
    game.apply("draw clan")
    game.apply("play green 6 at 5")
    assert game.board.stone(5).completed_first() is OPPONENT
    assert refused(game, "claim 5").rule is Rule.COMPLETED_FIRST
    assert game.provable_stones(OPPONENT) == (5,)


# --- The rules of the tactic cards as functions of the table (schotten.tactics) ---------------


def test_tactic_count_from_the_counts_alone() -> None:
    verify_may_play_tactic(Tactic.SPY, YOU, (1, 1), joker_played=False)
    verify_may_play_tactic(Tactic.SPY, YOU, (0, 1), joker_played=False)  # behind
    with pytest.raises(IllegalActionError) as ahead:
        verify_may_play_tactic(Tactic.SPY, OPPONENT, (0, 1), joker_played=False)
    assert ahead.value.rule is Rule.TACTIC_COUNT


def test_joker_once_from_the_counts_alone() -> None:
    verify_may_play_tactic(Tactic.SPY, YOU, (1, 1), joker_played=True)
    with pytest.raises(IllegalActionError) as second_joker:
        verify_may_play_tactic(Tactic.JOKER, YOU, (1, 1), joker_played=True)
    assert second_joker.value.rule is Rule.JOKER_ONCE


def test_mud_fight_makes_a_side_of_three_incomplete_again_rule_combat_mode() -> None:
    board = table({4: ("red 1, red 2, red 3", "blue 1")}, variant=Variant.TACTICAL)
    assert board.stone(4).side(YOU).completed_at is not None
    stone = with_mode(board.stone(4), Tactic.MUD_FIGHT, OPPONENT)
    assert (stone.mud_fight, stone.capacity) == (OPPONENT, 4)
    assert stone.side(YOU) == Side(cards("red 1, red 2, red 3"), None)
    bluff = with_mode(board.stone(4), Tactic.BLIND_MANS_BLUFF, YOU)
    assert bluff.side(YOU) == board.stone(4).side(YOU)  # still complete, at the same step


def test_a_card_taken_off_a_side_clears_its_completion_rule_completed_first() -> None:
    board = table({2: ("red 4, red 5, red 6", "")}, variant=Variant.TACTICAL)
    taken = take(board, YOU, 2, ClanCard.parse("red 5"))
    assert taken.stone(2).side(YOU) == Side(cards("red 4, red 6"), None)


def test_recruiter_draws_three_cards_or_all_that_remain_rule_recruiter() -> None:
    clan, tactic = Deck.CLAN, Deck.TACTIC
    verify_recruiter({clan: 5, tactic: 0}, Recruiter((clan, clan, clan)))
    verify_recruiter({clan: 1, tactic: 1}, Recruiter((clan, tactic)))
    with pytest.raises(IllegalActionError, match=r"\(2 left\): 2, not 3"):
        verify_recruiter({clan: 1, tactic: 1}, Recruiter((clan, tactic, tactic)))
    with pytest.raises(IllegalActionError, match="the tactic deck holds 1 cards: 2 cannot be"):
        verify_recruiter({clan: 4, tactic: 1}, Recruiter((clan, tactic, tactic)))
    # Two Clan cards and five tactic cards left: three ways to draw three.
    moves = ruse_moves(
        Board.empty(Variant.TACTICAL),
        YOU,
        Tactic.RECRUITER,
        [],
        {
            clan: 2,
            tactic: 5,
        },
    )
    assert [m.decks for m in moves] == [  # type: ignore[attr-defined]
        (clan, clan, tactic),
        (clan, tactic, tactic),
        (tactic, tactic, tactic),
    ]


def test_a_ruse_with_no_target_cannot_be_played_rule_ruse_target() -> None:
    empty = Board.empty(Variant.TACTICAL)
    with pytest.raises(IllegalActionError) as no_target:
        verify_ruse_target(empty, YOU, Tactic.BANSHEE, room=[1], decks={})
    assert no_target.value.rule is Rule.RUSE_TARGET
    assert "the Banshee has no legal target" in str(no_target.value)
    board = table({3: ("", "red 9")}, variant=Variant.TACTICAL)
    verify_ruse_target(board, YOU, Tactic.BANSHEE, room=[], decks={})


def test_recruiter_pending_only_after_the_recruiter_was_played_rule_recruiter() -> None:
    assert recruiter_pending(Board.empty(Variant.BASE), YOU) == ("the base game has no Recruiter")
    tactical = Board.empty(Variant.TACTICAL)
    assert "not in first's discard pile" in str(recruiter_pending(tactical, YOU))
    played = tactical.discard_card(YOU, Tactic.RECRUITER)
    assert recruiter_pending(played, YOU) is None
    assert recruiter_pending(played, OPPONENT) is not None
