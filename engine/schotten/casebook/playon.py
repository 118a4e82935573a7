"""Play-on: a case's moves played by the game engine from the case's position.

The position becomes a :class:`~schotten.game.Game` with ``Game.from_position`` (both hands as
listed, the decks from :func:`~schotten.game.fill_decks` with the case's tops), ``you`` to move at
the case's ``start`` step. Each move is applied; a move the rules forbid is recorded as
``illegal <rule>`` and the game goes on from the same state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from schotten.board import Board, Player
from schotten.cards import Card
from schotten.casebook.model import NAME_OF, ExpectedPlayOn
from schotten.errors import IllegalActionError, SchottenError
from schotten.game import Game, Phase, fill_decks
from schotten.match import round_points
from schotten.moves import Deck, Move
from schotten.refusals import refusal_id


class PlayOnError(SchottenError, ValueError):
    """The play-on cannot be run as written: ``move`` is the index of the move at fault."""

    def __init__(self, move: int, message: str) -> None:
        super().__init__(message)
        self.move = move


def start_game(
    board: Board,
    hands: tuple[Sequence[Card], Sequence[Card]],
    tops: tuple[Sequence[Card], Sequence[Card]],
    start: str,
) -> Game:
    """The game at ``you``'s ``start`` step (raises ``InvalidPositionError`` naming problems)."""
    decks = fill_decks(board, hands, {Deck.CLAN: tops[0], Deck.TACTIC: tops[1]})
    return Game.from_position(board, hands, decks, to_move=Player.FIRST, phase=Phase(start))


@dataclass(frozen=True)
class Answer:
    """The engine's answer to a case's question: the move asked about, the engine's step on it
    (``ok`` or ``illegal <id>``), and where the game stands right after it."""

    player: Player
    move: Move
    step: str
    game: str  # ongoing | won-by-you | won-by-opponent | draw
    termination: str | None

    @property
    def accepted(self) -> bool:
        return self.step == "ok"


def play_on(game: Game, moves: Sequence[tuple[Player, Move]]) -> ExpectedPlayOn:
    """Apply the moves, the results in the shape ``expect.play_on`` records them; raises
    :class:`PlayOnError` when a move names the wrong mover."""
    return played(game, moves, None)[0]


def played(
    game: Game, moves: Sequence[tuple[Player, Move]], question: int | None
) -> tuple[ExpectedPlayOn, Answer | None]:
    """:func:`play_on`, with the engine's :class:`Answer` to the move of index ``question``."""
    steps: list[str] = []
    answer = None
    for i, (player, move) in enumerate(moves):
        if game.outcome is None and game.to_move is not player:
            mover = NAME_OF[game.to_move]
            raise PlayOnError(
                i,
                f"{NAME_OF[player]} is not to move: this is the {game.phase} step of {mover} "
                f"(write '{mover}: {move}', or fix the moves before it)",
            )
        try:
            game.apply(move)
        except IllegalActionError as error:
            steps.append(f"illegal {refusal_id(error)}")
        else:
            steps.append("ok")
        if i == question:
            end = str(game.outcome.termination) if game.outcome is not None else None
            answer = Answer(player, move, steps[-1], game_state(game), end)
    expected = ExpectedPlayOn(
        tuple(steps),
        game_state(game),
        (game.stones_held(Player.FIRST), game.stones_held(Player.SECOND)),
        str(game.outcome.termination) if game.outcome is not None else None,
        round_points(game) if game.outcome is not None else None,
    )
    return expected, answer


def game_state(game: Game) -> str:
    """``ongoing``, ``won-by-you``, ``won-by-opponent`` or ``draw``."""
    if game.outcome is None:
        return "ongoing"
    if game.outcome.winner is None:
        return "draw"
    return f"won-by-{NAME_OF[game.outcome.winner]}"
