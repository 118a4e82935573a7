"""``--cases DIR``: the claim and move vectors a run did not agree on, as case files
(written by :mod:`schotten.casebook.writer`), one a vector, named after it."""

from __future__ import annotations

from pathlib import Path

from schotten._files import write_atomically
from schotten.board import Player
from schotten.cards import parse_card
from schotten.casebook.writer import claim_case, move_case
from schotten.claims import Reason
from schotten.conformance.runner import Outcome, RunReport
from schotten.errors import InvalidNotationError, InvalidPositionError
from schotten.game import Game
from schotten.position_data import board_from_data


def case_text(outcome: Outcome) -> str | None:
    """The vector of ``outcome`` as a case file (``None`` when it cannot be one)."""
    vector = outcome.vector_data
    what = "; ".join(f.text for f in outcome.findings)
    try:
        if outcome.kind == "claims":
            board = board_from_data(vector["position"])
            claimer = Player.FIRST if vector["claimer"] == "first" else Player.SECOND
            hand = vector["position"].get("hands", {}).get(str(claimer), [])
            rules = sorted({str(Reason(v["reason"]).rule) for v in vector["expect"]})
            return claim_case(
                vector["id"],
                board,
                claimer,
                vector["stones"],
                [parse_card(c) for c in hand],
                what,
                rules,
            )
        if outcome.kind == "moves":
            game = Game.from_dict(vector["position"])
            # A play-on plays its moves in turn: the refused ones first (they change nothing),
            # then the first legal move the engine got wrong, if any.
            moves = [r["move"] for r in vector["refused"]]
            moves += [m for m in vector["accepted"] if f"'{m}'" in what][:1]
            rules = sorted({r["rule"] for r in vector["refused"]}) or ["turn-order"]
            return move_case(vector["id"], game, moves, what, ", ".join(rules))
    except (InvalidPositionError, InvalidNotationError, KeyError, ValueError, TypeError):
        return None
    return None


def file_name(vector: str) -> str:
    return vector.replace(":", "-").replace("#", "-").replace("/", "-") + ".yaml"


def write_cases(report: RunReport, folder: Path) -> int:
    """Write a case file for each claim or move vector not agreeing; how many were written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = 0
    for outcome in report.outcomes:
        text = case_text(outcome)
        if text is not None:
            write_atomically(folder / file_name(outcome.vector), text + "\n")
            written += 1
    return written
