"""The published tables: each case's question, answer and why, then its detail, in one language.

Every case is replayed by the engine, and a table shows the casebook's result
(:class:`~schotten.casebook.CaseResult`): the verdict comes from the engine's
:class:`~schotten.claims.StoneVerdict`, never from the case file. A case is shown once: its
question, answer and why, then (one tap away, in a ``<details>``) the position
(:mod:`schotten.site.pictures`), the reasoning and the moves in the page's language. The pages that
state a rule list the cases that pin it (:func:`cases_for`).

Case text is written by people: it is rendered as text, never as markup. :func:`md_text` escapes it
for HTML and for Markdown (tables included), so ``|``, ``<script>`` or ``**`` show as typed.

>>> str(md_text("a | b <i>*c*</i>"))
'a &#124; b &#60;i&#62;&#42;c&#42;&#60;/i&#62;'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from importlib import resources

import jinja2
from markupsafe import Markup

from schotten.board import Board, Player, Stone
from schotten.cards import Card
from schotten.casebook import Case, CaseResult
from schotten.claims import Reason, StoneVerdict
from schotten.completion import best_completion
from schotten.moves import Move
from schotten.rules import Rule
from schotten.site import LANGUAGES, SiteCheckError, labels, plays, widgets
from schotten.site.pictures import case_anchor, case_figure
from schotten.site.questions import QuestionAnswer, table_questions
from schotten.site.rulings import rulings_among
from schotten.site.words import (
    capital,
    cards_text,
    cards_with_articles,
    formation_text,
    label,
    side_text,
)

FAQ = "faq"  # the table of the source FAQ's questions, first on the page
CASES_PAGE = "edge-cases.md"  # the page that publishes every table and its details

# Characters that start markup somewhere in Python-Markdown (inline, tables, attr_list, raw HTML),
# written as numeric character references: the browser shows the character, Markdown sees none.
_MARKUP = frozenset("\\`*_{}[]()#|<>&!~^=\"'")
_RUN_HYPHEN = re.compile(r"(?<=\d)-(?=\d)")
_ANCHOR = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def md_text(text: str) -> Markup:
    """Text as inert Markdown and HTML: one line, every markup character as a reference."""
    # Only ASCII white space is collapsed: French no-break spaces are part of the text.
    flat = " ".join(re.split(r"[ \t\n\r\f\v]+", str(text).strip(" \t\n\r\f\v")))
    flat = _RUN_HYPHEN.sub("\u2011", flat)  # a run of values (4-5-9) never breaks at a hyphen
    return Markup("".join(f"&#{ord(ch)};" if ch in _MARKUP else ch for ch in flat))


def verdict_word(verdict: StoneVerdict, lang: str) -> str:
    """``Accordée`` / ``Refusée`` (``Concedida`` / ``Denegada``)."""
    return str(label(lang, "verdicts", "granted" if verdict.granted else "refused"))


def claim_granted(result: CaseResult) -> bool:
    """The claim as a player makes it: granted only when every stone it names is (a site ruling,
    rule ``claim-together``: one stone not proven refuses the whole claim)."""
    return all(v.granted for v in result.verdicts)


def verdict_class(result: CaseResult) -> str:
    """The verdict's class, which the stylesheet marks with a sign as well as a colour: a
    play-on's is its question's answer."""
    answer = result.answer
    granted = answer.accepted if answer is not None else claim_granted(result)
    return "verdict verdict--granted" if granted else "verdict verdict--refused"


def verdict_summary(result: CaseResult, lang: str) -> str:
    """The answer shown with the question: the engine's answer to the play-on's question (its
    ``question:`` move), or the claim's verdict."""
    if result.answer is not None:
        return plays.answer_text(result.answer, lang)
    granted = claim_granted(result)
    return str(label(lang, "verdicts", "granted" if granted else "refused"))


def stone_head(result: CaseResult, verdict: StoneVerdict, lang: str) -> str:
    """One stone's line in the details. In a refused claim of several stones, a stone that is
    proven says that, named alone, it would have been granted."""
    stone = capital(label(lang, "words", "stone"))
    if len(result.verdicts) < 2 or claim_granted(result):
        return str(label(lang, "faq", "verdict_line")).format(
            stone=stone, number=verdict.stone, verdict=verdict_word(verdict, lang)
        )
    key = "stone_proven" if verdict.granted else "stone_not_proven"
    return str(label(lang, "faq", key)).format(stone=stone, number=verdict.stone)


def reasoning(board: Board, verdict: StoneVerdict, lang: str) -> list[str]:
    """The engine's grounds for one stone, as sentences in ``lang`` (both sides compared)."""
    names = labels(lang)
    faq = names["faq"]
    stone = board.stone(verdict.stone)
    mine = stone.side(Player.FIRST).cards
    theirs = stone.side(Player.SECOND).cards
    bare = "" if theirs else "_empty"  # a side with no card is said in words of its own
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
            faq[f"witness{bare}"].format(
                cards=cards_text(theirs, lang),
                added=cards_with_articles(verdict.witness.cards, lang),
                formation=formation_text(verdict.witness.formation, lang, size),
                side=side_text((*theirs, *verdict.witness.cards), verdict.witness.side, lang),
            )
        )
    elif verdict.theirs is not None:
        lines.append(
            faq[f"theirs_best{bare}"].format(
                cards=cards_text(theirs, lang),
                formation=formation_text(verdict.theirs, lang, size),
            )
        )
    else:
        lines.append(faq[f"theirs_none{bare}"].format(cards=cards_text(theirs, lang)))
    return lines


def _complete_side(cards: Sequence[Card], stone: Stone, lang: str) -> str:
    """A complete side's cards, each elite troop with the card it becomes."""
    best = best_completion(cards, stone.capacity, totals_only=stone.totals_only)
    assert best is not None  # a complete side has a formation
    return side_text(cards, best.resolved, lang)


def published_rows(results: Sequence[CaseResult], table: str) -> list[CaseResult]:
    """The rows of one published table, in order; :class:`SiteCheckError` if it has none."""
    rows = sorted((r for r in results if _table_of(r.case) == table), key=_row_of)
    if not rows:
        known = ", ".join(sorted({t for r in results if (t := _table_of(r.case)) is not None}))
        raise SiteCheckError(f"no published table {table!r} (the cases publish: {known})")
    return rows


def verdict_table(
    results: Sequence[CaseResult],
    lang: str,
    table: str = FAQ,
    asked: list[QuestionAnswer] | None = None,
) -> Markup:
    """The cases of one published table (:func:`case_rows`)."""
    return case_rows(published_rows(results, table), lang, asked)


def case_rows(
    results: Sequence[CaseResult], lang: str, asked: list[QuestionAnswer] | None = None
) -> Markup:
    """The cases given, in order, each once: the question, its answer and why, then the
    position, the reasoning and the moves in a ``<details>`` that opens in place (and on the
    case's anchor). The rows whose situation is a question are added to ``asked``."""
    items = []
    for result in results:
        case = result.case
        play = result.computed.play_on
        stones = [
            {
                "head": stone_head(result, v, lang),
                "reason": label(lang, "reasons", str(v.reason)),
                "lines": reasoning(case.board, v, lang),
                "checker": "" if play else widgets.checker_link(case.board, v.stone, lang),
            }
            for v in result.verdicts
        ]
        moves: list[str] = []
        after: list[str] = []
        if play is not None:
            question = case.play_on.question if case.play_on is not None else None
            moves = [
                plays.step_text(player, move, step, lang, asked=i == question)
                for i, ((player, move), step) in enumerate(
                    zip(_moves_of(case), play.steps, strict=True)
                )
            ]
            after = plays.outcome_text(play.game, play.held, play.termination, play.points, lang)
        whole_refused = len(result.verdicts) > 1 and not claim_granted(result)
        items.append(
            {
                "anchor": _anchor(case),
                "situation": _text(case.situation, lang, case, "situation"),
                "verdict": verdict_summary(result, lang),
                "verdict_class": verdict_class(result),
                "why": _text(case.why, lang, case, "why"),
                "open": label(lang, "faq", "open_moves" if moves else "open"),
                "figure": Markup(case_figure(case, lang)),
                "ruling": label(lang, "faq", "claim_refused") if whole_refused else "",
                # The site rulings the case pins: labelled beside its answer, each linking to
                # its reason on the rulings page.
                "rulings": [str(rule) for rule in rulings_among(case.rules)],
                "stones": stones,
                "moves": moves,
                "after": " ".join(after),
            }
        )
    html = _template("cases.html.j2").render(
        entries=items,
        moves_word=label(lang, "moves", "moves"),
        after_word=label(lang, "moves", "after"),
        columns=[label(lang, "faq", key) for key in ("situation", "verdict", "why")],
        ruling_word=label(lang, "faq", "ruling_tag"),
        ruling_title=label(lang, "faq", "ruling_title"),
    )
    # Cases whose situation is a question are the page's questions too (schotten.site.questions).
    if asked is not None:
        asked.extend(table_questions((item["situation"], item["why"]) for item in items))
    return Markup(html)


_RULE_IDS = frozenset(str(rule) for rule in Rule)


def cases_for(results: Sequence[CaseResult], lang: str, *rules: str) -> Markup:
    """A list of links to the published cases that pin any of ``rules`` (for the pages that
    state a rule or a ruling); :class:`SiteCheckError` when no published case pins them."""
    unknown = [rule for rule in rules if rule not in _RULE_IDS]
    if unknown:
        raise SiteCheckError(f"cases_for{rules}: {unknown[0]!r} is not a rule id of RULES.md")
    pinned = [r for r in results if set(rules) & {str(rule) for rule in r.case.rules}]
    if not rules or not pinned:
        raise SiteCheckError(f"cases_for{rules}: no published case pins these rules")
    lines = [f"**{md_text(label(lang, 'faq', 'cases_for'))}**", ""]
    for result in pinned:
        case = result.case
        situation = md_text(_text(case.situation, lang, case, "situation"))
        links = "".join(f" — {link}" for link in checker_links(result, lang))
        lines.append(f"- [{situation}]({CASES_PAGE}#{_anchor(case)}){links}")
    return Markup("\n" + "\n".join(lines) + "\n")


def checker_links(result: CaseResult, lang: str) -> list[Markup]:
    """The "open in the checker" links of a claim case, one per claimed stone not yet held (a
    case that plays on has none: the checker judges a position, not moves)."""
    case = result.case
    if result.computed.play_on is not None:
        return []
    named = len(case.claim) > 1
    links = [widgets.checker_link(case.board, number, lang, named=named) for number in case.claim]
    return [link for link in links if link]


def case_problems(case: Case, source: str) -> list[str]:
    """Problems that keep a published case off the site: a text missing in one language, an id
    that cannot be an anchor."""
    problems = []
    for field, texts in (("situation", case.situation), ("why", case.why)):
        for lang in LANGUAGES:
            if not str(texts.get(lang) or "").strip():
                problems.append(f"{source}: published case has no {field}.{lang} text")
    if not _ANCHOR.fullmatch(case.id):
        problems.append(f"{source}: case id {case.id!r} cannot be an anchor (a-z, 0-9, '-')")
    return problems


def _table_of(case: Case) -> str | None:
    return case.published.table if case.published is not None else None


def _row_of(result: CaseResult) -> int:
    published = result.case.published
    return published.row if published is not None else 0


def _moves_of(case: Case) -> tuple[tuple[Player, Move], ...]:
    return case.play_on.moves if case.play_on is not None else ()


def _text(texts: Mapping[str, str], lang: str, case: Case, field: str) -> str:
    text = texts.get(lang)
    if not text:
        raise SiteCheckError(f"case {case.id}: no {field}.{lang} text (every language is needed)")
    return text


def _anchor(case: Case) -> str:
    if not _ANCHOR.fullmatch(case.id):
        raise SiteCheckError(f"case id {case.id!r} cannot be an anchor (a-z, 0-9, '-')")
    return case_anchor(case)


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
