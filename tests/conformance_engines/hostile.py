"""Engines that attack the runner, one a mode (the first argument); each answers hello, then:

- ``long-line``: 200 MB on standard output without a newline, then nothing;
- ``loud-stderr``: twelve lines of 3 MB on standard error, then the right answers;
- ``stops-reading``: answers an apply with a position padded to 900 kB, then reads nothing;
- ``helper``: starts a helper that keeps standard output open (its pid written in the file
  named by the second argument), and exits;
- ``escape-name``: its name and its error messages carry terminal escape sequences;
- ``id-true``: answers hello, request 1, with ``"id": true`` (which is not 1).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

from schotten.conformance.protocol import handle
from schotten.conformance.wire import dumps


def main(mode: str) -> None:
    for line in sys.stdin:
        request = json.loads(line)
        kind = request.get("type")
        answer = handle(request)
        if kind == "hello":
            if mode == "escape-name":
                answer["engine"] = "evil\x1b]0;owned\x07\x1b[2J"
            if mode == "id-true":
                answer["id"] = True
        elif mode == "long-line":
            chunk = b"x" * (1 << 20)
            for _ in range(200):
                sys.stdout.buffer.write(chunk)
            sys.stdout.flush()
            time.sleep(3600)
        elif mode == "loud-stderr":
            for _ in range(12):
                sys.stderr.write("e" * 3_000_000 + "\n")
            sys.stderr.flush()
        elif mode == "stops-reading" and kind == "apply" and answer.get("ok"):
            answer["position"]["padding"] = "x" * 900_000
            sys.stdout.write(dumps(answer) + "\n")
            sys.stdout.flush()
            time.sleep(3600)
        elif mode == "helper":
            helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
            with open(sys.argv[2], "w") as pid_file:
                pid_file.write(str(helper.pid))
            sys.exit(3)
        elif mode == "escape-name":
            answer = {"id": request["id"], "error": "bad\x1b[31m", "message": "\x1b[2Jgone"}
        sys.stdout.write(dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1])
