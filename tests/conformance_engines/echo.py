"""Bug: an accepted move returns the position it was given, unchanged (an adapter that echoes
its input back)."""

from __future__ import annotations

from typing import Any

from _wrap import serve_with

from schotten.conformance.protocol import handle


def change(request: dict[str, Any]) -> dict[str, Any] | None:
    if request.get("type") != "apply":
        return None
    answer = handle({**request, "id": None})
    if answer.get("ok") is True:
        answer["position"] = request["position"]
    return answer


if __name__ == "__main__":
    serve_with(change)
