"""Schotten Totten rules engine: cards, formations, claims decided by proof, whole games."""

from schotten.board import Board, Player, Side, Stone, Variant
from schotten.cards import (
    CLAN_CARDS,
    TACTIC_CARDS,
    Card,
    ClanCard,
    Colour,
    Tactic,
    format_cards,
    parse_card,
    parse_cards,
)
from schotten.claims import Pool, Reason, StoneVerdict, Witness, judge_claim, judge_stone
from schotten.completion import Completion, best_completion
from schotten.errors import IllegalActionError, InvalidNotationError, InvalidPositionError
from schotten.formations import Formation, FormationKind, evaluate
from schotten.rules import Rule

__all__ = [
    "CLAN_CARDS",
    "TACTIC_CARDS",
    "Board",
    "Card",
    "ClanCard",
    "Colour",
    "Completion",
    "Formation",
    "FormationKind",
    "IllegalActionError",
    "InvalidNotationError",
    "InvalidPositionError",
    "Player",
    "Pool",
    "Reason",
    "Rule",
    "Side",
    "Stone",
    "StoneVerdict",
    "Tactic",
    "Variant",
    "Witness",
    "best_completion",
    "evaluate",
    "format_cards",
    "judge_claim",
    "judge_stone",
    "parse_card",
    "parse_cards",
]
