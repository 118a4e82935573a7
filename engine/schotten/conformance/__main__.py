"""``python -m schotten.conformance serve|run|export ...``: the same as ``schotten conformance``."""

from __future__ import annotations

import sys

from schotten.cli import main

sys.exit(main(["conformance", *sys.argv[1:]], prog="python -m schotten.conformance"))
