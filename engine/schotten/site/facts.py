"""Facts and examples written in the pages, checked by the engine while the site builds.

A page never states a formation, a number or an order of rarity on its own authority: it calls
one of these functions, which renders the text in the page's language after checking it, and a
false statement raises :class:`~schotten.site.SiteCheckError` (the build stops; the caller adds
the page name to the message). The pictures pages draw are checked the same way
(:mod:`schotten.site.pictures`).

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

import itertools
from collections.abc import Callable
from typing import Any

from schotten.board import STONES, Player, Stone, Variant
from schotten.cards import (
    CLAN_CARDS,
    TACTIC_CARDS,
    VALUES,
    Card,
    Colour,
    Tactic,
    TacticKind,
    parse_card,
)
from schotten.completion import best_completion
from schotten.errors import IllegalActionError, InvalidNotationError
from schotten.formations import Formation, FormationKind
from schotten.moves import Deck, Recruiter, Return
from schotten.odds import LADDER, hand_counts
from schotten.outcome import ADJACENT_TO_WIN, STONES_TO_WIN
from schotten.site import SiteCheckError, labels
from schotten.site.words import cards_text, format_number, formation_name
from schotten.tactics import verify_recruiter, verify_return

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
        "tactic-families": len(TacticKind),
        "hands": sum(hand_counts(plain.capacity).values()),
        "hands-mud": sum(hand_counts(mud.capacity).values()),
        "draw-piles": len(Deck),
        "recruiter-draws": _recruiter_draws(),
        "recruiter-returns": _recruiter_returns(),
        # The hand after a whole Recruiter turn, against its start: the card played, the cards
        # drawn and the cards put back (the Recruiter is the turn's draw).
        "recruiter-hand-change": _recruiter_draws() - _recruiter_returns() - 1,
        # The same with a single card left in the decks: the hand ends below its size.
        "recruiter-one-left-hand": Variant.TACTICAL.hand_size
        - 1
        + _recruiter_draws(left=1)
        - _recruiter_returns(),
    }


def _recruiter_draws(left: int = len(CLAN_CARDS)) -> int:
    """How many cards the engine lets a Recruiter draw when the Clan deck holds ``left``."""
    decks = {Deck.CLAN: left, Deck.TACTIC: 0}
    return _only_accepted(
        lambda n: verify_recruiter(decks, Recruiter((Deck.CLAN,) * n)), range(1, 4), "draws"
    )


def _recruiter_returns() -> int:
    """How many cards the engine asks a Recruiter to put back from a full hand."""
    hand = CLAN_CARDS[: Variant.TACTICAL.hand_size]
    return _only_accepted(
        lambda n: verify_return(hand, Player.FIRST, Return(hand[:n]), False), range(1, 3), "returns"
    )


def _only_accepted(verify: Callable[[int], None], counts: range, what: str) -> int:
    accepted = []
    for n in counts:
        try:
            verify(n)
        except IllegalActionError:
            continue
        accepted.append(n)
    if len(accepted) != 1:  # the engine must accept exactly one count, or the fact means nothing
        raise SiteCheckError(f"the Recruiter {what} {accepted}: not one count")
    return accepted[0]


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


# Small counts as prose writes them: « les deux pioches », « los dos mazos ». One and zero are
# left out: their gender depends on the noun.
_SPELLED = {
    "fr": ("deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix"),
    "es": ("dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez"),
}


def spelled(n: int, lang: str) -> str:
    """``n`` in words, from 2 to 10; :class:`SiteCheckError` otherwise.

    >>> spelled(2, "fr"), spelled(3, "es")
    ('deux', 'tres')
    """
    if not 2 <= n <= 10:
        raise SiteCheckError(f"the count {n} is not written in words (2 to 10 only)")
    return _SPELLED[lang][n - 2]


def jinja_functions(lang: str) -> dict[str, Callable[..., str]]:
    """The page functions of :mod:`schotten.site.facts`, rendering in ``lang``."""
    labels(lang)  # an unknown language fails here, before any page is rendered

    def example(
        cards: str, kind: str, total: int | None = None, mud: bool = False, bluff: bool = False
    ) -> str:
        return cards_text(check_example(cards, kind, total, mud=mud, bluff=bluff), lang)

    def fact(name: str, stated: Any, words: bool = False) -> str:
        """The number, checked; in words (« trois ») with ``words``."""
        if not isinstance(stated, int) or isinstance(stated, bool):
            raise SiteCheckError(f"fact {name!r}: the stated value {stated!r} is not a number")
        value = check_fact(name, stated)
        return spelled(value, lang) if words else format_number(value, lang)

    def holds(name: str, stated: Any) -> str:
        """Nothing, once the fact is checked: for a sentence that states it without a number
        (« autant de cartes qu’au début du tour » is ``recruiter-hand-change`` 0)."""
        fact(name, stated)
        return ""

    def ladder(mud: bool = False) -> str:
        size = 4 if mud else 3
        return " > ".join(formation_name(k, lang, size) for k in check_ladder(size))

    def rarer(a: str, b: str, mud: bool = False) -> str:
        check_rarer(a, b, 4 if mud else 3)
        return ""

    return {
        "example": example,
        "fact": fact,
        "holds": holds,
        "ladder": ladder,
        "rarer": rarer,
    }
