"""Benchmark: claim proofs, against the brute force, random whole games, the checker.

Prints figures only; nothing here asserts a time. Run from the repository (``scripts/bench`` is
the launcher):

    scripts/bench            # the full set
    scripts/bench --quick    # fewer positions and games
    scripts/bench --only checker [--site DIR]   # one section (see SECTIONS)

The claims and verify sections need the ``verify`` extra (the brute force of ``schotten verify``
is array code); checker, pages and play need the site and a browser (``scripts/setup``). The verify
section prints, for each space, on the same evenly spaced chunks: the brute force's completions
and positions per CPU second, the whole check's positions per CPU second in this process (no
Dask) and the raw positions they stand for, the projected time of the whole space on one core,
and positions per wall second with 1 and 2 local Dask workers. Perft (the conformance suite's
move-sequence counts) is printed in nodes a second, for reference, and a conformance run through
the protocol in vectors a second. Each module's docstring gives its targets.

A section is one function of :class:`Options` in :data:`SECTIONS`, in the order they run: to add
one, write its function (in a module of this package) and name it there.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Options:
    """What every section may read: the command line, and the project's folder."""

    quick: bool  # a smaller set, for a quick look
    seed: int
    site: Path | None  # a built site to serve (checker, pages); None: build one
    root: Path  # the repository (mkdocs.yml, conformance/)


def claims(options: Options) -> None:
    from schotten.bench.engine import bench_claims

    count, brute = (200, 20) if options.quick else (2000, 60)
    bench_claims(count, brute, options.seed)


def games(options: Options) -> None:
    from schotten.bench.engine import bench_games

    bench_games(100 if options.quick else 500, options.seed)


def perft(options: Options) -> None:
    from schotten.bench.engine import bench_perft

    bench_perft(3 if options.quick else 4)


def conformance(options: Options) -> None:
    from schotten.conformance.bench import bench

    bench(options.root / "conformance", 200 if options.quick else None)


def verify(options: Options) -> None:
    from schotten.bench.verify import bench_verify

    bench_verify(4 if options.quick else 8)


def checker(options: Options) -> None:
    from schotten.bench.browser import bench_checker

    bench_checker(options.site, 1 if options.quick else 3, options.root)


def pages(options: Options) -> None:
    from schotten.bench.browser import bench_pages

    bench_pages(options.site, options.root)


def play(options: Options) -> None:
    from schotten import bot_bench
    from schotten.bench.play_browser import bench_play_browser

    # The computer player on paired deals: win rates with their intervals, move time; then its
    # move time in the page's worker, and the page's main thread, in a browser.
    bot_bench.run(100 if options.quick else 1000)
    bench_play_browser(options.site, 1 if options.quick else 3, options.seed, options.root)


# Each section imports what it measures only when it runs: a section whose extra is missing does
# not stop the others from being listed or run.
SECTIONS: dict[str, Callable[[Options], None]] = {
    "claims": claims,
    "games": games,
    "perft": perft,
    "conformance": conformance,
    "verify": verify,
    "checker": checker,
    "pages": pages,
    "play": play,
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="scripts/bench", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="the repository")
    parser.add_argument("--quick", action="store_true", help="a smaller set, for a quick look")
    parser.add_argument("--seed", type=int, default=2016)
    parser.add_argument("--only", choices=SECTIONS, help="one section only")
    parser.add_argument("--site", type=Path, help="checker: a built site to serve (default: build)")
    args = parser.parse_args(argv)
    options = Options(args.quick, args.seed, args.site, args.root.resolve())
    for name, section in SECTIONS.items():
        if args.only in (None, name):
            section(options)
    return 0
