"""The casebook: edge-case positions as YAML files, replayed against the engine.

``load_case``/``load_cases`` read and validate case files (every error with its file, line and
column), ``run_case``/``check_cases`` replay them and compare with what was recorded, and
``approve`` re-records expectations on purpose. The format is described in ``cases/README.md``.
"""

from schotten.casebook.case import (
    Case,
    Expectation,
    ExpectedPlayOn,
    ExpectedStone,
    ExpectedWitness,
    PlayOn,
    Publication,
    load_case,
    load_cases,
)
from schotten.casebook.errors import CaseError, CaseFileError
from schotten.casebook.run import CaseResult, Mismatch, check_cases, run_case
from schotten.casebook.schema import case_schema, schema_text

__all__ = [
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
    "run_case",
    "schema_text",
]
