"""French spacing, checked wherever a French reader sees text.

French sets a narrow no-break space (U+202F) before ``;``, ``?`` and ``!``, a no-break space
(U+00A0) before ``:`` and inside « ». The site's French texts (pages, labels, case texts) carry
those characters themselves; :func:`spacing_faults` finds the places where they do not, so that the
gate can refuse them and the tests can check the built pages.

>>> spacing_faults("Oui ; non : peut-être ?")
['ordinary space before ";" in "Oui ; non"', 'ordinary space before ":" in "; non : peu"', \
'ordinary space before "?" in "-être ?"']
>>> spacing_faults("Oui\u202f; non\u00a0: «\u00a0peut-être\u00a0»\u202f?")
[]
>>> spacing_faults("Borne 4: refusée")
['no space before ":" in "orne 4: ref"']
"""

from __future__ import annotations

import re

NO_BREAK = "\u00a0"  # before ":" and inside « »
NARROW_NO_BREAK = "\u202f"  # before ";", "?" and "!"

# Each pattern captures the mark at fault. A colon with no space after it ("10:30", "http://")
# is not punctuation and is left alone; "?" and "!" may end a text.
_FAULTS = (
    (re.compile(r"[ \u00a0](?P<mark>[;?!])"), "ordinary space before"),
    (re.compile(r"[ \u202f](?P<mark>:)(?=\s|$)"), "ordinary space before"),
    # "?!" and "!?" are one group: the space goes before the first mark only.
    (re.compile(r"[^\s\u00a0\u202f(\[?!](?P<mark>[;?!])(?=[?!]*(?:\s|$))"), "no space before"),
    (re.compile(r"[^\s\u00a0\u202f(\[{/](?P<mark>:)(?=\s|$)"), "no space before"),
    (re.compile(r"(?P<mark>«)(?!\u00a0)"), "no no-break space after"),
    (re.compile(r"(?<!\u00a0)(?P<mark>»)"), "no no-break space before"),
)


def spacing_faults(text: str) -> list[str]:
    """Every French spacing fault in ``text``, each with a few characters around it."""
    found: list[tuple[int, str]] = []
    for pattern, message in _FAULTS:
        for match in pattern.finditer(text):
            at = match.start("mark")
            around = text[max(0, at - 6) : at + 5].replace("\n", " ")
            found.append((at, f'{message} "{match["mark"]}" in "{around}"'))
    return [message for _, message in sorted(found)]
