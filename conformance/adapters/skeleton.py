#!/usr/bin/env python3
"""A skeleton adapter for `schotten conformance run`: one JSON request a line on stdin, one
JSON answer a line on stdout. It answers `hello` and nothing else yet: plug your engine in
`answer()`, one request type at a time, and list in SUPPORTS what it can do.

    schotten conformance run --engine "python3 conformance/adapters/skeleton.py"
"""

import json
import sys

PROTOCOL = "schotten-conformance/1"

# What your engine does: the runner asks only these and counts the rest as "not claimed".
# Kinds: claims, formations, provable, moves, games, perft. Set claim_step to true only if
# your engine plays the claim step as a move of its own (moves, games and perft need it).
SUPPORTS = {"variants": ["base", "tactical"], "kinds": ["claims"], "claim_step": False}


def answer(request):
    kind = request.get("type")
    if kind == "hello":
        if request.get("protocol") != PROTOCOL:
            return {"error": "unsupported-protocol", "message": f"this adapter speaks {PROTOCOL}"}
        return {"protocol": PROTOCOL, "engine": "my engine (skeleton)", "supports": SUPPORTS}
    # Plug your engine in here, for example:
    # if kind == "claim":
    #     return {"stones": [my_engine.judge(request["position"], request["claimer"], n)
    #                        for n in request["stones"]]}
    return {"error": "unsupported", "message": f"{kind} is not implemented yet"}


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except ValueError as error:
            reply = {"error": "bad-request", "message": f"not JSON: {error}"}
        else:
            reply = answer(request) if isinstance(request, dict) else {"error": "bad-request"}
            if isinstance(request, dict) and "id" in request:
                reply = {"id": request["id"], **reply}
        # One line, then flush: the runner waits for it. Logs go to stderr, never stdout.
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
