"""The ``schotten`` command: a thin layer over :mod:`schotten.casebook` and the engine.

``main(argv)`` returns the exit status; ``entrypoint()`` is the console script. Usage errors go
through argparse (status 2); engine and case errors are printed once, as ``error: ...`` on stderr
(status 1), by :func:`main`, and so is a command that needs an extra not installed (the extra is
named). Anything else is a bug of the engine: one line asks to report it, and the Python stack is
printed only with the global ``--debug`` option. The case commands are in :mod:`.cases`, the
conformance suite's in :mod:`.conformance`, the verification's in :mod:`.verify`.
"""

from __future__ import annotations

import argparse
import functools
import importlib.metadata
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path

from schotten import _files
from schotten.board import Player
from schotten.cli import cases
from schotten.cli import conformance as conformance_cli
from schotten.cli import verify as verify_cli
from schotten.cli.arguments import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    CommandError,
    add_command,
    print_error,
)
from schotten.cli.cases import resolve_case
from schotten.errors import SchottenError
from schotten.records import MAX_BYTES, Record

_EPILOG = """\
exit status:
  0  everything checked agrees with the engine
  1  a case disagrees with the engine, a file is invalid, or the engine refused a move
  2  usage error (unknown command or option, missing argument)

The case format is described in cases/README.md; `schotten schema` prints its JSON Schema.
"""

# The extra that installs each optional module a command may need (pyproject.toml).
_EXTRAS = {
    "yaml": "cases",
    "jsonschema": "cases",
    "jinja2": "site",
    "markupsafe": "site",
    "markdown": "site",  # Python-Markdown, which MkDocs installs
    "mkdocs": "site",
    "material": "site",
    "mkdocs_static_i18n": "site",
    "zopfli": "site",
    "resvg_py": "site",
    "dask": "verify",
    "distributed": "verify",
    "numpy": "verify",
}


def version() -> str:
    """The installed package's version (``pyproject.toml`` is the one place it is written)."""
    try:
        return importlib.metadata.version("schotten")
    except importlib.metadata.PackageNotFoundError:  # a source tree that was never installed
        return "unknown (not installed)"


def build_parser(prog: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog or "schotten",
        description="Schotten Totten rules engine: check, explain and approve the casebook.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    parser.add_argument(
        "--debug",
        action="store_true",
        help="on an internal error, print the Python stack (for a bug report)",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    command = functools.partial(add_command, commands, epilog=_EPILOG)
    cases.add_parsers(commands, command)
    replay = command(
        "replay",
        help="replay a saved game record, checking every move",
    )
    replay.add_argument("record", type=Path, metavar="RECORD", help="a game record (JSON)")
    conformance_cli.add_parser(commands)
    verify_cli.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None, prog: str | None = None) -> int:
    """Run one command; returns the exit status (argparse exits with 2 on usage errors)."""
    args = build_parser(prog).parse_args(argv)
    try:
        return int(_COMMANDS[args.command](args))
    except SchottenError as exc:  # a mistake in what was given: said, never a traceback
        for message in exc.messages():
            print_error(message)
        return exc.exit_status
    except (BrokenPipeError, KeyboardInterrupt):
        raise
    except OSError as exc:
        print_error(f"{exc.filename or ''}: {exc.strerror or exc}".lstrip(": "))
    except Exception as exc:  # every other exception is a bug: say so in one line
        missing = _missing_extra(exc)
        if missing is not None:  # not a bug: an optional module the command needs
            print_error(f"schotten {args.command} {missing}")
        else:
            if args.debug:
                traceback.print_exc()
            print_error(_internal(exc, args.debug))
    return EXIT_FAILED


def _missing_extra(exc: Exception) -> str | None:
    """What to install when ``exc`` is a missing module of an extra (``yaml.constructor`` is
    PyYAML's): ``needs yaml, from the cases extra: pip install 'schotten[cases]'``."""
    if not isinstance(exc, ModuleNotFoundError) or exc.name is None:
        return None
    extra = _EXTRAS.get(exc.name.partition(".")[0])
    if extra is None:
        return None
    return f"needs {exc.name}, from the {extra} extra: pip install 'schotten[{extra}]'"


def _internal(exc: BaseException, debug: bool) -> str:
    what = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    if len(what) > 200:
        what = f"{what[:200]}..."
    what = " ".join(what.split())  # one line, whatever the exception's text holds
    hint = "" if debug else " (run again with --debug for the details)"
    return f"internal error: {what}; please report it with the command you ran{hint}"


def entrypoint() -> None:
    try:
        status = main(sys.argv[1:])
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, as other command-line tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        status = EXIT_FAILED
    except KeyboardInterrupt:
        print_error("interrupted")
        status = 130  # the shell's status for a command stopped by Ctrl-C
    sys.exit(status)


# replay ------------------------------------------------------------------------------------


def _replay(args: argparse.Namespace) -> int:
    path: Path = args.record
    # A regular file of bounded size only: never a FIFO or a device.
    record = Record.loads(_files.read_regular_file(path, MAX_BYTES), str(path))
    game = record.replay(str(path))
    start = f"seed {record.seed}" if record.seed is not None else "a position"
    print(f"{path}: {len(record.moves)} moves replayed from {start} ({record.variant}), all legal")
    held = ", ".join(f"{p} {list(game.stones_held(p))}" for p in Player)
    if game.outcome is None:
        print(f"game ongoing: {game.to_move} to move at the {game.phase} step; stones held: {held}")
    else:
        print(f"game over: {game.outcome}; stones held: {held}")
    return EXIT_OK


_COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    **cases.COMMANDS,
    "replay": _replay,
    "conformance": conformance_cli.main,
    "verify": verify_cli.run,
}

__all__ = [
    "EXIT_FAILED",
    "EXIT_OK",
    "EXIT_USAGE",
    "CommandError",
    "build_parser",
    "entrypoint",
    "main",
    "resolve_case",
]
