"""Errors in case files: each names file, line, column and key path, and says what was expected."""

from __future__ import annotations

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


@dataclass(frozen=True)
class CaseError:
    """One problem in one case file; ``line`` and ``column`` count from 1."""

    path: Path
    line: int
    column: int
    key_path: KeyPath
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}:{self.column}"
        return f"{where}: {format_key_path(self.key_path)}: {self.message}"


class CaseFileError(SchottenError, ValueError):
    """One or more case files are invalid; ``errors`` lists every problem of every file."""

    def __init__(self, errors: Iterable[CaseError]) -> None:
        self.errors = tuple(sorted(errors, key=lambda e: (str(e.path), e.line, e.column)))
        super().__init__("\n".join(str(e) for e in self.errors))

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors)

    def messages(self) -> tuple[str, ...]:
        return tuple(str(e) for e in self.errors)
