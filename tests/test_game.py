"""The game (RULES.md, Set-up and turn, Claims, End of the game): deal, steps, pass, capacity,
claims, the end, the deadlock closing, positions as data, matches."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest
from positions import OPPONENT, YOU, cards, refused, start, table

from schotten.board import Board, Player, Side, Variant
from schotten.cards import CLAN_CARDS, TACTIC_CARDS, Card, ClanCard, Tactic
from schotten.claims import Reason
from schotten.errors import InvalidNotationError, InvalidPositionError
from schotten.game import Game, Phase, fill_decks
from schotten.moves import Claim, Deck, Draw, Move, Pass, Play
from schotten.outcome import Outcome, Termination
from schotten.rules import Rule


def packed_board(
    variant: Variant,
    open_stones: Mapping[int, tuple[str, str]],
    claimed: Mapping[int, Player],
    hands: tuple[str, str],
    discard: tuple[str, str] = ("", ""),
    modes: Mapping[int, tuple[Player | None, Player | None]] | None = None,
) -> tuple[Board, tuple[tuple[Card, ...], tuple[Card, ...]]]:
    """A board whose decks are empty: the named cards where given, then every other Clan card on
    the sides of the claimed stones, as many as a side holds, and what is left in the first
    discard pile.
    """
    board = table(open_stones, variant=variant, claimed=claimed, discard=discard)
    for number, (mud, bluff) in (modes or {}).items():
        board = board.with_stone(
            replace(board.stone(number), mud_fight=mud, blind_mans_bluff=bluff)
        )
    hand_cards = (cards(hands[0]), cards(hands[1]))
    used = {*board.visible(), *hand_cards[0], *hand_cards[1]}
    rest = [c for c in CLAN_CARDS if c not in used]
    step = 100
    for number, taker in claimed.items():
        stone = board.stone(number)
        sides = []
        for player in (taker, taker.other):
            picked = tuple(rest.pop() for _ in range(min(stone.capacity, len(rest))))
            sides.append((player, Side(picked, step if len(picked) == stone.capacity else None)))
            step += 1
        for player, side in sides:
            stone = stone.with_side(player, side)
        board = board.with_stone(stone)
    for card in rest:
        board = board.discard_card(YOU, card)
    return board, hand_cards


# --- The deal -------------------------------------------------------------------------------


def test_deal_base_six_clan_cards_each() -> None:
    game = Game(Variant.BASE, seed=5)
    assert [len(game.hand(p)) for p in Player] == [6, 6]
    assert all(isinstance(c, ClanCard) for p in Player for c in game.hand(p))
    assert len(game.deck(Deck.CLAN)) == 54 - 12
    assert game.deck(Deck.TACTIC) == ()
    assert (game.to_move, game.phase, game.outcome) == (Player.FIRST, Phase.PLAY, None)


def test_deal_tactical_seven_clan_cards_each_and_the_tactic_deck() -> None:
    game = Game(Variant.TACTICAL, seed=5)
    assert [len(game.hand(p)) for p in Player] == [7, 7]
    assert all(isinstance(c, ClanCard) for p in Player for c in game.hand(p))
    assert len(game.deck(Deck.CLAN)) == 54 - 14
    assert sorted(game.deck(Deck.TACTIC)) == sorted(TACTIC_CARDS)


def test_deal_is_seeded() -> None:
    assert Game(Variant.TACTICAL, seed=9).to_dict() == Game(Variant.TACTICAL, seed=9).to_dict()
    assert Game(Variant.TACTICAL, seed=9).hands != Game(Variant.TACTICAL, seed=10).hands


def test_turn_order_first_player_can_be_given() -> None:
    game = Game(Variant.BASE, seed=2, first=Player.SECOND)
    assert game.to_move is Player.SECOND
    assert game.first is Player.SECOND


# --- Turn steps -----------------------------------------------------------------------------


def test_turn_order_play_claim_draw() -> None:
    game = Game(Variant.TACTICAL, seed=4)
    card = game.hand(YOU)[0]
    assert game.phase is Phase.PLAY
    assert refused(game, "claim none").rule is Rule.TURN_ORDER
    assert refused(game, "draw clan").rule is Rule.TURN_ORDER
    game.apply(Play(card, 1))
    assert game.phase is Phase.CLAIM
    assert refused(game, "draw tactic").rule is Rule.TURN_ORDER
    game.apply("claim none")
    assert game.phase is Phase.DRAW
    assert set(game.legal_moves()) == {Draw(Deck.CLAN), Draw(Deck.TACTIC)}
    game.apply("draw tactic")
    assert isinstance(game.hand(YOU)[-1], Tactic)
    assert (game.to_move, game.phase) == (OPPONENT, Phase.PLAY)
    assert [str(m) for m in game.history] == [f"play {card} at 1", "claim none", "draw tactic"]


def test_turn_order_cards_come_from_your_hand() -> None:
    game = start({}, ("red 1", "red 2"))
    error = refused(game, "play red 2 at 1")
    assert error.rule is Rule.TURN_ORDER
    assert "red 2 is not in first's hand" in str(error)


def test_play_capacity_three_cards_a_side() -> None:
    game = start({4: ("red 1, red 2, red 3", "")}, ("red 5", ""))
    error = refused(game, "play red 5 at 4")
    assert error.rule is Rule.PLAY_CAPACITY
    assert "stone 4 is full (3 of 3)" in str(error)
    assert Play(ClanCard.parse("red 5"), 4) not in game.legal_moves()
    game.apply("play red 5 at 5")


def test_play_claimed_stone_is_closed() -> None:
    game = start({4: ("red 1", "")}, ("red 5", ""), claimed={4: OPPONENT})
    assert refused(game, "play red 5 at 4").rule is Rule.PLAY_CLAIMED_STONE
    assert all(getattr(m, "stone", None) != 4 for m in game.legal_moves())


def test_pass_forbidden_while_a_clan_card_fits() -> None:
    game = start({}, ("red 5", ""))
    error = refused(game, "pass")
    assert error.rule is Rule.PASS
    assert "red 5 can be placed at stone 1" in str(error)
    assert Pass() not in game.legal_moves()


def test_pass_when_every_open_stone_is_full_on_your_side() -> None:
    full = {n: (", ".join(str(c) for c in CLAN_CARDS[3 * n - 3 : 3 * n]), "") for n in (1, 2, 3)}
    claimed = {n: Player(n % 2) for n in range(4, 10)}
    game = start(full, ("purple 9, purple 8", ""), claimed=claimed)
    assert game.legal_moves() == [Pass()]
    game.apply("pass")
    assert game.hand(YOU) == cards("purple 9, purple 8")
    assert game.phase is Phase.CLAIM
    game.apply("claim none")
    assert game.phase is Phase.DRAW  # the hand is below its size: the draw step still comes
    game.apply("draw clan")
    assert len(game.hand(YOU)) == 3


def test_pass_with_an_empty_hand() -> None:
    game = start({}, ("", "red 1"))
    assert game.legal_moves() == [Pass()]
    game.apply("pass")


def test_pass_allowed_holding_only_tactic_cards() -> None:
    game = start({}, ("traitor, spy", ""), variant=Variant.TACTICAL)
    moves = game.legal_moves()
    assert Pass() in moves
    assert Move.parse("play spy at 3") in moves
    game.apply("pass")


def test_hand_size_no_draw_step_after_a_pass_with_a_full_hand() -> None:
    full = {n: (", ".join(str(c) for c in CLAN_CARDS[3 * n - 3 : 3 * n]), "") for n in (1, 2, 3)}
    claimed = {n: Player(n % 2) for n in range(4, 10)}
    hand = "purple 9, purple 8, purple 7, purple 6, purple 5, purple 4"
    game = start(full, (hand, ""), claimed=claimed)
    game.apply("pass")
    game.apply("claim none")
    assert (game.to_move, game.phase) == (OPPONENT, Phase.PLAY)


def test_empty_deck_draw_from_the_other_one() -> None:
    board = table({}, variant=Variant.TACTICAL)
    hands = (cards("red 1, red 2"), ())
    decks = fill_decks(board, hands)
    decks[Deck.CLAN] = ()
    rest = [c for c in CLAN_CARDS if c not in hands[0]]
    game = Game.from_position(
        replace(board, discard=(tuple(rest), ())),
        hands,
        decks,
        to_move=YOU,
        phase=Phase.DRAW,
    )
    assert game.legal_moves() == [Draw(Deck.TACTIC)]
    assert refused(game, "draw clan").rule is Rule.EMPTY_DECK


def test_empty_deck_play_on_without_drawing() -> None:
    board, hands = packed_board(
        Variant.BASE, {9: ("red 8", "blue 1, blue 2, blue 3")}, HELD, ("red 9, red 7", "")
    )
    game = Game.from_position(board, hands)
    assert game.deck(Deck.CLAN) == ()
    game.apply("play red 9 at 9")
    game.apply("claim none")
    assert (game.to_move, game.phase) == (OPPONENT, Phase.PLAY)
    assert game.hand(YOU) == cards("red 7")


def test_turn_order_base_game_has_no_tactic_deck() -> None:
    game = start({}, ("red 1", ""), phase=Phase.DRAW)
    assert refused(game, "draw tactic").rule is Rule.TURN_ORDER


# --- Claims ---------------------------------------------------------------------------------


def test_claim_proof_refusal_names_stone_reason_and_witness() -> None:
    game = start(
        {4: ("red 1, green 1, blue 1", "red 3, green 3"), 1: ("blue 3, purple 3", "yellow 3")},
        ("orange 3", ""),
        phase=Phase.CLAIM,
    )
    error = refused(game, "claim 4")
    assert error.rule is Rule.CLAIM_PROOF
    assert "stone 4" in str(error)
    assert str(Reason.OPPONENT_CAN_BEAT) in str(error)
    assert "orange 3 would give them same value 9" in str(error)
    assert game.legal_moves() == [Claim()]


def test_claim_complete_side_needed() -> None:
    game = start({2: ("red 5, red 6", "")}, phase=Phase.CLAIM)
    error = refused(game, "claim 2")
    assert error.rule is Rule.CLAIM_COMPLETE_SIDE
    assert "stone 2: refused (side-incomplete)" in str(error)


def test_claim_closed_stone_cannot_be_claimed_again() -> None:
    game = start({2: ("red 5, red 6, red 7", "")}, phase=Phase.CLAIM, claimed={2: YOU})
    assert refused(game, "claim 2").rule is Rule.CLAIM_CLOSED


def test_claim_together_every_stone_must_be_provable() -> None:
    game = start(
        {
            1: ("red 9, red 8, red 7", "blue 1, green 2, yellow 4"),
            2: ("green 9, green 8, green 7", ""),
            3: ("red 1, green 1", ""),
        },
        phase=Phase.CLAIM,
    )
    assert game.provable_stones() == (1, 2)
    error = refused(game, "claim 1 3")
    assert error.rule is Rule.CLAIM_COMPLETE_SIDE
    assert {str(m) for m in game.legal_moves()} == {"claim none", "claim 1", "claim 2", "claim 1 2"}
    game.apply("claim 2 1")
    assert game.stones_held(YOU) == (1, 2)


def test_completed_first_wins_a_tie() -> None:
    # Equal formations (two runs 4-5-6): the side completed first takes the stone.
    game = start(
        {5: ("red 4, green 5, blue 6", "yellow 4, orange 5")},
        ("", "purple 6"),
        to_move=OPPONENT,
    )
    game.apply("play purple 6 at 5")
    assert game.provable_stones(OPPONENT) == ()
    assert game.provable_stones(YOU) == (5,)
    assert refused(game, "claim 5").rule is Rule.COMPLETED_FIRST


def test_claim_none_is_always_allowed() -> None:
    game = start({1: ("red 9, red 8, red 7", "blue 1, green 2, yellow 4")}, phase=Phase.CLAIM)
    assert Claim() in game.legal_moves()
    game.apply("claim none")
    assert game.board.stone(1).claimed_by is None


# --- The end of the game --------------------------------------------------------------------


def test_game_end_three_adjacent_stones() -> None:
    game = start(
        {3: ("red 9, red 8, red 7", "blue 1, green 2, yellow 4")},
        phase=Phase.CLAIM,
        claimed={4: YOU, 5: YOU},
    )
    game.apply("claim 3")
    assert game.outcome == Outcome(YOU, Termination.THREE_ADJACENT)
    assert game.legal_moves() == []
    assert refused(game, "claim none").rule is Rule.GAME_OVER


def test_game_end_five_stones() -> None:
    game = start(
        {9: ("red 9, red 8, red 7", "blue 1, green 2, yellow 4")},
        phase=Phase.CLAIM,
        claimed={1: YOU, 3: YOU, 5: YOU, 7: YOU, 2: OPPONENT},
    )
    game.apply("claim 9")
    assert game.outcome == Outcome(YOU, Termination.FIVE_STONES)


def test_game_end_an_opponent_stone_breaks_the_line() -> None:
    # You hold 1, 3 and 4; the opponent holds 2: taking 6 leaves no three in a row.
    game = start(
        {6: ("red 9, red 8, red 7", "blue 1, green 2, yellow 4")},
        ("red 1", ""),
        phase=Phase.CLAIM,
        claimed={1: YOU, 2: OPPONENT, 3: YOU, 4: YOU},
    )
    game.apply("claim 6")
    assert game.outcome is None
    assert game.stones_held(YOU) == (1, 3, 4, 6)


def test_game_end_position_already_won_needs_its_outcome() -> None:
    with pytest.raises(
        InvalidPositionError, match=r"first holds stones 1, 2, 3 \(three-adjacent\)"
    ):
        start({}, claimed={1: YOU, 2: YOU, 3: YOU})


# --- The deadlock closing (site ruling) -----------------------------------------------------

# Stones held before the closing: four each, no three in a row for anyone.
HELD = {1: YOU, 2: YOU, 5: YOU, 6: YOU, 3: OPPONENT, 4: OPPONENT, 7: OPPONENT, 8: OPPONENT}


def test_deadlock_complete_side_takes_the_stone() -> None:
    # Base game, decks empty. Stone 9 is the last open stone: your side holds red 8, red 9 and your
    # hand is empty; the opponent's side is full and their last card, red 7, is in their hand, so
    # they cannot place it and cannot prove the stone (red 7 would give you a colour run).
    board, hands = packed_board(
        Variant.BASE, {9: ("red 9, red 8", "blue 1, green 2, yellow 4")}, HELD, ("", "red 7")
    )
    game = Game.from_position(board, hands, to_move=YOU, phase=Phase.CLAIM)
    assert game.deck(Deck.CLAN) == ()
    assert game.outcome is None
    assert game.provable_stones(OPPONENT) == ()
    game.apply("claim none")
    # The opponent's turn is about to start: nobody can play or claim any more.
    assert game.board.stone(9).claimed_by is OPPONENT
    assert game.outcome == Outcome(OPPONENT, Termination.DEADLOCK)


def tactical_deadlock(stone_9: tuple[str, str], to_move: Player) -> Game:
    """Every tactic card played, empty hands and decks, stone 9 open with two cards a side."""
    board, hands = packed_board(
        Variant.TACTICAL,
        {9: stone_9},
        HELD,
        ("", ""),
        discard=(
            "recruiter, strategist, joker, spy",
            "banshee, traitor, joker, shield-bearer",
        ),
        modes={1: (YOU, OPPONENT)},
    )
    return Game.from_position(board, hands, to_move=to_move, phase=Phase.PLAY)


def test_deadlock_higher_total_takes_the_stone() -> None:
    game = tactical_deadlock(("red 9, red 8", "blue 1, blue 2"), YOU)
    assert game.board.stone(9).claimed_by is YOU
    assert game.outcome == Outcome(YOU, Termination.DEADLOCK)
    assert game.stones_held(YOU) == (1, 2, 5, 6, 9)


def test_deadlock_equal_totals_go_to_nobody_and_no_winner_is_a_draw() -> None:
    game = tactical_deadlock(("red 9, red 1", "blue 8, blue 2"), OPPONENT)
    assert game.board.stone(9).claimed_by is None
    assert game.outcome == Outcome(None, Termination.DEADLOCK)


def both_winning_deadlock() -> Game:
    """A closed Tactical game in which each player holds a winning set: you 1-2-3-4, them 5-9."""
    held = {1: YOU, 2: YOU, 4: YOU, 5: OPPONENT, 6: OPPONENT, 8: OPPONENT, 9: OPPONENT}
    board, hands = packed_board(
        Variant.TACTICAL,
        {3: ("red 9, red 8", "blue 1"), 7: ("green 1", "blue 9, blue 8")},
        held,
        ("", ""),
        discard=(
            "recruiter, strategist, joker, spy",
            "banshee, traitor, joker, shield-bearer",
        ),
        modes={1: (YOU, OPPONENT)},
    )
    game = Game.from_position(board, hands, to_move=YOU, phase=Phase.PLAY)
    return game


def test_deadlock_both_winning_is_a_draw() -> None:
    game = both_winning_deadlock()
    assert game.stones_held(YOU) == (1, 2, 3, 4)
    assert game.stones_held(OPPONENT) == (5, 6, 7, 8, 9)
    assert game.outcome == Outcome(None, Termination.DEADLOCK)


def test_deadlock_not_while_a_player_can_still_draw() -> None:
    board, hands = packed_board(
        Variant.BASE, {9: ("red 9, red 8", "blue 1, green 2, yellow 4")}, HELD, ("", "red 7")
    )
    # Take two cards off a claimed stone and put them in the deck: the opponent can draw.
    stone = board.stone(3)
    taken = stone.side(OPPONENT).cards[:2]
    board = board.with_stone(stone.with_side(OPPONENT, Side(stone.side(OPPONENT).cards[2:])))
    game = Game.from_position(board, hands, {Deck.CLAN: taken}, to_move=OPPONENT)
    assert game.outcome is None
    assert game.legal_moves() == [Pass()]


# --- Positions as data ----------------------------------------------------------------------


def test_position_round_trips_through_json() -> None:
    game = Game(Variant.TACTICAL, seed=11)
    for _ in range(40):
        game.apply(game.legal_moves()[-1])
    data = json.loads(json.dumps(game.to_dict()))
    again = Game.from_dict(data)
    assert again.to_dict() == game.to_dict()
    assert again.legal_moves() == game.legal_moves()


def test_position_card_twice_is_named() -> None:
    data = Game(Variant.BASE, seed=1).to_dict()
    data["hands"]["second"].append(data["hands"]["first"][0])
    with pytest.raises(InvalidPositionError, match=r"is in the game twice \(in first's hand, in "):
        Game.from_dict(data)


def test_position_card_missing_is_named() -> None:
    data = Game(Variant.BASE, seed=1).to_dict()
    card = data["decks"]["clan"].pop()
    with pytest.raises(InvalidPositionError, match=f"{card} is missing"):
        Game.from_dict(data)


def test_position_side_over_capacity_is_named() -> None:
    game = start({4: ("red 1, red 2, red 3", "")})
    data = game.to_dict()
    data["stones"][3]["first"].append(data["decks"]["clan"].pop(0))
    with pytest.raises(InvalidPositionError, match="stone 4: first's side holds 4 cards"):
        Game.from_dict(data)


def test_position_hand_over_its_size_is_named() -> None:
    data = Game(Variant.BASE, seed=1).to_dict()
    data["hands"]["first"].append(data["decks"]["clan"].pop(0))
    with pytest.raises(InvalidPositionError, match=r"first's hand holds 7 cards \(at most 6\)"):
        Game.from_dict(data)


def test_position_tactic_cards_in_the_base_game_are_refused() -> None:
    board = Board.empty(Variant.BASE)
    with pytest.raises(InvalidPositionError, match="joker in the base game"):
        Game.from_position(board, (cards("joker"), ()))


def test_fill_decks_puts_the_rest_in_card_order_below_the_tops() -> None:
    board = table({1: ("red 1", "")}, variant=Variant.TACTICAL)
    decks = fill_decks(board, (cards("red 2"), ()), {Deck.CLAN: cards("purple 9")})
    assert decks[Deck.CLAN][:3] == cards("purple 9, red 3, red 4")
    assert len(decks[Deck.CLAN]) == 52
    assert decks[Deck.TACTIC] == TACTIC_CARDS


def test_from_position_step_follows_the_completion_times() -> None:
    game = start({1: ("red 1, red 2, red 3", "")}, ("red 4", ""))
    assert game.step > game.board.stone(1).side(YOU).completed_at  # type: ignore[operator]


def test_from_position_draw_step_with_nothing_to_draw_is_skipped() -> None:
    game = start({}, ("red 1, red 2, red 3, red 4, red 5, red 6", ""), phase=Phase.DRAW)
    assert (game.to_move, game.phase) == (OPPONENT, Phase.PLAY)


def test_apply_reads_notation_and_refuses_bad_text() -> None:
    game = Game(Variant.BASE, seed=1)
    with pytest.raises(InvalidNotationError, match="expected"):
        game.apply("play the red one")
    assert not game.can_move("play the red one")
    assert game.history == []


def test_verify_move_and_can_move_agree_with_legal_moves() -> None:
    game = Game(Variant.BASE, seed=3)
    for move in game.legal_moves():
        assert game.can_move(move)
        assert game.verify_move(move) == move
    assert not game.can_move(Pass())


def test_copy_is_independent() -> None:
    game = Game(Variant.TACTICAL, seed=6)
    copy = game.copy()
    copy.apply(copy.legal_moves()[0])
    assert game.history == [] and game.phase is Phase.PLAY
    assert copy.to_dict() != game.to_dict()
    assert len(game.hand(YOU)) == 7


# --- Positions that cannot happen (regressions: each was accepted) ---------------------------


def recruiting(variant: Variant, discard_recruiter: bool = False) -> dict[str, Any]:
    """A fresh deal put at first's Recruiter return step: first's hand raised by two deck
    cards (and the second's too, as the reported position had it)."""
    data = Game(variant, seed=1).to_dict()
    clan = data["decks"]["clan"]
    for player in ("first", "second"):
        data["hands"][player] += [clan.pop(0), clan.pop(0)]
    if discard_recruiter:
        data["decks"]["tactic"].remove("recruiter")
        data["discard"]["first"].append("recruiter")
        data["decks"]["clan"][:0] = data["hands"]["second"][-2:]
        del data["hands"]["second"][-2:]
    data["phase"] = "return"
    return data


def test_position_recruiter_return_step_refused_in_the_base_game() -> None:
    with pytest.raises(InvalidPositionError, match=r"\[recruiter\] .*base game has no Recruiter"):
        Game.from_dict(recruiting(Variant.BASE))


def test_position_recruiter_return_step_refused_while_the_recruiter_is_in_the_deck() -> None:
    with pytest.raises(InvalidPositionError, match=r"\[recruiter\] .*not in first's discard pile"):
        Game.from_dict(recruiting(Variant.TACTICAL))


def test_position_recruiter_return_step_after_the_recruiter_was_played() -> None:
    game = Game.from_dict(recruiting(Variant.TACTICAL, discard_recruiter=True))
    assert game.phase is Phase.RETURN and game.recruited and len(game.hand(YOU)) == 9


def test_position_recruited_refused_in_the_base_game() -> None:
    data = Game(Variant.BASE, seed=1).to_dict()
    data["phase"], data["recruited"] = "claim", True
    with pytest.raises(InvalidPositionError, match=r"\[recruiter\] .*base game has no Recruiter"):
        Game.from_dict(data)


def test_position_deadlock_outcome_refused_on_a_fresh_deal() -> None:
    data = Game(Variant.BASE, seed=1).to_dict()
    data["outcome"] = {"winner": None, "termination": "deadlock"}
    with pytest.raises(InvalidPositionError, match=r"\[deadlock\] .*first can still"):
        Game.from_dict(data)


def test_position_deadlock_outcome_kept_on_a_closed_game() -> None:
    game = tactical_deadlock(("red 9, red 8", "blue 1, blue 2"), YOU)
    again = Game.from_dict(game.to_dict())
    assert again.outcome == game.outcome == Outcome(YOU, Termination.DEADLOCK)


def test_position_deadlock_outcome_refused_with_a_stone_left_to_close() -> None:
    game = tactical_deadlock(("red 9, red 8", "blue 1, blue 2"), YOU)
    data = game.to_dict()
    data["stones"][8]["claimed_by"] = None  # the closing gives stone 9 to the higher total
    data["outcome"]["winner"] = None
    with pytest.raises(InvalidPositionError, match=r"\[deadlock\] .*stone 9 .*first"):
        Game.from_dict(data)


def test_position_deadlock_draw_refused_when_one_player_holds_a_winning_set() -> None:
    game = tactical_deadlock(("red 9, red 8", "blue 1, blue 2"), YOU)
    data = game.to_dict()
    data["outcome"]["winner"] = None
    with pytest.raises(InvalidPositionError, match=r"\[deadlock\] .*first holds"):
        Game.from_dict(data)


def test_position_deadlock_win_refused_when_both_players_hold_a_winning_set() -> None:
    game = both_winning_deadlock()
    assert game.outcome == Outcome(None, Termination.DEADLOCK)
    data = game.to_dict()
    data["outcome"]["winner"] = "first"
    with pytest.raises(InvalidPositionError, match=r"\[deadlock\] .*both players hold"):
        Game.from_dict(data)


# -- push and pop: search without copies -------------------------------------------------------


def _walk(game: Game, depth: int, seen: list[tuple[dict[str, Any], tuple[int, ...]]]) -> None:
    """Every line of ``depth`` moves with push/pop, checking that each pop restores the position
    and that each pushed move gives what apply gives on a copy."""
    if depth == 0:
        return
    for move in game.legal_moves():
        before = game.to_dict()
        applied = game.copy()
        applied.apply(move)
        game.push(move)
        assert game.to_dict() == applied.to_dict()
        assert game.history[-1] == applied.history[-1]
        seen.append((game.to_dict(), game.provable_stones()))
        _walk(game, depth - 1, seen)
        assert game.pop().move == move
        assert game.to_dict() == before


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("seed", [3, 11])
def test_push_plays_as_apply_and_pop_restores_the_position(variant: Variant, seed: int) -> None:
    game = play_until(Game(variant, seed=seed), 60)
    seen: list[tuple[dict[str, Any], tuple[int, ...]]] = []
    _walk(game, 3, seen)
    assert len(seen) > 30
    # Provable stones found across undo (the proof cache kept from sibling lines, where more
    # cards were seen) are those of a fresh game set up on the same position.
    for data, provable in seen:
        assert Game.from_dict(data).provable_stones() == provable


def play_until(game: Game, moves: int) -> Game:
    """The game after ``moves`` moves, each the middle one of its legal moves (or the end)."""
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        game.apply(legal[len(legal) // 2])
    return game


def test_pop_undoes_a_whole_game_move_by_move_back_to_the_deal() -> None:
    game = Game(Variant.TACTICAL, seed=4)
    positions = [game.to_dict()]
    while not game.is_over:
        legal = game.legal_moves()
        game.apply(legal[-1])
        positions.append(game.to_dict())
    assert game.outcome is not None
    while game.history:
        positions.pop()
        game.pop()
        assert game.to_dict() == positions[-1]
    with pytest.raises(IndexError, match="no move to undo"):
        game.pop()


def test_history_records_who_moved_and_what_a_draw_took() -> None:
    game = Game(Variant.BASE, seed=1)
    top = game.deck(Deck.CLAN)[0]
    game.apply(game.legal_moves()[0])
    game.apply("claim none")
    game.apply("draw clan")
    play, claim, draw = game.history
    assert (play.player, claim.player, draw.player) == (Player.FIRST,) * 3
    assert (play.drawn, claim.drawn, draw.drawn) == ((), (), (top,))
    assert str(draw) == "draw clan" and draw.move == Draw(Deck.CLAN)
    game.apply(game.legal_moves()[0])
    assert game.history[-1].player is Player.SECOND
