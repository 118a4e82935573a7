"""The « Jouer » page's table: the markup its script (``assets/play/play.js``) fills in.

The game itself runs in the engine's worker, the claim checker's (:mod:`schotten.table_game`,
shipped with it by :mod:`schotten.site.runtime`): this module writes only the frame, the words
of the page's language and the version of the worker's files, so that the script draws the
table and asks the worker for every move and verdict.

>>> html = play_table("es")
>>> 'class="schotten-play"' in html and "Empezar la partida" in html
True
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

from markupsafe import Markup

from schotten.site import labels, runtime
from schotten.site.words import format_megabytes

PLAY_DIR = "assets/play"
# The labels the script words the table, the moves and the proofs with: the pages' own.
_KEYS: tuple[str, ...] = ("card", "card_the", "colours", "tactics", "tactics_the", "formations_a")
_KEYS += ("verdicts", "reasons", "faq", "words", "moves", "table_game", "punctuation")


def play_labels(lang: str) -> dict[str, Any]:
    names = labels(lang)
    return {**{key: names[key] for key in _KEYS}, "and": names["words"]["and"]}


def play_table(lang: str) -> str:
    """The table's frame: the download it costs, the start button, a status line, the game."""
    words = labels(lang)["table_game"]
    shipped = runtime.shipped(runtime.STATIC)
    root = ET.Element(
        "div",
        {
            "class": "schotten-play",
            "data-lang": lang,
            "data-labels": json.dumps(play_labels(lang), ensure_ascii=False),
            "data-version": shipped.version,
        },
    )
    size = format_megabytes(shipped.first_open_bytes, lang)
    note = ET.SubElement(root, "p", {"class": "schotten-play__download"})
    note.text = words["download"].format(size=size)
    # Enabled by the script once it listens: a click before that would be lost.
    start = ET.SubElement(
        root,
        "button",
        {"type": "button", "class": "md-button md-button--primary schotten-play__start"},
    )
    start.set("disabled", "disabled")
    start.text = words["start"]
    status = ET.SubElement(
        root, "p", {"class": "schotten-play__status", "role": "status", "aria-live": "polite"}
    )
    status.text = ""
    game = ET.SubElement(root, "div", {"class": "schotten-play__game", "hidden": "hidden"})
    game.text = ""
    script = ET.SubElement(root, "script", {"type": "module"})
    script.text = _LOADER
    return ET.tostring(root, encoding="unicode", method="html")


# As the checker's loader: the script sits at <root>/assets/play/ whatever the page's depth.
_LOADER = (
    'const c = document.getElementById("__config");'
    'const base = c ? JSON.parse(c.textContent).base : ".";'
    f'import(new URL(base + "/{PLAY_DIR}/play.js", location.href).href);'
)


def jinja_functions(lang: str) -> dict[str, Callable[..., str]]:
    labels(lang)

    def table() -> str:
        return Markup(play_table(lang))

    return {"play_table": table}
