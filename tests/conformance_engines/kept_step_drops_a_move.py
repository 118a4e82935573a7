"""Bug, on the incremental path: an engine that keeps the game between ``start`` and ``step``
and, after a claim step, lists one legal move too few (its first, in the reference's order)."""

from __future__ import annotations

import json
import sys

from schotten.conformance.protocol import Session, handle
from schotten.conformance.wire import dumps


def main() -> None:
    session = Session()
    for line in sys.stdin:
        request = json.loads(line)
        answer = handle(request, session)
        if request.get("type") == "step" and str(request.get("move", "")).startswith("claim"):
            answer["moves"] = answer.get("moves", [])[1:]
        sys.stdout.write(dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
