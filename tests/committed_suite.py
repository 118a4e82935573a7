"""The committed conformance suite (``conformance/``), each kind decoded once per test process by
:func:`schotten.conformance.suite.load`: the tests that only read its vectors share them (the
claims alone take about half a second to decode). Nothing may change what :func:`committed`
returns."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from schotten.conformance import suite

SUITE = Path(__file__).resolve().parents[1] / "conformance"


@functools.cache
def committed(kind: str) -> list[dict[str, Any]]:
    """The vectors of ``kind`` in the committed suite, in file order (shared: read only)."""
    return suite.load(SUITE, kind)
