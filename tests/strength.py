"""How hard the property tests try: every count in one place.

The Hypothesis profile is chosen with ``--hypothesis-profile NAME`` or
``SCHOTTEN_HYPOTHESIS_PROFILE=NAME``:

- Hypothesis's own ``default`` (its ``ci`` under CI, the same counts derandomized): each test at
  the strength CI has always run it;
- ``quick`` (registered in ``tests/conftest.py``): a tenth of that, never fewer than a few
  examples, for the fast lane before a commit.

``SCHOTTEN_FUZZ_EXAMPLES=20000`` asks a long campaign of the fuzz tests (those that count with
:func:`fuzz_examples`), whatever the profile.
"""

from __future__ import annotations

import os

from hypothesis import settings

# The profile's max_examples against which each test's own count is scaled (Hypothesis's default).
CI_EXAMPLES = 100
QUICK_EXAMPLES = 10
FEWEST = 5


def examples(count: int) -> int:
    """``count`` under the ``ci`` profile; scaled down with the profile chosen (a tenth of it
    under ``quick``, never fewer than a few)."""
    profile = settings.default
    assert profile is not None  # Hypothesis always has a profile loaded
    scaled = count * profile.max_examples // CI_EXAMPLES
    return max(min(count, FEWEST), scaled)


def fuzz_examples(count: int) -> int:
    """Like :func:`examples`, unless ``SCHOTTEN_FUZZ_EXAMPLES`` sets a campaign's count."""
    campaign = os.environ.get("SCHOTTEN_FUZZ_EXAMPLES")
    return int(campaign) if campaign else examples(count)
