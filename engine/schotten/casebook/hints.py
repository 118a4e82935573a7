""" "Did you mean": the value an editor most likely meant, for a card, a rule id, a key or a table.

Editors write the game's words in their own language and their own case (``rouge 5``, ``Joker``,
``traître``); the format takes the engine's ids. Each function returns the one id that is meant,
or ``None`` when nothing is close enough to be sure.

>>> suggest_card("rouge 5"), suggest_card("5 rojo"), suggest_card("Red5"), suggest_card("Joker")
('red 5', 'red 5', 'red 5', 'joker')
>>> suggest_card("shield bearer"), suggest_card("Traître"), suggest_card("red 10") is None
('shield-bearer', 'traitor', True)
>>> suggest_rule("traître"), suggest_word("ruse", ["faq", "ruses"]), suggest_word("id", ["claim"])
('traitor', 'ruses', None)
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable
from functools import cache

from schotten.cards import Colour, Tactic
from schotten.labels import LANGUAGES, labels
from schotten.rules import Rule

COLOURS = tuple(str(colour) for colour in Colour)
TACTIC_NAMES = tuple(str(tactic) for tactic in Tactic)


def plain(text: str) -> str:
    """Lower case, without accents, words joined by hyphens (``Traître`` -> ``traitre``)."""
    decomposed = unicodedata.normalize("NFD", text.strip().lower())
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return re.sub(r"[\s_’']+", "-", bare)


@cache
def _names() -> dict[str, str]:
    """Every name a colour or a tactic card has in the site's languages, to its id."""
    names = {plain(colour): colour for colour in COLOURS}
    names.update({plain(tactic): tactic for tactic in TACTIC_NAMES})
    for lang in LANGUAGES:
        catalogue = labels(lang)
        for group in ("colours", "tactics"):
            for key, name in catalogue.get(group, {}).items():
                names.setdefault(plain(str(name)), key)
    return names


def clear_names() -> None:
    """Forget the card names read from the labels (``scripts/serve`` reads them again after a
    label file changed)."""
    _names.cache_clear()


def suggest_card(text: str) -> str | None:
    """The card ``text`` most likely names, in the format's spelling."""
    words = plain(re.sub(r"(?<=[^\W\d_])(?=\d)|(?<=\d)(?=[^\W\d_])", " ", text))
    names = _names()
    if words in names and names[words] in TACTIC_NAMES:
        return names[words]
    parts = words.split("-")
    if len(parts) == 2:
        colour, value = parts if not parts[0].isdigit() else parts[::-1]
        if colour in names and names[colour] in COLOURS and value in "123456789" and value:
            return f"{names[colour]} {value}"
    close = difflib.get_close_matches(words, list(names), n=1, cutoff=0.8)
    if close and names[close[0]] in TACTIC_NAMES:
        return names[close[0]]
    return None


def suggest_rule(text: str) -> str | None:
    """The rule id ``text`` most likely means (``traître`` -> ``traitor``)."""
    ids = [str(rule) for rule in Rule]
    key = plain(text)
    if key in ids:
        return key
    card = _names().get(key)
    if card in ids:
        return card
    return suggest_word(key, ids)


def next_step(case_id: str, position_line: int, published: bool) -> str:
    """What to do about a case whose recorded results are not the engine's: the end of every
    mismatch message.

    >>> next_step("x", 12, False)
    'next: if the engine is right, run `schotten approve x`; otherwise fix the position (line 12)'
    """
    after = " and re-read its texts" if published else ""
    return (
        f"next: if the engine is right, run `schotten approve {case_id}`{after}; otherwise fix "
        f"the position (line {position_line})"
    )


def suggest_word(text: str, choices: Iterable[str]) -> str | None:
    """The one choice close to ``text`` (a typo, a plural), if there is one."""
    options = [c for c in choices if c != text]
    close = difflib.get_close_matches(plain(str(text)), options, n=1, cutoff=0.75)
    return close[0] if close else None
