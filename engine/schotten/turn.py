"""The steps of a turn (RULES.md, Set-up and turn): play (or pass), claim, draw."""

from __future__ import annotations

import enum


class Phase(enum.StrEnum):
    """The step of the turn the player to move is at."""

    PLAY = "play"
    RETURN = "return"  # the second half of a Recruiter: two cards back under their decks
    CLAIM = "claim"
    DRAW = "draw"
