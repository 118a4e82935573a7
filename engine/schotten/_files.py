"""Reading a file without trusting it, and replacing one all at once.

Every command reads its users' files (cases, records, suites, stores, pages) through
:func:`read_regular_file` and writes every file it produces through :func:`write_atomically`:

- a read takes regular files only (a FIFO, a device, a folder or a link to one is refused before
  it is opened, and checked again once open, so a swapped path cannot make it wait) and never
  more than its limit of bytes;
- a write goes to a temporary file in the same folder that is renamed over the target, so a
  reader sees the old file or the new one, never half of one, and a failure leaves no temporary
  file behind. A symbolic link is followed: its target gets the new text, the link stays a link.
  Only a regular file or a new one is written: a device, a FIFO, a socket or a folder (or a link
  to one) is refused with its path before anything is written, so ``--svg /dev/null`` never
  replaces ``/dev/null`` by a file.

This module uses the file system, so the in-page checker (whose imports must not) never imports
it.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> write_atomically(folder / "a.txt", "première ligne\\n")
>>> read_regular_file(folder / "a.txt", limit=100).decode()
'première ligne\\n'
>>> read_regular_file(folder, limit=100)
Traceback (most recent call last):
...
schotten._files.InputFileError: ...: a folder, not a regular file: only plain files are read here
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from schotten.errors import SchottenError


class InputFileError(SchottenError):
    """A file that cannot be read as asked: missing, not a regular file, too large, not UTF-8."""

    def __init__(self, path: str | os.PathLike[str], problem: str, line: int = 1, column: int = 1):
        self.path = os.fspath(path)
        self.problem = problem
        self.line = line
        self.column = column
        super().__init__(f"{self.path}: {problem}")


class OutputFileError(SchottenError):
    """A path a command was asked to write that is not a regular file or a new one."""

    def __init__(self, path: str | os.PathLike[str], problem: str):
        self.path = os.fspath(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")


class RefusedUnderCI(SchottenError):
    """A command that rewrites what the project publishes, run on CI."""


def refuse_under_ci(refusal: str) -> None:
    """Raise :class:`RefusedUnderCI` (saying ``refusal``) when ``CI`` is set at all, to any value,
    even empty: the verdicts, the lock and the conformance suite are rewritten on purpose, on a
    working copy whose diff is reviewed, never by a build."""
    if "CI" in os.environ:
        raise RefusedUnderCI(refusal)


def read_regular_file(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file ``path`` if it has at most ``limit`` bytes, else
    :class:`InputFileError`; never waits and never reads more than ``limit + 1`` bytes."""
    try:
        _check_kind(path, os.stat(path), limit)
        flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | os.O_CLOEXEC
        fd = os.open(path, flags)
    except OSError as exc:
        raise InputFileError(path, _os_problem(exc)) from exc
    try:
        _check_kind(path, os.fstat(fd), limit)  # the same file as the one looked at
        data = _read_at_most(fd, limit + 1)
    except OSError as exc:
        raise InputFileError(path, _os_problem(exc)) from exc
    finally:
        os.close(fd)
    if len(data) > limit:
        raise InputFileError(path, _too_large(len(data), limit))
    return data


def read_text(path: str | os.PathLike[str], limit: int) -> str:
    """:func:`read_regular_file`, decoded as UTF-8 (line endings kept as they are in the file);
    text that is not UTF-8 is refused with the line and column of its first bad byte."""
    return decode_utf8(read_regular_file(path, limit), path)


def decode_utf8(data: bytes, path: str | os.PathLike[str]) -> str:
    """``data`` as text, or :class:`InputFileError` located at its first byte that is not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        problem = f"not UTF-8 text (byte 0x{data[exc.start]:02x}): save the file as UTF-8"
        raise InputFileError(path, problem, line, column) from exc


def write_atomically(
    path: str | os.PathLike[str], data: str | bytes, *, mode: int | None = None
) -> None:
    """Replace the file ``path`` by ``data`` all at once (text is written as UTF-8, as given: no
    line-ending translation).

    The file keeps its permissions; a new file gets ``mode``, or the default permissions of the
    umask. Through a symbolic link, the link's target is replaced. :class:`OutputFileError` (and
    nothing written) if ``path`` is, or leads to, anything but a regular file.
    """
    target = Path(os.path.realpath(path))
    existing = writable_kind(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        # Looked at again just before the rename: a path swapped for a device meanwhile stays.
        if writable_kind(path) is not None:
            permissions = target.stat().st_mode & 0o7777
        elif existing is None:
            permissions = mode if mode is not None else 0o666 & ~_umask()
        else:
            permissions = existing
        os.chmod(temp, permissions)
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def writable_kind(path: str | os.PathLike[str]) -> int | None:
    """The permissions of the regular file ``path`` leads to, ``None`` if there is nothing there
    yet (a new file, or a link to nothing); :class:`OutputFileError` for anything else (a device,
    a FIFO, a socket, a folder, or a link to one), so that a write never replaces it."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise OutputFileError(path, f"cannot write it: {exc.strerror or exc}") from exc
    if not stat.S_ISREG(info.st_mode):
        link = " (through a symbolic link)" if os.path.islink(path) else ""
        problem = (
            f"{file_kind(info.st_mode)}{link}, not a regular file: only a regular file or a new "
            "one is written here; give the path of a file"
        )
        raise OutputFileError(path, problem)
    return info.st_mode & 0o7777


def file_kind(mode: int) -> str:
    """What a file that is not a regular file is, in words (``"a FIFO"``)."""
    for test, kind in (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return kind
    return "a special file"


def _check_kind(path: str | os.PathLike[str], info: os.stat_result, limit: int) -> None:
    if not stat.S_ISREG(info.st_mode):
        problem = f"{file_kind(info.st_mode)}, not a regular file: only plain files are read here"
        raise InputFileError(path, problem)
    if info.st_size > limit:
        raise InputFileError(path, _too_large(info.st_size, limit))


def _too_large(size: int, limit: int) -> str:
    return f"{size} bytes or more: this file is at most {limit} bytes"


def _read_at_most(fd: int, limit: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while size < limit:
        chunk = os.read(fd, min(65536, limit - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _os_problem(exc: OSError) -> str:
    return f"cannot read it: {exc.strerror or exc}"


def _umask() -> int:
    # Python has no way to read the umask without setting it: set it back at once.
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
