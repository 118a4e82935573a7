"""Words read back (schotten.site.readback): every formation the site names with its cards is
what those cards make, on every case and on thousands of random positions, in both languages."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from schotten.board import Board, Player, Variant
from schotten.cards import CLAN_CARDS, Card, ClanCard, Tactic, parse_card
from schotten.casebook import run_case
from schotten.casebook.folder import load_cases
from schotten.checker import check_position
from schotten.claims import judge_claim
from schotten.formations import FormationKind, evaluate
from schotten.site import LANGUAGES, SiteCheckError, readback, render, tables

ROOT = Path(__file__).resolve().parents[1]
TROOPS = (Tactic.JOKER, Tactic.SPY, Tactic.SHIELD_BEARER)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_issue_example_reads_back_only_with_the_colour_kept(lang: str) -> None:
    wrong = {
        "fr": "Ta combinaison : une Couleur, total 19 (9 rouge, 1 rouge et le Joker en 9 orange).",
        "es": "Tu combinación: un Color, total 19 (9 rojo, 1 rojo y el Comodín haciendo de 9 "
        "naranja).",
    }[lang]
    assert len(readback.problems(wrong, lang)) == 1
    right = wrong.replace("orange)", "rouge)").replace("naranja)", "rojo)")
    assert readback.problems(right, lang) == []
    assert len(readback.sentences(right, lang)) == 1


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_case_reads_back(lang: str) -> None:
    results = [run_case(case) for case in load_cases(ROOT / "cases")]
    text = str(tables.case_rows(results, lang))
    assert len(readback.sentences(text, lang)) >= 60
    assert readback.problems(text, lang) == []


def _random_board(rng: random.Random) -> Board:
    board = Board.empty(Variant.TACTICAL)
    deck: list[Card] = list(CLAN_CARDS)
    rng.shuffle(deck)
    troops = list(TROOPS)  # each once: a player plays one Joker at most (rule joker-once)
    rng.shuffle(troops)
    step = 0
    for player, size in ((Player.FIRST, 3), (Player.SECOND, rng.choice((2, 3)))):
        for _ in range(size):
            card = troops.pop() if troops and rng.random() < 0.3 else deck.pop()
            board = board.place(player, 5, card, at=step)
            step += 1
    return board


@pytest.mark.parametrize("lang", LANGUAGES)
def test_thousands_of_random_positions_read_back_on_pages_and_in_the_checker(lang: str) -> None:
    rng = random.Random(f"read back {lang}")
    read = 0
    for _ in range(2000):
        board = _random_board(rng)
        (verdict,) = judge_claim(board, Player.FIRST, (5,))
        text = "\n".join(tables.reasoning(board, verdict, lang))
        assert readback.problems(text, lang) == [], text
        read += len(readback.sentences(text, lang))
        # The checker answers with each side's cards and what each troop becomes: the same words.
        stone = board.stone(5)
        answer = check_position(
            {
                "variant": "tactical",
                "mine": [str(c) for c in stone.side(Player.FIRST).cards],
                "theirs": [str(c) for c in stone.side(Player.SECOND).cards],
            }
        )
        assert answer["ok"], answer
        shown = [parse_card(as_ or card) for card, as_ in answer["mine_side"]]
        kind = answer["mine"]["kind"].removesuffix("-4").upper().replace("-", "_")
        made = evaluate([c for c in shown if isinstance(c, ClanCard)])
        assert (made.kind, made.total) == (FormationKind[kind], answer["mine"]["total"])
    assert read >= 2000


def test_a_page_whose_words_do_not_read_back_is_refused() -> None:
    page = "# Exemple\n\nTa combinaison : une Couleur, total 19 (9 rouge, 1 rouge et 9 orange).\n"
    with pytest.raises(SiteCheckError, match=r"x\.md: \(fr\) words that do not read back: "):
        render.render_page(page, "fr", "x.md", [])
    fine = page.replace("9 orange", "9 rouge")
    assert "Couleur" in render.render_page(fine, "fr", "x.md", []).markdown
