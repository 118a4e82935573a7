"""Fuzzing the card and move notation: any text is a card or move that writes itself back the
same way, or an InvalidNotationError; a game answers can_move with True or False, never raises."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from mutations import SNIPPETS, mutated_text
from strength import examples

from schotten.board import Variant
from schotten.cards import CLAN_CARDS, Tactic, parse_card
from schotten.errors import InvalidNotationError
from schotten.game import Game
from schotten.moves import Move
from schotten.records import random_game

CARDS = [str(c) for c in (*CLAN_CARDS, *Tactic)]
MOVES = sorted(
    set(random_game(4, Variant.TACTICAL).moves) | set(random_game(4, Variant.BASE).moves)
)
GAME = Game(Variant.TACTICAL, seed=4)

card_texts = st.sampled_from(CARDS).flatmap(mutated_text) | st.text(max_size=20)
move_texts = (
    st.sampled_from(MOVES).flatmap(mutated_text)
    | st.text(max_size=30)
    | st.builds(lambda a, b: f"play {a} at {b}", st.sampled_from(CARDS), st.sampled_from(SNIPPETS))
)


@settings(max_examples=examples(200), deadline=None)
@given(card_texts)
def test_fuzz_card_is_read_back_or_refused(text: str) -> None:
    try:
        card = parse_card(text)
    except InvalidNotationError as error:
        assert len(str(error)) < 1000
        return
    assert parse_card(str(card)) == card
    # Only ASCII digits and the project's words make a card.
    assert " ".join(text.lower().split()) == str(card)


@settings(max_examples=examples(200), deadline=None)
@given(move_texts)
def test_fuzz_move_is_read_back_or_refused(text: str) -> None:
    try:
        move = Move.parse(text)
    except InvalidNotationError as error:
        assert len(str(error)) < 2000
        assert not GAME.can_move(text)
        return
    assert Move.parse(str(move)) == move
    assert GAME.can_move(text) in (True, False)
