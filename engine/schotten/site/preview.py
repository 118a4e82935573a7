"""A case's page as the site shows it, before it is published: ``schotten explain CASE --html``.

Any valid case can be shown, approved or not, published or not (``--svg`` draws its picture with
:func:`schotten.site.pictures.case_picture`): the HTML page holds the case's question,
answer and detail rendered by the same function as the published tables
(:func:`schotten.site.tables.case_rows`), with the site's stylesheets inlined so that the file
opens on its own.
"""

from __future__ import annotations

import html
from pathlib import Path

import markdown  # type: ignore[import-untyped]

from schotten.casebook import Case, run_case
from schotten.site import tables

_ASSETS = Path(__file__).resolve().parents[3] / "site_src" / "assets"


def case_html(case: Case, lang: str) -> str:
    """A page holding the case as the edge-case page shows it: question, answer, why and detail."""
    source = str(tables.case_rows([run_case(case)], lang))
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
