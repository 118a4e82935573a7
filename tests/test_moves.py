"""Move notation: every kind of move reads and writes the brief's notation, round-trips, pastes
back from its repr, and anything else is refused saying what was expected."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from schotten.board import Variant
from schotten.cards import CLAN_CARDS, TACTIC_CARDS, ClanCard, Tactic, TacticKind
from schotten.errors import InvalidNotationError
from schotten.game import Game
from schotten.moves import (
    Banshee,
    Claim,
    Deck,
    Draw,
    Move,
    Pass,
    Play,
    Recruiter,
    Return,
    Strategist,
    Traitor,
)

NOTATION = [
    ("play red 7 at 4", Play(ClanCard.parse("red 7"), 4)),
    ("play joker at 1", Play(Tactic.JOKER, 1)),
    ("play mud-fight at 9", Play(Tactic.MUD_FIGHT, 9)),
    ("play blind-mans-bluff at 2", Play(Tactic.BLIND_MANS_BLUFF, 2)),
    ("play strategist: red 7 from 4 to 5", Strategist(ClanCard.parse("red 7"), 4, 5)),
    ("play strategist: spy from 4 to discard", Strategist(Tactic.SPY, 4, None)),
    ("play banshee: shield-bearer at 3", Banshee(Tactic.SHIELD_BEARER, 3)),
    ("play traitor: blue 3 from 2 to 2", Traitor(ClanCard.parse("blue 3"), 2, 2)),
    ("play recruiter: draw clan, clan, tactic", Recruiter((Deck.CLAN, Deck.CLAN, Deck.TACTIC))),
    ("play recruiter: draw tactic", Recruiter((Deck.TACTIC,))),
    ("return red 1, joker", Return((ClanCard.parse("red 1"), Tactic.JOKER))),
    ("pass", Pass()),
    ("claim 3", Claim((3,))),
    ("claim 1 5 9", Claim((1, 5, 9))),
    ("claim none", Claim()),
    ("draw clan", Draw(Deck.CLAN)),
    ("draw tactic", Draw(Deck.TACTIC)),
]


@pytest.mark.parametrize(("text", "move"), NOTATION)
def test_notation_reads_and_writes_every_kind_of_move(text: str, move: Move) -> None:
    assert Move.parse(text) == move
    assert str(move) == text
    assert eval(repr(move)) == move  # the repr pastes back
    assert repr(move) == f"Move.parse({text!r})"


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("  PLAY  Red 7   at 4 ", "play red 7 at 4"),
        ("play traitor:blue 3 from 2 to 2", "play traitor: blue 3 from 2 to 2"),
        ("claim 9 1", "claim 1 9"),
        ("play recruiter: draw tactic,clan", "play recruiter: draw clan, tactic"),
    ],
)
def test_notation_forgives_case_spaces_and_order(text: str, written: str) -> None:
    assert str(Move.parse(text)) == written


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("hello", "expected 'play <card> at <stone>', 'play strategist: ...'"),
        ("play red 7", "expected 'play <card> at <stone>'"),
        ("play red 7 at 10", "there is no stone 10: stones are numbered 1 to 9"),
        ("play pink 7 at 1", "'pink 7' is not a card"),
        ("play traitor at 3", "the Traitor is written 'play traitor: <card> from <stone> to"),
        ("play banshee: red 1", "the Banshee is written 'play banshee: <card> at <stone>'"),
        ("play strategist: red 1 from 2", "the Strategist is written"),
        ("play recruiter: draw clan, clan, clan, clan", "the Recruiter draws 1 to 3 cards, not 4"),
        ("play recruiter: draw hand", "'hand' is not a deck: expected 'clan' or 'tactic'"),
        ("return", "expected 'return <card>, <card>'"),
        ("return red 1, red 2, red 3", "the Recruiter returns 2 cards"),
        ("claim", "expected 'claim <stone> ...' or 'claim none'"),
        ("claim 3 3", "a stone is claimed twice"),
        ("claim 0", "there is no stone 0"),
        ("draw", "expected 'draw clan' or 'draw tactic'"),
        ("draw discard", "'discard' is not a deck"),
        ("pass 3", "expected 'pass'"),
    ],
)
def test_notation_refuses_anything_else_saying_what_was_expected(text: str, expected: str) -> None:
    with pytest.raises(InvalidNotationError) as info:
        Move.parse(text)
    assert expected in str(info.value)
    assert str(info.value).startswith(f"{text!r} is not a move")


def test_notation_a_kind_of_move_parses_only_its_kind() -> None:
    assert Claim.parse("claim 4") == Claim((4,))
    with pytest.raises(InvalidNotationError, match="'pass' is a pass, not a claim move"):
        Claim.parse("pass")


def test_notation_ruses_are_not_placed_at_a_stone() -> None:
    with pytest.raises(InvalidNotationError, match="the Strategist is written"):
        Play(Tactic.STRATEGIST, 3)


def test_moves_are_frozen_values() -> None:
    move = Move.parse("play red 7 at 4")
    with pytest.raises(AttributeError):
        move.stone = 5  # type: ignore[misc]
    assert len({move, Move.parse("play red 7 at 4")}) == 1


CARDS = st.sampled_from([*CLAN_CARDS, *TACTIC_CARDS])
ON_SIDE = st.sampled_from(
    [*CLAN_CARDS, *(t for t in TACTIC_CARDS if t.kind is TacticKind.ELITE_TROOP)]
)
PLACED = st.sampled_from([*CLAN_CARDS, *(t for t in Tactic if t.kind is not TacticKind.RUSE)])
STONE = st.integers(1, 9)
MOVES = st.one_of(
    st.builds(Play, PLACED, STONE),
    st.builds(Strategist, ON_SIDE, STONE, st.none() | STONE),
    st.builds(Banshee, ON_SIDE, STONE),
    st.builds(Traitor, st.sampled_from(CLAN_CARDS), STONE, STONE),
    st.builds(Recruiter, st.lists(st.sampled_from(Deck), min_size=1, max_size=3).map(tuple)),
    st.builds(Return, st.lists(CARDS, min_size=1, max_size=2).map(tuple)),
    st.just(Pass()),
    st.builds(Claim, st.sets(STONE, max_size=9).map(tuple)),
    st.builds(Draw, st.sampled_from(Deck)),
)


@given(MOVES)
def test_notation_round_trips(move: Move) -> None:
    assert Move.parse(str(move)) == move
    assert Move.parse(repr(move)[len("Move.parse('") : -2]) == move


# Regression: ``\d`` matched any Unicode digit and int() then raised a bare ValueError (or read
# it as the ASCII digit); a stone of thousands of digits hit int()'s length limit.
@pytest.mark.parametrize(
    "text",
    [
        "play red 3 at " + "5" * 5000,
        "play red 3 at ５",
        "play red 3 at ٣",
        "play red ² at 3",
        "claim ⑦",
        "claim ３",
        "claim 4 " + "9" * 5000,
        "play strategist: red 1 from 2 to " + "1" * 5000,
        "play traitor: red 1 from ２ to 2",
        "play banshee: red 1 at " + "4" * 5000,
        "play red 3 at 05",
    ],
)
def test_notation_numbers_are_ascii_digits_in_range(text: str) -> None:
    with pytest.raises(InvalidNotationError) as info:
        Move.parse(text)
    assert len(str(info.value)) < 600


def test_can_move_is_false_for_any_text() -> None:
    game = Game(Variant.BASE, seed=1)
    assert not game.can_move("play red 3 at " + "5" * 5000)
    assert not game.can_move("play red ² at 5")
    assert game.can_move("play red 3 at 5")
