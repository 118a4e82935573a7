"""Every error a user's input can cause derives from :class:`SchottenError`, so that one handler
in the command says each of them as ``error: ...`` (and anything else is a bug)."""

from __future__ import annotations

from pathlib import Path

import pytest

from schotten._files import InputFileError, RefusedUnderCI
from schotten.casebook.errors import CaseError, CaseFileError
from schotten.casebook.playon import PlayOnError
from schotten.checker import PositionError
from schotten.cli import CommandError
from schotten.conformance.protocol import RequestError
from schotten.conformance.runner import MalformedVector
from schotten.conformance.suite import SuiteError
from schotten.errors import (
    IllegalActionError,
    InvalidNotationError,
    InvalidPositionError,
    SchottenError,
)
from schotten.json_input import JsonInputError
from schotten.site import SiteCheckError
from schotten.verify.run import VerifyError

USER_ERRORS = [
    InvalidNotationError,
    IllegalActionError,
    InvalidPositionError,
    InputFileError,
    RefusedUnderCI,
    JsonInputError,
    PositionError,
    CaseFileError,
    PlayOnError,
    CommandError,
    RequestError,
    MalformedVector,
    SuiteError,
    VerifyError,
    SiteCheckError,
]


@pytest.mark.parametrize("error", USER_ERRORS, ids=lambda error: error.__name__)
def test_every_user_facing_error_is_a_schotten_error(error: type[Exception]) -> None:
    assert issubclass(error, SchottenError)


def test_a_case_file_error_says_each_problem_on_its_own_line() -> None:
    errors = [
        CaseError(Path("cases/b.yaml"), 3, 1, ("claim",), "expected a list"),
        CaseError(Path("cases/a.yaml"), 7, 5, ("stones", 4, "you", 2), "not a card"),
    ]
    assert CaseFileError(errors).messages() == (
        "cases/a.yaml:7:5: stones.4.you[2]: not a card",
        "cases/b.yaml:3:1: claim: expected a list",
    )
    assert InvalidNotationError("bad").messages() == ("bad",)
