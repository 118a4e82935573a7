"""Run a space on a Dask cluster: chunks out with ``client.map``, results back as they finish
(``as_completed``) into the store, a progress line on stderr, the report at the end.

Dask is imported here only, so the engine itself never needs it. An address given with
``--scheduler`` is checked before Dask sees it: Dask trusts its peer (the first bytes it reads are
taken as the length of a message to allocate, and it waits for the handshake without a deadline),
so the address must be ``tcp://host:port`` and the peer must greet like a Dask scheduler within
the timeout.
"""

from __future__ import annotations

import contextlib
import datetime
import logging
import os
import socket
import struct
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any

from schotten.errors import SchottenError
from schotten.verify.check import ChunkResult, Disagreement, Judge, check_chunk
from schotten.verify.names import DEFAULT_TIMEOUT
from schotten.verify.report import Totals, space_digest, totals
from schotten.verify.spaces import SPACES
from schotten.verify.store import Run, Store

if TYPE_CHECKING:
    from distributed import Client

INSTALL_HINT = "schotten verify needs Dask: pip install 'schotten[verify]' (dask[distributed])"


#: The most chunks a split may have: one store row each, and even the largest space
#: (``elite-one-stone``, 2 million units) is a second of work a chunk well below it.
MAX_CHUNKS = 1_000_000
#: A scheduler's greeting (its handshake) is a few hundred bytes; a length past this is no Dask.
_MAX_GREETING = 1 << 20


class VerifyError(SchottenError):
    """A problem the user can fix (bad shard, no Dask, no scheduler at an address)."""


@dataclass(frozen=True)
class Summary:
    space: str
    count: int  # chunks in the space
    wanted: int  # chunks of this shard
    computed: int  # chunks computed by this run
    reused: int  # chunks found in the store
    totals: Totals  # over this shard's chunks
    complete: bool  # every chunk of the space is in the store
    wall: float
    workers: int
    found: tuple[Disagreement, ...]


def dask_client_module() -> Any:
    try:
        import distributed
    except ImportError as exc:
        raise VerifyError(INSTALL_HINT) from exc
    return distributed


def chunk_count(space_name: str, chunks: int | None) -> int:
    """The number of chunks to split the space into: ``chunks``, or the space's own."""
    count = chunks or SPACES[space_name].chunks
    if not 1 <= count <= MAX_CHUNKS:
        raise VerifyError(
            f"--chunks {count}: a space is split into at most {MAX_CHUNKS:,} chunks "
            f"({SPACES[space_name].chunks:,} for {space_name} unless told)"
        )
    return count


def scheduler_address(address: str) -> tuple[str, int]:
    """The host and port of ``tcp://host:port`` (or ``host:port``, as Dask takes it).

    >>> scheduler_address("tcp://10.0.0.5:8786"), scheduler_address("[::1]:8786")
    (('10.0.0.5', 8786), ('::1', 8786))
    """
    shape = "give the scheduler's address as tcp://host:port"
    if not address.strip():
        raise VerifyError(f"--scheduler '': {shape}, or leave --scheduler out for a local cluster")
    scheme, sep, location = address.rpartition("://")
    if sep and scheme != "tcp":
        raise VerifyError(
            f"--scheduler {address}: {scheme}:// addresses are not supported here: {shape} "
            "(the address `dask scheduler` prints)"
        )
    if location.startswith("["):  # an IPv6 address: [::1]:8786
        host, bracket, rest = location[1:].partition("]")
        colon, port = rest[:1], rest[1:]
        if not bracket:
            colon = ""
    else:
        host, colon, port = location.rpartition(":")
    if not colon:
        raise VerifyError(f"--scheduler {address}: no port in it: {shape}")
    if not host or any(c.isspace() or c in "/?#@[]" for c in host):
        raise VerifyError(f"--scheduler {address}: no host in it: {shape}")
    if not port.isascii() or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise VerifyError(f"--scheduler {address}: {port!r} is not a port (1 to 65535): {shape}")
    return host, int(port)


def greet_scheduler(address: str, timeout: float) -> str:
    """``tcp://host:port`` of a peer at ``address`` that greets like a Dask scheduler within
    ``timeout`` seconds, else :class:`VerifyError` saying what answered there."""
    host, port = scheduler_address(address)
    url = f"tcp://[{host}]:{port}" if ":" in host else f"tcp://{host}:{port}"
    try:
        peer = socket.create_connection((host, port), timeout=timeout)
    except TimeoutError as exc:
        raise VerifyError(
            f"no Dask scheduler answers at {url}: no connection within {timeout:g} s "
            "(--timeout): is the address right, and the machine reachable?"
        ) from exc
    except OSError as exc:
        raise VerifyError(
            f"no Dask scheduler at {url}: {exc.strerror or exc}: start one there "
            "(`dask scheduler`), or leave --scheduler out for a local cluster"
        ) from exc
    deadline = time.monotonic() + timeout  # for the whole greeting, however it trickles in
    with peer:
        try:
            # A Dask peer speaks first: an 8-byte length, then that many bytes of handshake.
            (length,) = struct.unpack("Q", _receive(peer, 8, deadline))
            if not 0 < length <= _MAX_GREETING:
                raise VerifyError(
                    f"{url} answers, but not as a Dask scheduler does: is it the "
                    "scheduler's port (8786 unless told), not its dashboard or another service?"
                )
            _receive(peer, length, deadline)
        except TimeoutError as exc:
            raise VerifyError(
                f"{url} accepts connections but does not answer within {timeout:g} s "
                "(--timeout): a Dask scheduler greets at once; is it the scheduler's port?"
            ) from exc
        except OSError as exc:
            raise VerifyError(
                f"{url} closed the connection before greeting as a Dask scheduler does "
                f"({exc.strerror or exc}): is it the scheduler's port?"
            ) from exc
    return url


def _receive(peer: socket.socket, size: int, deadline: float) -> bytes:
    data = bytearray()
    while len(data) < size:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        peer.settimeout(left)
        chunk = peer.recv(min(size - len(data), 65536))
        if not chunk:
            raise ConnectionResetError(0, "connection closed")
        data += chunk
    return bytes(data)


@contextlib.contextmanager
def connect(
    scheduler: str | None, workers: int | None, timeout: float = DEFAULT_TIMEOUT
) -> Iterator[Client]:
    """A client of the cluster at ``scheduler``, or of a local cluster started (and stopped)
    here: one process per core, one thread each (the work is pure Python: processes, not
    threads)."""
    distributed = dask_client_module()
    if scheduler is not None:
        url = greet_scheduler(scheduler, timeout)
        try:
            client = distributed.Client(url, timeout=timeout)
        except (OSError, TimeoutError, ValueError) as exc:
            raise VerifyError(f"no Dask scheduler answers at {url}: {exc}") from exc
        with client:
            try:
                client.wait_for_workers(1, timeout=120)
            except TimeoutError as exc:
                raise VerifyError(f"the scheduler at {url} has no worker") from exc
            yield client
        return
    cluster = distributed.LocalCluster(
        n_workers=workers or os.cpu_count() or 1,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",  # any free port: several runs may share a machine
        # A worker that loses its scheduler while the cluster shuts down is no news.
        silence_logs=logging.CRITICAL,
    )
    with cluster, distributed.Client(cluster) as client:
        yield client


def worker_count(client: Client) -> int:
    return sum(w["nthreads"] for w in client.scheduler_info()["workers"].values())


def shard_chunks(count: int, shard: tuple[int, int]) -> list[int]:
    """The chunks of shard ``I/N`` (1-based): every N-th chunk from the I-th.

    >>> shard_chunks(10, (2, 3))
    [1, 4, 7]
    """
    part, parts = shard
    if not 1 <= part <= parts:
        raise VerifyError(f"shard {part}/{parts}: expected I/N with 1 <= I <= N")
    return list(range(part - 1, count, parts))


def verify_space(
    space_name: str,
    *,
    store: Store,
    count: int,
    shard: tuple[int, int] = (1, 1),
    scheduler: str | None = None,
    workers: int | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    on_result: Callable[[ChunkResult], None] | None = None,
    progress: IO[str] | None = None,
) -> Summary:
    """:func:`run_space` on the cluster of :func:`connect`, connected only when the shard has
    chunks left to compute (a finished shard is summed up from the store alone)."""
    engine = space_digest(space_name)
    done = store.done(space_name, count, engine)
    if all(i in done for i in shard_chunks(count, shard)):
        return run_space(space_name, client=None, store=store, count=count, shard=shard)
    with connect(scheduler, workers, timeout) as client:
        return run_space(
            space_name,
            client=client,
            store=store,
            count=count,
            shard=shard,
            on_result=on_result,
            progress=progress,
        )


def run_space(
    space_name: str,
    *,
    client: Client | None,
    store: Store,
    count: int | None = None,
    shard: tuple[int, int] = (1, 1),
    judge: Judge | None = None,
    on_result: Callable[[ChunkResult], None] | None = None,
    progress: IO[str] | None = None,
) -> Summary:
    """Check every chunk of the shard not yet in the store; return the shard's summary.
    ``client`` may be ``None`` when every chunk of the shard is in the store."""
    space = SPACES[space_name]
    count = count or space.chunks
    engine = space_digest(space_name)
    wanted = shard_chunks(count, shard)
    done = store.done(space_name, count, engine)
    todo = [i for i in wanted if i not in done]
    if client is None:
        if todo:
            raise ValueError(f"{len(todo)} chunks to compute and no cluster")
        return _summary(space_name, store, count, wanted, 0, 0.0, 0, ())
    distributed = dask_client_module()
    workers = worker_count(client)
    started = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    clock = time.perf_counter()
    bar = Progress(space_name, len(todo), progress)
    found: list[Disagreement] = []
    computed = 0
    extra: dict[str, Any] = {} if judge is None else {"judge": judge}
    futures = client.map(
        check_chunk, [space_name] * len(todo), todo, [count] * len(todo), pure=False, **extra
    )
    try:
        for future in distributed.as_completed(futures):
            result: ChunkResult = future.result()
            store.save(result, engine)
            computed += 1
            found += result.disagreements
            bar.update(result)
            if on_result is not None:
                on_result(result)
    finally:
        client.cancel(futures)  # type: ignore[no-untyped-call]
        wall = time.perf_counter() - clock
        workers = max(workers, worker_count(client))  # workers may join a cluster as it runs
        if computed:
            store.add_run(space_name, count, engine, Run(started, wall, workers, computed))
        bar.close()
    return _summary(space_name, store, count, wanted, computed, wall, workers, tuple(found))


def _summary(
    space_name: str,
    store: Store,
    count: int,
    wanted: list[int],
    computed: int,
    wall: float,
    workers: int,
    found: tuple[Disagreement, ...],
) -> Summary:
    engine = space_digest(space_name)
    results = store.results(space_name, count, engine, wanted)
    every = store.done(space_name, count, engine)
    return Summary(
        space_name,
        count,
        len(wanted),
        computed,
        len(wanted) - computed,
        totals(results),
        every == set(range(count)),
        wall,
        workers,
        found,
    )


class Progress:
    """``base-one-stone [#####.....] 120/400 chunks  52,113 positions  6,050/s  ETA 0:01:31``,
    redrawn in place on a terminal, one line every 10 s otherwise."""

    def __init__(self, label: str, total: int, stream: IO[str] | None) -> None:
        self.label = label
        self.total = total
        self.stream = stream
        self.done = 0
        self.classes = 0
        self.start = time.perf_counter()
        self.last = 0.0
        self.tty = stream is not None and stream.isatty()

    def update(self, result: ChunkResult) -> None:
        self.done += 1
        self.classes += result.classes
        now = time.perf_counter()
        if self.stream is None:
            return
        if self.tty or now - self.last >= 10 or self.done == self.total:
            self.last = now
            self.stream.write(
                ("\r" if self.tty else "") + self.line(now) + ("" if self.tty else "\n")
            )
            self.stream.flush()

    def line(self, now: float) -> str:
        elapsed = max(now - self.start, 1e-9)
        width = 20
        filled = width * self.done // max(self.total, 1)
        rate = self.classes / elapsed
        left = elapsed / self.done * (self.total - self.done) if self.done else 0.0
        return (
            f"{self.label} [{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} chunks"
            f"  {self.classes:,} positions  {rate:,.0f}/s  ETA {_clock(left)}"
        )

    def close(self) -> None:
        if self.stream is not None and self.tty and self.done:
            self.stream.write("\n")
            self.stream.flush()


def _clock(seconds: float) -> str:
    return str(datetime.timedelta(seconds=round(seconds)))


def printable(summary: Summary) -> list[tuple[str, str]]:
    """The summary table, as (label, value) rows."""
    t = summary.totals
    space = SPACES[summary.space]
    raw = space.raw_size()
    classes = space.class_count()
    rows = [
        ("space", summary.space),
        (
            "chunks",
            f"{summary.wanted:,} of {summary.count:,} "
            f"({summary.computed:,} computed now, {summary.reused:,} from the store)",
        ),
        ("classes checked", f"{t.classes:,}" + (f" of {classes:,}" if classes else "")),
        ("positions covered", f"{t.positions:,}" + (f" of {raw:,}" if raw else "")),
    ]
    for reason, tally in t.reasons.items():
        rows.append(
            (f"  {reason}", f"{tally['classes']:,} classes, {tally['positions']:,} positions")
        )
    rows += [
        ("completions tried", f"{t.completions:,}"),
        ("disagreements", f"{len(t.disagreements):,}"),
        # A run that only merges or finds every chunk done computes nothing: 0 s, 0 workers.
        ("time", f"{summary.wall:,.1f} s wall now, {t.cpu_seconds:,.1f} s of workers (all runs)"),
        ("workers", f"{summary.workers} now"),
        ("space complete", "yes" if summary.complete else "no"),
    ]
    return rows


def print_summary(summary: Summary, out: IO[str] | None = None) -> None:
    """The summary's rows on ``out`` (the standard output as it is when called: a default of
    ``sys.stdout`` would keep the one there was at import)."""
    out = sys.stdout if out is None else out
    rows = printable(summary)
    width = max(len(label) for label, _ in rows)
    for label, value in rows:
        print(f"{label:<{width}}  {value}", file=out)
