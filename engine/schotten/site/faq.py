"""The verified FAQ: the verdict table and its detail entries, in one language.

Every row is a case replayed by the engine: the verdict word comes from the engine's
:class:`~schotten.claims.StoneVerdict`, never from the case file, and each detail entry shows the
position (an SVG from :mod:`schotten.svg`) and the engine's reasoning in the page's language.

Case text is written by people: it is rendered as text, never as markup. :func:`md_text` escapes it
for HTML and for Markdown (tables included), so ``|``, ``<script>`` or ``**`` show as typed.

>>> str(md_text("a | b <i>*c*</i>"))
'a &#124; b &#60;i&#62;&#42;c&#42;&#60;/i&#62;'
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

import jinja2
from markupsafe import Markup

from schotten.board import Board, Player
from schotten.cards import Card
from schotten.casebook.case import ExpectedPlayOn
from schotten.claims import Reason, StoneVerdict
from schotten.formations import Formation, FormationKind
from schotten.moves import Move
from schotten.site import LANGUAGES, SiteCheckError, labels, plays, widgets
from schotten.site.verified import cards_text, cards_with_articles, joined
from schotten.svg import position_svg

# Characters that start markup somewhere in Python-Markdown (inline, tables, attr_list, raw HTML),
# written as numeric character references: the browser shows the character, Markdown sees none.
FAQ = "faq"  # the table of the source FAQ's questions, first on the page
CASES_PAGE = "edge-cases.md"  # the page that publishes every table and its details

_MARKUP = frozenset("\\`*_{}[]()#|<>&!~^=\"'")
_ANCHOR = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_TITLE = re.compile(r"(<title\b[^>]*>)(.*?)(</title>)", re.S)


@dataclass(frozen=True)
class FaqEntry:
    """One published case with the engine's verdicts on it."""

    id: str  # the case id, also the anchor of its detail entry (``case-<id>``)
    row: int  # the FAQ row, from 1
    situation: Mapping[str, str]  # by language
    why: Mapping[str, str]
    board: Board
    claim: tuple[int, ...]
    verdicts: tuple[StoneVerdict, ...]
    hand: tuple[Card, ...] = ()  # the claimer's hand, when the case shows it
    table: str = FAQ  # the published table the row belongs to
    rules: tuple[str, ...] = ()  # the rule ids the case pins
    moves: tuple[tuple[Player, Move], ...] = ()  # a play-on case's moves
    play: ExpectedPlayOn | None = None  # what the engine made of them

    @property
    def anchor(self) -> str:
        return f"case-{self.id}"


def md_text(text: str) -> Markup:
    """Text as inert Markdown and HTML: one line, every markup character as a reference."""
    # Only ASCII white space is collapsed: French no-break spaces are part of the text.
    flat = " ".join(re.split(r"[ \t\n\r\f\v]+", str(text).strip(" \t\n\r\f\v")))
    return Markup("".join(f"&#{ord(ch)};" if ch in _MARKUP else ch for ch in flat))


def verdict_word(verdict: StoneVerdict, lang: str) -> str:
    """``Accordée`` / ``Refusée`` (``Concedida`` / ``Denegada``)."""
    return str(_label(lang, "verdicts", "granted" if verdict.granted else "refused"))


def verdict_class(entry: FaqEntry) -> str:
    """The verdict cell's class, which the stylesheet marks with a sign as well as a colour."""
    if entry.play is not None and not entry.verdicts:
        return "verdict verdict--moves"
    granted = {v.granted for v in entry.verdicts}
    if granted == {True}:
        return "verdict verdict--granted"
    return "verdict verdict--refused" if granted == {False} else "verdict verdict--mixed"


def verdict_summary(entry: FaqEntry, lang: str) -> str:
    """The verdict cell: one word when every claimed stone has the same verdict, else per stone.

    >>> from schotten.board import Variant
    >>> entry = FaqEntry("x", 1, {}, {}, Board.empty(Variant.BASE), (3, 4),
    ...                  (StoneVerdict(3, Reason.STRONGER), StoneVerdict(4, Reason.WEAKER)))
    >>> verdict_summary(entry, "es")
    'Piedra 3: Concedida; Piedra 4: Denegada'
    """
    if entry.play is not None and not entry.verdicts:
        return plays.steps_summary(entry.play.steps, lang)
    words = [verdict_word(v, lang) for v in entry.verdicts]
    if len(set(words)) == 1:
        return words[0]
    template = _label(lang, "faq", "stone_verdict")
    stone = _capital(_label(lang, "words", "stone"))
    parts = [
        template.format(stone=stone, number=v.stone, verdict=w)
        for v, w in zip(entry.verdicts, words, strict=True)
    ]
    return str(_label(lang, "punctuation", "semicolon")).join(parts)


def formation_text(formation: Formation, lang: str, size: int = 3) -> str:
    """``un Brelan, total 6``; ``un Carré`` for four of a kind; ``un total de 26`` under the
    Bluff (a formation as a sentence names it, with its article)."""
    if formation.kind is FormationKind.TOTAL:
        return str(_label(lang, "faq", "formation_total")).format(total=formation.total)
    name = _label(lang, "formations_a", formation.kind.label_key(size))
    return str(_label(lang, "faq", "formation")).format(name=name, total=formation.total)


def reasoning(board: Board, verdict: StoneVerdict, lang: str) -> list[str]:
    """The engine's grounds for one stone, as sentences in ``lang`` (both sides compared)."""
    names = labels(lang)
    faq = names["faq"]
    stone = board.stone(verdict.stone)
    mine = stone.side(Player.FIRST).cards
    theirs = stone.side(Player.SECOND).cards
    empty = names["words"]["empty_side"]
    size = stone.capacity
    if verdict.reason is Reason.STONE_CLAIMED:
        return []
    if verdict.reason is Reason.SIDE_INCOMPLETE:
        return [faq["incomplete"].format(count=len(mine), capacity=size)]
    assert verdict.mine is not None  # a complete side has a formation
    lines = [
        faq["mine"].format(
            formation=formation_text(verdict.mine, lang, size), cards=cards_text(mine, lang)
        )
    ]
    if verdict.reason in (
        Reason.STRONGER,
        Reason.WEAKER,
        Reason.TIE_COMPLETED_FIRST,
        Reason.TIE_COMPLETED_LATER,
    ):
        assert verdict.theirs is not None
        lines.append(
            faq["theirs"].format(
                formation=formation_text(verdict.theirs, lang, size),
                cards=cards_text(theirs, lang),
            )
        )
    elif verdict.reason is Reason.OPPONENT_CAN_BEAT:
        assert verdict.witness is not None
        lines.append(
            faq["witness"].format(
                cards=cards_text(theirs, lang) or empty,
                added=cards_with_articles(verdict.witness.cards, lang),
                formation=formation_text(verdict.witness.formation, lang, size),
                side=cards_text(verdict.witness.side, lang),
            )
        )
    elif verdict.theirs is not None:
        lines.append(
            faq["theirs_best"].format(
                cards=cards_text(theirs, lang) or empty,
                formation=formation_text(verdict.theirs, lang, size),
            )
        )
    else:
        lines.append(faq["theirs_none"].format(cards=cards_text(theirs, lang) or empty))
    return lines


def table_entries(entries: Sequence[FaqEntry], table: str) -> list[FaqEntry]:
    """The rows of one published table, in order; :class:`SiteCheckError` if it has none."""
    rows = sorted((e for e in entries if e.table == table), key=lambda e: e.row)
    if not rows:
        known = ", ".join(sorted({e.table for e in entries}))
        raise SiteCheckError(f"no published table {table!r} (the cases publish: {known})")
    return rows


def verdict_table(entries: Sequence[FaqEntry], lang: str, table: str = "faq") -> Markup:
    """A verdict table in Markdown: situation, the engine's verdict (linked to its entry), why."""
    rows = [
        {
            "situation": _text(entry.situation, lang, entry, "situation"),
            "verdict": verdict_summary(entry, lang),
            "verdict_class": verdict_class(entry),
            "anchor": _anchor(entry),
            "why": _text(entry.why, lang, entry, "why"),
        }
        for entry in table_entries(entries, table)
    ]
    return Markup(
        _template("table.md.j2").render(headers=_label(lang, "faq", "headers"), rows=rows)
    )


def verdict_details(
    entries: Sequence[FaqEntry], lang: str, table: str = "faq", level: int = 3
) -> Markup:
    """One detail entry per row of ``table``: a heading, the position, the verdict and its
    grounds (or the moves and the engine's answer to each), why."""
    if not 2 <= level <= 6:
        raise SiteCheckError(f"verdict_details(level={level}): a heading level is 2 to 6")
    names = labels(lang)
    stone_word = _capital(names["words"]["stone"])
    items = []
    for entry in table_entries(entries, table):
        stones = [
            {
                "head": _label(lang, "faq", "verdict_line").format(
                    stone=stone_word, number=v.stone, verdict=verdict_word(v, lang)
                ),
                "reason": _label(lang, "reasons", str(v.reason)),
                "lines": reasoning(entry.board, v, lang),
                "checker": "" if entry.play else widgets.checker_link(entry.board, v.stone, lang),
            }
            for v in entry.verdicts
        ]
        moves: list[str] = []
        after: list[str] = []
        if entry.play is not None:
            moves = [
                plays.step_text(player, move, step, lang)
                for (player, move), step in zip(entry.moves, entry.play.steps, strict=True)
            ]
            after = plays.outcome_text(
                entry.play.game, entry.play.held, entry.play.termination, entry.play.points, lang
            )
        picture = picture_titled(
            position_svg(
                entry.board,
                entry.claim,
                labels=names,
                ident=f"{entry.anchor}-{lang}",
                hand=entry.hand,
            ),
            picture_title(entry.claim, lang),
        )
        items.append(
            {
                "row": entry.row,
                "anchor": _anchor(entry),
                "situation": _text(entry.situation, lang, entry, "situation"),
                "why": _text(entry.why, lang, entry, "why"),
                "svg": Markup(picture),
                "stones": stones,
                "moves": moves,
                "after": after,
            }
        )
    return Markup(
        _template("details.md.j2").render(
            hashes="#" * level,
            entries=items,
            why_word=_label(lang, "faq", "why"),
            moves_word=_label(lang, "moves", "moves"),
            after_word=_label(lang, "moves", "after"),
        )
    )


def cases_for(entries: Sequence[FaqEntry], lang: str, *rules: str) -> Markup:
    """A list of links to the published cases that pin any of ``rules`` (for the pages that
    state a rule or a ruling); :class:`SiteCheckError` when no published case pins them."""
    pinned = [e for e in entries if set(rules) & set(e.rules)]
    if not rules or not pinned:
        raise SiteCheckError(f"cases_for{rules}: no published case pins these rules")
    lines = [f"**{md_text(_label(lang, 'faq', 'cases_for'))}**", ""]
    for entry in pinned:
        situation = md_text(_text(entry.situation, lang, entry, "situation"))
        lines.append(f"- [{situation}]({CASES_PAGE}#{_anchor(entry)})")
    return Markup("\n" + "\n".join(lines) + "\n")


def picture_title(claim: Sequence[int], lang: str) -> str:
    """The picture's title: the stones the case claims, whatever the verdict.

    >>> picture_title((3, 5), "fr")
    'Position\xa0: tu revendiques les Bornes 3 et 5'
    """
    if not claim:
        return str(_label(lang, "words", "position"))
    numbers = joined([str(n) for n in claim], lang)
    key = "picture_title_one" if len(claim) == 1 else "picture_title_many"
    return str(_label(lang, "faq", key)).format(stones=numbers)


def picture_titled(svg: str, title: str) -> str:
    """The picture with ``title`` in its ``<title>`` element (the one screen readers announce)."""
    text = html.escape(title, quote=False)
    return _TITLE.sub(lambda m: f"{m[1]}{text}{m[3]}", svg, count=1)


def check_entry_languages(entry: FaqEntry, source: str) -> list[str]:
    """Problems that keep a published case off the site: a text missing in one language."""
    problems = []
    for field, texts in (("situation", entry.situation), ("why", entry.why)):
        for lang in LANGUAGES:
            if not str(texts.get(lang) or "").strip():
                problems.append(f"{source}: published case has no {field}.{lang} text")
    if not _ANCHOR.fullmatch(entry.id):
        problems.append(f"{source}: case id {entry.id!r} cannot be an anchor (a-z, 0-9, '-')")
    return problems


def _text(texts: Mapping[str, str], lang: str, entry: FaqEntry, field: str) -> str:
    text = texts.get(lang)
    if not text:
        raise SiteCheckError(f"case {entry.id}: no {field}.{lang} text (every language is needed)")
    return text


def _anchor(entry: FaqEntry) -> str:
    if not _ANCHOR.fullmatch(entry.id):
        raise SiteCheckError(f"case id {entry.id!r} cannot be an anchor (a-z, 0-9, '-')")
    return entry.anchor


def _label(lang: str, section: str, key: str) -> Any:
    try:
        return labels(lang)[section][key]
    except KeyError:
        raise SiteCheckError(
            f"schotten/site/locales/{lang}.json: no label {section}.{key}"
        ) from None


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FunctionLoader(_load_template),
        undefined=jinja2.StrictUndefined,
        autoescape=True,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["md"] = md_text
    return env


def _load_template(name: str) -> str:
    return resources.files(__package__).joinpath("templates", name).read_text("utf-8")


def _template(name: str) -> jinja2.Template:
    return _ENV.get_template(name)


_ENV = _environment()
