"""An engine that hangs on the second claim it is asked, once: the file named by its argument
records that it did, so that started again it answers every claim right."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from _wrap import serve_with

asked = 0


def change(request: dict[str, Any]) -> dict[str, Any] | None:
    global asked
    if request.get("type") == "claim":
        asked += 1
        done = Path(sys.argv[1])
        if asked == 2 and not done.exists():
            done.write_text("hung once\n")
            time.sleep(3600)
    return None


if __name__ == "__main__":
    serve_with(change)
