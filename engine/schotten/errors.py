"""The engine's exceptions: bad notation, and moves the rules forbid."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from schotten.rules import Rule


class InvalidNotationError(ValueError):
    """Text that is not a card, a move or a position in the project's notation."""


class IllegalActionError(ValueError):
    """A move the rules forbid; the message starts with the id of the rule it breaks."""

    def __init__(self, rule: Rule, message: str) -> None:
        super().__init__(f"[{rule}] {message}")
        self.rule = rule
        self.detail = message


class InvalidPositionError(ValueError):
    """A position that cannot occur: a card twice, a side over capacity, ..."""
