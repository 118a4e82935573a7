"""What the sub-commands share: the exit statuses, the error a user can fix, a sub-command with
its epilog (the exit statuses) kept as written, and the argument types for numbers, each refusing
a bad value in its own words."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TypeAlias

from schotten.errors import SchottenError

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2

# What ``add_subparsers`` returns (argparse names no public type for it).
Commands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


class CommandError(SchottenError):
    """A problem the user can fix, reported as ``error: ...`` (exit status 1)."""


def print_error(message: str) -> None:
    print(f"error: {message}", file=sys.stderr)


def add_command(
    commands: Commands, name: str, help: str, epilog: str, description: str | None = None
) -> argparse.ArgumentParser:
    """The parser of sub-command ``name``; its ``epilog`` is printed as written."""
    return commands.add_parser(
        name,
        help=help,
        description=description,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def at_least(minimum: int) -> Callable[[str], int]:
    """The type of a whole number of at least ``minimum``.

    >>> at_least(1)("3")
    3
    >>> at_least(1)("0")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: 0 is not at least 1
    """

    def whole_number(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{value} is not at least {minimum}")
        return value

    return whole_number


positive = at_least(1)
count = at_least(0)


def seconds(text: str) -> float:
    """The type of a number of seconds above 0 (and below a million: no wait is that long).

    >>> seconds("2.5")
    2.5
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value < 1e6:  # NaN too
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds above 0")
    return value
