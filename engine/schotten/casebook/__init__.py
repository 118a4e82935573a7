"""The casebook: edge-case positions as YAML files, replayed against the engine.

``load_case``/``load_cases`` read and validate case files (every error with its file, line and
column), ``load_folder`` also reports every file of a folder that is not a case and every
disagreement with the lock of what is published (``published.lock.json``, :mod:`.lock`),
``run_case``/``check_cases`` replay them and compare with what was recorded, ``approve``
re-records expectations on purpose and ``retire`` withdraws a published case. The format is
described in ``cases/README.md``.

The names are imported when first used: the values (:mod:`.model`) and the case writer
(:mod:`.text`) need neither PyYAML nor jsonschema, so ``schotten verify`` and ``schotten
conformance`` write case files without the ``cases`` extra.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from schotten.casebook.build import load_case
    from schotten.casebook.errors import CaseError, CaseFileError
    from schotten.casebook.folder import check_cases, load_cases, load_folder
    from schotten.casebook.model import (
        FAQ_TABLE,
        Case,
        Expectation,
        ExpectedPlayOn,
        ExpectedStone,
        ExpectedWitness,
        PlayOn,
        Publication,
    )
    from schotten.casebook.run import CaseResult, Mismatch, run_case
    from schotten.casebook.schema import case_schema, schema_text

_HOMES = {
    "load_case": "build",
    "CaseError": "errors",
    "CaseFileError": "errors",
    "check_cases": "folder",
    "load_cases": "folder",
    "load_folder": "folder",
    "FAQ_TABLE": "model",
    "Case": "model",
    "Expectation": "model",
    "ExpectedPlayOn": "model",
    "ExpectedStone": "model",
    "ExpectedWitness": "model",
    "PlayOn": "model",
    "Publication": "model",
    "CaseResult": "run",
    "Mismatch": "run",
    "run_case": "run",
    "case_schema": "schema",
    "schema_text": "schema",
}

__all__ = [
    "FAQ_TABLE",
    "Case",
    "CaseError",
    "CaseFileError",
    "CaseResult",
    "Expectation",
    "ExpectedPlayOn",
    "ExpectedStone",
    "ExpectedWitness",
    "Mismatch",
    "PlayOn",
    "Publication",
    "case_schema",
    "check_cases",
    "load_case",
    "load_cases",
    "load_folder",
    "run_case",
    "schema_text",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)
