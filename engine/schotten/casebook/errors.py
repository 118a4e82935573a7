"""Errors in case files: each names file, line, column and key path, and says what was expected."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from schotten.errors import SchottenError

KeyPath = tuple[str | int, ...]


def format_key_path(path: Sequence[str | int]) -> str:
    """``stones.4.you[2]``: a key path as written in messages (``$`` for the whole file).

    >>> format_key_path(("stones", 4, "you", 2))
    'stones.4.you[2]'
    >>> format_key_path(())
    '$'
    """
    text = ""
    for key in path:
        # Stone numbers are mapping keys (after ``stones``); other integers are list indexes.
        if isinstance(key, int) and text and not text.endswith("stones"):
            text += f"[{key}]"
        else:
            text += f".{key}" if text else str(key)
    return text or "$"


def shown_path(path: str | os.PathLike[str]) -> str:
    """A path as text that is always UTF-8: a byte of a file name that is not UTF-8 is shown as
    ``\\xff`` (the file system hands it to Python as a lone surrogate, which no report may hold).

    >>> shown_path(os.fsdecode(b"cases/x\\xff.yaml"))
    'cases/x\\\\xff.yaml'
    """
    text = os.fspath(path)
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def command_path(path: Path) -> str:
    """``path`` as a command takes it here, for a suggestion typed as shown: a case of ``cases/``
    by its id, anything else relative to the current folder when inside it (never the build's
    absolute paths)."""
    try:
        relative = path.absolute().relative_to(Path.cwd())
    except (ValueError, OSError):
        return shown_path(path)
    if len(relative.parts) == 2 and relative.parts[0] == "cases" and relative.suffix == ".yaml":
        return relative.stem
    return shown_path(relative) or "."


@dataclass(frozen=True)
class CaseError:
    """One problem in one case file; ``line`` and ``column`` count from 1."""

    path: Path
    line: int
    column: int
    key_path: KeyPath
    message: str

    @property
    def detail(self) -> str:
        """The key path and the message (the message alone for the whole file)."""
        if not self.key_path:
            return self.message
        return f"{format_key_path(self.key_path)}: {self.message}"

    def __str__(self) -> str:
        return f"{shown_path(self.path)}:{self.line}:{self.column}: {self.detail}"


class CaseFileError(SchottenError, ValueError):
    """One or more case files are invalid; ``errors`` lists every problem of every file."""

    def __init__(self, errors: Iterable[CaseError]) -> None:
        self.errors = tuple(sorted(errors, key=lambda e: (str(e.path), e.line, e.column)))
        super().__init__("\n".join(str(e) for e in self.errors))

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors)

    def messages(self) -> tuple[str, ...]:
        return tuple(str(e) for e in self.errors)


def github_annotation(path: str | os.PathLike[str], line: int, column: int, message: str) -> str:
    """A GitHub Actions error annotation, shown on the file and line of a pull request.

    >>> github_annotation("cases/x.yaml", 3, 7, "50% off:\\nsecond line")
    '::error file=cases/x.yaml,line=3,col=7::50%25 off:%0Asecond line'
    """

    def data(text: str) -> str:
        return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")

    where = data(shown_path(path)).replace(":", "%3A").replace(",", "%2C")
    return f"::error file={where},line={line},col={column}::{data(message)}"
