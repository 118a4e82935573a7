"""Facts and examples written in the pages, checked by the engine while the site builds.

A page never states a formation, a number or an order of rarity on its own authority: it calls
one of these functions, which renders the text in the page's language after checking it, and a
false statement raises :class:`~schotten.site.SiteCheckError` (the build stops; the caller adds
the page name to the message).

>>> f = jinja_functions("fr")
>>> f["example"]("blue 5, blue 6, blue 7", "colour-run", total=18)
'5 bleu, 6 bleu et 7 bleu'
>>> f["example"]("red 8, green 9, blue 1", "run")
Traceback (most recent call last):
...
schotten.site.SiteCheckError: example 'red 8, green 9, blue 1' is a sum of 18, not a run
>>> f["ladder"]()
'Suite couleur > Brelan > Couleur > Suite > Somme'
>>> f["rarer"]("same-value", "colour")
''
"""

from __future__ import annotations

import dataclasses
import html
import itertools
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from schotten.board import STONES, Board, Player, Stone, Variant
from schotten.cards import (
    CLAN_CARDS,
    TACTIC_CARDS,
    VALUES,
    Card,
    ClanCard,
    Colour,
    Tactic,
    parse_card,
)
from schotten.claims import judge_claim
from schotten.completion import best_completion
from schotten.errors import InvalidNotationError
from schotten.formations import Formation, FormationKind
from schotten.odds import LADDER, hand_counts
from schotten.outcome import ADJACENT_TO_WIN, STONES_TO_WIN
from schotten.site import SiteCheckError, labels
from schotten.svg import position_svg
from schotten.troops import troops_as

# The kinds a page may name, in the site's notation (the keys of the labels' "formations").
KINDS: dict[str, FormationKind] = {k.key: k for k in FormationKind}


def _facts() -> dict[str, int]:
    """Every number a page may state, read from the engine's own data."""
    plain, mud = Stone(1), Stone(1, mud_fight=Player.FIRST)
    return {
        "clan-cards": len(CLAN_CARDS),
        "tactic-cards": len(TACTIC_CARDS),
        "colours": len(Colour),
        "values": len(VALUES),
        "stones": len(STONES),
        "hand-base": Variant.BASE.hand_size,
        "hand-tactical": Variant.TACTICAL.hand_size,
        "cards-per-value": sum(1 for c in CLAN_CARDS if c.value == VALUES[0]),
        "cards-per-colour": sum(1 for c in CLAN_CARDS if c.colour is Colour.RED),
        "side-size": plain.capacity,
        "side-size-mud": mud.capacity,
        "stones-to-win": STONES_TO_WIN,
        "adjacent-to-win": ADJACENT_TO_WIN,
        "jokers": Tactic.JOKER.copies,
        "hands": sum(hand_counts(plain.capacity).values()),
        "hands-mud": sum(hand_counts(mud.capacity).values()),
    }


def card_name(card: Card, lang: str) -> str:
    """One card as a player names it in the page's language: ``9 rouge``, ``Porte-Bouclier``.

    >>> card_name(ClanCard(Colour.PURPLE, 1), "es"), card_name(Tactic.JOKER, "es")
    ('1 morado', 'Comodín')
    """
    return _card_words(card, lang, "card", "tactics")


def card_with_article(card: Card, lang: str) -> str:
    """A card with its definite article, for a sentence: ``le 9 rouge``, ``l’Espion``.

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
    return str(labels(lang)["formations"][kind.label_key(size)])


def parse_example(text: str) -> tuple[Card, ...]:
    """The cards of an example, written ``blue 5, blue 6, blue 7``."""
    try:
        return tuple(parse_card(part.strip()) for part in text.split(","))
    except InvalidNotationError as error:
        raise SiteCheckError(f"example {text!r}: {error}") from None


def check_example(
    text: str, kind: str, total: int | None = None, *, mud: bool = False, bluff: bool = False
) -> tuple[Card, ...]:
    """The cards of a true example; :class:`SiteCheckError` if the engine disagrees.

    ``kind`` is the formation the cards make on an ordinary stone (or under Mud Fight with
    ``mud``). With ``bluff`` the stone is under Blind-Man's Bluff, where only the total counts:
    ``kind`` may then be ``total``, or still name what the cards would make elsewhere (a page
    saying "this colour run only counts 18 here"). Elite troops take their best value.
    """
    cards = parse_example(text)
    if kind not in KINDS:
        raise SiteCheckError(f"example {text!r}: unknown kind {kind!r} (one of {', '.join(KINDS)})")
    size = 4 if mud else 3
    if len(cards) != size:
        where = "under Mud Fight" if mud else "on a side"
        raise SiteCheckError(f"example {text!r} has {len(cards)} cards, not {size} {where}")
    if len(set(cards)) < len(cards):
        # Each Clan card exists once, and one player plays one Joker at most (rule joker-once).
        raise SiteCheckError(f"example {text!r} uses the same card twice")
    if any(isinstance(c, Tactic) and not c.values for c in cards):
        raise SiteCheckError(f"example {text!r}: only Clan cards and elite troops stand on a side")
    wanted = KINDS[kind]
    if wanted is FormationKind.TOTAL and not bluff:
        raise SiteCheckError(f"example {text!r}: kind 'total' exists only with bluff=True")
    plain = _formation(cards, size, totals_only=False)
    found = _formation(cards, size, totals_only=True) if wanted is FormationKind.TOTAL else plain
    if found.kind is not wanted:
        raise SiteCheckError(
            f"example {text!r} is {_a(found.kind)} of {found.total}, not {_a(wanted)}"
        )
    counted = _formation(cards, size, totals_only=True) if bluff else plain
    if total is not None and counted.total != total:
        raise SiteCheckError(
            f"example {text!r} is {_a(found.kind)} of {counted.total}, not of {total}"
        )
    return cards


def _formation(cards: tuple[Card, ...], size: int, *, totals_only: bool) -> Formation:
    best = best_completion(cards, size, totals_only=totals_only)
    assert best is not None  # a full side always has a formation
    return best.formation


def _a(kind: FormationKind) -> str:
    return f"a {kind.words}"


def check_fact(name: str, stated: int) -> int:
    facts = _facts()
    if name not in facts:
        raise SiteCheckError(f"fact {name!r} is unknown (one of {', '.join(facts)})")
    if stated != facts[name]:
        raise SiteCheckError(f"fact {name!r} is {facts[name]}, not {stated}")
    return stated


def check_rarer(a: str, b: str, size: int = 3) -> None:
    """Raise unless formation ``a`` is strictly rarer than ``b`` among hands of ``size`` cards."""
    for kind in (a, b):
        if kind not in KINDS or KINDS[kind] is FormationKind.TOTAL:
            raise SiteCheckError(f"rarer: unknown formation {kind!r}")
    counts = hand_counts(size)
    first, second = counts[KINDS[a]], counts[KINDS[b]]
    if not first < second:
        raise SiteCheckError(
            f"rarer({a!r}, {b!r}) is false: {first} hands of {size} cards make "
            f"{_a(KINDS[a])} and {second} {_a(KINDS[b])}"
        )


def check_ladder(size: int = 3) -> tuple[FormationKind, ...]:
    """The ladder, strongest first, after checking that each step is rarer than the next."""
    for stronger, weaker in itertools.pairwise(LADDER):
        check_rarer(stronger.key, weaker.key, size)
    return LADDER


_TITLE = re.compile(r"(<title\b[^>]*>)(.*?)(</title>)", re.S)


def picture_titled(svg: str, title: str) -> str:
    """The picture with ``title`` in its ``<title>`` element (the one screen readers announce)."""
    text = html.escape(title, quote=False)
    return _TITLE.sub(lambda m: f"{m[1]}{text}{m[3]}", svg, count=1)


def example_board(
    mine: dict[int, str] | None = None,
    theirs: dict[int, str] | None = None,
    *,
    kinds: dict[int, str] | None = None,
    held: dict[str, list[int]] | None = None,
    first: str = "you",
) -> Board:
    """A base-game position for a picture, each stated formation checked by the engine.

    ``mine`` and ``theirs`` give each stone's cards (``"red 1, red 2"``); ``kinds`` the formation
    a complete side of yours makes there (as in :func:`check_example`); ``held`` the stones each
    player already holds (``{"you": [3, 4], "opponent": [6]}``). On each stone the sides are
    completed in turn, ``first`` (``you`` or ``opponent``) first, which settles a perfect tie.
    """
    sides = {Player.FIRST: mine or {}, Player.SECOND: theirs or {}}
    if first not in ("you", "opponent"):
        raise SiteCheckError(f"first={first!r}: 'you' or 'opponent'")
    order = (Player.FIRST, Player.SECOND) if first == "you" else (Player.SECOND, Player.FIRST)
    board = Board.empty(Variant.BASE)
    step = 0
    seen: set[Card] = set()
    for player in order:
        for number, text in sorted(sides[player].items()):
            if number not in STONES:
                raise SiteCheckError(f"picture: no stone {number}")
            for card in parse_example(text):
                if card in seen:
                    raise SiteCheckError(f"picture: {text!r} uses a card shown elsewhere")
                seen.add(card)
                board = board.place(player, number, card, at=step)
                step += 1
    for number, kind in (kinds or {}).items():
        check_example(sides[Player.FIRST].get(number, ""), kind)
    for who, numbers in (held or {}).items():
        if who not in ("you", "opponent"):
            raise SiteCheckError(f"picture: held by {who!r}? ('you' or 'opponent')")
        owner = Player.FIRST if who == "you" else Player.SECOND
        for number in numbers:
            stone = dataclasses.replace(board.stone(number), claimed_by=owner)
            board = board.with_stone(stone)
    return board


def position_picture(
    board: Board, lang: str, title: str, claim: Iterable[int] = (), verdict: str | None = None
) -> str:
    """The site's picture of ``board``; with ``verdict`` (``granted`` or ``refused``), the engine
    must give that verdict to the claim of ``claim``, or :class:`SiteCheckError`."""
    stones = tuple(claim)
    if verdict is not None:
        if verdict not in ("granted", "refused") or not stones:
            raise SiteCheckError(
                f"picture: verdict={verdict!r} needs a claim and is granted/refused"
            )
        granted = all(v.granted for v in judge_claim(board, Player.FIRST, stones))
        if granted != (verdict == "granted"):
            found = "granted" if granted else "refused"
            raise SiteCheckError(f"picture: the claim of {list(stones)} is {found}, not {verdict}")
    ident = "picture-" + re.sub(r"[^a-z0-9]+", "-", fold_ascii(title).lower()).strip("-")
    svg = position_svg(board, stones, labels=labels(lang), ident=f"{ident}-{lang}")
    figure = picture_titled(svg, title)
    caption = html.escape(title, quote=False)
    return (
        f'<figure class="position-figure" data-search-exclude>{figure}'
        f"<figcaption>{caption}</figcaption></figure>"
    )


def fold_ascii(text: str) -> str:
    """``text`` in ASCII letters, for an id: ``Égalité`` → ``Egalite``."""
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if c.isascii())


def format_number(n: int, lang: str) -> str:
    """An integer as the page's language writes it.

    French groups thousands with a narrow no-break space; Spanish with a point, from five digits.

    >>> format_number(24804, "fr"), format_number(24804, "es"), format_number(1470, "es")
    ('24\\u202f804', '24.804', '1470')
    """
    digits = str(n)
    if lang == "es" and len(digits.lstrip("-")) <= 4:
        return digits
    sep = "\u202f" if lang == "fr" else "."
    groups = f"{n:,}".split(",")
    return sep.join(groups)


def jinja_functions(lang: str) -> dict[str, Callable[..., str]]:
    """The page functions of :mod:`schotten.site.verified`, rendering in ``lang``."""
    labels(lang)  # an unknown language fails here, before any page is rendered

    def example(
        cards: str, kind: str, total: int | None = None, mud: bool = False, bluff: bool = False
    ) -> str:
        return cards_text(check_example(cards, kind, total, mud=mud, bluff=bluff), lang)

    def fact(name: str, stated: Any) -> str:
        if not isinstance(stated, int) or isinstance(stated, bool):
            raise SiteCheckError(f"fact {name!r}: the stated value {stated!r} is not a number")
        return format_number(check_fact(name, stated), lang)

    def ladder(mud: bool = False) -> str:
        size = 4 if mud else 3
        return " > ".join(formation_name(k, lang, size) for k in check_ladder(size))

    def rarer(a: str, b: str, mud: bool = False) -> str:
        check_rarer(a, b, 4 if mud else 3)
        return ""

    def picture(
        title: str,
        mine: dict[int, str] | None = None,
        theirs: dict[int, str] | None = None,
        kinds: dict[int, str] | None = None,
        held: dict[str, list[int]] | None = None,
        claim: Iterable[int] = (),
        verdict: str | None = None,
        first: str = "you",
    ) -> str:
        board = example_board(mine, theirs, kinds=kinds, held=held, first=first)
        return position_picture(board, lang, title, claim, verdict)

    return {
        "example": example,
        "fact": fact,
        "ladder": ladder,
        "rarer": rarer,
        "picture": picture,
    }
