"""What ``schotten verify``'s options are made of: the spaces' names and the command's defaults.

Kept apart from :mod:`schotten.verify.spaces` (NumPy) and :mod:`schotten.verify.run` (Dask), so
that the command line is built without them: every other command starts without the verify
extra's modules, and ``schotten verify --help`` answers without them. ``SPACES`` of
:mod:`schotten.verify.spaces` holds these names, in this order (a test checks it).
"""

from __future__ import annotations

from pathlib import Path

SPACE_NAMES = (
    "base-one-stone",
    "base-one-stone-complete",
    "mud-one-stone",
    "blind-one-stone",
    "mud-blind-one-stone",
    "elite-one-stone",
    "sampled",
)
DEFAULT_TIMEOUT = 20.0  # seconds to wait for a scheduler's answer
DEFAULT_STORE = Path(".verify") / "results.sqlite"  # the finished chunks, to resume a run
