"""The FAQ renderer (schotten.site.faq) and page rendering (schotten.site.build), without MkDocs.

Markdown output is converted with Python-Markdown and the same extensions as mkdocs.yml, so these
tests see what the site shows.
"""

from __future__ import annotations

import re
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest

from schotten.board import Board, Player, Variant
from schotten.cards import parse_card
from schotten.claims import Reason, judge_claim
from schotten.moves import Move
from schotten.site import LANGUAGES, SiteCheckError, build, faq, labels, plays, verified

EXTENSIONS = ["tables", "attr_list", "md_in_html", "toc"]


def _board(placements: list[tuple[Player, int, str]], variant: Variant = Variant.BASE) -> Board:
    board = Board.empty(variant)
    for step, (player, stone, card) in enumerate(placements):
        board = board.place(player, stone, parse_card(card), at=step)
    return board


def _entry(case_id: str, board: Board, claim: tuple[int, ...], **texts: str) -> faq.FaqEntry:
    return faq.FaqEntry(
        id=case_id,
        row=1,
        situation={lang: texts.get("situation", f"situation {lang}") for lang in LANGUAGES},
        why={lang: texts.get("why", f"why {lang}") for lang in LANGUAGES},
        board=board,
        claim=claim,
        verdicts=judge_claim(board, Player.FIRST, claim),
    )


HAND_IS_NOT_PROOF = _board(
    [
        (Player.FIRST, 4, "red 1"),
        (Player.FIRST, 4, "green 1"),
        (Player.FIRST, 4, "blue 1"),
        (Player.SECOND, 4, "red 3"),
        (Player.SECOND, 4, "green 3"),
    ]
)
STRONGER = _board(
    [(Player.FIRST, 3, c) for c in ("red 2", "green 2", "blue 2")]
    + [(Player.SECOND, 3, c) for c in ("yellow 9", "yellow 8", "yellow 6")]
)


class _Cells(HTMLParser):
    """The text of each table cell, row by row; links and elements found on the way."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.tags: list[str] = []
        self.links: list[str] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "a":
            self.links.append(dict(attrs).get("href") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def _html(text: str) -> str:
    return markdown.markdown(str(text), extensions=EXTENSIONS)


def _cells(text: str) -> _Cells:
    parser = _Cells()
    parser.feed(_html(text))
    return parser


@pytest.mark.parametrize("lang", LANGUAGES)
def test_verdict_table_has_localised_engine_verdicts(lang: str) -> None:
    entries = [
        _entry("hand-is-not-proof", HAND_IS_NOT_PROOF, (4,)),
        _entry("brelan", STRONGER, (3,)),
    ]
    table = _cells(faq.verdict_table(entries, lang))
    words = labels(lang)["verdicts"]
    assert table.rows[0] == labels(lang)["faq"]["headers"]
    assert table.rows[1:] == [
        [f"situation {lang}", words["refused"], f"why {lang}"],
        [f"situation {lang}", words["granted"], f"why {lang}"],
    ]
    assert table.links == ["#case-hand-is-not-proof", "#case-brelan"]


@pytest.mark.parametrize(
    "text",
    [
        "a | b | c",
        "<script>alert('x')</script>",
        "**bold** _it_ `code` [link](https://evil.example/) ![img](x.png)",
        "{: #forged .class } <b>&amp;</b> \\| 1. # not a heading",
    ],
)
def test_case_text_renders_as_text_never_markup(text: str) -> None:
    entries = [_entry("x", STRONGER, (3,), situation=text, why=text)]
    table = _cells(faq.verdict_table(entries, "fr"))
    assert table.rows[1][0] == text
    assert table.rows[1][2] == text
    assert len(table.rows[1]) == 3
    assert set(table.tags) <= {"table", "thead", "tbody", "tr", "th", "td", "a"}
    assert table.links == ["#case-x"]
    details = _html(faq.verdict_details(entries, "fr"))
    assert "<script>" not in details and "<strong>bold" not in details
    assert not any("evil" in href for href in re.findall(r'href="([^"]*)"', details))


def test_case_text_is_one_line_in_a_table_cell() -> None:
    entries = [_entry("x", STRONGER, (3,), situation="first line\n\nsecond | line")]
    table = _cells(faq.verdict_table(entries, "es"))
    assert table.rows[1][0] == "first line second | line"


def test_mixed_verdicts_are_given_per_stone() -> None:
    board = _board(
        [(Player.FIRST, 3, c) for c in ("red 2", "green 2", "blue 2")]
        + [(Player.SECOND, 3, c) for c in ("yellow 9", "yellow 8", "yellow 6")]
        + [(Player.FIRST, 5, c) for c in ("red 5", "green 6")]
    )
    entry = _entry("two", board, (3, 5))
    said = faq.verdict_summary(entry, "fr")
    assert said == "Borne 3\u00a0: Accordée\u202f; Borne 5\u00a0: Refusée"
    assert faq.verdict_summary(entry, "es") == "Piedra 3: Concedida; Piedra 5: Denegada"


def test_refusal_by_proof_names_the_cards_that_would_beat_you() -> None:
    (verdict,) = judge_claim(HAND_IS_NOT_PROOF, Player.FIRST, (4,))
    assert verdict.reason is Reason.OPPONENT_CAN_BEAT
    assert verdict.witness is not None
    for lang in LANGUAGES:
        names = labels(lang)
        mine, theirs = faq.reasoning(HAND_IS_NOT_PROOF, verdict, lang)
        same_value = names["formations_a"]["same-value"]
        assert f"{same_value}, total 3" in mine
        witness = verdict.witness.cards[0]
        assert verified.card_with_article(witness, lang) in theirs
        assert f"{same_value}, total 9" in theirs


def test_complete_sides_are_compared_with_localised_formation_names() -> None:
    (verdict,) = judge_claim(STRONGER, Player.FIRST, (3,))
    assert verdict.reason is Reason.STRONGER
    mine, theirs = faq.reasoning(STRONGER, verdict, "es")
    assert mine == "Tu combinación: un Trío, total 6 (2 rojo, 2 verde y 2 azul)."
    assert theirs == "La de tu oponente: un Color, total 23 (9 amarillo, 8 amarillo y 6 amarillo)."


def test_incomplete_side_reasoning_counts_the_cards() -> None:
    board = _board([(Player.FIRST, 1, "red 1"), (Player.FIRST, 1, "red 2")])
    (verdict,) = judge_claim(board, Player.FIRST, (1,))
    assert verdict.reason is Reason.SIDE_INCOMPLETE
    said = faq.reasoning(board, verdict, "fr")
    assert said == ["Cartes de ton côté\u00a0: 2 sur les 3 nécessaires."]


def test_four_of_a_kind_is_named_under_mud_fight() -> None:
    from schotten.formations import Formation, FormationKind

    formation = Formation(FormationKind.SAME_VALUE, 20)
    assert faq.formation_text(formation, "fr", size=4) == "un Carré, total 20"
    assert faq.formation_text(formation, "es", size=4) == "un Póker, total 20"
    totals = Formation(FormationKind.TOTAL, 26)
    assert faq.formation_text(totals, "fr") == "un total de 26"


def test_details_have_an_anchor_a_picture_and_the_verdict() -> None:
    entries = [_entry("hand-is-not-proof", HAND_IS_NOT_PROOF, (4,))]
    html = _html(faq.verdict_details(entries, "fr"))
    assert '<h3 id="case-hand-is-not-proof">' in html
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="position"' in html
    assert 'class="stone s4 claimed"' in html
    assert "<strong>Borne 4\u00a0: Refusée</strong>" in html


def test_page_functions_render_with_strict_undefined(tmp_path: Path) -> None:
    entries = [_entry("brelan", STRONGER, (3,))]
    page = "# Titre\n\n{{ verdict_table() }}\n"
    out = build.render_page(page, "fr", "edge-cases.md", entries)
    assert "| Position &#40;c&#39;est toi qui revendiques&#41; |" in out
    with pytest.raises(SiteCheckError, match=r"^edge-cases\.md:3: \(fr\) .*no_such_function"):
        build.render_page("# T\n\n{{ no_such_function() }}\n", "fr", "edge-cases.md", entries)
    with pytest.raises(SiteCheckError, match=r"^rules\.es\.md:2: \(es\) "):
        build.render_page("text\n{% if %}\n", "es", "rules.es.md", entries)


def test_page_languages_come_from_the_file_suffix() -> None:
    assert build.page_language("odds.md") == "fr"
    assert build.page_language("odds.es.md") == "es"
    assert build.page_stem("odds.es.md") == build.page_stem("odds.md") == "odds"


def test_a_page_missing_in_one_language_is_a_problem(tmp_path: Path) -> None:
    pages = {
        "rules.md": tmp_path / "rules.md",
        "odds.md": tmp_path / "odds.md",
        "odds.es.md": tmp_path / "odds.es.md",
    }
    problems = build.language_problems(pages, tmp_path, tmp_path)
    assert problems == ["rules.es.md: page missing in es (every page exists in fr and es)"]


def test_label_catalogues_have_the_same_keys() -> None:
    assert build.label_problems() == []


def test_a_label_missing_in_one_language_is_a_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    real = {lang: labels(lang) for lang in LANGUAGES}
    trimmed = {**real["es"], "verdicts": {"granted": "Concedida"}}
    monkeypatch.setattr(build, "labels", lambda lang: trimmed if lang == "es" else real[lang])
    assert build.label_problems() == [
        "schotten/site/locales/es.json: label verdicts.refused is missing (it exists in fr.json)"
    ]


def test_a_published_table_missing_from_a_language_refuses_to_build() -> None:
    entry = replace(_entry("brelan", STRONGER, (3,)), table="elite-troops")
    problems = build.table_problems([entry], {"fr": {"elite-troops"}, "es": set()})
    assert problems == [
        "published table 'elite-troops' is on no page in es (call verdict_table('elite-troops'))"
    ]
    with pytest.raises(SiteCheckError, match="no published table 'ruses'"):
        faq.verdict_table([entry], "fr", "ruses")


def test_cases_for_links_the_cases_that_pin_a_rule() -> None:
    entry = replace(_entry("brelan", STRONGER, (3,)), rules=("formation-ladder",))
    listed = str(faq.cases_for([entry], "es", "formation-ladder"))
    assert "- [situation es](edge-cases.md#case-brelan)" in listed
    with pytest.raises(SiteCheckError, match="no published case pins"):
        faq.cases_for([entry], "es", "deadlock")


def test_a_refused_move_names_its_rule_and_an_unknown_rule_is_an_error() -> None:
    move = Move.parse("play mud-fight at 4")
    said = plays.step_text(Player.FIRST, move, "illegal tactic-count", "fr")
    assert said == (
        "Toi — jouer le Combat de Boue sur la Borne 4 → refusé "
        "(jamais plus d'une carte Tactique d'avance sur l'adversaire)"
    )
    with pytest.raises(SiteCheckError, match="no rule label"):
        plays.step_text(Player.FIRST, move, "illegal no-such-rule", "fr")
