"""Which files of a case folder are cases, and reading one without trusting it.

One rule, used by ``schotten check``, the site build and the tests: every entry of a case folder is
either a case, ``<id>.yaml`` with a kebab-case id, or one of :data:`FOLDER_FILES`; anything else
(``x.yml``, ``x.YAML``, ``x.yaml.bak``, a hidden file, a sub-folder) is an error, never skipped.

A case is read only if it is a regular file (a FIFO, a device or a link to one is refused before it
is opened, and checked again once open), of at most :data:`MAX_CASE_BYTES`, in UTF-8.

>>> case_id_problem(Path("cases/hand-is-not-proof.yaml")) is None
True
>>> case_id_problem(Path("cases/x.yml"))
'case files end in .yaml (lower case): rename it to x.yaml'
"""

from __future__ import annotations

import contextlib
import re
import signal
import threading
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

from schotten import _files
from schotten._files import InputFileError, read_text
from schotten.casebook.errors import CaseError, CaseFileError

CASE_SUFFIX = ".yaml"
LOCK_NAME = "published.lock.json"
FOLDER_FILES = ("README.md", "case.schema.json", LOCK_NAME)
MAX_CASE_BYTES = 64 * 1024  # the largest case is a few kilobytes
_CASE_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_YAML_LIKE = re.compile(r"(?i)\.ya?ml$")
# What schotten._files.write_atomically names its temporary file: ".<name>.<8 random>.tmp".
_LEFTOVER = re.compile(r"\.(?P<name>.+)\.[a-z0-9_]{8}\.tmp")
# The signals a user or a service manager stops a command with; SIGKILL cannot be held.
_STOPS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def leftover_of(path: Path) -> bool:
    """Whether ``path`` is the temporary file of a write of a case or of the lock that was killed
    before its rename (``.x.yaml.ab12cd34.tmp``)."""
    match = _LEFTOVER.fullmatch(path.name)
    if match is None:
        return False
    name = match["name"]
    stem = name.removesuffix(CASE_SUFFIX)
    return name == LOCK_NAME or (stem != name and _CASE_ID.fullmatch(stem) is not None)


def remove_leftovers(folder: Path) -> list[Path]:
    """Remove the temporary files a killed ``approve`` or ``retire`` left in ``folder`` (called
    under the folder's lock, so no running command's file is taken); the paths removed."""
    removed = []
    for path in sorted(folder.glob(".*.tmp")):
        if leftover_of(path) and path.is_file() and not path.is_symlink():
            path.unlink(missing_ok=True)
            removed.append(path)
    return removed


@contextlib.contextmanager
def stops_held() -> Iterator[None]:
    """Hold SIGINT, SIGTERM and SIGHUP back while the casebook's files are written: a command
    stopped meanwhile finishes its writes (a few small files), then stops as it was asked to, so
    the cases and the lock always agree. Outside the main thread (where Python runs signal
    handlers) nothing is held."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []

    def hold(number: int, frame: FrameType | None) -> None:
        received.append(number)

    previous = {number: signal.signal(number, hold) for number in _STOPS}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        if received:  # now that the files are whole: as if it came now
            signal.raise_signal(received[0])


def case_id_problem(path: Path) -> str | None:
    """Why ``path`` cannot be a case file by its name, or ``None`` if it can."""
    name = path.name
    if leftover_of(path):
        return (
            "the temporary file of a write that was killed: the next `schotten approve` or "
            "`schotten retire` removes it (or delete it)"
        )
    if name.endswith(CASE_SUFFIX) and _CASE_ID.fullmatch(name.removesuffix(CASE_SUFFIX)):
        return None
    yaml_like = _YAML_LIKE.search(name)
    if yaml_like is not None:
        stem = name[: yaml_like.start()]
        fixed = re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-") or "case"
        existing = path.with_name(f"{fixed}{CASE_SUFFIX}")
        if existing.exists() and not _same_file(existing, path):
            # Renaming it would overwrite the case: say so instead of suggesting it.
            return (
                f"a case file is <id>.yaml in lower case, and a case {fixed} already exists "
                f"({existing.name}): merge the two files into {existing.name}, or give this one "
                "another id"
            )
        if fixed == stem:
            return f"case files end in .yaml (lower case): rename it to {fixed}.yaml"
        return (
            "a case id is kebab-case (lower-case letters, digits, hyphens): "
            f"rename it to {fixed}.yaml"
        )
    return (
        "not a case file: a case folder holds <id>.yaml cases and "
        f"{', '.join(FOLDER_FILES)} only; move it out of the folder"
    )


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.samefile(b)
    except OSError:
        return False


def case_paths(folder: Path) -> tuple[list[Path], list[CaseError]]:
    """The case files of ``folder`` (sorted), and an error for every other entry in it."""
    paths: list[Path] = []
    errors: list[CaseError] = []
    try:
        entries = sorted(folder.iterdir())
    except OSError as exc:
        raise CaseFileError([CaseError(folder, 1, 1, (), _os_problem(exc))]) from exc
    for path in entries:
        if path.name in FOLDER_FILES:
            continue
        if path.is_dir() and not path.is_symlink():
            message = "a folder inside the case folder: cases are files, move it out"
            errors.append(CaseError(path, 1, 1, (), message))
            continue
        problem = case_id_problem(path)
        if problem is None:
            paths.append(path)
        else:
            errors.append(CaseError(path, 1, 1, (), problem))
    return paths, errors


def read_case_text(path: Path) -> str:
    """The text of a case file; :class:`CaseFileError` for anything that is not a small regular
    UTF-8 file (never blocks on a FIFO, never reads a device)."""
    return read_text_file(path, MAX_CASE_BYTES)


def read_text_file(path: Path, limit: int) -> str:
    """The UTF-8 text of a regular file of at most ``limit`` bytes, else :class:`CaseFileError`
    (read by :func:`schotten._files.read_text`, said in the casebook's words).

    Line endings are kept as they are in the file (``approve`` writes them back unchanged).
    """
    try:
        return read_text(path, limit)
    except InputFileError as exc:
        problem = exc.problem.replace("only plain files", "only plain text files")
        for device in ("a character device", "a block device", "a socket"):
            problem = problem.replace(f"{device}, not", "a device or socket, not")
        raise CaseFileError([CaseError(path, exc.line, exc.column, (), problem)]) from exc


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` by ``text`` all at once (:func:`schotten._files.write_atomically`): the
    file keeps its mode, the text is written as given (no line-ending translation)."""
    _files.write_atomically(path, text)


def _os_problem(exc: OSError) -> str:
    return f"cannot read it: {exc.strerror or exc}"
