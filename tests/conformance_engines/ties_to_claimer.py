"""Bug: a tie goes to whoever claims, whatever the order the sides were completed in."""

from __future__ import annotations

from typing import Any

from _wrap import serve_with

from schotten.conformance.protocol import handle


def change(request: dict[str, Any]) -> dict[str, Any] | None:
    if request.get("type") != "claim":
        return None
    answer = handle({**request, "id": None})
    for verdict in answer.get("stones", []):
        if verdict["reason"] == "tie-completed-later":
            verdict.update(verdict="granted", reason="tie-completed-first")
    return answer


if __name__ == "__main__":
    serve_with(change)
