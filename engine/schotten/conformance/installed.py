"""Where the suite is when no ``--suite`` is given: the one installed with the package.

A wheel holds the repository's ``conformance/`` folder as the data package
``schotten.conformance.data`` (``setup.py`` maps it there), so ``pip install schotten`` gives the
runner and its vectors; an editable install reaches the repository's folder through the same
mapping. A source tree used without installing (``PYTHONPATH=engine``) has it beside ``engine/``.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from schotten.conformance.suite import MANIFEST, SuiteError

DATA_PACKAGE = "schotten.conformance.data"
"""The package the suite's files are installed as."""


def installed_suite() -> Path:
    """The folder of the suite installed with the package; a :class:`SuiteError` saying to give
    ``--suite`` when there is none."""
    for folder in _candidates():
        if (folder / MANIFEST).is_file():
            return folder
    raise SuiteError(
        "no conformance suite is installed with this package: give a suite folder with --suite DIR"
    )


def _candidates() -> list[Path]:
    spec = importlib.util.find_spec(DATA_PACKAGE)
    found = [Path(p) for p in (spec.submodule_search_locations or ())] if spec else []
    # engine/schotten/conformance/installed.py: the repository's root is three folders up.
    return [*found, Path(__file__).resolve().parents[3] / "conformance"]
