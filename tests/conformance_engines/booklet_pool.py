"""A right engine that took another ruling for one rule id: ``claim-wild-pool``. Its proofs
leave the unplayed elite troops out of the unseen pool (only Clan cards can complete the
opponent's side), where the site's ruling counts them as wild cards. It judges claims, provable
stones and formations. With ``--declare``, its hello says so: it takes every site ruling but
that one."""

from __future__ import annotations

import sys
from typing import Any

from _wrap import serve_with

from schotten.board import Player
from schotten.claims import Pool, judge_stone, unseen_pool
from schotten.conformance.alternatives import RULING_IDS
from schotten.conformance.protocol import claim_answers
from schotten.errors import SchottenError
from schotten.position_data import board_from_data

SUPPORTS: dict[str, Any] = {
    "variants": ["base", "tactical"],
    "kinds": ["claims", "formations", "provable"],
    "claim_step": False,
}
DECLARED = {**SUPPORTS, "rulings": [r for r in RULING_IDS if r != "claim-wild-pool"]}


def change(request: dict[str, Any]) -> dict[str, Any] | None:
    kind = request.get("type")
    if kind == "hello":
        supports = DECLARED if "--declare" in sys.argv else SUPPORTS
        return {"protocol": request.get("protocol"), "engine": "booklet pool", "supports": supports}
    if kind not in ("claim", "provable"):
        return None
    try:
        board = board_from_data(request["position"])
        claimer = Player.FIRST if request["claimer"] == "first" else Player.SECOND
    except (KeyError, TypeError, ValueError, SchottenError):
        return None  # the reference engine says what is wrong with the request
    clan_only = Pool(unseen_pool(board, claimer).mask, ())
    if kind == "provable":
        open_stones = [s.number for s in board.stones if s.claimed_by is None]
        verdicts = [judge_stone(board, claimer, n, clan_only) for n in open_stones]
        return {"stones": [v.stone for v in verdicts if v.granted]}
    stones = request.get("stones", [])
    return {
        "stones": claim_answers(tuple(judge_stone(board, claimer, n, clan_only) for n in stones))
    }


if __name__ == "__main__":
    serve_with(change)
