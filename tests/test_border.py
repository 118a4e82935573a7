"""The interactive border's table (schotten.site.border): the engine's outcome of every
assignment of the nine stones, and the markup the page's script wires."""

from __future__ import annotations

import itertools
import json
import random
import re
import xml.etree.ElementTree as ET

import pytest

from schotten.board import Board, Player, Stone, Variant
from schotten.outcome import Termination, winning_condition
from schotten.site import border, labels

CODE = {None: 0, Termination.THREE_ADJACENT: 1, Termination.FIVE_STONES: 2}


def expected(owners: tuple[int, ...]) -> str:
    board = Board.empty(Variant.BASE)
    for number, owner in enumerate(owners, start=1):
        if owner:
            player = Player.FIRST if owner == 1 else Player.SECOND
            board = board.with_stone(Stone(number, claimed_by=player))
    you, them = (CODE[winning_condition(board, p)] for p in (Player.FIRST, Player.SECOND))
    return str(3 * you + them)


def test_table_holds_the_outcome_of_every_assignment() -> None:
    table = border.outcome_table()
    assert len(table) == 3**9 and set(table) <= set("012345678")
    rng = random.Random(20)
    every = list(itertools.product(range(3), repeat=9))
    for owners in [*rng.sample(every, 2000), (0,) * 9, (1,) * 9, (2,) * 9]:
        index = sum(owner * 3**i for i, owner in enumerate(owners))
        assert table[index] == expected(owners), owners


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_border_markup_has_nine_labelled_stones_waiting_for_the_script(lang: str) -> None:
    html = border.border(lang)
    root = ET.fromstring(html)
    words = labels(lang)["border"]
    assert root.get("data-outcomes") == border.outcome_table()
    assert json.loads(root.get("data-labels") or "") == words
    stones = [b for b in root.iter("button") if b.get("data-stone")]
    assert [b.get("data-stone") for b in stones] == [str(n) for n in range(1, 10)]
    for button in stones:
        assert button.get("disabled") == "disabled" and button.get("type") == "button"
        assert button.get("aria-label") == words["stone"].format(
            number=button.get("data-stone"), owner=words["owners"][0]
        )
    live = [e for e in root.iter() if e.get("aria-live") == "polite"]
    assert len(live) == 1 and live[0].text == words["results"]["none"]
    assert re.search(r"assets/border/border\.js", html)
