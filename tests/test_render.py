"""The published tables (schotten.site.tables) and page rendering (schotten.site.render, the gate's
checks in schotten.site.gate), without MkDocs.

Markdown output is converted with Python-Markdown and the same extensions as mkdocs.yml, so these
tests see what the site shows.
"""

from __future__ import annotations

import contextlib
import functools
import re
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest

from schotten.board import Board, Player, Variant
from schotten.cards import parse_card
from schotten.casebook import Case, CaseResult, Publication, run_case
from schotten.casebook.folder import load_cases
from schotten.casebook.playon import Answer, start_game
from schotten.checker import position_of
from schotten.claims import Reason, judge_claim
from schotten.errors import IllegalActionError
from schotten.moves import Move
from schotten.refusals import Refusal, refusal_id
from schotten.rules import Rule
from schotten.site import (
    LANGUAGES,
    SiteCheckError,
    gate,
    labels,
    pictures,
    plays,
    render,
    tables,
    words,
)

EXTENSIONS = ["tables", "attr_list", "md_in_html", "toc"]


def _board(placements: list[tuple[Player, int, str]], variant: Variant = Variant.BASE) -> Board:
    board = Board.empty(variant)
    for step, (player, stone, card) in enumerate(placements):
        board = board.place(player, stone, parse_card(card), at=step)
    return board


def _entry(
    case_id: str,
    board: Board,
    claim: tuple[int, ...],
    *,
    table: str = tables.FAQ,
    rules: tuple[Rule, ...] = (),
    **texts: str,
) -> CaseResult:
    """A published case on ``board`` and the engine's result on it (as the gate gives it)."""
    case = Case(
        id=case_id,
        path=Path(f"cases/{case_id}.yaml"),
        variant=board.variant,
        situation={lang: texts.get("situation", f"situation {lang}") for lang in LANGUAGES},
        why={lang: texts.get("why", f"why {lang}") for lang in LANGUAGES},
        source="",
        rules=rules,
        published=Publication(table, 1),
        board=board,
        claim=claim,
        expect=None,
    )
    return run_case(case)


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


def _html(text: str) -> str:
    return markdown.markdown(str(text), extensions=EXTENSIONS)


class _Cases(HTMLParser):
    """Each case of a case list: its id, question, answer, why, and what its <details> holds."""

    def __init__(self) -> None:
        super().__init__()
        self.cases: list[dict[str, str]] = []
        self.tags: list[str] = []
        self.links: list[str] = []
        self.open_details: int = 0
        self._field: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        names = dict(attrs)
        classes = (names.get("class") or "").split()
        if tag == "a":
            self.links.append(names.get("href") or "")
        if tag == "tbody" and "case" in classes:
            self.cases.append({"id": names.get("id") or "", "details": ""})
        elif tag == "details" and "open" in names:
            self.open_details += 1
        for name in ("case__situation", "case__why-text", "verdict"):
            if name in classes:
                self._field = name.removesuffix("-text")
                if name == "verdict":
                    self.cases[-1]["verdict_class"] = " ".join(classes)
                    self.cases[-1]["verdict_href"] = names.get("href") or ""
        if tag == "summary":
            self._field = "summary"
        elif tag == "figure":
            self._field = "details"

    def handle_endtag(self, tag: str) -> None:
        if tag == "details" or (tag in ("span", "a", "p", "summary") and self._field != "details"):
            self._field = None

    def handle_data(self, data: str) -> None:
        if self._field is not None and self.cases:
            case = self.cases[-1]
            case[self._field] = case.get(self._field, "") + data


def _cases(text: str) -> _Cases:
    parser = _Cases()
    parser.feed(_html(text))
    return parser


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_case_shows_its_question_answer_and_why_once(lang: str) -> None:
    entries = [
        _entry("hand-is-not-proof", HAND_IS_NOT_PROOF, (4,)),
        _entry("brelan", STRONGER, (3,)),
    ]
    found = _cases(tables.verdict_table(entries, lang))
    words = labels(lang)["verdicts"]
    assert [c["id"] for c in found.cases] == ["case-hand-is-not-proof", "case-brelan"]
    assert [
        (c["case__situation"], c["verdict"], c["case__why"], c["summary"]) for c in found.cases
    ] == [
        (f"situation {lang}", words["refused"], f"why {lang}", labels(lang)["faq"]["open"]),
        (f"situation {lang}", words["granted"], f"why {lang}", labels(lang)["faq"]["open"]),
    ]
    assert found.cases[0]["verdict_class"] == "verdict verdict--refused"
    assert [c["verdict_href"] for c in found.cases] == ["#case-hand-is-not-proof", "#case-brelan"]
    # The position and the reasoning are one tap away: in a closed <details>, once per case.
    assert found.tags.count("details") == found.tags.count("svg") == 2
    assert found.open_details == 0
    assert "headers" not in labels(lang)["faq"]


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
    (case,) = _cases(tables.verdict_table(entries, "fr")).cases
    assert case["case__situation"] == text
    assert case["case__why"] == text
    html = _html(tables.verdict_table(entries, "fr"))
    assert "<script>" not in html and "<strong>bold" not in html and "<b>" not in html
    assert not any("evil" in href for href in re.findall(r'href="([^"]*)"', html))


def test_case_text_is_one_line_and_a_run_of_values_never_breaks() -> None:
    entries = [_entry("x", STRONGER, (3,), situation="first line\n\nsecond | 4-5-9")]
    (case,) = _cases(tables.verdict_table(entries, "es")).cases
    assert case["case__situation"] == "first line second | 4\u20115\u20119"
    assert str(tables.md_text("le Porte-Bouclier")) == "le Porte-Bouclier"


def test_a_claim_with_one_stone_not_proven_is_refused_whole() -> None:
    board = _board(
        [(Player.FIRST, 3, c) for c in ("red 2", "green 2", "blue 2")]
        + [(Player.SECOND, 3, c) for c in ("yellow 9", "yellow 7", "orange 6")]
        + [(Player.FIRST, 5, c) for c in ("red 5", "green 6", "blue 8")]
        + [(Player.SECOND, 5, c) for c in ("red 9", "green 9", "blue 9")]
    )
    entry = _entry("two", board, (3, 5))
    assert [v.granted for v in entry.verdicts] == [True, False]
    assert tables.verdict_summary(entry, "fr") == "Refusée"
    assert tables.verdict_summary(entry, "es") == "Denegada"
    assert tables.verdict_class(entry) == "verdict verdict--refused"
    html = _html(tables.verdict_table([entry], "fr"))
    assert (
        "<strong>Borne 3\u00a0: prouvée\u202f; nommée seule, elle t’aurait été accordée</strong>"
        in html
    )
    assert "<strong>Borne 5\u00a0: pas prouvée</strong>" in html
    assert "Accordée" not in html
    ruling = re.search(r'<p class="case__ruling">(.*?)</p>', html)
    assert ruling is not None and "arbitrage du site" in ruling[1].lower()
    # The one wording of what a refused claim costs, the same as the pages': nothing.
    assert labels("fr")["faq"]["refusal_costs_nothing"] in ruling[1]
    es = _html(tables.verdict_table([entry], "es"))
    assert "<strong>Piedra 3: demostrada; si la hubieras nombrado sola, te la habrías llevado" in es
    assert "decisión del sitio" in es.lower() and "Concedida" not in es
    assert labels("es")["faq"]["refusal_costs_nothing"] in es


def test_refusal_by_proof_names_the_cards_that_would_beat_you() -> None:
    (verdict,) = judge_claim(HAND_IS_NOT_PROOF, Player.FIRST, (4,))
    assert verdict.reason is Reason.OPPONENT_CAN_BEAT
    assert verdict.witness is not None
    for lang in LANGUAGES:
        names = labels(lang)
        mine, theirs = tables.reasoning(HAND_IS_NOT_PROOF, verdict, lang)
        same_value = names["formations_a"]["same-value"]
        assert f"{same_value}, total 3" in mine
        witness = verdict.witness.cards[0]
        assert words.card_with_article(witness, lang) in theirs
        assert f"{same_value}, total 9" in theirs


def test_complete_sides_are_compared_with_localised_formation_names() -> None:
    (verdict,) = judge_claim(STRONGER, Player.FIRST, (3,))
    assert verdict.reason is Reason.STRONGER
    mine, theirs = tables.reasoning(STRONGER, verdict, "es")
    assert mine == "Tu combinación: un Trío, total 6 (2 rojo, 2 verde y 2 azul)."
    assert theirs == "La de tu oponente: un Color, total 23 (9 amarillo, 8 amarillo y 6 amarillo)."


def test_incomplete_side_reasoning_counts_the_cards() -> None:
    board = _board([(Player.FIRST, 1, "red 1"), (Player.FIRST, 1, "red 2")])
    (verdict,) = judge_claim(board, Player.FIRST, (1,))
    assert verdict.reason is Reason.SIDE_INCOMPLETE
    said = tables.reasoning(board, verdict, "fr")
    assert said == ["Cartes de ton côté\u00a0: 2 sur les 3 nécessaires."]


def test_four_of_a_kind_is_named_under_mud_fight() -> None:
    from schotten.formations import Formation, FormationKind

    formation = Formation(FormationKind.SAME_VALUE, 20)
    assert tables.formation_text(formation, "fr", size=4) == "un Carré, total 20"
    assert tables.formation_text(formation, "es", size=4) == "un Póker, total 20"
    totals = Formation(FormationKind.TOTAL, 26)
    assert tables.formation_text(totals, "fr") == "un total de 26"


def test_details_hold_the_picture_and_the_verdict_of_each_stone() -> None:
    entries = [_entry("hand-is-not-proof", HAND_IS_NOT_PROOF, (4,))]
    html = _html(tables.verdict_table(entries, "fr"))
    assert '<tbody class="case" id="case-hand-is-not-proof">' in html
    details = html[html.index("<details") : html.index("</details>")]
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="position"' in details
    assert 'class="stone s4 claimed"' in details
    assert "<strong>Borne 4\u00a0: Refusée</strong>" in details


def test_page_functions_render_with_strict_undefined(tmp_path: Path) -> None:
    entries = [_entry("brelan", STRONGER, (3,))]
    page = "# Titre\n\n{{ verdict_table() }}\n"
    out = render.render_page(page, "fr", "edge-cases.md", entries).markdown
    assert '<tbody class="case" id="case-brelan">' in out
    with pytest.raises(SiteCheckError, match=r"^edge-cases\.md:3: \(fr\) .*no_such_function"):
        render.render_page("# T\n\n{{ no_such_function() }}\n", "fr", "edge-cases.md", entries)
    with pytest.raises(SiteCheckError, match=r"^rules\.es\.md:2: \(es\) "):
        render.render_page("text\n{% if %}\n", "es", "rules.es.md", entries)


def test_page_languages_come_from_the_file_suffix() -> None:
    assert gate.page_language("odds.md") == "fr"
    assert gate.page_language("odds.es.md") == "es"
    assert gate.page_stem("odds.es.md") == gate.page_stem("odds.md") == "odds"


def test_a_page_missing_in_one_language_is_a_problem(tmp_path: Path) -> None:
    pages = {
        "rules.md": tmp_path / "rules.md",
        "odds.md": tmp_path / "odds.md",
        "odds.es.md": tmp_path / "odds.es.md",
    }
    problems = gate.language_problems(pages, tmp_path, tmp_path)
    assert problems == ["rules.es.md: page missing in es (every page exists in fr and es)"]


def test_label_catalogues_have_the_same_keys() -> None:
    assert gate.label_problems() == []


def test_a_label_missing_in_one_language_is_a_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    real = {lang: labels(lang) for lang in LANGUAGES}
    trimmed = {**real["es"], "verdicts": {"granted": "Concedida"}}
    monkeypatch.setattr(gate, "labels", lambda lang: trimmed if lang == "es" else real[lang])
    assert gate.label_problems() == [
        "schotten/locales/es.json: label verdicts.refused is missing (it exists in fr.json)"
    ]


def test_a_published_table_missing_from_a_language_refuses_to_build() -> None:
    entry = _entry("brelan", STRONGER, (3,), table="elite-troops")
    problems = gate.table_problems([entry], {"fr": {"elite-troops"}, "es": set()})
    assert problems == [
        "published table 'elite-troops' is on no page in es (call verdict_table('elite-troops'))"
    ]
    with pytest.raises(SiteCheckError, match="no published table 'ruses'"):
        tables.verdict_table([entry], "fr", "ruses")


def test_cases_for_links_the_cases_that_pin_a_rule() -> None:
    entry = _entry("brelan", STRONGER, (3,), rules=(Rule.FORMATION_LADDER,))
    listed = str(tables.cases_for([entry], "es", "formation-ladder"))
    assert "- [situation es](edge-cases.md#case-brelan)" in listed
    with pytest.raises(SiteCheckError, match="no published case pins"):
        tables.cases_for([entry], "es", "deadlock")


def test_a_refused_move_says_its_rule_as_a_sentence_and_an_unknown_rule_is_an_error() -> None:
    move = Move.parse("play mud-fight at 4")
    said = plays.step_text(Player.FIRST, move, "illegal tactic-count", "fr")
    assert said == (
        "Toi — jouer le Combat de Boue sur la Borne 4 → refusé\u00a0: "
        "personne ne joue plus d’une carte Tactique d’avance sur l’adversaire"
    )
    with pytest.raises(SiteCheckError, match="no refusal sentence"):
        plays.step_text(Player.FIRST, move, "illegal no-such-rule", "fr")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_rule_has_a_refusal_sentence(lang: str) -> None:
    names = labels(lang)
    assert set(names["refusals"]) == set(names["rules"]) | {str(r) for r in Refusal}
    # A refusal follows a colon: it has none of its own.
    assert not [r for r, text in names["refusals"].items() if ":" in text]


def test_a_play_on_case_answers_its_question_in_words() -> None:
    recruit = Move.parse("play recruiter: draw clan, clan, tactic")
    answer = Answer(Player.FIRST, recruit, "ok", "ongoing", None)
    assert plays.answer_text(answer, "fr") == "Accepté\u00a0: le Chasseur de Tête se joue ainsi"
    assert plays.answer_text(answer, "es") == "Jugada aceptada: el Reclutador se juega así"
    mud = Move.parse("play mud-fight at 2")
    refused = Answer(Player.FIRST, mud, "illegal tactic-count", "ongoing", None)
    assert plays.answer_text(refused, "fr") == (
        "Refusé\u00a0: personne ne joue plus d’une carte Tactique d’avance sur l’adversaire"
    )
    # A move that ends the game says how it ends.
    closing = Answer(Player.FIRST, Move.parse("claim none"), "ok", "won-by-you", "deadlock")
    assert plays.answer_text(closing, "fr") == (
        "Accepté\u00a0: tu ne revendiques rien\u202f; tu gagnes la partie, close par le blocage"
    )
    assert plays.answer_text(closing, "es") == (
        "Jugada aceptada: no conquistas nada; ganas la partida, cerrada por el bloqueo"
    )
    for lang in LANGUAGES:
        assert "summary" not in labels(lang)["moves"]  # no "3 moves out of 4" anywhere


# The play-on cases whose badge once showed a refused try instead of the case's answer.
ACCEPTED_ANSWERS = (
    "recruiter-draws-three-returns-two",
    "strategist-moves-your-card",
    "pass-when-every-side-is-full",
    "recruiter-with-two-cards-left",
    "traitor-takes-a-clan-card",
    "mud-fight-resets-completion",
    "banshee-resets-completion",
    "deadlock-closes-the-game",
)


def _engine_step(case: Case) -> str:
    """The engine's step on the case's question, found by replaying the moves before it."""
    assert case.play_on is not None
    spec = case.play_on
    game = start_game(case.board, case.hands, spec.decks, spec.start)
    for _, move in spec.moves[: spec.question]:
        with contextlib.suppress(IllegalActionError):
            game.apply(move)
    try:
        game.apply(spec.moves[spec.question][1])
    except IllegalActionError as error:
        return f"illegal {refusal_id(error)}"
    return "ok"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_badge_is_the_engine_answer_to_its_case_question(lang: str) -> None:
    results = [run_case(case) for case in load_cases(ROOT / "cases") if case.play_on]
    assert len(results) >= 15
    for result in results:
        case = result.case
        assert result.answer is not None, case.id
        (shown,) = _cases(tables.case_rows([result], lang)).cases
        assert shown["verdict"] == plays.answer_text(result.answer, lang), case.id
        step = _engine_step(case)
        assert result.answer.step == step, case.id
        accepted = labels(lang)["moves"]["answer_accepted"].split("{")[0]
        assert shown["verdict"].startswith(accepted) == (step == "ok"), case.id
        kind = "granted" if step == "ok" else "refused"
        assert shown["verdict_class"] == f"verdict verdict--{kind}", case.id
    by_id = {r.case.id: r for r in results}
    for ident in ACCEPTED_ANSWERS:
        answer = by_id[ident].answer
        assert answer is not None and answer.accepted, ident
    limit = by_id["tactic-count-limit"].answer
    assert limit is not None and limit.step == f"illegal {Rule.TACTIC_COUNT}"


def test_moves_name_whose_side_and_which_stone() -> None:
    move = Move.parse("play strategist: red 9 from 5 to 2")
    assert plays.move_text(Player.FIRST, move, "fr") == (
        "Toi — jouer le Stratège\u00a0: déplacer le 9 rouge de ta Borne 5 vers ta Borne 2"
    )
    assert plays.move_text(Player.SECOND, move, "es") == (
        "Tu oponente — jugar el Estratega: mover el 9 rojo de su piedra 5 a su piedra 2"
    )
    traitor = Move.parse("play traitor: blue 9 from 4 to 6")
    assert plays.move_text(Player.FIRST, traitor, "fr") == (
        "Toi — jouer le Traître\u00a0: prendre le 9 bleu de sa Borne 4 pour le poser sur ta Borne 6"
    )
    one = Move.parse("return green 1")
    assert (
        plays.move_text(Player.FIRST, one, "fr") == "Toi — remettre le 1 vert sous la pioche Clan"
    )


def test_returned_cards_go_under_their_own_decks_in_words() -> None:
    two_clan = Move.parse("return green 1, blue 3")
    assert plays.move_text(Player.FIRST, two_clan, "fr") == (
        "Toi — remettre le 1 vert et le 3 bleu sous la pioche Clan"
    )
    assert plays.move_text(Player.FIRST, two_clan, "es") == (
        "Tú — devolver el 1 verde y el 3 azul bajo el mazo de clan"
    )
    mixed = Move.parse("return blue 2, traitor")
    assert plays.move_text(Player.FIRST, mixed, "fr") == (
        "Toi — remettre le 2 bleu et le Traître, chacune sous sa pioche"
    )
    assert plays.move_text(Player.SECOND, Move.parse("pass"), "es") == (
        "Tu oponente — pasar sin colocar"
    )


def test_a_side_with_no_card_is_said_in_words() -> None:
    board = _board([(Player.FIRST, 2, c) for c in ("red 7", "red 8", "red 9")], Variant.BASE)
    (verdict,) = judge_claim(board, Player.FIRST, (2,))
    fr = " ".join(tables.reasoning(board, verdict, "fr"))
    es = " ".join(tables.reasoning(board, verdict, "es"))
    assert "Il n’a encore rien posé" in fr and "(aucune carte)" not in fr
    assert "Todavía no ha colocado nada" in es and "(ninguna carta)" not in es


def test_an_elite_troop_in_an_answer_says_what_it_becomes() -> None:
    board = _board(
        [(Player.FIRST, 2, c) for c in ("yellow 1", "yellow 2", "yellow 3")]
        + [(Player.SECOND, 2, c) for c in ("joker", "red 9", "red 8")],
        Variant.TACTICAL,
    )
    (verdict,) = judge_claim(board, Player.FIRST, (2,))
    assert verdict.reason is Reason.WEAKER
    _, theirs = tables.reasoning(board, verdict, "fr")
    assert (
        theirs
        == "La sienne\u00a0: une Suite couleur, total 24 (le Joker en 7 rouge, 9 rouge et 8 rouge)."
    )
    _, theirs = tables.reasoning(board, verdict, "es")
    assert "(el Comodín haciendo de 7 rojo, 9 rojo y 8 rojo)" in theirs
    # In a Brelan the troop's colour is free: it is never shown as a card already on the side.
    same = words.side_text(
        [parse_card("red 3"), parse_card("green 3"), parse_card("joker")],
        [parse_card("red 3"), parse_card("green 3"), parse_card("red 3")],
        "fr",
    )
    assert same == "3 rouge, 3 vert et le Joker en 3 orange"


# -- the case lists of the pages that state a rule -------------------------------------------

ROOT = Path(__file__).resolve().parents[1]
_COLOURS = {"r": "red", "o": "orange", "y": "yellow", "g": "green", "b": "blue", "p": "purple"}
_ELITE = {"J": "joker", "S": "spy", "B": "shield-bearer"}


def _position_in(fragment: str) -> dict[str, object]:
    """The checker position an address fragment holds, read as checker.js reads it: options,
    then the cards of the four zones (``r9``: the red 9; ``J``, ``S``, ``B``: the elite troops)."""
    assert fragment.startswith("check="), fragment
    options, *zones = fragment.removeprefix("check=").split("-")
    assert len(zones) == 4, fragment
    cards = [
        [_ELITE[code] if code in _ELITE else f"{_COLOURS[code[0]]} {code[1]}" for code in codes]
        for codes in (re.findall(r"[roygbp][1-9]|[JSB]", zone) for zone in zones)
    ]
    assert ["".join(re.findall(r"[roygbp][1-9]|[JSB]", z)) for z in zones] == zones, fragment
    return {
        "variant": "tactical" if options[0] == "t" else "base",
        "mine": cards[0],
        "theirs": cards[1],
        "elsewhere": {"mine": cards[2], "theirs": cards[3]},
        "mud_fight": "m" in options,
        "blind_mans_bluff": "c" in options,
        "completed_first": "opponent" if "o" in options else "you",
    }


def _as_the_checker_sees(position: dict[str, object]) -> dict[str, object]:
    """A checker position without the tactic cards the checker offers none of (they prove
    nothing: an address leaves them out)."""

    def kept(cards: object) -> list[str]:
        assert isinstance(cards, list)
        return [c for c in cards if " " in c or c in _ELITE.values()]

    elsewhere = position["elsewhere"]
    assert isinstance(elsewhere, dict)
    return {
        **position,
        "mine": kept(position["mine"]),
        "theirs": kept(position["theirs"]),
        "elsewhere": {side: kept(cards) for side, cards in elsewhere.items()},
    }


class _CaseLinks(HTMLParser):
    """Each list item that links to a case of the edge-case page: the case's id and the
    addresses of the checker links beside it."""

    def __init__(self) -> None:
        super().__init__()
        self.items: list[tuple[str, list[str]]] = []
        self._depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        href = names.get("href") or ""
        if tag == "li":
            self._depth += 1
            self.items.append(("", []))
        elif tag == "a" and self._depth and href.startswith(f"{tables.CASES_PAGE}#case-"):
            self.items[-1] = (href.partition("#case-")[2], self.items[-1][1])
        elif tag == "a" and self._depth and "schotten-open-checker" in (names.get("class") or ""):
            self.items[-1][1].append(href)

    def handle_endtag(self, tag: str) -> None:
        if tag == "li":
            self._depth -= 1


@functools.cache
def _published_results() -> dict[str, CaseResult]:
    """The project's published cases with the engine's results, read once (tests only read it)."""
    problems: list[str] = []
    results = {r.case.id: r for r in gate._published_results(ROOT / "cases", problems, ROOT)}
    assert problems == []
    return results


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("page_name", ["rules", "rulings", "tactics"])
def test_each_claim_case_a_page_lists_opens_its_position_in_the_checker(
    page_name: str, lang: str
) -> None:
    results = _published_results()
    name = f"{page_name}.md" if lang == "fr" else f"{page_name}.{lang}.md"
    source = (ROOT / "site_src" / name).read_text(encoding="utf-8")
    parser = _CaseLinks()
    parser.feed(_html(render.render_page(source, lang, name, tuple(results.values())).markdown))
    listed = [(case_id, links) for case_id, links in parser.items if case_id]
    assert listed, f"{name} lists no case"
    claims = 0
    for case_id, links in listed:
        result = results[case_id]
        case = result.case
        open_stones = [n for n in case.claim if case.board.stone(n).claimed_by is None]
        if result.computed.play_on is not None or not open_stones:
            assert links == [], (name, case_id)  # moves, or a stone already held: no position
            continue
        claims += 1
        assert len(links) == len(open_stones), (name, case_id, links)
        for number, href in zip(open_stones, links, strict=True):
            assert href.startswith("../rules/#"), href
            expected = _as_the_checker_sees(position_of(case.board, number))
            assert _position_in(href.partition("#")[2]) == expected, (name, case_id, number)
    assert claims, f"{name} lists no claim case"


def test_a_claim_of_several_stones_names_each_stone_in_its_checker_link() -> None:
    board = STRONGER.place(Player.FIRST, 5, parse_card("red 9"), at=6)
    listed = str(tables.cases_for([_entry("two", board, (3, 5), rules=(Rule.PASS,))], "fr", "pass"))
    assert ">Ouvrir la Borne 3 dans le vérificateur</a>" in listed
    assert ">Ouvrir la Borne 5 dans le vérificateur</a>" in listed
    one = str(tables.cases_for([_entry("one", board, (3,), rules=(Rule.PASS,))], "es", "pass"))
    assert ">Abrir esta posición en el comprobador</a>" in one


def test_only_a_picture_wider_than_a_phone_column_is_a_scroll_region() -> None:
    wide = '<svg class="position" style="min-width: 419px; max-width: 600px"></svg>'
    narrow = '<svg class="position" style="min-width: 212px; max-width: 400px"></svg>'
    region = pictures.figure(wide, "fr", "Position")
    assert 'role="region" tabindex="0"' in region
    assert 'aria-label="Position — fais-la défiler sur le côté pour la voir en entier"' in region
    assert "tabindex" not in pictures.figure(narrow, "es", "Posición", caption="Posición")
