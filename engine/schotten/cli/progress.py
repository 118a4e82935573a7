"""A progress bar on standard error: one redrawn line on a terminal, a plain line now and then
otherwise (logs of CI and pipes stay readable)."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """``update(done)`` as work advances, ``finish()`` at the end."""

    def __init__(self, label: str, total: int, stream: TextIO | None = None) -> None:
        self.label = label
        self.total = max(total, 1)
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.start = time.monotonic()
        self._last = 0.0
        self._last_tenth = -1

    def update(self, done: int) -> None:
        now = time.monotonic()
        if self.tty:
            if now - self._last >= 0.1 or done >= self.total:
                self._last = now
                width = 30
                filled = width * done // self.total
                bar = "#" * filled + "-" * (width - filled)
                self.stream.write(
                    f"\r{self.label:<11} [{bar}] {done}/{self.total} {now - self.start:5.1f} s"
                )
                self.stream.flush()
            return
        tenth = 10 * done // self.total
        if tenth > self._last_tenth and (now - self._last >= 5 or done >= self.total):
            self._last, self._last_tenth = now, tenth
            print(
                f"{self.label}: {done}/{self.total} ({now - self.start:.1f} s)",
                file=self.stream,
                flush=True,
            )

    def finish(self, done: int) -> None:
        self.update(done)
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()
