"""The verified FAQ: the verdict table and its detail entries, in one language.

Every case is replayed by the engine: the verdict comes from the engine's
:class:`~schotten.claims.StoneVerdict`, never from the case file. A case is shown once: its
question, answer and why, then (one tap away, in a ``<details>``) the position (an SVG from
:mod:`schotten.svg`), the reasoning and the moves in the page's language.

Case text is written by people: it is rendered as text, never as markup. :func:`md_text` escapes it
for HTML and for Markdown (tables included), so ``|``, ``<script>`` or ``**`` show as typed.

>>> str(md_text("a | b <i>*c*</i>"))
'a &#124; b &#60;i&#62;&#42;c&#42;&#60;/i&#62;'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

import jinja2
from markupsafe import Markup

from schotten.board import Board, Player, Stone
from schotten.cards import Card
from schotten.casebook.model import ExpectedPlayOn
from schotten.claims import Reason, StoneVerdict
from schotten.completion import best_completion
from schotten.formations import Formation, FormationKind
from schotten.moves import Move
from schotten.rules import Rule
from schotten.site import LANGUAGES, SiteCheckError, labels, plays, widgets
from schotten.site.questions import table_marker
from schotten.site.verified import (
    cards_text,
    cards_with_articles,
    joined,
    picture_titled,
    side_text,
)
from schotten.svg import position_svg

# Characters that start markup somewhere in Python-Markdown (inline, tables, attr_list, raw HTML),
# written as numeric character references: the browser shows the character, Markdown sees none.
FAQ = "faq"  # the table of the source FAQ's questions, first on the page
CASES_PAGE = "edge-cases.md"  # the page that publishes every table and its details

_MARKUP = frozenset("\\`*_{}[]()#|<>&!~^=\"'")
_RUN_HYPHEN = re.compile(r"(?<=\d)-(?=\d)")
_ANCHOR = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


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
    flat = _RUN_HYPHEN.sub("\u2011", flat)  # a run of values (4-5-9) never breaks at a hyphen
    return Markup("".join(f"&#{ord(ch)};" if ch in _MARKUP else ch for ch in flat))


def verdict_word(verdict: StoneVerdict, lang: str) -> str:
    """``Accordée`` / ``Refusée`` (``Concedida`` / ``Denegada``)."""
    return str(_label(lang, "verdicts", "granted" if verdict.granted else "refused"))


def claim_granted(entry: FaqEntry) -> bool:
    """The claim as a player makes it: granted only when every stone it names is (a site ruling,
    rule ``claim-together``: one stone not proven refuses the whole claim)."""
    return all(v.granted for v in entry.verdicts)


def verdict_class(entry: FaqEntry) -> str:
    """The verdict's class, which the stylesheet marks with a sign as well as a colour."""
    if entry.play is not None and not entry.verdicts:
        return "verdict verdict--moves"
    return "verdict verdict--granted" if claim_granted(entry) else "verdict verdict--refused"


def verdict_summary(entry: FaqEntry, lang: str) -> str:
    """The answer shown with the question: the claim's verdict, or what the moves come to.

    >>> from schotten.board import Variant
    >>> entry = FaqEntry("x", 1, {}, {}, Board.empty(Variant.BASE), (3, 4),
    ...                  (StoneVerdict(3, Reason.STRONGER), StoneVerdict(4, Reason.WEAKER)))
    >>> verdict_summary(entry, "es")
    'Denegada'
    """
    if entry.play is not None and not entry.verdicts:
        play = entry.play
        return plays.steps_summary(play.steps, play.game, play.termination, lang)
    granted = claim_granted(entry)
    return str(_label(lang, "verdicts", "granted" if granted else "refused"))


def stone_head(entry: FaqEntry, verdict: StoneVerdict, lang: str) -> str:
    """One stone's line in the details. In a refused claim of several stones, a stone that is
    proven says that, named alone, it would have been granted."""
    stone = _capital(_label(lang, "words", "stone"))
    if len(entry.verdicts) < 2 or claim_granted(entry):
        return str(_label(lang, "faq", "verdict_line")).format(
            stone=stone, number=verdict.stone, verdict=verdict_word(verdict, lang)
        )
    key = "stone_proven" if verdict.granted else "stone_not_proven"
    return str(_label(lang, "faq", key)).format(stone=stone, number=verdict.stone)


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
            formation=formation_text(verdict.mine, lang, size),
            cards=_complete_side(mine, stone, lang),
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
                cards=_complete_side(theirs, stone, lang),
            )
        )
    elif verdict.reason is Reason.OPPONENT_CAN_BEAT:
        assert verdict.witness is not None
        lines.append(
            faq["witness"].format(
                cards=cards_text(theirs, lang) or empty,
                added=cards_with_articles(verdict.witness.cards, lang),
                formation=formation_text(verdict.witness.formation, lang, size),
                side=side_text((*theirs, *verdict.witness.cards), verdict.witness.side, lang),
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


def _complete_side(cards: Sequence[Card], stone: Stone, lang: str) -> str:
    """A complete side's cards, each elite troop with the card it becomes."""
    best = best_completion(cards, stone.capacity, totals_only=stone.totals_only)
    assert best is not None  # a complete side has a formation
    return side_text(cards, best.resolved, lang)


def table_entries(entries: Sequence[FaqEntry], table: str) -> list[FaqEntry]:
    """The rows of one published table, in order; :class:`SiteCheckError` if it has none."""
    rows = sorted((e for e in entries if e.table == table), key=lambda e: e.row)
    if not rows:
        known = ", ".join(sorted({e.table for e in entries}))
        raise SiteCheckError(f"no published table {table!r} (the cases publish: {known})")
    return rows


def verdict_table(entries: Sequence[FaqEntry], lang: str, table: str = "faq") -> Markup:
    """The cases of one published table, each once: the question, its answer and why, then the
    position, the reasoning and the moves in a ``<details>`` that opens in place (and on the
    case's anchor)."""
    names = labels(lang)
    items = []
    for entry in table_entries(entries, table):
        stones = [
            {
                "head": stone_head(entry, v, lang),
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
        whole_refused = len(entry.verdicts) > 1 and not claim_granted(entry)
        items.append(
            {
                "anchor": _anchor(entry),
                "situation": _text(entry.situation, lang, entry, "situation"),
                "verdict": verdict_summary(entry, lang),
                "verdict_class": verdict_class(entry),
                "why": _text(entry.why, lang, entry, "why"),
                "open": _label(lang, "faq", "open_moves" if moves else "open"),
                "svg": Markup(picture),
                "ruling": _label(lang, "faq", "claim_refused") if whole_refused else "",
                "stones": stones,
                "moves": moves,
                "after": " ".join(after),
            }
        )
    html = _template("cases.html.j2").render(
        entries=items,
        moves_word=_label(lang, "moves", "moves"),
        after_word=_label(lang, "moves", "after"),
    )
    # Cases whose situation is a question are the page's questions too (schotten.site.questions).
    asked = table_marker((item["situation"], item["why"]) for item in items)
    return Markup(html + asked)


_RULE_IDS = frozenset(str(rule) for rule in Rule)


def cases_for(entries: Sequence[FaqEntry], lang: str, *rules: str) -> Markup:
    """A list of links to the published cases that pin any of ``rules`` (for the pages that
    state a rule or a ruling); :class:`SiteCheckError` when no published case pins them."""
    unknown = [rule for rule in rules if rule not in _RULE_IDS]
    if unknown:
        raise SiteCheckError(f"cases_for{rules}: {unknown[0]!r} is not a rule id of RULES.md")
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
        raise SiteCheckError(f"schotten/locales/{lang}.json: no label {section}.{key}") from None


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
