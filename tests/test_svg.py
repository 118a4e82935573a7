"""Pictures of positions (schotten.svg), checked by structure: parsed, then queried by class."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace

from schotten.board import Board, Player, Variant
from schotten.cards import parse_card
from schotten.site import labels
from schotten.svg import position_svg

NS = {"svg": "http://www.w3.org/2000/svg"}


def _board(variant: Variant, placements: list[tuple[Player, int, str]]) -> Board:
    board = Board.empty(variant)
    for step, (player, stone, card) in enumerate(placements):
        board = board.place(player, stone, parse_card(card), at=step)
    return board


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def _classes(root: ET.Element) -> list[str]:
    return [e.get("class", "") for e in root.iter() if e.get("class")]


def _group(root: ET.Element, classes: str) -> ET.Element:
    matches = [e for e in root.iter(f"{{{NS['svg']}}}g") if e.get("class") == classes]
    assert len(matches) == 1, f"{classes!r}: {len(matches)} groups in {_classes(root)}"
    return matches[0]


HAND_IS_NOT_PROOF = _board(
    Variant.BASE,
    [
        (Player.FIRST, 4, "red 1"),
        (Player.FIRST, 4, "green 1"),
        (Player.FIRST, 4, "blue 1"),
        (Player.SECOND, 4, "red 3"),
        (Player.SECOND, 4, "green 3"),
        (Player.SECOND, 6, "blue 3"),
    ],
)


def test_claim_proof_picture_shows_both_sides_in_their_colours() -> None:
    root = _parse(position_svg(HAND_IS_NOT_PROOF, claim=(4,)))
    stone = _group(root, "stone s4 claimed")
    yours = _group(stone, "side you")
    theirs = _group(stone, "side opponent")
    assert sorted(g.get("class") for g in yours.findall("svg:g", NS)) == [
        "card blue v1",
        "card green v1",
        "card red v1",
    ]
    assert sorted(g.get("class") for g in theirs.findall("svg:g", NS)) == [
        "card green v3",
        "card red v3",
    ]
    red = _group(yours, "card red v1")
    assert red.find("svg:rect", NS).get("fill") == "#c62828"  # type: ignore[union-attr]
    # A stone with a card but not under claim is drawn, unmarked.
    assert "stone s6" in _classes(root)
    assert not any(c.startswith("stone s1") for c in _classes(root))  # empty stones are left out


def test_claim_together_marks_every_claimed_stone() -> None:
    board = _board(
        Variant.BASE,
        [
            (Player.FIRST, n, f"{colour} {v}")
            for n, colour in ((3, "red"), (5, "blue"))
            for v in (6, 7, 8)
        ],
    )
    root = _parse(position_svg(board, claim=(3, 5)))
    assert "stone s3 claimed" in _classes(root)
    assert "stone s5 claimed" in _classes(root)


def test_mud_fight_and_blind_mans_bluff_are_marked_on_their_stone() -> None:
    board = _board(Variant.TACTICAL, [(Player.FIRST, 7, c) for c in ("green 7", "green 8")])
    stone = replace(board.stone(7), mud_fight=Player.SECOND, blind_mans_bluff=Player.FIRST)
    root = _parse(position_svg(board.with_stone(stone), claim=(7,), labels=labels("fr")))
    group = _group(root, "stone s7 claimed mud-fight blind-mans-bluff")
    mud = _group(group, "mode mud-fight")
    assert mud.find("svg:title", NS).text == "Combat de Boue"  # type: ignore[union-attr]
    bluff = _group(group, "mode blind-mans-bluff")
    assert bluff.find("svg:title", NS).text == "Colin-Maillard"  # type: ignore[union-attr]


def test_mud_fight_makes_room_for_four_cards() -> None:
    board = _board(Variant.TACTICAL, [(Player.FIRST, 2, f"red {v}") for v in (1, 2, 3, 4)])
    mud = board.with_stone(replace(board.stone(2), mud_fight=Player.FIRST))
    plain = _board(Variant.TACTICAL, [(Player.FIRST, 2, f"red {v}") for v in (1, 2, 3)])
    tall = int(_parse(position_svg(mud, claim=(2,))).get("height", "0"))
    short = int(_parse(position_svg(plain, claim=(2,))).get("height", "0"))
    assert tall > short


def test_stones_already_held_are_marked_by_holder() -> None:
    board = HAND_IS_NOT_PROOF.with_stone(
        replace(HAND_IS_NOT_PROOF.stone(9), claimed_by=Player.SECOND)
    )
    root = _parse(position_svg(board, claim=(4,)))
    assert "stone s9 held p2" in _classes(root)


def test_elite_troops_are_tactic_cards_named_in_the_language() -> None:
    board = _board(
        Variant.TACTICAL, [(Player.FIRST, 1, "joker"), (Player.SECOND, 1, "shield-bearer")]
    )
    root = _parse(position_svg(board, claim=(1,), labels=labels("es")))
    joker = _group(root, "card tactic joker")
    assert joker.find("svg:title", NS).text == "Comodín"  # type: ignore[union-attr]
    shield = _group(root, "card tactic shield-bearer")
    assert shield.find("svg:title", NS).text == "Portaescudos"  # type: ignore[union-attr]


def test_position_is_described_in_words_for_screen_readers() -> None:
    svg = position_svg(
        HAND_IS_NOT_PROOF,
        claim=(4,),
        labels=labels("fr"),
        ident="case-x-fr",
        hand=(parse_card("yellow 3"),),
    )
    root = _parse(svg)
    assert root.get("role") == "img"
    assert root.get("aria-labelledby") == "case-x-fr-title case-x-fr-desc"
    title = root.find("svg:title", NS)
    desc = root.find("svg:desc", NS)
    assert title is not None and title.get("id") == "case-x-fr-title"
    assert desc is not None and desc.get("id") == "case-x-fr-desc"
    assert "Borne 4 (que tu revendiques)" in (desc.text or "")
    text = desc.text or ""
    assert "toi rouge 1, vert 1, bleu 1" in text
    assert "l'adversaire rouge 3, vert 3" in text
    assert "Ta main\u00a0: jaune 3." in text
    _group(root, "hand you")


def test_discard_pile_is_drawn_when_it_matters() -> None:
    board = HAND_IS_NOT_PROOF.discard_card(Player.SECOND, parse_card("purple 3"))
    root = _parse(position_svg(board, claim=(4,), labels=labels("es")))
    pile = _group(root, "discard")
    assert [g.get("class") for g in pile.findall("svg:g", NS)] == ["card purple v3"]
    assert "Pila de descartes: morado 3." in (root.find("svg:desc", NS).text or "")  # type: ignore[union-attr]


def test_picture_has_no_blank_line_so_markdown_keeps_it_whole() -> None:
    svg = position_svg(HAND_IS_NOT_PROOF, claim=(4,), labels=labels("fr"))
    assert "\n" not in svg
    assert svg.startswith("<svg ")
