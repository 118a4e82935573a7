"""Publish the site only when everything passes: the tests, then a strict build.

``scripts/publish`` runs :func:`main`: it takes the publish lock (a second publish of the same site
refuses at once, saying so), runs the gate (``scripts/gate``: verdicts, lint and types, tests, the
same steps as CI), then ``mkdocs build --strict``. The build itself never writes into the
published folder: the MkDocs plugin (:mod:`schotten.site.plugin`) builds into a fresh folder
beside it and swaps it in with :func:`swap_in` only once the build has passed, so a failure or an
interruption at any step leaves the previous site exactly as it was, and no folder behind.

Folders are created with the mode the umask gives (0755 with the usual 022), as MkDocs does.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import secrets
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import FrameType


class PublishBusy(Exception):
    """Another publish of the same site holds its lock."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="scripts/publish",
        description="Run the tests, build the site strictly, and swap it in only on success.",
    )
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="the project (mkdocs.yml)")
    parser.add_argument("--site-dir", type=Path, help="where the site goes (default: ROOT/site)")
    parser.add_argument(
        "--skip-tests", action="store_true", help="build only (the tests ran in an earlier step)"
    )
    args = parser.parse_args(argv)
    root = args.root.resolve()
    if not (root / "mkdocs.yml").is_file():
        parser.error(f"{root} has no mkdocs.yml")
    site = (args.site_dir or root / "site").resolve()
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    site.parent.mkdir(parents=True, exist_ok=True)
    try:
        with publish_lock(site), signals_as_exit():
            if not args.skip_tests:
                _say("running the gate: verdicts, lint and types, tests (scripts/gate)")
                if run_child(gate_command(root), root, {**env, "PYTHON": sys.executable}):
                    return _fail("the gate failed (its step is named above): nothing was published")
            _say(f"building into a fresh folder beside {site}")
            command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)]
            if run_child(command, root, env):
                return _fail(f"the build failed: {site} is unchanged")
    except PublishBusy as exc:
        return _fail(str(exc))
    except SystemExit as exc:  # SIGTERM or SIGINT: the build has stopped and cleaned up
        return _fail(f"interrupted: {site} is unchanged") if exc.code else 0
    _say(f"published {site}")
    return 0


def gate_command(root: Path) -> list[str]:
    """The gate's checks before a build, the same steps as CI's (``scripts/gate``)."""
    return ["bash", str(root / "scripts" / "gate"), "verdicts", "lint", "tests", "--", "-q"]


@contextlib.contextmanager
def publish_lock(site: Path) -> Iterator[None]:
    """Hold the publish lock of ``site`` (a file beside it), or raise :class:`PublishBusy`."""
    path = site.parent / f".{site.name}.publish.lock"
    with open(path, "a+b") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise PublishBusy(
                f"another publish of {site} is running (it holds {path}): "
                "wait for it to finish, then publish again"
            ) from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


# A terminal's hang-up stops a command as a kill or Ctrl-C does.
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


@contextlib.contextmanager
def signals_as_exit(noted: Callable[[int], None] | None = None) -> Iterator[None]:
    """SIGTERM, SIGINT and SIGHUP raise :class:`SystemExit` here (after ``noted(signum)``, if
    given), so that ``finally`` blocks (stopping a child, removing a folder) run on a kill too.
    Outside the main thread, nothing changes."""

    def stop(signum: int, frame: FrameType | None) -> None:
        if noted is not None:
            noted(signum)
        raise SystemExit(128 + signum)

    try:
        previous = {s: signal.signal(s, stop) for s in STOP_SIGNALS}
    except ValueError:  # not the main thread: signals go elsewhere
        yield
        return
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def run_child(command: Sequence[str], cwd: Path, env: dict[str, str]) -> int:
    """Run ``command``; if this process is stopped meanwhile, stop the child first and wait for it
    (its own clean-up runs), so that nothing goes on writing after we are gone."""
    child = subprocess.Popen(command, cwd=cwd, env=env)
    try:
        return child.wait()
    except BaseException:
        child.terminate()
        try:
            child.wait(timeout=60)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        raise


def new_folder(parent: Path, prefix: str) -> Path:
    """A new empty folder in ``parent``, with the mode the umask gives (unlike ``mkdtemp``),
    named after this process (``prefix<pid>-<random>``: :func:`recover` knows whose it is)."""
    while True:
        path = parent / f"{prefix}{os.getpid()}-{secrets.token_hex(4)}"
        try:
            path.mkdir(mode=0o777)
        except FileExistsError:
            continue
        return path


def recover(site: Path) -> list[Path]:
    """Put back what an interrupted build left (a crash, SIGKILL): under the swap lock, the old
    site when a swap stopped between its two renames (no ``site``, an ``.site-old-*`` beside it),
    then remove the other old sites and the fresh folders of builds no longer running. Returns
    what was removed or put back."""
    done: list[Path] = []
    with _swap_lock(site):
        olds = sorted(site.parent.glob(f".{site.name}-old-*"), key=_modified)
        if olds and not (site.exists() or site.is_symlink()):
            olds.pop().rename(site)  # the newest: the one the swap had just moved aside
            done.append(site)
        for old in olds:
            shutil.rmtree(old, ignore_errors=True)
            done.append(old)
        for fresh in site.parent.glob(f".{site.name}-new-*"):
            if not _running(fresh.name.removeprefix(f".{site.name}-new-").partition("-")[0]):
                shutil.rmtree(fresh, ignore_errors=True)
                done.append(fresh)
    return done


def _modified(path: Path) -> float:
    try:
        return path.lstat().st_mtime
    except OSError:
        return 0.0


def _running(pid: str) -> bool:
    """Whether the process ``pid`` still runs (a name that holds no pid: say it does, and keep
    the folder)."""
    if not pid.isdigit():
        return True
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


@contextlib.contextmanager
def _swap_lock(site: Path) -> Iterator[None]:
    with open(site.parent / f".{site.name}.lock", "a+b") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def swap_in(fresh: Path, site: Path) -> None:
    """Put ``fresh`` in place of ``site`` (renames on one file system, under the site's swap lock,
    so that two builds finishing together take turns), then drop the old site. Stopped between
    the two renames, it leaves the old site in an ``.site-old-*`` folder, which :func:`recover`
    (at the next build) puts back."""
    old = None
    with _swap_lock(site):
        # The two renames go together: a stop signal waits until both are done (or undone).
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        try:
            if site.exists() or site.is_symlink():
                old = site.parent / f".{site.name}-old-{secrets.token_hex(4)}"
                site.rename(old)
            try:
                fresh.rename(site)
            except BaseException:
                if old is not None:
                    old.rename(site)  # the previous site stays published
                raise
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def _say(message: str) -> None:
    print(f"publish: {message}", file=sys.stderr)


def _fail(message: str) -> int:
    print(f"publish: error: {message}", file=sys.stderr)
    return 1


def entrypoint() -> None:
    raise SystemExit(main())
