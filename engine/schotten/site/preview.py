"""A case as the site shows it, before it is published: ``schotten explain CASE --svg/--html``.

Any valid case can be drawn, approved or not, published or not: the picture is the site's own
(:func:`schotten.svg.position_svg`, with the labels of the language), and the HTML page holds the
case's table row and detail entry rendered by the same functions as the published tables, with the
site's stylesheets inlined so that the file opens on its own.
"""

from __future__ import annotations

import html
from pathlib import Path

import markdown  # type: ignore[import-untyped]

from schotten.board import Player
from schotten.casebook.model import Case
from schotten.casebook.run import run_case
from schotten.site import faq, labels
from schotten.site.verified import picture_titled
from schotten.svg import position_svg

PREVIEW_TABLE = "preview"
_ASSETS = Path(__file__).resolve().parents[3] / "site_src" / "assets"


def case_entry(case: Case) -> faq.FaqEntry:
    """The case as a table row, with the engine's verdicts (its own row if it is published)."""
    result = run_case(case)
    place = case.published
    return faq.FaqEntry(
        id=case.id,
        row=place.row if place is not None else 1,
        situation=case.situation,
        why=case.why,
        board=case.board,
        claim=tuple(case.claim),
        verdicts=tuple(result.verdicts),
        hand=tuple(case.hands[Player.FIRST]),
        table=PREVIEW_TABLE,
        moves=case.play_on.moves if case.play_on is not None else (),
        play=result.computed.play_on,
        rules=tuple(str(rule) for rule in case.rules),
    )


def case_svg(case: Case, lang: str) -> str:
    """The case's position as the site draws it in ``lang``."""
    svg = position_svg(
        case.board,
        case.claim,
        labels=labels(lang),
        ident=f"case-{case.id}-{lang}",
        hand=tuple(case.hands[Player.FIRST]),
    )
    return picture_titled(svg, faq.picture_title(case.claim, lang))


def case_html(case: Case, lang: str) -> str:
    """A page holding the case as the edge-case page shows it: question, answer, why and detail."""
    entries = [case_entry(case)]
    source = str(faq.verdict_table(entries, lang, PREVIEW_TABLE))
    body = markdown.markdown(source, extensions=["tables", "attr_list", "md_in_html"])
    styles = "\n".join(
        path.read_text("utf-8") for path in sorted(_ASSETS.glob("*.css")) if path.is_file()
    )
    title = html.escape(f"{case.id} — {case.situation.get(lang, '')}")
    return (
        f'<!doctype html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{title}</title>\n<style>\n{styles}\n</style>\n</head>\n"
        f'<body>\n<main class="md-typeset">\n{body}\n</main>\n</body>\n</html>\n'
    )
