"""The engine at work in the pages: odds tables, the odds chart and the in-page claim checker.

Everything here is built with :mod:`xml.etree.ElementTree` (so every text is escaped) from the
engine's numbers and the labels of the page's language; nothing comes from outside the site.

* ``odds_table()``, ``partial_odds_table()``, ``odds_chart()``: the odds page (definitions in
  :mod:`schotten.odds`).
* ``claim_checker()``: the claim checker's form. It runs :mod:`schotten.checker` in the browser
  with Pyodide; :func:`schotten.site.runtime.install_runtime` puts Pyodide and the engine into
  the built site.

>>> html = jinja_functions("es")["odds_table"]()
>>> '<th scope="row">Escalera de color</th><td data-label="Manos de 3 cartas">42</td>' in html
True
"""

from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from markupsafe import Markup

from schotten.board import Board
from schotten.cards import VALUES, ClanCard, Colour, Tactic
from schotten.checker import fragment_of, position_of
from schotten.formations import FormationKind
from schotten.odds import (
    HAND_SIZES,
    LADDER,
    MUD_PARTIAL_SIDES,
    PARTIAL_SIDES,
    PartialSide,
    completion_odds,
    hand_odds,
)
from schotten.site import labels, runtime
from schotten.site.border import border as border_widget
from schotten.site.runtime import CHECKER_DIR
from schotten.site.words import (
    card_name,
    cards_text,
    format_megabytes,
    format_number,
    format_percent,
)

ELITE_TROOPS = (Tactic.JOKER, Tactic.SPY, Tactic.SHIELD_BEARER)
ZONES = ("mine", "theirs", "elsewhere-mine", "elsewhere-theirs")


def _html(element: ET.Element) -> str:
    return ET.tostring(element, encoding="unicode", method="html")


def _sub(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    child = ET.SubElement(
        parent, tag, {k.rstrip("_").replace("_", "-"): v for k, v in attrs.items()}
    )
    if text is not None:
        child.text = text
    return child


def _label_cells(table: ET.Element, labels_by_column: Sequence[str]) -> None:
    """Give each data cell its column's name (``data-label``): on a narrow screen the stylesheet
    lays each row out as a small grid of named values instead of a row too wide to read."""
    for section in ("tbody", "tfoot"):
        for tr in table.findall(f"{section}/tr"):
            for cell, label in zip(tr.findall("td"), labels_by_column, strict=True):
                cell.set("data-label", label)


def _formation_header(kind: FormationKind, lang: str) -> str:
    names = labels(lang)["formations"]
    three, four = names[kind.label_key(3)], names[kind.label_key(4)]
    return str(three) if three == four else f"{three} / {four}"


def odds_table(lang: str) -> str:
    """Hands of three and of four Clan cards making each formation, with their shares."""
    words = labels(lang)["odds"]
    wrapper = ET.Element("div", {"class": "schotten-odds"})
    table = _sub(wrapper, "table")
    _sub(table, "caption", words["table_caption"])
    head = _sub(_sub(table, "thead"), "tr")
    _sub(head, "th", words["formation"], scope="col")
    for size in HAND_SIZES:
        _sub(head, "th", words[f"hands_{size}"], scope="col")
        _sub(head, "th", words["share"], scope="col")
    body = _sub(table, "tbody")
    columns = [hand_odds(size) for size in HAND_SIZES]
    for row in zip(*columns, strict=True):
        tr = _sub(body, "tr")
        _sub(tr, "th", _formation_header(row[0].kind, lang), scope="row")
        for odds in row:
            _sub(tr, "td", format_number(odds.count, lang))
            _sub(tr, "td", format_percent(odds.probability, lang))
    tr = _sub(_sub(table, "tfoot"), "tr")
    _sub(tr, "th", words["total"], scope="row")
    for column in columns:
        _sub(tr, "td", format_number(sum(o.count for o in column), lang))
        _sub(tr, "td", format_percent(sum((o.probability for o in column), Fraction(0)), lang))
    _label_cells(
        table, [label for size in HAND_SIZES for label in (words[f"hands_{size}"], words["share"])]
    )
    return _html(wrapper)


def partial_odds_table(lang: str, mud: bool = False) -> str:
    """For typical sides still being built, the share of completions making each formation."""
    words = labels(lang)["odds"]
    size = 4 if mud else 3
    rows: Sequence[PartialSide] = MUD_PARTIAL_SIDES if mud else PARTIAL_SIDES
    wrapper = ET.Element("div", {"class": "schotten-odds schotten-odds--partial"})
    table = _sub(wrapper, "table")
    _sub(table, "caption", words["partial_caption_mud" if mud else "partial_caption"])
    head = _sub(_sub(table, "thead"), "tr")
    _sub(head, "th", words["side"], scope="col")
    _sub(head, "th", words["completions"], scope="col")
    for kind in LADDER:
        _sub(head, "th", labels(lang)["formations"][kind.label_key(size)], scope="col")
    body = _sub(table, "tbody")
    for side in rows:
        tr = _sub(body, "tr")
        th = _sub(tr, "th", scope="row")
        _sub(th, "span", cards_text(side.cards, lang), class_="schotten-odds__cards")
        # One line when there is room: the row's height, not its width, made the table long.
        _sub(th, "small", words["rows"][_row_key(side)], class_="schotten-odds__side")
        odds = completion_odds(side.cards, side.size)
        _sub(tr, "td", format_number(odds[0].out_of, lang))
        for share in odds:
            _sub(tr, "td", format_percent(share.probability, lang))
    names = labels(lang)["formations"]
    _label_cells(table, [words["completions"], *(names[k.label_key(size)] for k in LADDER)])
    return _html(wrapper)


def _row_key(side: PartialSide) -> str:
    # One card in the middle covers values 3-7 on a side of three but 4-6 on a side of four.
    return f"{side.key}-mud" if side.key == "one-middle" and side.size == 4 else side.key


# The chart: one group per formation, a bar for hands of three and one for hands of four, on a
# logarithmic scale (a sum is 91 % of hands, a colour run 0.17 %: on a linear scale the rare
# formations would not show at all). Every bar carries its exact share as text.
_SVG = "http://www.w3.org/2000/svg"
# Drawn in units of a 620-wide box, with 20-unit text: on a 390-pixel phone the chart shrinks to
# about 360 pixels and its text stays above 11 pixels.
_LABEL_W, _BAR_W, _VALUE_W = 200, 300, 120
_BAR_H, _GAP, _TOP = 24, 18, 74
_FONT = 20
_DECADES = (-2, -1, 0, 1, 2)  # 0.01 % to 100 %
_FILLS = {3: "#3b6fb6", 4: "#c2691b"}


def odds_chart(lang: str, chart_id: str = "schotten-odds-chart") -> str:
    """An inline SVG bar chart of :func:`odds_table`, labelled in the page's language."""
    words = labels(lang)["odds"]
    groups = list(zip(*(hand_odds(size) for size in HAND_SIZES), strict=True))
    group_h = len(HAND_SIZES) * _BAR_H + _GAP
    width = _LABEL_W + _BAR_W + _VALUE_W
    height = _TOP + len(groups) * group_h + 58
    svg = ET.Element(
        "svg",
        {
            "xmlns": _SVG,
            "viewBox": f"0 0 {width} {height}",
            "width": "100%",
            "role": "img",
            "aria-labelledby": f"{chart_id}-title {chart_id}-desc",
            "class": "schotten-odds-chart",
            "font-family": "sans-serif",
            "font-size": str(_FONT),
        },
    )
    title = ET.SubElement(svg, "title", {"id": f"{chart_id}-title"})
    title.text = words["chart_title"]
    desc = ET.SubElement(svg, "desc", {"id": f"{chart_id}-desc"})
    lines = [words["chart_desc"]]
    for row in groups:
        colon = labels(lang)["punctuation"]["colon"]
        shares = ", ".join(
            f"{words[f'hands_{size}']}{colon}{format_percent(o.probability, lang)}"
            for size, o in zip(HAND_SIZES, row, strict=True)
        )
        lines.append(f"{_formation_header(row[0].kind, lang)}{colon}{shares}")
    desc.text = "\n".join(lines)

    def text(x: float, y: float, content: str, **attrs: str) -> None:
        el = ET.SubElement(svg, "text", {"x": f"{x:g}", "y": f"{y:g}", **attrs})
        el.set("fill", "currentColor")
        el.text = content

    def x_of(share: Fraction) -> float:
        low, high = _DECADES[0], _DECADES[-1]
        return _LABEL_W + _BAR_W * (math.log10(float(share * 100)) - low) / (high - low)

    for size in HAND_SIZES:  # legend, one line per hand size
        x = _LABEL_W
        y = 4 + (size - 3) * 28
        ET.SubElement(
            svg,
            "rect",
            {"x": f"{x}", "y": f"{y + 4}", "width": "16", "height": "16", "fill": _FILLS[size]},
        )
        text(x + 22, y + 18, words[f"hands_{size}"], **{"class": f"legend size-{size}"})
    axis_y = _TOP + len(groups) * group_h
    for decade in _DECADES:
        share = Fraction(10) ** decade / 100
        tick = x_of(share)
        line = {"x1": f"{tick:g}", "x2": f"{tick:g}", "y1": f"{_TOP - 4}", "y2": f"{axis_y}"}
        ET.SubElement(svg, "line", {**line, "stroke": "#888", "stroke-width": "0.5"})
        mark = f"{float(share * 100):g}".replace(".", ",") + "\u00a0%"
        text(tick, axis_y + 22, mark, **{"text-anchor": "middle"})
    text(_LABEL_W + _BAR_W / 2, axis_y + 48, words["chart_axis"], **{"text-anchor": "middle"})
    for i, row in enumerate(groups):
        y = _TOP + i * group_h
        text(
            _LABEL_W - 8,
            y + _BAR_H + 7,
            _formation_header(row[0].kind, lang),
            **{
                "text-anchor": "end",
                "class": f"formation {row[0].kind.key}",
            },
        )
        for j, (size, odds) in enumerate(zip(HAND_SIZES, row, strict=True)):
            top = y + j * _BAR_H
            bar_w = max(1.0, x_of(odds.probability) - _LABEL_W)
            ET.SubElement(
                svg,
                "rect",
                {
                    "x": f"{_LABEL_W}",
                    "y": f"{top + 1}",
                    "width": f"{bar_w:.1f}",
                    "height": f"{_BAR_H - 2}",
                    "fill": _FILLS[size],
                    "class": f"bar size-{size} {odds.kind.key}",
                },
            )
            text(_LABEL_W + bar_w + 4, top + _BAR_H - 6, format_percent(odds.probability, lang))
    figure = ET.Element("div", {"class": "schotten-odds-figure"})
    figure.append(svg)
    return ET.tostring(figure, encoding="unicode")


def checker_labels(lang: str) -> dict[str, Any]:
    """The labels the checker's script needs, all from the page's language."""
    names = labels(lang)
    # The answer's sentences are the pages' own (schotten.site.tables.reasoning): their labels too.
    keys: tuple[str, ...] = ("card", "colours", "tactics", "formations", "verdicts", "reasons")
    keys += ("checker", "card_the", "tactics_the", "formations_a", "faq", "words")
    return {**{key: names[key] for key in keys}, "and": names["words"]["and"]}


def claim_checker(lang: str) -> str:
    """The claim checker: a form, closed until the reader opens it, and its loader.

    The script and its stylesheet are found from the site root that Material writes in each
    page's ``#__config`` (so the same markup works on French and Spanish pages at any depth);
    Pyodide is loaded only when the reader opens the checker.
    """
    words = labels(lang)["checker"]
    root = ET.Element(
        "div",
        {
            "class": "schotten-checker",
            "data-lang": lang,
            "data-labels": json.dumps(checker_labels(lang), ensure_ascii=False),
        },
    )
    _sub(root, "p", words["intro"], class_="schotten-checker__intro")
    _sub(root, "p", words["hidden"], class_="schotten-checker__hidden")
    # The version names the service worker of this build's files (site/checker-sw.js).
    shipped = runtime.shipped(runtime.STATIC)
    root.set("data-version", shipped.version)
    size = format_megabytes(shipped.first_open_bytes, lang)
    _sub(root, "p", words["download"].format(size=size), class_="schotten-checker__download")
    # Enabled by checker.js once it listens: a click before that would be lost.
    _sub(
        root,
        "button",
        words["open"],
        type="button",
        class_="md-button schotten-checker__open",
        disabled="disabled",
    )
    example = _sub(root, "a", words["example"], class_="schotten-checker__example")
    example.set("href", f"#{fragment_of(EXAMPLE)}")
    _sub(root, "p", "", class_="schotten-checker__status", role="status", aria_live="polite")
    form = _sub(root, "form", class_="schotten-checker__form", hidden="hidden")
    form.set("aria-label", words["title"])

    zones = _sub(form, "fieldset", class_="schotten-checker__zones")
    _sub(zones, "legend", words["zone_legend"])
    for i, zone in enumerate(ZONES, start=1):
        box = _sub(zones, "div", class_=f"schotten-checker__zone zone-{zone}")
        box.set("data-zone-index", str(i))
        label = _sub(box, "label")
        radio = _sub(label, "input", type="radio", name=f"schotten-zone-{lang}", value=zone)
        if i == 1:
            radio.set("checked", "checked")
        _sub(label, "span", words["zones"][zone])
        # What the zone holds, written by the script after each change.
        held = _sub(box, "span", words["empty"], class_="schotten-checker__held")
        held.set("data-zone", zone)

    grid = _sub(form, "fieldset", class_="schotten-checker__cards")
    _sub(grid, "legend", words["cards_legend"])
    for colour in Colour:
        row = _sub(grid, "div", class_=f"schotten-checker__row colour-{colour}")
        _sub(row, "span", labels(lang)["colours"][str(colour)], class_="schotten-checker__colour")
        for value in VALUES:
            card = ClanCard(colour, value)
            _card_button(row, str(card), str(value), card_name(card, lang), f"card {colour}")
    tactical = _sub(form, "fieldset", class_="schotten-checker__tactical")
    _sub(tactical, "legend", words["tactical_legend"])
    _checkbox(tactical, "tactical", words["tactical"])
    elite = _sub(tactical, "div", class_="schotten-checker__row elite")
    for troop in ELITE_TROOPS:
        name = card_name(troop, lang)
        _card_button(elite, troop.value, name, name, "card elite")
    _checkbox(tactical, "mud_fight", words["mud_fight"])
    _checkbox(tactical, "blind_mans_bluff", words["blind_mans_bluff"])

    first = _sub(form, "label", class_="schotten-checker__first")
    _sub(first, "span", words["first"])
    select = _sub(first, "select", name="completed_first")
    for who in ("you", "opponent"):
        _sub(select, "option", words[f"first_{who}"], value=who)

    actions = _sub(form, "div", class_="schotten-checker__actions")
    _sub(actions, "button", words["check"], type="submit", class_="md-button md-button--primary")
    _sub(
        actions, "button", words["clear"], type="button", class_="md-button schotten-checker__clear"
    )
    _sub(
        actions,
        "button",
        words["copy_link"],
        type="button",
        class_="md-button schotten-checker__copy",
    )
    # What a shared link or the copy button did (a position unreadable, the link copied).
    _sub(form, "p", "", class_="schotten-checker__notice", role="status", aria_live="polite")
    answer = _sub(form, "div", "", class_="schotten-checker__answer", role="status")
    answer.set("aria-live", "polite")
    answer.set("aria-atomic", "true")

    _sub(root, "script", _LOADER, type="module")
    return _html(root)


# The example a reader can load: a Brelan of 1 against two 3s, three other 3s seen elsewhere, so
# that one 3 is still hidden (it may be in a hand: the claim is refused).
EXAMPLE = {
    "variant": "base",
    "mine": ["red 1", "green 1", "blue 1"],
    "theirs": ["red 3", "green 3"],
    "elsewhere": {"mine": ["blue 3"], "theirs": ["yellow 3", "purple 3"]},
    "completed_first": "you",
}


# The rules page, from any other page of the same language (every page is a folder).
RULES_PAGE = "../rules/"


def checker_url(board: Board, number: int) -> str | None:
    """The address that opens the claim checker on stone ``number`` of ``board`` (the position
    in the fragment); ``None`` for a stone already claimed, which has no checker position."""
    if board.stone(number).claimed_by is not None:
        return None
    return f"{RULES_PAGE}#{fragment_of(position_of(board, number))}"


def checker_link(board: Board, number: int, lang: str, *, named: bool = False) -> Markup:
    """An "open in the checker" link for one stone of a case (empty when it has none); ``named``
    names the stone in the link, for a claim of several stones."""
    url = checker_url(board, number)
    if url is None:
        return Markup("")
    words = labels(lang)["checker"]
    link = ET.Element("a", {"class": "schotten-open-checker", "href": url})
    link.text = words["open_stone"].format(stone=number) if named else words["open_position"]
    return Markup(_html(link))


def _card_button(parent: ET.Element, card: str, face: str, name: str, css: str) -> None:
    button = _sub(parent, "button", face, type="button", class_=css, aria_pressed="false")
    button.set("data-card", card)
    button.set("aria-label", name)
    button.set("title", name)


def _checkbox(parent: ET.Element, name: str, text: str) -> None:
    label = _sub(parent, "label", class_=f"schotten-checker__option option-{name}")
    _sub(label, "input", type="checkbox", name=name)
    _sub(label, "span", text)


# Material writes the path from the page to the site root into #__config: the checker sits at
# <root>/assets/checker/ whether the page is /, /regles/ or /es/regles/.
_LOADER = (
    'const c = document.getElementById("__config");'
    'const base = c ? JSON.parse(c.textContent).base : ".";'
    f'import(new URL(base + "/{CHECKER_DIR.as_posix()}/checker.js", location.href).href);'
)


def jinja_functions(lang: str) -> dict[str, Callable[..., str]]:
    """The page functions of :mod:`schotten.site.widgets`, rendering in ``lang``."""
    labels(lang)  # an unknown language fails here, before any page is rendered

    # Markup: the HTML stays as it is whether or not the page template escapes its values.
    def checker() -> str:
        return Markup(claim_checker(lang))

    def table() -> str:
        return Markup(odds_table(lang))

    def partial(mud: bool = False) -> str:
        return Markup(partial_odds_table(lang, mud))

    def chart() -> str:
        return Markup(odds_chart(lang))

    def border() -> str:
        return Markup(border_widget(lang))

    return {
        "border": border,
        "claim_checker": checker,
        "odds_table": table,
        "partial_odds_table": partial,
        "odds_chart": chart,
    }
