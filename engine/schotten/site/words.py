"""The site's words for players: cards, formations, lists and numbers in the page's language.

Every word comes from the label catalogue (:mod:`schotten.labels`); this module only puts them
together as a native speaker would: values before colours, articles in sentences, the language's
"and" before the last item, its own way of grouping digits.

>>> from schotten.cards import Colour, Tactic
>>> cards_text([ClanCard(Colour.RED, 3), ClanCard(Colour.GREEN, 3), Tactic.JOKER], "es")
'3 rojo, 3 verde y Comodín'
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from schotten.cards import Card, ClanCard
from schotten.formations import Formation, FormationKind
from schotten.site import LANGUAGES, SiteCheckError, labels
from schotten.troops import troops_as


def label(lang: str, section: str, key: str) -> Any:
    """One label of ``lang``'s catalogue; :class:`SiteCheckError` naming it when it is missing."""
    try:
        return labels(lang)[section][key]
    except KeyError:
        raise SiteCheckError(f"schotten/locales/{lang}.json: no label {section}.{key}") from None


def capital(text: str) -> str:
    """``text`` with a capital first letter (the rest as it is): ``borne`` → ``Borne``."""
    return text[:1].upper() + text[1:]


def card_name(card: Card, lang: str) -> str:
    """One card as a player names it in the page's language: ``9 rouge``, ``Porte-Bouclier``.

    >>> from schotten.cards import Colour, Tactic
    >>> card_name(ClanCard(Colour.PURPLE, 1), "es"), card_name(Tactic.JOKER, "es")
    ('1 morado', 'Comodín')
    """
    return _card_words(card, lang, "card", "tactics")


def card_with_article(card: Card, lang: str) -> str:
    """A card with its definite article, for a sentence: ``le 9 rouge``, ``l’Espion``.

    >>> from schotten.cards import Colour, Tactic
    >>> card_with_article(ClanCard(Colour.RED, 9), "fr"), card_with_article(Tactic.SPY, "fr")
    ('le 9 rouge', 'l’Espion')
    """
    return _card_words(card, lang, "card_the", "tactics_the")


def _card_words(card: Card, lang: str, clan_key: str, tactic_key: str) -> str:
    """A card by the labels' patterns: ``clan_key`` for a Clan card, ``tactic_key`` for the rest."""
    names = labels(lang)
    if isinstance(card, ClanCard):
        colour = names["colours"][str(card.colour)]
        return str(names[clan_key]).format(value=card.value, colour=colour)
    return str(names[tactic_key][card.value])


def cards_text(cards: Iterable[Card], lang: str) -> str:
    """Cards listed as a player lists them: ``3 rouge, 3 vert et 3 bleu``."""
    return joined([card_name(c, lang) for c in cards], lang)


def cards_with_articles(cards: Iterable[Card], lang: str) -> str:
    """``le 3 orange et le 5 orange``."""
    return joined([card_with_article(c, lang) for c in cards], lang)


def side_text(placed: Sequence[Card], resolved: Sequence[ClanCard], lang: str) -> str:
    """A side as it stands, each elite troop with what it becomes: ``3 rouge, 3 vert et le Joker
    en 3 orange``. ``resolved`` is the engine's resolution of the same side (Clan cards only).

    >>> from schotten.cards import Colour, Tactic
    >>> side_text([ClanCard(Colour.RED, 3), Tactic.JOKER],
    ...           [ClanCard(Colour.RED, 3), ClanCard(Colour.RED, 3)], "fr")
    '3 rouge et le Joker en 3 orange'
    """
    try:
        pairs = troops_as(placed, resolved)
    except ValueError as error:
        raise SiteCheckError(str(error)) from None
    elite_as = str(labels(lang)["words"]["elite_as"])
    words = [
        card_name(card, lang)
        if becomes is None
        else elite_as.format(troop=card_with_article(card, lang), card=card_name(becomes, lang))
        for card, becomes in pairs
    ]
    return joined(words, lang)


def joined(items: list[str], lang: str) -> str:
    """``a, b et c`` (``a, b y c``): the last two items joined by the language's "and"."""
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + str(labels(lang)["words"]["and"]) + items[-1]


def formation_name(kind: FormationKind, lang: str, size: int = 3) -> str:
    """A formation's name, as a table heads it: ``Brelan`` (``Carré`` on a side of four)."""
    return str(labels(lang)["formations"][kind.label_key(size)])


def formation_text(formation: Formation, lang: str, size: int = 3) -> str:
    """``un Brelan, total 6``; ``un Carré`` for four of a kind; ``un total de 26`` under the
    Bluff (a formation as a sentence names it, with its article)."""
    if formation.kind is FormationKind.TOTAL:
        return str(label(lang, "faq", "formation_total")).format(total=formation.total)
    name = label(lang, "formations_a", formation.kind.label_key(size))
    return str(label(lang, "faq", "formation")).format(name=name, total=formation.total)


def format_number(n: int, lang: str) -> str:
    """An integer as the page's language writes it: digits in groups of three, joined by a
    narrow no-break space (French typography; the RAE's *Ortografía* asks the same of Spanish,
    where a number of four digits stays whole).

    >>> format_number(24804, "fr"), format_number(24804, "es")
    ('24\\u202f804', '24\\u202f804')
    >>> format_number(1470, "fr"), format_number(1470, "es"), format_number(1033086600, "es")
    ('1\\u202f470', '1470', '1\\u202f033\\u202f086\\u202f600')
    """
    if lang not in LANGUAGES:
        raise SiteCheckError(f"no number format for language {lang!r}")
    digits = str(n)
    if lang == "es" and len(digits.lstrip("-")) <= 4:
        return digits
    return f"{n:,}".replace(",", "\u202f")


def format_percent(share: Fraction, lang: str) -> str:
    """A share as a percentage with three significant digits, as the language writes it.

    Both languages put a comma before the decimals and a no-break space before ``%``.

    >>> format_percent(Fraction(42, 24804), "fr"), format_percent(Fraction(1), "es")
    ('0,169\\xa0%', '100\\xa0%')
    >>> format_percent(Fraction(36, 316251), "fr"), format_percent(Fraction(0), "fr")
    ('0,0114\\xa0%', '0\\xa0%')
    """
    value = float(share * 100)
    if value == 0:
        text = "0"
    else:
        decimals = max(0, 2 - math.floor(math.log10(value)))
        text = f"{value:.{decimals}f}"
    if lang not in LANGUAGES:
        raise SiteCheckError(f"no number format for language {lang!r}")
    return text.replace(".", ",") + "\u00a0%"


def fold_ascii(text: str) -> str:
    """``text`` in ASCII letters, for an id: ``Égalité`` → ``Egalite``."""
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if c.isascii())


def format_megabytes(size: int, lang: str) -> str:
    """A download's size in megabytes (10^6 bytes) with one decimal, as the language writes it.

    >>> format_megabytes(4_449_999, "fr"), format_megabytes(4_450_000, "es")
    ('4,4\xa0Mo', '4,5\xa0MB')
    """
    tenths = (size + 50_000) // 100_000
    unit: str = labels(lang)["checker"]["megabytes"]
    return unit.format(value=f"{tenths // 10},{tenths % 10}")
