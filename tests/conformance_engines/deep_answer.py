"""An engine that answers its first claim with a line nested 200,000 deep, once: the file named
by its argument records that it did, so that started again it answers every claim right."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from _wrap import ANSWERED, serve_with


def change(request: dict[str, Any]) -> dict[str, Any] | None:
    done = Path(sys.argv[1])
    if request.get("type") == "claim" and not done.exists():
        done.write_text("answered once\n")
        sys.stdout.write(f'{{"id":{request["id"]},"stones":' + "[" * 200_000 + "\n")
        sys.stdout.flush()
        return ANSWERED
    return None


if __name__ == "__main__":
    serve_with(change)
