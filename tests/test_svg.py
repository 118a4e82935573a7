"""Pictures of positions (schotten.svg), checked by structure: parsed, then queried by class."""

from __future__ import annotations

from dataclasses import replace

from svg_boards import (
    HAND_IS_NOT_PROOF,
    NS,
    SPREAD,
    SVG,
    classes_of,
    group_of,
    parse_svg,
    placed_board,
)

from schotten.board import Player, Variant
from schotten.cards import parse_card
from schotten.site import labels
from schotten.svg import position_svg


def test_claim_proof_picture_shows_both_sides_in_their_colours() -> None:
    root = parse_svg(position_svg(HAND_IS_NOT_PROOF, claim=(4,)))
    stone = group_of(root, "stone s4 claimed")
    yours = group_of(stone, "side you")
    theirs = group_of(stone, "side opponent")
    assert sorted(g.get("class") for g in yours.findall("svg:g", NS)) == [
        "card blue v1",
        "card green v1",
        "card red v1",
    ]
    assert sorted(g.get("class") for g in theirs.findall("svg:g", NS)) == [
        "card green v3",
        "card red v3",
    ]
    red = group_of(yours, "card red v1")
    assert red.find("svg:rect", NS).get("fill") == "#c62828"  # type: ignore[union-attr]
    # A stone with a card but not under claim is drawn, unmarked.
    assert "stone s6" in classes_of(root)
    assert not any(c.startswith("stone s1") for c in classes_of(root))  # empty stones are left out


def test_claim_together_marks_every_claimed_stone() -> None:
    board = placed_board(
        Variant.BASE,
        [
            (Player.FIRST, n, f"{colour} {v}")
            for n, colour in ((3, "red"), (5, "blue"))
            for v in (6, 7, 8)
        ],
    )
    root = parse_svg(position_svg(board, claim=(3, 5)))
    assert "stone s3 claimed" in classes_of(root)
    assert "stone s5 claimed" in classes_of(root)


def test_mud_fight_makes_room_for_four_cards() -> None:
    board = placed_board(Variant.TACTICAL, [(Player.FIRST, 2, f"red {v}") for v in (1, 2, 3, 4)])
    mud = board.with_stone(replace(board.stone(2), mud_fight=Player.FIRST))
    plain = placed_board(Variant.TACTICAL, [(Player.FIRST, 2, f"red {v}") for v in (1, 2, 3)])
    tall = int(parse_svg(position_svg(mud, claim=(2,))).get("height", "0"))
    short = int(parse_svg(position_svg(plain, claim=(2,))).get("height", "0"))
    assert tall > short


def test_stones_already_held_are_marked_by_holder() -> None:
    board = HAND_IS_NOT_PROOF.with_stone(
        replace(HAND_IS_NOT_PROOF.stone(9), claimed_by=Player.SECOND)
    )
    root = parse_svg(position_svg(board, claim=(4,)))
    assert "stone s9 held p2" in classes_of(root)


def test_discard_pile_is_drawn_when_it_matters() -> None:
    board = HAND_IS_NOT_PROOF.discard_card(Player.SECOND, parse_card("purple 3"))
    root = parse_svg(position_svg(board, claim=(4,), labels=labels("es")))
    pile = group_of(root, "discard")
    assert [g.get("class") for g in pile.findall("svg:g", NS)] == ["card purple v3"]
    assert "Pila de descartes: 3 morado." in (root.find("svg:desc", NS).text or "")  # type: ignore[union-attr]


def test_picture_has_no_blank_line_so_markdown_keeps_it_whole() -> None:
    svg = position_svg(HAND_IS_NOT_PROOF, claim=(4,), labels=labels("fr"))
    assert "\n" not in svg
    assert svg.startswith("<svg ")


def test_legend_explains_the_claimed_stone_the_marks_and_the_colours() -> None:
    board = SPREAD.with_stone(replace(SPREAD.stone(9), mud_fight=Player.FIRST))
    root = parse_svg(position_svg(board, claim=(4,), labels=labels("fr")))
    legend = group_of(root, "legend")
    items = {g.get("class"): "".join(g.itertext()) for g in legend.findall("svg:g", NS)}
    assert items["legend-item claimed"] == "Borne que tu revendiques"
    assert items["legend-item mud-fight"] == "Combat de Boue"
    assert items["legend-item colour-green"] == "Vert"
    assert items["legend-item tactic-joker"] == "JJoker"  # the card's letter, then its name
    assert len([k for k in items if "colour-" in k]) == 6
    sample = group_of(legend, "legend-item colour-green").find("svg:path", NS)
    assert sample is not None and sample.get("class") == "mark diamond"


def test_stones_that_are_not_neighbours_are_drawn_apart() -> None:
    root = parse_svg(position_svg(SPREAD, claim=(4,)))
    # Stones 2, 4, 5 and 9 are drawn: a gap before 4 and before 9, none between 4 and 5.
    gaps = [g for g in root.iter(f"{SVG}g") if g.get("class") == "gap"]
    assert len(gaps) == 2

    def left(number: int) -> float:
        group = next(
            g for g in root.iter(f"{SVG}g") if g.get("class", "").startswith(f"stone s{number}")
        )
        shape = next(r for r in group.iter(f"{SVG}rect") if r.get("class") == "stone-shape")
        return float(shape.get("x", "0"))

    step = left(5) - left(4)
    assert left(4) - left(2) > step
    assert left(9) - left(5) > step
    # Stones 4, 5 and 6 drawn side by side: no gap at all.
    held = replace(HAND_IS_NOT_PROOF.stone(5), claimed_by=Player.FIRST)
    neighbours = parse_svg(position_svg(HAND_IS_NOT_PROOF.with_stone(held), claim=(4,)))
    assert [g for g in neighbours.iter(f"{SVG}g") if g.get("class") == "gap"] == []


def test_text_stays_legible_when_the_picture_is_shrunk_for_a_phone() -> None:
    root = parse_svg(position_svg(SPREAD, claim=(4,), labels=labels("es")))
    width = float(root.get("width", "0"))
    style = dict(
        part.split(":") for part in (root.get("style") or "").replace(" ", "").split(";") if part
    )
    smallest_scale = float(style["min-width"].removesuffix("px")) / width
    sizes = [float(t.get("font-size", "0")) for t in root.iter(f"{SVG}text")]
    assert min(sizes) * smallest_scale >= 11 - 0.05
    assert float(style["max-width"].removesuffix("px")) > width  # fills a wide column
