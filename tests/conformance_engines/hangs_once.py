"""An engine that hangs on the second claim it is asked after it starts, and answers the
others right: started again, it goes on."""

from __future__ import annotations

import time
from typing import Any

from _wrap import serve_with

asked = 0


def change(request: dict[str, Any]) -> dict[str, Any] | None:
    global asked
    if request.get("type") == "claim":
        asked += 1
        if asked == 2:
            time.sleep(3600)
    return None


if __name__ == "__main__":
    serve_with(change)
