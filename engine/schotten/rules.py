"""Rule ids: one name per rule of RULES.md, shared by errors, case files, tests and the site.

Each id is stable: case files cite it (``rule:``), error messages start with it, and the rules
pages use it as an anchor. Site rulings are marked as such.
"""

from __future__ import annotations

import enum


class Rule(enum.StrEnum):
    # Set-up and turn
    TURN_ORDER = "turn-order"  # play, claim, draw (tactical: choose the deck after claiming)
    PLAY_CAPACITY = "play-capacity"  # a side holds 3 cards, 4 under Mud Fight
    PLAY_CLAIMED_STONE = "play-claimed-stone"  # a claimed stone is closed
    HAND_SIZE = "hand-size"  # 6 base, 7 tactical; draw only below it
    PASS = "pass"  # site ruling: pass only when no card can be placed
    EMPTY_DECK = "empty-deck"  # play on without drawing
    # Formations
    FORMATION_LADDER = "formation-ladder"
    NO_WRAP_AROUND = "no-wrap-around"
    COMPLETED_FIRST = "completed-first"  # site ruling: the latest time a side became complete
    BLIND_MANS_BLUFF = "blind-mans-bluff"
    MUD_FIGHT = "mud-fight"
    ELITE_TROOP_VALUE = "elite-troop-value"
    # Claims
    CLAIM_COMPLETE_SIDE = "claim-complete-side"
    CLAIM_PROOF = "claim-proof"  # the unseen pool, your hand included
    CLAIM_WILD_POOL = "claim-wild-pool"  # site ruling: unplayed elite troops are wild in the pool
    CLAIM_TOGETHER = "claim-together"  # one position; site ruling: one refused stone refuses all
    CLAIM_CLOSED = "claim-closed"
    # Tactic cards
    TACTIC_COUNT = "tactic-count"
    JOKER_ONCE = "joker-once"
    COMBAT_MODE = "combat-mode"
    RECRUITER = "recruiter"
    STRATEGIST = "strategist"
    BANSHEE = "banshee"
    TRAITOR = "traitor"
    RUSE_TARGET = "ruse-target"
    # End of the game
    GAME_END = "game-end"  # 5 stones or 3 adjacent, at once after a claim step
    DEADLOCK = "deadlock"  # site ruling
    MATCH_SCORING = "match-scoring"
    GAME_OVER = "game-over"  # no move after the end
