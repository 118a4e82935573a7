"""A right engine that judges claims only where both sides are complete, and answers the verdict
and the reason but no formation; it says so in its hello (``"claims": "reason"``,
``"complete_sides_only": true``) and answers ``unsupported`` to the rest."""

from __future__ import annotations

from typing import Any

from _wrap import serve_with

from schotten.conformance.protocol import handle

SUPPORTS = {
    "variants": ["base", "tactical"],
    "kinds": ["claims"],
    "claim_step": False,
    "claims": "reason",
    "complete_sides_only": True,
}


def change(request: dict[str, Any]) -> dict[str, Any] | None:
    kind = request.get("type")
    if kind == "hello":
        return {"protocol": request.get("protocol"), "engine": "verdicts", "supports": SUPPORTS}
    if kind != "claim":
        return {"error": "unsupported", "message": f"{kind} is not implemented here"}
    answer = handle({**request, "id": None})
    for verdict in answer.get("stones", []):
        verdict["theirs"] = verdict["witness"] = None
    return answer


if __name__ == "__main__":
    serve_with(change)
