"""Seeing a case before it is published: ``schotten explain CASE --svg/--html`` draws any case
with the site's own pictures, and a play-on's claim moves get their proof and the final board."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from schotten.casebook.build import load_case
from schotten.cli import EXIT_OK, main
from schotten.site import labels, pictures
from schotten.svg import position_svg

ROOT = Path(__file__).resolve().parents[1]
VALID = Path(__file__).parent / "data" / "cases" / "valid"
# A regression case never approved: no `expect:`, no `published:`.
UNAPPROVED = re.sub(
    r"(?ms)^expect:.*", "", (VALID / "three-adjacent.yaml").read_text(encoding="utf-8")
)
UNAPPROVED = re.sub(r"(?m)^published: .*\n", "", UNAPPROVED)


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_explain_draws_an_unapproved_unpublished_case_as_the_site_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    path = tmp_path / "draft.yaml"
    path.write_text(UNAPPROVED, encoding="utf-8")
    svg, page = tmp_path / "draft.svg", tmp_path / "draft.html"
    main(["explain", str(path), "--svg", str(svg), "--html", str(page), "--lang", lang])
    assert f"{svg}: the case as the site draws it ({lang})" in capsys.readouterr().out
    case = load_case(path)
    site_picture = position_svg(
        case.board,
        case.claim,
        labels=labels(lang),
        ident=f"case-draft-{lang}",
        hand=(),
        title=pictures.picture_title(case.claim, lang),
    )
    assert svg.read_text(encoding="utf-8") == site_picture
    ET.fromstring(svg.read_text(encoding="utf-8"))  # well-formed
    html = page.read_text(encoding="utf-8")
    assert f'<html lang="{lang}">' in html and "<svg" in html and "<details" in html
    text = re.sub(r"<[^>]+>", "", html).replace("&#39;", "'")
    assert case.situation[lang] in text and case.why[lang] in text
    granted = labels(lang)["verdicts"]["granted"]
    assert granted in html  # the engine's verdict, though nothing was recorded
    assert "http://" not in html.replace("http://www.w3.org", "")  # nothing from another host


def test_explain_of_a_play_on_proves_each_claim_move_and_shows_the_final_board(
    capsys: pytest.CaptureFixture[str],
) -> None:
    case = ROOT / "cases" / "banshee-resets-completion.yaml"
    assert main(["explain", str(case)]) == EXIT_OK
    out = capsys.readouterr().out
    claims = re.findall(r"claim of move (\d+) \((you|opponent)\), on the board before it:", out)
    assert claims, out
    moves = load_case(case).play_on
    assert moves is not None
    claim_moves = [
        str(i)
        for i, (_player, move) in enumerate(moves.moves, 1)
        if str(move).startswith("claim ") and str(move) != "claim none"
    ]
    assert [number for number, _who in claims] == claim_moves
    assert "stone 3: granted (tie-completed-first, rule completed-first)" in out
    after = out.split("the board after the moves:")[1]
    assert "claimed by you" in after and "your hand:" in after
