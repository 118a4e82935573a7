"""Text from an engine made safe to print: control characters escaped, length bounded.

An engine's name, messages, standard error and stray lines reach the terminal of whoever runs
the suite; a raw escape sequence could rewrite it, and a line of megabytes would flood it.

>>> shown("ok\\x1b[2Jdone")
'ok\\\\x1b[2Jdone'
>>> shown("x" * 50, 10)
'xxxxxxxxxx… (50 characters)'
"""

from __future__ import annotations

import unicodedata


def shown(text: str, limit: int = 200) -> str:
    """``text`` cut to ``limit`` characters, every control or format character escaped."""
    size = len(text)
    head = text[:limit]
    safe = "".join(_escaped(c) if _hidden(c) else c for c in head)
    return safe if size <= limit else f"{safe}… ({size:,} characters)"


def _hidden(char: str) -> bool:
    # Cc: C0 and C1 controls (the escape character among them); Cf: bidirectional overrides
    # and other invisible formats; Zl, Zp: line and paragraph separators.
    return unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp")


def _escaped(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
