"""Benchmark of ``schotten verify``: in this process and on a local Dask cluster."""

from __future__ import annotations

import os


def bench_verify(chunks: int) -> None:
    """`schotten verify` on the same evenly spaced chunks of each space: in this process (CPU
    seconds), the brute force alone (completions and positions a CPU second) and the whole check
    (the classes, the engine's proof, the brute force, the witnesses: positions a CPU second,
    and the raw positions they stand for), the projected time of the whole space on one core;
    then on a local Dask cluster of 1 and of 2 workers (positions a wall second, their ratio)."""
    try:
        from schotten.verify.bench import (
            measure,
            measure_brute,
            measure_in_process,
            projected_seconds,
            sample,
        )
        from schotten.verify.run import dask_client_module

        dask_client_module()
    except Exception as exc:  # the verify extra is optional
        print(f"Exhaustive verification: skipped ({exc})")
        return
    from schotten.verify.spaces import SPACES

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"Exhaustive verification ({chunks} evenly spaced chunks of each space; load {load})")
    print("  In this process, per CPU second (a position: one class, checked once):")
    print(
        f"  {'space':<24} {'chunks':>13} {'positions':>9} {'completions':>13}"
        f" {'brute compl/s':>14} {'brute pos/s':>12} {'check pos/s':>12} {'raw pos/s':>13}"
        f" {'1 core':>8}"
    )
    alone = {}
    for name in SPACES:
        count, indices = sample(name, chunks)
        brute = measure_brute(name, chunks)
        alone[name] = measure_in_process(name, chunks)
        whole = projected_seconds(name, alone[name], 1)
        print(
            f"  {name:<24} {f'{len(indices)} of {count:,}':>13} {brute.classes:>9,}"
            f" {brute.completions:>13,} {brute.per_cpu_second(brute.completions):>14,.0f}"
            f" {brute.per_cpu_second(brute.classes):>12,.0f}"
            f" {alone[name].per_second(alone[name].classes):>12,.0f}"
            f" {alone[name].per_second(alone[name].positions):>13,.0f} {_duration(whole):>8}"
        )
    print("  brute: the brute force alone; check: the whole check of a chunk (check_chunk);")
    print("  raw pos/s: the positions of the space the checked classes stand for;")
    print("  1 core: the whole space at the check's rate (a sample's rate: the chunks differ)")
    print("  On a local Dask cluster, positions per wall second (start-up not counted):")
    print(f"  {'space':<24} {'1 worker':>9} {'2 workers':>10} {'ratio':>6}")
    for name in SPACES:
        one = measure(name, 1, chunks)
        two = measure(name, 2, chunks)
        print(
            f"  {name:<24} {one.per_second(one.classes):>9,.0f}"
            f" {two.per_second(two.classes):>10,.0f}"
            f" {two.per_second(two.classes) / one.per_second(one.classes):>6.2f}"
        )
    print("  (a few chunks are seconds of work: verification/README.md has a longer 1 -> 2 run)")


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
