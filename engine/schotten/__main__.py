"""``python -m schotten ...``: the ``schotten`` command, for an environment without its script."""

from __future__ import annotations

import sys

from schotten.cli import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], prog="python -m schotten"))
