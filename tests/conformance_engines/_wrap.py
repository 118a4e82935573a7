"""Deliberately wrong engines for the conformance tests: each is this project's engine with one
classic bug, serving the protocol. ``serve_with(change)`` answers every request with the engine,
except that ``change(request)`` may answer first (``None``: no change for this request;
``ANSWERED``: it wrote on standard output itself)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from schotten.conformance.protocol import handle
from schotten.conformance.wire import dumps

Change = Callable[[dict[str, Any]], dict[str, Any] | None]
ANSWERED: dict[str, Any] = {}  # returned by a change that wrote its own answer (or none)


def serve_with(change: Change) -> None:
    for line in sys.stdin:
        request = json.loads(line)
        answer = change(request) if isinstance(request, dict) else None
        if answer is ANSWERED:
            continue
        if answer is None:
            answer = handle(request)
        elif "id" in request:
            answer = {"id": request["id"], **answer}
        sys.stdout.write(dumps(answer) + "\n")
        sys.stdout.flush()
