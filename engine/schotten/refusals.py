"""Finer reasons for a refused move, each under one rule of RULES.md.

A rule id (:class:`~schotten.rules.Rule`) names a rule of RULES.md; some rules refuse moves for
more than one reason, and a player told the rule's general sentence may read the wrong one (a
Strategist refused on a Mud Fight is not refused because the stone is claimed). A
:class:`Refusal` names the exact reason; :class:`RefusedMove` carries it beside its rule, so that
everything that reads only the rule (the conformance vectors, other engines) is unchanged.

>>> Refusal.MODE_ON_NO_SIDE.rule
<Rule.COMBAT_MODE: 'combat-mode'>
>>> error = RefusedMove(Refusal.RUSE_WITHOUT_ROOM, "no room")
>>> error.rule, refusal_id(error)
(<Rule.RUSE_TARGET: 'ruse-target'>, 'ruse-without-room')
"""

from __future__ import annotations

import enum

from schotten.errors import IllegalActionError
from schotten.rules import Rule


class Refusal(enum.StrEnum):
    """One exact reason a rule refuses a move; RULES.md states each under its rule."""

    # turn-order: a card played must be in the hand; the base game has no Tactic deck to draw.
    CARD_NOT_IN_HAND = "card-not-in-hand"
    NO_TACTIC_DECK = "no-tactic-deck"
    # claim-closed (site ruling): no combat mode on a claimed stone.
    MODE_ON_CLAIMED_STONE = "mode-on-claimed-stone"
    # joker-once: the Joker a player must keep is not one of the cards a Recruiter puts back.
    JOKER_KEPT = "joker-kept"
    # combat-mode (site ruling): a combat mode lies on no side, and no ruse takes it.
    MODE_ON_NO_SIDE = "mode-on-no-side"
    # ruse-target (site ruling): a Traitor with a card to take but no room for it.
    RUSE_WITHOUT_ROOM = "ruse-without-room"

    @property
    def rule(self) -> Rule:
        """The rule of RULES.md this reason belongs to."""
        return _RULE_OF[self]


_RULE_OF = {
    Refusal.CARD_NOT_IN_HAND: Rule.TURN_ORDER,
    Refusal.NO_TACTIC_DECK: Rule.TURN_ORDER,
    Refusal.MODE_ON_CLAIMED_STONE: Rule.CLAIM_CLOSED,
    Refusal.JOKER_KEPT: Rule.JOKER_ONCE,
    Refusal.MODE_ON_NO_SIDE: Rule.COMBAT_MODE,
    Refusal.RUSE_WITHOUT_ROOM: Rule.RUSE_TARGET,
}


class RefusedMove(IllegalActionError):
    """A move refused for one exact reason: its :attr:`rule` is the reason's rule."""

    def __init__(self, refusal: Refusal, message: str) -> None:
        super().__init__(refusal.rule, message)
        self.refusal = refusal


def refusal_id(error: IllegalActionError) -> str:
    """The finest id of a refusal: its :class:`Refusal` when it has one, else its rule id."""
    return str(error.refusal) if isinstance(error, RefusedMove) else str(error.rule)
