"""Benchmarks of the rules engine: claim proofs against the brute force, random whole games,
perft (the conformance suite's move-sequence counts).

Targets (one core of a 2-core machine): worst single claim check under 1 ms, at least 500 times
faster than the brute force over the same positions, at least 100 random Tactical games a second.
"""

from __future__ import annotations

import gc
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import TypeVar

from schotten.board import Board, Player, Side, Stone, Variant
from schotten.cards import CLAN_CARDS, Card, Tactic
from schotten.claims import judge_stone

T = TypeVar("T")

CLAIMER, OPPONENT = Player.FIRST, Player.SECOND
WILDS = (Tactic.JOKER, Tactic.JOKER, Tactic.SPY, Tactic.SHIELD_BEARER)
SETS = ("base", "tactical", "mud-fight")


def position(rng: random.Random, kind: str) -> Board:
    """A mid-game table where the claimer's side of stone 1 is complete and the opponent's is not.

    Some positions are the worst case on purpose: Mud Fight, opponent side empty, whole Tactical
    pool unseen.
    """
    tactical = kind != "base"
    mud = kind == "mud-fight"
    size = 4 if mud else 3
    deck: list[Card] = [*CLAN_CARDS, *(WILDS if tactical else ())]
    rng.shuffle(deck)
    jokers = {CLAIMER: 0, OPPONENT: 0}

    def take(player: Player) -> Card:
        for i, card in enumerate(deck):
            if card is Tactic.JOKER:
                if jokers[player]:
                    continue
                jokers[player] += 1
            return deck.pop(i)
        raise RuntimeError("deck exhausted")

    worst = rng.random() < 0.2
    mine = tuple(take(CLAIMER) for _ in range(size))
    theirs = tuple(take(OPPONENT) for _ in range(0 if worst else rng.randrange(size)))
    stones = [Stone(n) for n in range(1, 10)]
    stones[0] = Stone(
        1,
        (Side(mine, 0), Side(theirs)),
        mud_fight=OPPONENT if mud else None,
        blind_mans_bluff=OPPONENT if tactical and rng.random() < 0.15 else None,
    )
    for _ in range(0 if worst else rng.randrange(30)):
        player = rng.choice(list(Player))
        open_stones = [s for s in stones[1:] if len(s.sides[player].cards) < 3]
        card = take(player)
        stone = rng.choice(open_stones)
        side = stone.sides[player]
        stones[stone.number - 1] = stone.with_side(player, Side((*side.cards, card)))
    return Board(Variant.TACTICAL if tactical else Variant.BASE, tuple(stones))


def timed(check: Callable[[], T]) -> tuple[float, T]:
    start = time.perf_counter()
    result = check()
    return time.perf_counter() - start, result


def bench_claims(count: int, brute_count: int, seed: int) -> None:
    # The brute force of `schotten verify` (the verify extra: NumPy), on the whole board.
    from schotten.verify.brute import BruteVerdict, brute_judge
    from schotten.verify.spaces import board_item

    def brute(board: Board) -> BruteVerdict:
        return brute_judge(board_item(board, CLAIMER, 1).position)

    print(f"Claim checks ({count} positions a set, seed {seed}; brute force on {brute_count})")
    print(f"  {'set':<10} {'checks/s':>10} {'mean µs':>9} {'worst µs':>9} {'speed-up':>10}")
    speedups = []
    for kind in SETS:
        rng = random.Random(f"{seed}-{kind}")
        boards = [position(rng, kind) for _ in range(count)]
        # Each position is timed five times and keeps its fastest run: the figure is the cost of
        # the check, not of whatever else the machine did (the engine caches nothing).
        gc.disable()
        times = [
            min(timed(partial(judge_stone, board, CLAIMER, 1))[0] for _ in range(5))
            for board in boards
        ]
        gc.enable()
        fast_total = brute_total = 0.0
        for board, fast_time in zip(boards[:brute_count], times, strict=False):
            elapsed, slow = timed(partial(brute, board))
            fast = judge_stone(board, CLAIMER, 1)
            if str(fast.reason) != slow.reason:
                sys.exit(f"disagreement with the brute force on {board}")
            brute_total += elapsed
            fast_total += fast_time
        speedup = brute_total / fast_total
        speedups.append(speedup)
        print(
            f"  {kind:<10} {len(times) / sum(times):>10,.0f} "
            f"{statistics.mean(times) * 1e6:>9.1f} {max(times) * 1e6:>9.1f} {speedup:>9,.0f}x"
        )


def bench_games(count: int, seed: int) -> None:
    from schotten.records import random_game

    print(f"Random complete games ({count} a variant, seeds from {seed})")
    for variant in Variant:
        start = time.perf_counter()
        moves = 0
        for i in range(count):
            record = random_game(seed + i, variant)
            moves += len(record.moves)
        elapsed = time.perf_counter() - start
        print(
            f"  {variant.value:<10} {count / elapsed:>8,.1f} games/s "
            f"({moves / count:.0f} moves a game)"
        )


# Perft nodes a second at depth 4 as this bench measured them while every node copied the game.
PERFT_BENCH_DEPTH = 4
PERFT_BEFORE_PUSH_POP = {Variant.BASE: 248_000, Variant.TACTICAL: 356_000}


def bench_perft(depth: int) -> None:
    """Perft from the conformance suite's positions: move sequences counted a second."""
    from schotten.conformance.perft import perft
    from schotten.conformance.vectors import PERFT_SEEDS, perft_start

    print(f"Perft to depth {depth} (the suite's positions: 3 deals a variant, and 75 moves later;")
    print("  the best of repeated runs over at least a second, push/pop without copies)")
    for variant in Variant:
        starts = [perft_start(variant, s, m) for s in PERFT_SEEDS for m in (False, True)]
        nodes, best, spent = 0, 0.0, 0.0
        while spent < 1.0:
            start = time.perf_counter()
            nodes = sum(perft(game, depth) for game in starts)
            elapsed = time.perf_counter() - start
            spent += elapsed
            best = max(best, nodes / elapsed)
        target = ""
        if depth == PERFT_BENCH_DEPTH:
            goal = 4 * PERFT_BEFORE_PUSH_POP[variant]
            verdict = "within" if best >= goal else "OUTSIDE"
            target = f"  ({verdict} the target {goal:,}: 4x {PERFT_BEFORE_PUSH_POP[variant]:,})"
        print(f"  {variant.value:<10} {nodes:>9,} nodes {best:>11,.0f} nodes/s{target}")
