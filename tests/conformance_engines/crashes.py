"""An engine that says hello, then dies on its first claim."""

from __future__ import annotations

import json
import sys

from schotten.conformance.wire import PROTOCOL, dumps


def main() -> None:
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("type") != "hello":
            raise SystemExit("engine bug: claims are not implemented")
        answer = {"id": request.get("id"), "protocol": PROTOCOL, "engine": "crashes"}
        sys.stdout.write(dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
