"""A right engine that writes a log line on its standard output before each answer (and one
with a terminal escape sequence)."""

from __future__ import annotations

import sys
from typing import Any

from _wrap import serve_with


def change(request: dict[str, Any]) -> dict[str, Any] | None:
    sys.stdout.write(f"debug: {request.get('type')} request \x1b[31mreceived\x1b[0m\n")
    return None


if __name__ == "__main__":
    serve_with(change)
