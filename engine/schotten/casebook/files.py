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

import os
import re
import stat
import tempfile
from pathlib import Path

from schotten.casebook.errors import CaseError, CaseFileError

CASE_SUFFIX = ".yaml"
LOCK_NAME = "published.lock.json"
FOLDER_FILES = ("README.md", "case.schema.json", LOCK_NAME)
MAX_CASE_BYTES = 64 * 1024  # the largest case is a few kilobytes
_CASE_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_YAML_LIKE = re.compile(r"(?i)\.ya?ml$")


def case_id_problem(path: Path) -> str | None:
    """Why ``path`` cannot be a case file by its name, or ``None`` if it can."""
    name = path.name
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
    """The UTF-8 text of a regular file of at most ``limit`` bytes, else :class:`CaseFileError`.

    Line endings are kept as they are in the file (``approve`` writes them back unchanged).
    """
    try:
        info = os.stat(path)
        _check_kind(path, info, limit)
        flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | os.O_CLOEXEC
        fd = os.open(path, flags)
    except CaseFileError:
        raise
    except OSError as exc:
        raise CaseFileError([CaseError(path, 1, 1, (), _os_problem(exc))]) from exc
    try:
        _check_kind(path, os.fstat(fd), limit)  # the same file as the one looked at
        data = _read_at_most(fd, limit + 1)
    except OSError as exc:
        raise CaseFileError([CaseError(path, 1, 1, (), _os_problem(exc))]) from exc
    finally:
        os.close(fd)
    if len(data) > limit:
        raise CaseFileError([_too_large(path, len(data), limit)])
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        message = f"not UTF-8 text (byte 0x{data[exc.start]:02x}): save the file as UTF-8"
        raise CaseFileError([CaseError(path, line, column, (), message)]) from exc


def _check_kind(path: Path, info: os.stat_result, limit: int) -> None:
    if not stat.S_ISREG(info.st_mode):
        kind = (
            "a folder"
            if stat.S_ISDIR(info.st_mode)
            else "a FIFO"
            if stat.S_ISFIFO(info.st_mode)
            else "a device or socket"
        )
        message = f"{kind}, not a regular file: only plain text files are read here"
        raise CaseFileError([CaseError(path, 1, 1, (), message)])
    if info.st_size > limit:
        raise CaseFileError([_too_large(path, info.st_size, limit)])


def _too_large(path: Path, size: int, limit: int) -> CaseError:
    return CaseError(path, 1, 1, (), f"{size} bytes or more: this file is at most {limit} bytes")


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


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` by ``text`` all at once: a temporary file in the same folder, renamed.

    The text is written as given (no line-ending translation); the file keeps its mode.
    """
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        mode = path.stat().st_mode & 0o7777 if path.exists() else 0o666 & ~_umask()
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    # Python has no way to read the umask without setting it: set it back at once.
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _os_problem(exc: OSError) -> str:
    return f"cannot read it: {exc.strerror or exc}"
