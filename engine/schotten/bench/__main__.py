"""``python -m schotten.bench``: what ``scripts/bench`` runs."""

import sys

from schotten.bench import main

if __name__ == "__main__":
    sys.exit(main())
