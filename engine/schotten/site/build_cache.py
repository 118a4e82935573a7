"""What site builds keep for one another: files made from their inputs alone (the checker's
Zopfli copies and bytecode, the pages' preview pictures), each named by a hash of what it is
made from, in ``node_modules/.cache/schotten-site`` (untracked, beside what they derive from).

Builds side by side share the work: an entry is made under a lock of its own
(:func:`making`), and written aside then renamed (:func:`put`): a build reading the cache sees
a whole file or none.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Callable, Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]  # the checkout the site is built from
CACHE = REPO / "node_modules" / ".cache" / "schotten-site"


@contextlib.contextmanager
def making(cached: Path | None, *, wait: bool) -> Iterator[bool]:
    """Whether this build may make the cache entry ``cached`` (it holds the entry's lock,
    ``<entry>.lock``, for the block). Two builds side by side (the tests build two sites at
    once) with an empty cache then share the work: each makes what the other is not making,
    and copies the rest once made. ``wait`` false: False at once while another build holds it."""
    if cached is None:
        yield True
        return
    cached.parent.mkdir(parents=True, exist_ok=True)
    with cached.with_name(cached.name + ".lock").open("w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def keep(made: Path, cached: Path) -> None:
    """A copy of ``made`` at ``cached`` (see :func:`put`)."""
    put(cached, made.read_bytes())


def put(cached: Path, data: bytes) -> None:
    """``data`` at ``cached``, written aside and renamed: another build reading the cache at the
    same time sees the whole file or none."""
    cached.parent.mkdir(parents=True, exist_ok=True)
    partial = cached.with_name(f"{cached.name}.{os.getpid()}.part")
    partial.write_bytes(data)
    partial.replace(cached)


def kept_bytes(cached: Path | None, make: Callable[[], bytes]) -> bytes:
    """What ``make`` returns, taken from the cache entry ``cached`` when a build made it before
    (``None``: no cache, made every time)."""
    if cached is None:
        return make()
    with making(cached, wait=True):
        if cached.is_file():
            return cached.read_bytes()
        data = make()
        put(cached, data)
    return data
