"""Words read back: every sentence that names a formation with its cards must make it.

The pages, the checker and the previews say formations in words: ``une Couleur, total 19 (9
rouge, 1 rouge et le Joker en 9 rouge)``. This module reads such words back as a player would,
with nothing but the page's language: the cards as printed, each elite troop as the card it is
said to become, and checks with :func:`schotten.formations.evaluate` that they make the formation
and the total named. A wrong colour given to a troop (``le Joker en 9 orange`` inside a Couleur)
is found from the words alone.

>>> said = "Ta combinaison : une Couleur, total 19 (9 rouge, 1 rouge et le Joker en 9 orange)."
>>> [p.message[-31:] for p in problems(said, "fr")]
['1 rouge, 9 orange make (sum 19)']
>>> [s.made for s in sentences(said.replace("9 orange", "9 rouge"), "fr")]
[Formation(kind=FormationKind.COLOUR, total=19)]
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import cache

from schotten.cards import ClanCard, Colour
from schotten.formations import Formation, FormationKind, evaluate
from schotten.site import labels


@dataclass(frozen=True)
class Sentence:
    """One formation named with its cards: where, what is named, and the cards as read."""

    line: int
    named: str  # the words naming the formation, as printed
    formation: Formation
    cards: tuple[ClanCard, ...]  # each troop as the card it is said to become

    @property
    def made(self) -> Formation:
        return evaluate(self.cards, totals_only=self.formation.kind is FormationKind.TOTAL)


@dataclass(frozen=True)
class Problem:
    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass(frozen=True)
class _Words:
    pattern: re.Pattern[str]
    kinds: dict[str, FormationKind]
    clan: re.Pattern[str]
    colours: dict[str, Colour]
    troops: tuple[str, ...]
    elite_as: re.Pattern[str]
    separator: re.Pattern[str]


@cache
def _words(lang: str) -> _Words:
    names = labels(lang)
    kinds = {str(text): _kind(key) for key, text in names["formations_a"].items()}
    faq = names["faq"]
    total = re.escape(str(faq["formation"])).replace(r"\{name\}", "(?P<name>{names})")
    total = total.replace(r"\{total\}", r"(?P<total>\d+)")
    by_total = re.escape(str(faq["formation_total"])).replace(r"\{total\}", r"(?P<sum>\d+)")
    alternatives = "|".join(re.escape(k) for k in sorted(kinds, key=len, reverse=True))
    pattern = re.compile(
        f"(?:{total.replace('{names}', alternatives)}|{by_total}) \\((?P<cards>[^()]*)\\)"
    )
    colours = {str(names["colours"][str(c)]): c for c in Colour}
    colour = "|".join(re.escape(c) for c in colours)
    card = re.escape(str(names["card"])).replace(r"\{value\}", r"(?P<value>[1-9])")
    clan = re.compile(card.replace(r"\{colour\}", f"(?P<colour>{colour})"))
    troops = tuple(str(t) for t in names["tactics_the"].values())
    elite = re.escape(str(names["words"]["elite_as"]))
    elite = elite.replace(r"\{troop\}", "(?P<troop>.+?)").replace(r"\{card\}", "(?P<card>.+)")
    separator = re.compile(", |" + re.escape(str(names["words"]["and"])))
    return _Words(pattern, kinds, clan, colours, troops, re.compile(elite), separator)


def _kind(key: str) -> FormationKind:
    return FormationKind[key.removesuffix("-4").upper().replace("-", "_")]


def sentences(text: str, lang: str) -> list[Sentence]:
    """Every formation that ``text`` (Markdown or HTML: character references are read) names
    with its cards, in ``lang``; cards that cannot be read are a :class:`ValueError`."""
    words = _words(lang)
    found = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = html.unescape(raw)
        for match in words.pattern.finditer(line):
            if match["name"] is not None:
                formation = Formation(words.kinds[match["name"]], int(match["total"]))
            else:
                formation = Formation(FormationKind.TOTAL, int(match["sum"]))
            cards = tuple(_card(item, words) for item in words.separator.split(match["cards"]))
            found.append(Sentence(number, match[0].split(" (")[0], formation, cards))
    return found


def _card(item: str, words: _Words) -> ClanCard:
    elite = words.elite_as.fullmatch(item)
    if elite is not None and elite["troop"] in words.troops:
        item = elite["card"]
    clan = words.clan.fullmatch(item)
    if clan is None:
        raise ValueError(f"{item!r} is not a card as the pages name it")
    return ClanCard(words.colours[clan["colour"]], int(clan["value"]))


def problems(text: str, lang: str) -> list[Problem]:
    """The sentences of ``text`` whose cards do not make the formation and total they name."""
    found = []
    try:
        read = sentences(text, lang)
    except ValueError as error:
        return [Problem(0, str(error))]
    for sentence in read:
        made = sentence.made
        if made != sentence.formation:
            cards = ", ".join(
                str(labels(lang)["card"]).format(
                    value=c.value, colour=labels(lang)["colours"][str(c.colour)]
                )
                for c in sentence.cards
            )
            found.append(
                Problem(
                    sentence.line,
                    f"«\u00a0{sentence.named}\u00a0» is not what {cards} make "
                    f"({made.kind.words} {made.total})",
                )
            )
    return found
