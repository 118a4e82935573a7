"""The computer player's benchmark: its win rate against the simple players on paired deals, and
the time it takes to choose a move.

Each deal is shuffled from a seed and played twice, seats swapped (the computer first, then the
opponent first, on the same cards), so that the luck of the deal weighs on both sides alike. The
win rate counts games won (a drawn round, a deadlock with no winner, is not a win) and comes with
its Wilson 95 % interval. Move times are the CPU time of each call of the computer player at a
play step (the claim and draw steps answer at once), in this Python.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from schotten.board import Player, Variant
from schotten.bot import choose_move
from schotten.game import Game
from schotten.moves import Move
from schotten.players import greedy_player, random_player
from schotten.turn import Phase

Chooser = Callable[..., Move]
OPPONENTS: dict[str, Chooser] = {"random": random_player, "greedy": greedy_player}
MAX_MOVES = 5_000


@dataclass
class Tally:
    """The results of the computer's games against one opponent in one variant."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    times: list[float] = field(default_factory=list)  # seconds, each call at a play step

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def add(self, other: Tally) -> None:
        self.wins += other.wins
        self.draws += other.draws
        self.losses += other.losses
        self.times += other.times


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default).

    >>> low, high = wilson(95, 100)
    >>> round(low, 3), round(high, 3)
    (0.888, 0.978)
    """
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def play_game(
    variant: Variant, deal: int, first: Chooser, second: Chooser, times: list[float] | None = None
) -> Game:
    """A whole game on deal ``deal``; ``times`` collects the CPU time of each call of
    :func:`choose_move` at a play step."""
    game = Game(variant, seed=deal)
    players = {Player.FIRST: first, Player.SECOND: second}
    while game.outcome is None:
        if len(game.history) >= MAX_MOVES:
            raise RuntimeError(f"deal {deal} ({variant}) did not end in {MAX_MOVES} moves")
        chooser = players[game.to_move]
        seed = deal * 10_000 + len(game.history)
        timed = times is not None and chooser is choose_move
        timed = timed and game.phase in (Phase.PLAY, Phase.RETURN)
        start = time.process_time()
        move = chooser(game, seed=seed)
        if timed:
            assert times is not None
            times.append(time.process_time() - start)
        game.apply(move)
    return game


def paired(
    variant: Variant,
    opponent: Chooser,
    deals: range,
    progress: Callable[[Tally], None] | None = None,
) -> Tally:
    """The computer against ``opponent`` on each deal, twice: seats swapped; ``progress`` sees
    the tally after each deal."""
    tally = Tally()
    for deal in deals:
        for seat in (Player.FIRST, Player.SECOND):
            bot_first = seat is Player.FIRST
            first, second = (choose_move, opponent) if bot_first else (opponent, choose_move)
            game = play_game(variant, deal, first, second, tally.times)
            assert game.outcome is not None
            winner = game.outcome.winner
            if winner is None:
                tally.draws += 1
            elif winner is seat:
                tally.wins += 1
            else:
                tally.losses += 1
        if progress is not None:
            progress(tally)
    return tally


def describe(name: str, variant: Variant, tally: Tally, seconds: float) -> str:
    low, high = wilson(tally.wins, tally.games)
    rate = tally.wins / tally.games if tally.games else 0.0
    times = sorted(tally.times)
    median = statistics.median(times) * 1000 if times else 0.0
    worst = times[-1] * 1000 if times else 0.0
    return (
        f"  {variant:<8} vs {name:<6} {tally.games:>5} games: won {tally.wins}, drawn "
        f"{tally.draws}, lost {tally.losses}: {rate:6.1%} [{low:.1%}, {high:.1%}] "
        f"| move {median:.1f} ms median, {worst:.1f} ms worst | "
        f"{tally.games / seconds:.2f} games/s"
    )


def run(
    games: int,
    *,
    variants: tuple[Variant, ...] = tuple(Variant),
    opponents: tuple[str, ...] = tuple(OPPONENTS),
    first_deal: int = 0,
    every: int = 0,
) -> None:
    """Print the section: ``games`` games (``games // 2`` paired deals) per variant and
    opponent; with ``every``, a running line each ``every`` games too."""
    print(f"play: the computer player on paired deals ({games} games per line)", flush=True)
    deals = range(first_deal, first_deal + max(1, games // 2))
    for variant in variants:
        for name in opponents:
            start = time.perf_counter()

            def progress(
                tally: Tally, name: str = name, variant: Variant = variant, start: float = start
            ) -> None:
                if every and tally.games % every == 0 and tally.games < len(deals) * 2:
                    seconds = time.perf_counter() - start
                    print("  so far:" + describe(name, variant, tally, seconds)[1:], flush=True)

            tally = paired(variant, OPPONENTS[name], deals, progress)
            print(describe(name, variant, tally, time.perf_counter() - start), flush=True)


def main(argv: list[str] | None = None) -> None:
    import argparse

    parser = argparse.ArgumentParser(description="the computer player's benchmark")
    parser.add_argument("--games", type=int, default=1000, help="games per variant and opponent")
    parser.add_argument("--variant", choices=[v.value for v in Variant], action="append")
    parser.add_argument("--opponent", choices=list(OPPONENTS), action="append")
    parser.add_argument("--first-deal", type=int, default=0)
    parser.add_argument("--every", type=int, default=0, help="a running line every N games")
    args = parser.parse_args(argv)
    run(
        args.games,
        variants=tuple(Variant(v) for v in args.variant) if args.variant else tuple(Variant),
        opponents=tuple(args.opponent) if args.opponent else tuple(OPPONENTS),
        first_deal=args.first_deal,
        every=args.every,
    )


if __name__ == "__main__":
    main()
