"""The steps of a turn (:mod:`schotten.turn`, RULES.md, Set-up and turn)."""

from __future__ import annotations

from schotten import game
from schotten.turn import Phase


def test_the_steps_are_play_claim_draw_rule_turn_order() -> None:
    # The Recruiter's return is the second half of its play step, before the claim.
    assert list(Phase) == [Phase.PLAY, Phase.RETURN, Phase.CLAIM, Phase.DRAW]
    assert [str(p) for p in Phase] == ["play", "return", "claim", "draw"]


def test_a_step_is_read_back_from_its_name() -> None:
    assert Phase("claim") is Phase.CLAIM


def test_the_game_uses_these_steps_and_no_copy_of_them() -> None:
    assert game.Phase is Phase
