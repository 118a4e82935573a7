"""The engine's exceptions: bad notation, and moves the rules forbid.

Every error that a user's input can cause, in every part of the project, derives from
:class:`SchottenError`: a command prints it as ``error: ...`` and exits with its
:attr:`~SchottenError.exit_status`; any other exception is a bug.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from schotten.rules import Rule


class SchottenError(Exception):
    """A mistake in what was given to the engine or a command, never a bug of the engine."""

    #: The exit status a command ends with when this error stops it.
    exit_status: ClassVar[int] = 1

    def messages(self) -> tuple[str, ...]:
        """What a command prints, one ``error: ...`` line each (several for an error that
        gathers several problems, such as every invalid case of a folder)."""
        return (str(self),)


class InvalidNotationError(SchottenError, ValueError):
    """Text that is not a card, a move or a position in the project's notation."""


class IllegalActionError(SchottenError, ValueError):
    """A move the rules forbid; the message starts with the id of the rule it breaks."""

    def __init__(self, rule: Rule, message: str) -> None:
        super().__init__(f"[{rule}] {message}")
        self.rule = rule
        self.detail = message


class InvalidPositionError(SchottenError, ValueError):
    """A position that cannot occur: a card twice, a side over capacity, ..."""
