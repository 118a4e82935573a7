"""The interactive border of the rules page: nine stones a reader gives to either player.

Whether someone has won, and why, is :func:`schotten.outcome.winning_condition`, computed here
for every assignment of the nine stones (3^9 of them) and shipped in the page as one character
each: the page's script (``assets/border/border.js``) only looks the answer up, no Python runs.

An assignment's index is ``sum(owner[i] * 3**i)`` over the stones 1 to 9 (``owner`` 0: nobody,
1: you, 2: the opponent); its character is ``"0"`` + 3 × your condition + the opponent's
(0: none, 1: three adjacent stones, 2: five stones).

>>> table = outcome_table()
>>> len(table), table[0], table[1 + 3 + 9]
(19683, '0', '3')
>>> table[2 * (1 + 3 + 9 + 27 + 81)]   # the opponent holds stones 1 to 5
'1'
"""

from __future__ import annotations

import itertools
import json
import xml.etree.ElementTree as ET
from functools import cache

from schotten.board import Board, Player, Stone, Variant
from schotten.outcome import Termination, winning_condition
from schotten.site import labels

STONES = 9
OWNERS = (None, Player.FIRST, Player.SECOND)  # the order a tap cycles through
_CODE = {None: 0, Termination.THREE_ADJACENT: 1, Termination.FIVE_STONES: 2}
BORDER_DIR = "assets/border"


@cache
def outcome_table() -> str:
    """One character per assignment of the nine stones (see the module's doc)."""
    empty = Board.empty(Variant.BASE)
    chars = [""] * 3**STONES
    # itertools.product varies the last stone fastest; the index weighs stone 1 lightest.
    for owners in itertools.product(range(3), repeat=STONES):
        board = empty
        for number, owner in enumerate(owners, start=1):
            if owner:
                board = board.with_stone(Stone(number, claimed_by=OWNERS[owner]))
        mine = _CODE[winning_condition(board, Player.FIRST)]
        theirs = _CODE[winning_condition(board, Player.SECOND)]
        index = sum(owner * 3**i for i, owner in enumerate(owners))
        chars[index] = str(3 * mine + theirs)
    return "".join(chars)


def border(lang: str) -> str:
    """The border's markup: nine stone buttons, a live result line and a reset button."""
    names = labels(lang)
    words = names["border"]
    root = ET.Element(
        "div",
        {
            "class": "schotten-border",
            "data-outcomes": outcome_table(),
            "data-labels": json.dumps(words, ensure_ascii=False),
        },
    )
    ET.SubElement(root, "p", {"class": "schotten-border__intro"}).text = words["intro"]
    row = ET.SubElement(root, "div", {"class": "schotten-border__stones", "role": "group"})
    row.set("aria-label", words["title"])
    for number in range(1, STONES + 1):
        button = ET.SubElement(
            row,
            "button",
            {
                "type": "button",
                "class": "schotten-border__stone",
                "data-stone": str(number),
                "data-owner": "0",
                "aria-label": words["stone"].format(number=number, owner=words["owners"][0]),
                # Enabled by the script: a tap before it runs would be lost.
                "disabled": "disabled",
            },
        )
        ET.SubElement(button, "span", {"class": "schotten-border__number"}).text = str(number)
        ET.SubElement(button, "span", {"class": "schotten-border__mark", "aria-hidden": "true"})
    result = ET.SubElement(
        root,
        "p",
        {"class": "schotten-border__result", "role": "status", "aria-live": "polite"},
    )
    result.text = words["results"]["none"]
    reset = ET.SubElement(
        root,
        "button",
        {"type": "button", "class": "md-button schotten-border__reset", "disabled": "disabled"},
    )
    reset.text = words["reset"]
    ET.SubElement(root, "script", {"type": "module"}).text = (
        'const c = document.getElementById("__config");'
        'const base = c ? JSON.parse(c.textContent).base : ".";'
        f'import(new URL(base + "/{BORDER_DIR}/border.js", location.href).href);'
    )
    return ET.tostring(root, encoding="unicode", method="html")
