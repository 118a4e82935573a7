"""The outcome kind's vectors: a table a seeded game reaches, then placements and claims.

Each vector draws from its own seed (``outcomes <variant> <index>``). The table is the one a
seeded random game reaches after a few moves (so it is a table a game reaches); the actions that
follow place cards in turn, first one player then the other, with claims in between by either
player, most of them on stones where a side is complete: a weaker side claims as often as a
stronger one, and most claims leave the game going on. They stop when the game ends, or after
:data:`ACTIONS` actions.

>>> vector = outcome_vector(Variant.BASE, 0)
>>> vector["id"], vector["expect"]["played"] == len(vector["actions"])
('o-base-000', True)
"""

from __future__ import annotations

import random
from typing import Any

from schotten.board import Board, Player, Variant
from schotten.cards import CLAN_CARDS
from schotten.claims import judge_stone
from schotten.conformance.alternatives import claim_rulings
from schotten.conformance.outcomes import (
    Action,
    Placement,
    StoneClaim,
    action_data,
    claim,
    place,
    play_out,
    result_data,
)
from schotten.conformance.wire import board_data
from schotten.game import Game, Phase
from schotten.moves import Claim
from schotten.outcome import winning_condition

OUTCOMES = 150  # of each variant
ACTIONS = 80  # at most, in one vector
OPENING_MOVES = 60  # the seeded game's moves before the table is taken, at most
CLAIM_CHANCE = 0.35


def start_table(variant: Variant, rng: random.Random) -> tuple[Board, Player, int]:
    """The table of a seeded random game a few moves in (before it ends), the player to move
    there, and the moves played."""
    game = Game(variant, seed=rng.randrange(1 << 30))
    played = 0
    for _ in range(rng.randrange(0, OPENING_MOVES)):
        move = (
            Claim(game.provable_stones())
            if game.phase is Phase.CLAIM
            else rng.choice(game.legal_moves())
        )
        after = game.copy()
        after.apply(move)
        if after.outcome is not None:
            break
        game, played = after, played + 1
    return game.board, game.to_move, played


def outcome_vector(variant: Variant, index: int) -> dict[str, Any]:
    """The outcome vector number ``index`` of ``variant``, with this engine's answer."""
    rng = random.Random(f"outcomes {variant} {index}")
    start, placer, opening = start_table(variant, rng)
    board = start
    actions: list[Action] = []
    taken_count = 0
    exercised: set[str] = set()  # the site rulings its claims' verdicts depend on
    while len(actions) < ACTIONS:
        action = _next_action(rng, board, placer, actions[-1] if actions else None)
        if action is None:
            break
        actions.append(action)
        if isinstance(action, Placement):
            board = place(board, action, len(actions) - 1)
            placer = placer.other
            continue
        exercised |= set(
            claim_rulings(board, action.player, [judge_stone(board, action.player, action.stone)])
        )
        board, taken = claim(board, action)
        taken_count += taken
        if taken and winning_condition(board, action.player) is not None:
            break
    result = play_out(start, actions)
    claims = [a for a in actions if isinstance(a, StoneClaim)]
    ending = "the game goes on" if result.outcome is None else str(result.outcome)
    return {
        "id": f"o-{variant}-{index:03d}",
        "pins": (
            f"{variant}, the table {opening} moves into a seeded game; "
            f"{len(actions) - len(claims)} placements, {len(claims)} claims "
            f"({taken_count} taken); {ending}"
        ),
        "position": board_data(start, sparse=True),
        "actions": [action_data(a) for a in actions],
        "expect": result_data(result),
        "rulings": sorted(exercised),
    }


def _next_action(
    rng: random.Random, board: Board, placer: Player, last: Action | None
) -> Action | None:
    open_stones = [s for s in board.stones if s.claimed_by is None]
    decided = [s for s in open_stones if all(s.is_complete(p) for p in Player)]
    judged = [s for s in open_stones if any(s.is_complete(p) for p in Player)]
    roomy = [s for s in open_stones if s.has_room(placer)]
    if judged and (rng.random() < CLAIM_CHANCE or not roomy):
        # Mostly stones both sides have completed, claimed by either side: the weaker claims
        # as often as the stronger.
        targets = decided if decided and rng.random() < 0.7 else judged
        stone = rng.choice(targets)
        action = StoneClaim(rng.choice(list(Player)), stone.number)
        if action != last:
            return action
    if not roomy:
        return None
    visible = set(board.visible())
    unseen = [c for c in CLAN_CARDS if c not in visible]
    if not unseen:
        return None
    # Mostly a side already begun: sides get completed, and stones decided.
    begun = [s for s in roomy if s.side(placer).cards]
    stone = rng.choice(begun if begun and rng.random() < 0.7 else roomy)
    return Placement(placer, rng.choice(unseen), stone.number)
