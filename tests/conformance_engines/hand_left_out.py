"""Bug: the claimer's own hand is left out of the unseen pool (as if a hand were proof)."""

from __future__ import annotations

import copy
from typing import Any

from _wrap import serve_with

from schotten.conformance.protocol import handle


def change(request: dict[str, Any]) -> dict[str, Any] | None:
    if request.get("type") != "claim":
        return None
    position = copy.deepcopy(request["position"])
    claimer = request["claimer"]
    hand = position.pop("hands", {}).get(claimer, [])
    # Treat the hand as seen: put it face up, where a proof no longer counts it.
    position["discard"][claimer] = [*position["discard"][claimer], *hand]
    return handle({**request, "position": position, "id": None})


if __name__ == "__main__":
    serve_with(change)
