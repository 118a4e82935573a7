"""``python -m schotten.bench``: what ``scripts/bench`` runs."""

import sys

from schotten.bench import main

sys.exit(main())
