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
from schotten.game import Game, Phase, fill_decks
from schotten.match import Match, round_points
from schotten.moves import (
    Banshee,
    Claim,
    Deck,
    Draw,
    Move,
    Pass,
    Play,
    Recruiter,
    Return,
    Strategist,
    Traitor,
)
from schotten.outcome import Outcome, Termination, winning_condition
from schotten.records import Record, play_random, random_game
from schotten.rules import Rule

__all__ = [
    "CLAN_CARDS",
    "TACTIC_CARDS",
    "Banshee",
    "Board",
    "Card",
    "Claim",
    "ClanCard",
    "Colour",
    "Completion",
    "Deck",
    "Draw",
    "Formation",
    "FormationKind",
    "Game",
    "IllegalActionError",
    "InvalidNotationError",
    "InvalidPositionError",
    "Match",
    "Move",
    "Outcome",
    "Pass",
    "Phase",
    "Play",
    "Player",
    "Pool",
    "Reason",
    "Record",
    "Recruiter",
    "Return",
    "Rule",
    "Side",
    "Stone",
    "StoneVerdict",
    "Strategist",
    "Tactic",
    "Termination",
    "Traitor",
    "Variant",
    "Witness",
    "best_completion",
    "evaluate",
    "fill_decks",
    "format_cards",
    "judge_claim",
    "judge_stone",
    "parse_card",
    "parse_cards",
    "play_random",
    "random_game",
    "round_points",
    "winning_condition",
]
