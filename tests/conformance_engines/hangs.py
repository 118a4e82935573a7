"""An engine that says hello, then never answers a claim."""

from __future__ import annotations

import json
import sys
import time

from schotten.conformance.wire import PROTOCOL, dumps


def main() -> None:
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("type") == "hello":
            answer = {"id": request.get("id"), "protocol": PROTOCOL, "engine": "hangs"}
            sys.stdout.write(dumps(answer) + "\n")
            sys.stdout.flush()
        else:
            time.sleep(3600)


if __name__ == "__main__":
    main()
