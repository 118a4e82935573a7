"""An engine that answers its first claim with a line nested 200,000 deep, the others right."""

from __future__ import annotations

import sys
from typing import Any

from _wrap import ANSWERED, serve_with

asked = 0


def change(request: dict[str, Any]) -> dict[str, Any] | None:
    global asked
    if request.get("type") == "claim":
        asked += 1
        if asked == 1:
            sys.stdout.write('{"id":%d,"stones":' % request["id"] + "[" * 200_000 + "\n")
            sys.stdout.flush()
            return ANSWERED
    return None


if __name__ == "__main__":
    serve_with(change)
