"""The casebook: edge-case positions as YAML files, replayed against the engine.

This package's own names need neither PyYAML nor jsonschema, so ``schotten verify`` and
``schotten conformance`` use them without the ``cases`` extra: the values of a case
(:mod:`.model`), its located errors (:mod:`.errors`), the writer of case files (:mod:`.writer`),
playing a case's moves on (:mod:`.playon`) and running a case against the engine (:mod:`.run`).

Reading case files needs the extra, and is imported from its module where it is used:
:mod:`.build` (``load_case``), :mod:`.folder` (``load_folder``, ``load_cases``, ``check_cases``),
:mod:`.schema`, :mod:`.prose` (checks of a case's texts), :mod:`.approve` and :mod:`.retire`.
The format is described in ``cases/README.md``.
"""

from schotten.casebook.errors import CaseError, CaseFileError
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
from schotten.casebook.playon import PlayOnError, play_on, start_game
from schotten.casebook.run import CaseResult, Mismatch, run_case
from schotten.casebook.writer import claim_case, disagreement_case, move_case

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
    "PlayOnError",
    "Publication",
    "claim_case",
    "disagreement_case",
    "move_case",
    "play_on",
    "run_case",
    "start_game",
]
