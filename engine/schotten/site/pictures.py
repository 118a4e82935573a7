"""The site's position pictures: each case's, and those the pages draw, each with its title.

A picture is :func:`schotten.svg.position_svg` with the labels of the page's language and a title
in words (what a screen reader announces, and a figure's caption). A page draws a position with
``picture(...)``: every formation it states and the verdict it gives are checked by the engine,
as the page's facts are (:mod:`schotten.site.facts`).

>>> picture_title((3, 5), "fr")
'Position\xa0: tu revendiques les Bornes 3 et 5'
"""

from __future__ import annotations

import dataclasses
import html
import re
from collections.abc import Callable, Iterable, Sequence
from xml.sax.saxutils import quoteattr

from schotten.board import STONES, Board, Player, Variant
from schotten.cards import Card
from schotten.casebook import Case
from schotten.claims import judge_claim
from schotten.site import SiteCheckError, labels
from schotten.site.facts import check_example, parse_example
from schotten.site.words import fold_ascii, joined, label
from schotten.svg import position_svg


def picture_title(claim: Sequence[int], lang: str) -> str:
    """A case picture's title: the stones the case claims, whatever the verdict."""
    if not claim:
        return str(label(lang, "words", "position"))
    numbers = joined([str(n) for n in claim], lang)
    key = "picture_title_one" if len(claim) == 1 else "picture_title_many"
    return str(label(lang, "faq", key)).format(stones=numbers)


def case_anchor(case: Case) -> str:
    """The anchor of a case on the edge-case page (its picture's ids start with it)."""
    return f"case-{case.id}"


# A phone of 390 px leaves a case's details about 330 px. A picture keeps its text at 11 px at
# least (schotten.svg gives it a min-width), so one wider than that scrolls sideways inside its
# figure; the figure is then a labelled region that the keyboard reaches, or a keyboard user
# could never see the scrolled-off stones.
PHONE_COLUMN_PX = 320
_MIN_WIDTH = re.compile(r"min-width:\s*([0-9.]+)px")


def figure(svg: str, lang: str, title: str, caption: str = "") -> str:
    """The ``<figure>`` that holds a picture of a position (``svg``, titled ``title``), with its
    ``caption`` when there is one."""
    head = svg[: svg.find(">")]
    found = _MIN_WIDTH.search(head)
    attributes = ""
    if found and float(found[1]) > PHONE_COLUMN_PX:
        scroll = str(labels(lang)["faq"]["picture_scroll"]).format(title=title)
        attributes = f' role="region" tabindex="0" aria-label={quoteattr(scroll)}'
    below = f"<figcaption>{html.escape(caption, quote=False)}</figcaption>" if caption else ""
    return f'<figure class="position-figure" data-search-exclude{attributes}>{svg}{below}</figure>'


def case_figure(case: Case, lang: str) -> str:
    """The case's picture in its figure, as the edge-case page shows it."""
    return figure(case_picture(case, lang), lang, picture_title(case.claim, lang))


def case_picture(case: Case, lang: str) -> str:
    """The case's position as the edge-case page draws it in ``lang``, with the claimer's hand."""
    return position_svg(
        case.board,
        case.claim,
        labels=labels(lang),
        ident=f"{case_anchor(case)}-{lang}",
        hand=case.hands[Player.FIRST],
        title=picture_title(case.claim, lang),
    )


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
    svg = position_svg(board, stones, labels=labels(lang), ident=f"{ident}-{lang}", title=title)
    return figure(svg, lang, title, caption=title)


def jinja_functions(lang: str) -> dict[str, Callable[..., str]]:
    """The page functions of :mod:`schotten.site.pictures`, rendering in ``lang``."""
    labels(lang)  # an unknown language fails here, before any page is rendered

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

    return {"picture": picture}
