"""A right engine of the base game that judges claims and formations only, and says so in its
hello: every other request is answered ``unsupported``."""

from __future__ import annotations

from typing import Any

from _wrap import serve_with

SUPPORTS = {"variants": ["base"], "kinds": ["claims", "formations"], "claim_step": False}


def change(request: dict[str, Any]) -> dict[str, Any] | None:
    kind = request.get("type")
    if kind == "hello":
        return {"protocol": request.get("protocol"), "engine": "base only", "supports": SUPPORTS}
    if kind in ("claim", "formation"):
        return None
    return {"error": "unsupported", "message": f"{kind} is not implemented"}


if __name__ == "__main__":
    serve_with(change)
