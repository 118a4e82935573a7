"""Bug: runs wrap from 9 to 1 (8, 9, 1 taken for a run)."""

from __future__ import annotations

from typing import Any

from _wrap import serve_with

from schotten.cards import ClanCard, parse_card


def change(request: dict[str, Any]) -> dict[str, Any] | None:
    if request.get("type") != "formation" or request.get("totals_only"):
        return None
    cards = [parse_card(text) for text in request["cards"]]
    if not all(isinstance(c, ClanCard) for c in cards):
        return None
    values = sorted(c.value for c in cards if isinstance(c, ClanCard))
    size = len(values)
    wraps = any(
        sorted((start + i - 1) % 9 + 1 for i in range(size)) == values for start in range(1, 10)
    )
    if not wraps or values == list(range(values[0], values[0] + size)):
        return None
    colours = {c.colour for c in cards if isinstance(c, ClanCard)}
    kind = "colour-run" if len(colours) == 1 else "run"
    return {"formation": f"{kind} {sum(values)}"}


if __name__ == "__main__":
    serve_with(change)
