"""An engine that says hello, then answers claims with a text that is not JSON."""

from __future__ import annotations

import json
import sys

from schotten.conformance.wire import PROTOCOL, dumps


def main() -> None:
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("type") == "hello":
            answer = dumps({"id": request.get("id"), "protocol": PROTOCOL, "engine": "nonsense"})
        else:
            answer = "GRANTED!!"
        sys.stdout.write(answer + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
