"""A right engine of the base game that answers ``unsupported`` to every Tactical request (a
formation with an elite troop, four cards or totals only; a Tactical position), and says it
supports the base game's claims and formations only."""

from __future__ import annotations

from typing import Any

from _wrap import serve_with

SUPPORTS = {"variants": ["base"], "kinds": ["claims", "formations"], "claim_step": False}


def tactical(request: dict[str, Any]) -> bool:
    if request.get("type") == "formation":
        cards = request.get("cards", [])
        wild = any(" " not in str(c) for c in cards)
        return len(cards) == 4 or wild or request.get("totals_only") is True
    position = request.get("position")
    return isinstance(position, dict) and position.get("variant") != "base"


def change(request: dict[str, Any]) -> dict[str, Any] | None:
    kind = request.get("type")
    if kind == "hello":
        return {"protocol": request.get("protocol"), "engine": "base strict", "supports": SUPPORTS}
    if kind in ("claim", "formation") and not tactical(request):
        return None
    return {"error": "unsupported", "message": f"{kind} is not implemented here"}


if __name__ == "__main__":
    serve_with(change)
