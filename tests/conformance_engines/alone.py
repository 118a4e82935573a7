"""A right engine that answers each request alone, keeping nothing between requests (as most
adapters do): it does not declare ``incremental``, so games are sent to it whole at every move."""

from __future__ import annotations

from typing import Any

from _wrap import serve_with


def change(request: dict[str, Any]) -> dict[str, Any] | None:
    return None


if __name__ == "__main__":
    serve_with(change)
