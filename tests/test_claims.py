"""Claims (RULES.md, Claims): the seed's eleven situations, rule by rule, then the fast proof
checked against the brute-force reference on thousands of random positions."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from positions import OPPONENT, YOU, cards, claim_positions, refused, table
from reference import brute_judge, brute_pool, brute_side
from strength import examples

from schotten.board import Board, Variant
from schotten.cards import ClanCard, Tactic
from schotten.casebook.build import load_case
from schotten.casebook.run import claim_outcome, run_case
from schotten.claims import Reason, judge_claim, judge_stone, unseen_pool
from schotten.formations import FormationKind, evaluate
from schotten.game import Game, Phase
from schotten.outcome import Outcome, Termination
from schotten.rules import Rule

CASES = Path(__file__).resolve().parent.parent / "cases"

# --- The eleven situations of the edge-case page, in its table order -------------------------


def test_claim_complete_side_two_cards_against_nothing() -> None:
    board = table({3: ("red 5, red 6", "")})
    assert judge_stone(board, YOU, 3).reason is Reason.SIDE_INCOMPLETE


def test_claim_proof_hand_is_not_proof() -> None:
    # 1-1-1 against 3-3; four 3s are visible elsewhere, the last one (yellow 3) is unseen:
    # even if it sleeps in your hand, it counts as a card the opponent could get.
    board = table(
        {
            4: ("red 1, green 1, blue 1", "red 3, green 3"),
            5: ("orange 3, purple 3", "blue 3"),
        }
    )
    verdict = judge_stone(board, YOU, 4)
    assert verdict.reason is Reason.OPPONENT_CAN_BEAT
    assert verdict.witness is not None
    assert verdict.witness.cards == (ClanCard.parse("yellow 3"),)
    assert verdict.witness.formation.kind is FormationKind.SAME_VALUE


def test_claim_proof_last_three_on_the_table() -> None:
    board = table(
        {
            4: ("red 1, green 1, blue 1", "red 3, green 3"),
            5: ("orange 3, purple 3", "blue 3, yellow 3"),
        }
    )
    assert judge_stone(board, YOU, 4).reason is Reason.UNBEATABLE


def test_completed_first_tie_you_completed_first() -> None:
    board = table({2: ("red 4, green 5, blue 9", "yellow 4, orange 5, purple 9")})
    verdict = judge_stone(board, YOU, 2)
    assert verdict.reason is Reason.TIE_COMPLETED_FIRST
    assert verdict.mine == verdict.theirs


def test_completed_first_tie_opponent_completed_first() -> None:
    board = table(
        {2: ("red 4, green 5, blue 9", "yellow 4, orange 5, purple 9")},
        opponent_first=frozenset({2}),
    )
    assert judge_stone(board, YOU, 2).reason is Reason.TIE_COMPLETED_LATER


def test_claim_proof_equal_completion_still_loses_to_you() -> None:
    # Your red 7-8-9 against blue 7-8: blue 9 would only tie, and they would complete later.
    board = table({6: ("red 7, red 8, red 9", "blue 7, blue 8")})
    verdict = judge_stone(board, YOU, 6)
    assert verdict.reason is Reason.UNBEATABLE
    assert verdict.theirs == verdict.mine


def test_no_wrap_around_eight_nine_one_is_a_sum() -> None:
    board = table({1: ("red 8, green 9, blue 1", "yellow 2, orange 3, purple 4")})
    verdict = judge_stone(board, YOU, 1)
    assert verdict.reason is Reason.WEAKER
    assert verdict.mine is not None and verdict.mine.kind is FormationKind.SUM


def test_formation_ladder_three_of_a_kind_beats_a_colour() -> None:
    board = table({1: ("red 2, green 2, blue 2", "purple 9, purple 8, purple 6")})
    assert judge_stone(board, YOU, 1).reason is Reason.STRONGER


def test_claim_together_two_stones_proven_at_once() -> None:
    board = table(
        {
            1: ("red 9, red 8, red 7", "green 2, blue 5, red 1"),
            2: ("blue 9, green 9, yellow 9", "orange 1, purple 4"),
        }
    )
    verdicts = judge_claim(board, YOU, [1, 2])
    assert [v.reason for v in verdicts] == [Reason.STRONGER, Reason.UNBEATABLE]


def test_mud_fight_three_cards_are_not_enough() -> None:
    board = table(
        {5: ("red 9, red 8, red 7", "green 1")},
        variant=Variant.TACTICAL,
        mud=frozenset({5}),
    )
    assert judge_stone(board, YOU, 5).reason is Reason.SIDE_INCOMPLETE


def test_blind_mans_bluff_only_the_total_counts() -> None:
    board = table(
        {7: ("red 1, red 2, red 3", "green 9, blue 9, yellow 8")},
        variant=Variant.TACTICAL,
        bluff=frozenset({7}),
    )
    verdict = judge_stone(board, YOU, 7)
    assert verdict.reason is Reason.WEAKER
    assert (verdict.mine and verdict.mine.total, verdict.theirs and verdict.theirs.total) == (6, 26)


# --- Rules around the proof -------------------------------------------------------------------


def test_claim_closed_stone_is_refused() -> None:
    board = table({1: ("red 9, red 8, red 7", "green 1, green 2, green 4")}, claimed={1: OPPONENT})
    assert judge_stone(board, YOU, 1).reason is Reason.STONE_CLAIMED


def test_claim_proof_discard_pile_is_out_of_the_pool() -> None:
    # The last hidden 3 (blue) was discarded by your Banshee: face up, out of the pool. The
    # opponent's Joker is played and the Shield Bearer is on the table: nothing stands for a 3.
    board = table(
        {
            4: ("red 1, green 1, blue 1", "red 3, green 3"),
            5: ("orange 3, purple 3", "yellow 3"),
            8: ("shield-bearer", "joker"),
        },
        variant=Variant.TACTICAL,
        discard=("banshee", "blue 3"),
    )
    assert judge_stone(board, YOU, 4).reason is Reason.UNBEATABLE
    without_banshee = table(
        {
            4: ("red 1, green 1, blue 1", "red 3, green 3"),
            5: ("orange 3, purple 3", "yellow 3"),
            8: ("shield-bearer", "joker"),
        },
        variant=Variant.TACTICAL,
    )
    assert judge_stone(without_banshee, YOU, 4).reason is Reason.OPPONENT_CAN_BEAT


def test_claim_wild_pool_unplayed_joker_can_complete_the_opponent() -> None:
    board = table(
        {
            4: ("red 1, green 1, blue 1", "red 3, green 3"),
            5: ("orange 3, purple 3", "blue 3, yellow 3"),
        },
        variant=Variant.TACTICAL,
    )
    verdict = judge_stone(board, YOU, 4)
    assert verdict.reason is Reason.OPPONENT_CAN_BEAT
    assert verdict.witness is not None and Tactic.JOKER in verdict.witness.cards


def test_claim_wild_pool_no_second_joker_for_the_opponent() -> None:
    # The opponent has played a Joker on stone 8: the other can never be theirs. The Spy and
    # the Shield Bearer are on the table too, so nothing can stand for a 3 any more.
    board = table(
        {
            4: ("red 1, green 1, blue 1", "red 3, green 3"),
            5: ("orange 3, purple 3", "blue 3, yellow 3"),
            8: ("spy", "joker, shield-bearer"),
        },
        variant=Variant.TACTICAL,
    )
    assert judge_stone(board, YOU, 4).reason is Reason.UNBEATABLE


def test_elite_troop_value_joker_may_copy_a_card_on_the_table() -> None:
    board = table({1: ("red 9, joker, red 8", "")}, variant=Variant.TACTICAL)
    verdict = judge_stone(board, YOU, 1)
    assert verdict.mine is not None
    assert verdict.mine.kind is FormationKind.COLOUR_RUN and verdict.mine.total == 24


def test_mud_fight_gap_of_values_can_still_be_filled() -> None:
    # Their 6 and 9 of one colour under Mud Fight: 7 and 8 still make a four-card colour run.
    board = table(
        {3: ("red 2, green 2, blue 2, yellow 2", "purple 6, purple 9")},
        variant=Variant.TACTICAL,
        mud=frozenset({3}),
    )
    verdict = judge_stone(board, YOU, 3)
    assert verdict.reason is Reason.OPPONENT_CAN_BEAT
    assert verdict.witness is not None
    assert set(verdict.witness.cards) == set(cards("purple 7, purple 8"))


def test_claim_proof_exactly_enough_unseen_cards() -> None:
    # Only three 5s beat your colour; they hold two and exactly one more is unseen: enough.
    exactly_one_left = table(
        {1: ("red 9, red 8, red 6", "green 5, blue 5"), 2: ("red 5, orange 5, yellow 5", "")}
    )
    verdict = judge_stone(exactly_one_left, YOU, 1)
    assert verdict.reason is Reason.OPPONENT_CAN_BEAT
    assert verdict.witness is not None and verdict.witness.cards == cards("purple 5")
    none_left = table(
        {
            1: ("red 9, red 8, red 6", "green 5, blue 5"),
            2: ("red 5, orange 5, yellow 5", "purple 5"),
        }
    )
    assert judge_stone(none_left, YOU, 1).reason is Reason.UNBEATABLE


def test_unseen_pool_counts_your_hand_and_excludes_what_is_face_up() -> None:
    board = table({1: ("red 1", "red 2")}, discard=("red 3", ""))
    pool = unseen_pool(board, YOU)
    assert len(pool.clan) == 51
    assert not {c for c in cards("red 1, red 2, red 3")} & set(pool.clan)
    assert pool.wilds == ()


# --- The fast proof against the brute-force reference ------------------------------------------


@settings(max_examples=examples(3000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(claim_positions())
def test_claim_proof_agrees_with_brute_force(position: tuple[Board, int]) -> None:
    board, number = position
    fast = judge_stone(board, YOU, number)
    slow = brute_judge(board, YOU, number)
    assert fast.reason is slow.reason
    assert fast.mine == slow.mine
    if fast.reason in (Reason.UNBEATABLE, Reason.OPPONENT_CAN_BEAT):
        # The fast proof finds the opponent's best completion exactly, not just a strong one.
        assert fast.theirs == slow.best_theirs
    if fast.witness is not None:
        _assert_legal_witness(board, number, fast)


def _assert_legal_witness(board: Board, number: int, verdict: object) -> None:
    assert hasattr(verdict, "witness") and verdict.witness is not None
    witness = verdict.witness
    stone = board.stone(number)
    theirs = stone.side(OPPONENT).cards
    assert len(theirs) + len(witness.cards) == stone.capacity
    pool = Counter(brute_pool(board, YOU))
    assert not Counter(witness.cards) - pool, "the witness uses a card that is not unseen"
    formation = brute_side([*theirs, *witness.cards], totals_only=stone.totals_only)
    assert formation == witness.formation
    assert formation > verdict.mine  # type: ignore[attr-defined]
    assert evaluate(witness.side, totals_only=stone.totals_only) == witness.formation


# Regression: the casebook took the granted stones of a claim with a refused one (and here
# recorded a win), while the game refused the whole move. One rule now: ``claim-together``.
def test_claim_together_one_refused_stone_refuses_the_whole_claim_everywhere() -> None:
    case = load_case(CASES / "one-refused-stone-refuses-the-claim.yaml")
    result = run_case(case)
    assert [(v.stone, v.granted) for v in result.verdicts] == [(4, True), (7, False)]
    assert result.game == "ongoing"  # stone 4 alone would make 4-5-6: taken, it would win
    assert claim_outcome(case.board, result.verdicts[:1]) == "won-by-you"

    game = Game.from_position(case.board, [(), ()], to_move=YOU, phase=Phase.CLAIM)
    error = refused(game, "claim 4 7")
    assert error.rule is Rule.CLAIM_PROOF
    assert "stone 4 is proven, but the claim is refused whole: nothing is taken" in str(error)
    assert game.stones_held(YOU) == (5, 6)
    game.apply("claim 4")
    assert game.outcome == Outcome(YOU, Termination.THREE_ADJACENT)


# -- the sight a game keeps, and the proof cache -----------------------------------------------


def test_claim_wild_pool_sight_of_a_game_is_the_unseen_pool_of_its_board() -> None:
    from schotten.claims import Sight
    from schotten.completion import pool_mask
    from schotten.records import play_random

    checked = 0
    for seed in range(6):
        for variant in Variant:
            game = play_random(seed, variant)
            replay = Game(variant, seed=seed)
            for action in game.history:
                replay.apply(action.move)
                board = replay.board
                sight = Sight.of(board)
                seen = pool_mask(board.visible())
                for claimer in (YOU, OPPONENT):
                    assert sight.pool(variant, claimer, seen) == unseen_pool(board, claimer)
                    checked += 1
    assert checked > 500


def test_claim_proof_cache_keeps_a_proof_only_while_it_must_hold() -> None:
    from schotten.claims import ProofCache, Sight
    from schotten.completion import pool_mask

    # Your red 6, 7, 8 (a colour run of 21) against green 7, 8: green 9 would beat it, and
    # green 6 only ties (you completed first).
    board = table({4: ("red 6, red 7, red 8", "green 7, green 8")})
    cache = ProofCache()
    seen = pool_mask(board.visible())
    assert cache.provable(board, YOU, seen, Sight()) == ()
    # Once green 9 is face up elsewhere the refusal's witness is gone: now proven.
    seen_more = seen | pool_mask(cards("green 9"))
    assert cache.provable(board, YOU, seen_more, Sight()) == (4,)
    # Back to the larger pool (a move undone): the proof must not be reused.
    assert cache.provable(board, YOU, seen, Sight()) == ()
    assert cache.provable(board, YOU, seen_more, Sight()) == (4,)
