"""A right engine whose hello declares no variant at all (``"variants": []``): it claims nothing."""

from __future__ import annotations

from typing import Any

from _wrap import serve_with

SUPPORTS = {"variants": [], "kinds": ["claims", "formations"], "claim_step": False}


def change(request: dict[str, Any]) -> dict[str, Any] | None:
    if request.get("type") == "hello":
        return {"protocol": request.get("protocol"), "engine": "no variant", "supports": SUPPORTS}
    return None


if __name__ == "__main__":
    serve_with(change)
