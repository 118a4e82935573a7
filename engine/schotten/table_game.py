"""A whole game against the computer, as the « Jouer » page plays it: JSON in, JSON out.

The page's worker (Pyodide) keeps one :class:`Session` and hands it requests as JSON text
(:meth:`Session.handle`); every answer is JSON-ready data the page only draws. The person plays
:attr:`YOU` (the first player of the deal), the computer :attr:`COMPUTER`, whose every move is
:func:`schotten.bot.choose_move`. Nothing about legality is decided here or in the page: the
moves offered are :meth:`~schotten.game.Game.legal_moves`, every move is checked by
:meth:`~schotten.game.Game.apply`, and every verdict is :func:`schotten.claims.judge_stone`.

>>> session = Session()
>>> view = session.answer({"op": "new", "variant": "base", "seed": 4})["view"]
>>> view["phase"], view["to_move"], len(view["hand"]), view["decks"]
('play', 'you', 6, {'clan': 42, 'tactic': 0})
>>> move = view["moves"][0]["text"]
>>> session.answer({"op": "move", "move": move})["view"]["phase"]
'claim'

A claim the person tries on a stone that is not proven is judged, not played: the answer is the
verdict (with the witness, the cards that could still beat it) and the game does not move.

>>> verdict = session.answer({"op": "judge", "stone": 1})["verdict"]
>>> verdict["granted"], verdict["reason"]
(False, 'side-incomplete')

Undo goes back to the person's last decision, taking back the computer's answer too, but never
past a move that drew a card (the next card of a deck would be known):

>>> session.answer({"op": "undo"})["view"]["phase"]
'play'
>>> session.answer({"op": "undo"})["ok"], session.answer({"op": "bad"})["error"]
(False, 'bad-request')
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from schotten import bot, json_input
from schotten.board import Player, Stone, Variant
from schotten.cards import Card
from schotten.checker import CheckerPosition, verdict_answer
from schotten.claims import StoneVerdict, judge_claim, judge_stone
from schotten.errors import IllegalActionError, InvalidNotationError, SchottenError
from schotten.game import Game, Phase
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
from schotten.records import Record

YOU = Player.FIRST
COMPUTER = Player.SECOND
MAX_SEED = 2**53 - 1  # a seed the page's address and JavaScript numbers keep exactly
MAX_REQUEST = 4 * 1024 * 1024  # characters: a record of the longest game is far shorter
_WHO = {YOU: "you", COMPUTER: "computer"}


def move_data(move: Move) -> dict[str, Any]:
    """A move as the page reads it: its notation, its kind and the choices it is made of.

    ``hand_card`` is the card of the hand the move plays (``None`` for a pass, a claim, a draw
    and the Recruiter's return), so that the page offers a card's moves once it is tapped.

    >>> move_data(Move.parse("play strategist: red 3 from 2 to discard"))["target"] is None
    True
    """
    data: dict[str, Any] = {"text": str(move), "kind": type(move).kind, "hand_card": None}
    match move:
        case Play(card=card, stone=stone):
            data |= {"hand_card": str(card), "card": str(card), "stone": stone}
        case Strategist(card=card, source=source, target=target):
            data |= {"hand_card": "strategist", "card": str(card), "source": source}
            data["target"] = target
        case Traitor(card=card, source=source, target=target):
            data |= {"hand_card": "traitor", "card": str(card), "source": source}
            data["target"] = target
        case Banshee(card=card, stone=stone):
            data |= {"hand_card": "banshee", "card": str(card), "stone": stone}
        case Recruiter(decks=decks):
            data |= {"hand_card": "recruiter", "decks": [str(d) for d in decks]}
        case Return(cards=cards):
            data["cards"] = [str(c) for c in cards]
        case Claim(stones=stones):
            data["stones"] = list(stones)
        case Draw(deck=deck):
            data["deck"] = str(deck)
        case Pass():
            pass
    return data


def verdict_data(game: Game, claimer: Player, verdict: StoneVerdict) -> dict[str, Any]:
    """One stone's verdict for ``claimer``, in the claim checker's answer format (the page words
    it with the checker's sentences): both formations, each side, the witness if refused."""
    stone = game.board.stone(verdict.stone)
    position = CheckerPosition(
        game.variant,
        stone.side(claimer).cards,
        stone.side(claimer.other).cards,
        (),
        (),
        stone.mud_fight is not None,
        stone.blind_mans_bluff is not None,
        stone.completed_first() is not claimer.other,
    )
    return {"stone": verdict.stone, **verdict_answer(verdict, position)}


@dataclass(frozen=True)
class Event:
    """One move of the game as the page's log shows it: who made it, the move, and for a claim
    each stone's verdict (the proof the person can open). The computer's drawn cards are not
    told; the person's are."""

    player: Player
    move: Move
    drawn: tuple[Card, ...]
    verdicts: tuple[dict[str, Any], ...]

    def data(self) -> dict[str, Any]:
        seen = self.player is YOU
        return {
            "player": _WHO[self.player],
            "move": move_data(self.move),
            "drawn": [str(c) for c in self.drawn] if seen else len(self.drawn),
            "verdicts": list(self.verdicts),
        }


class TableGame:
    """A game of the person (:data:`YOU`) against the computer, with its log and its undo.

    ``seed`` deals the cards (``Game(variant, seed=seed)``) and, with the number of the move,
    seeds each of the computer's choices: the same deal and the same moves of the person give
    the same game again.
    """

    def __init__(self, variant: Variant, seed: int) -> None:
        self.variant = variant
        self.seed = seed
        self.game = Game(variant, seed=seed, first=YOU)
        self.events: list[Event] = []
        # The phase before each move of the history: undo stops at the person's decisions.
        self.phases: list[Phase] = []

    @classmethod
    def from_record(cls, record: Record) -> TableGame:
        """The game of a record of this page (a deal, the person first), every move checked."""
        if record.seed is None or record.first is not YOU:
            raise InvalidNotationError("a game of this page starts from a deal, you first")
        if not 0 <= record.seed <= MAX_SEED:
            raise InvalidNotationError(f"the seed is a whole number from 0 to {MAX_SEED}")
        table = cls(record.variant, record.seed)
        for number, text in enumerate(record.moves, 1):
            try:
                table.play(Move.parse(text))
            except (IllegalActionError, InvalidNotationError) as error:
                raise InvalidNotationError(f"move {number} ({text!r}): {error}") from None
        return table

    def record(self) -> Record:
        return Record.from_game(self.game)

    # -- moves ----------------------------------------------------------------------------------

    def play(self, move: Move) -> Event:
        """Check and play the move of whoever is to move; claims keep their verdicts."""
        game = self.game
        player, phase = game.to_move, game.phase
        game.verify_move(move)
        verdicts: tuple[dict[str, Any], ...] = ()
        if isinstance(move, Claim) and move.stones:
            judged = judge_claim(game.board, player, move.stones)
            verdicts = tuple(verdict_data(game, player, v) for v in judged)
        game.push(move)
        event = Event(player, move, game.history[-1].drawn, verdicts)
        self.events.append(event)
        self.phases.append(phase)
        return event

    def computer_move(self) -> Event:
        """The computer's next move (one step of its turn), chosen by :func:`bot.choose_move`."""
        seed = (self.seed * 1_000_003 + len(self.game.history)) % 2**63
        return self.play(bot.choose_move(self.game.copy(), seed=seed))

    def undo_point(self) -> int | None:
        """How many moves the game keeps after an undo, or ``None`` when there is nothing to undo.

        The point is the person's latest decision that no card was drawn since: the start of
        their latest turn if they can go back that far, else their latest step.
        """
        history = self.game.history
        start = len(history)
        while start > 0 and not history[start - 1].drawn:
            start -= 1
        mine = [i for i in range(start, len(history)) if history[i].player is YOU]
        if not mine:
            return None
        starts = [i for i in mine if self.phases[i] is Phase.PLAY]
        return starts[-1] if starts else mine[-1]

    def undo(self) -> bool:
        point = self.undo_point()
        if point is None:
            return False
        while len(self.game.history) > point:
            self.game.pop()
            self.events.pop()
            self.phases.pop()
        return True

    # -- what the page shows ----------------------------------------------------------------

    def judge(self, number: int) -> dict[str, Any]:
        """The verdict if the person claimed stone ``number`` now (whatever the step)."""
        return verdict_data(self.game, YOU, judge_stone(self.game.board, YOU, number))

    def view(self) -> dict[str, Any]:
        """The table as the person sees it (never the computer's hand) and their legal moves."""
        game = self.game
        board = game.board
        mine = game.to_move is YOU and game.outcome is None
        moves = game.legal_moves() if mine else []
        outcome = game.outcome
        return {
            "variant": str(self.variant),
            "seed": self.seed,
            "phase": str(game.phase),
            "to_move": _WHO[game.to_move],
            "stones": [_stone_data(stone) for stone in board.stones],
            "hand": [str(c) for c in game.hand(YOU)],
            "computer_hand": len(game.hand(COMPUTER)),
            "decks": {str(d): len(game.deck(d)) for d in Deck},
            "held": {_WHO[p]: list(board.stones_held(p)) for p in (YOU, COMPUTER)},
            "discard": {_WHO[p]: [str(c) for c in board.discard[p]] for p in (YOU, COMPUTER)},
            "tactics_played": {_WHO[p]: game.tactics_played(p) for p in (YOU, COMPUTER)},
            # At the claim step the moves are every set of the provable stones: the stones alone.
            "moves": [move_data(m) for m in moves if not isinstance(m, Claim)],
            "provable": list(game.provable_stones(YOU)) if mine else [],
            "moves_played": len(game.history),
            "can_undo": self.undo_point() is not None,
            "outcome": None
            if outcome is None
            else {
                "winner": None if outcome.winner is None else _WHO[outcome.winner],
                "termination": str(outcome.termination),
            },
        }

    def log(self) -> list[dict[str, Any]]:
        """Every move of the game so far, as :meth:`Event.data` gives it."""
        return [event.data() for event in self.events]


def _stone_data(stone: Stone) -> dict[str, Any]:
    return {
        "number": stone.number,
        "you": [str(c) for c in stone.side(YOU).cards],
        "computer": [str(c) for c in stone.side(COMPUTER).cards],
        "claimed_by": None if stone.claimed_by is None else _WHO[stone.claimed_by],
        "mud_fight": stone.mud_fight is not None,
        "blind_mans_bluff": stone.blind_mans_bluff is not None,
        "capacity": stone.capacity,
    }


class RequestError(SchottenError):
    """A request the session cannot answer; the page words ``code``."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(detail or code)
        self.code = code
        self.detail = detail


class Session:
    """The page's one game, kept in the worker between requests (see :meth:`answer`)."""

    def __init__(self) -> None:
        self.table: TableGame | None = None

    def handle(self, request_json: str) -> str:
        """The worker's one call: a JSON request in, a JSON answer out; it never raises (an
        exception could stop the runtime in the browser)."""
        try:
            if not isinstance(request_json, str) or len(request_json) > MAX_REQUEST:
                detail = "a request is JSON text of at most 4 MB"
                answer = {"ok": False, "error": "bad-request", "detail": detail}
            else:
                answer = self.answer(json_input.loads(request_json, MAX_REQUEST))
        except json_input.JsonInputError as error:
            answer = {"ok": False, "error": "bad-request", "detail": f"not JSON: {error}"}
        except Exception as error:  # a bug of the engine: answered, never thrown at the page
            detail = f"{type(error).__name__}: {error}"[:300]
            answer = {"ok": False, "error": "internal-error", "detail": detail}
        return json.dumps(answer, ensure_ascii=False)

    def answer(self, request: Any) -> dict[str, Any]:
        """:meth:`handle` on decoded JSON. Requests (``op``):

        ``new`` (``variant``, ``seed``), ``load`` (``record``: a record's JSON text), ``move``
        (``move``: the person's move in notation), ``computer`` (the computer's next step),
        ``judge`` (``stone``), ``undo``, ``record``, ``view``. Every answer but ``judge`` and
        ``record`` carries the view; ``move`` and ``computer`` add the move made (``event``), the
        others the whole log (``log``).
        """
        try:
            return self._answer(request)
        except RequestError as error:
            return {"ok": False, "error": error.code, "detail": error.detail}
        except (IllegalActionError, InvalidNotationError) as error:
            return {"ok": False, "error": "refused", "detail": str(error)}

    def _answer(self, request: Any) -> dict[str, Any]:
        if not isinstance(request, dict) or not isinstance(request.get("op"), str):
            raise RequestError("bad-request", 'a request is an object with an "op"')
        op = request["op"]
        if op == "new":
            variant = _variant(request.get("variant"))
            seed: Any = request.get("seed")
            if not _is_seed(seed):
                raise RequestError("bad-request", f"the seed is a whole number up to {MAX_SEED}")
            self.table = TableGame(variant, seed)
            return self._viewed(logged=True)
        if op == "load":
            text = request.get("record")
            if not isinstance(text, str):
                raise RequestError("bad-request", '"record" is a record\'s JSON text')
            self.table = TableGame.from_record(Record.loads(text))
            return self._viewed(logged=True)
        table = self._table()
        game = table.game
        if op == "view":
            return self._viewed(logged=True)
        if op == "move":
            text = request.get("move")
            if not isinstance(text, str):
                raise RequestError("bad-request", '"move" is a move in notation')
            if game.outcome is not None or game.to_move is not YOU:
                raise RequestError("not-your-turn")
            event = table.play(Move.parse(text))
            return self._viewed(event)
        if op == "computer":
            if game.outcome is not None or game.to_move is not COMPUTER:
                raise RequestError("not-computer-turn")
            return self._viewed(table.computer_move())
        if op == "judge":
            stone = request.get("stone")
            if not isinstance(stone, int) or isinstance(stone, bool) or not 1 <= stone <= 9:
                raise RequestError("bad-request", "a stone is numbered 1 to 9")
            return {"ok": True, "verdict": table.judge(stone)}
        if op == "undo":
            if not table.undo():
                raise RequestError("nothing-to-undo")
            return self._viewed(logged=True)
        if op == "record":
            return {"ok": True, "record": table.record().dumps()}
        raise RequestError("bad-request", f"unknown op {op!r}")

    def _table(self) -> TableGame:
        if self.table is None:
            raise RequestError("no-game", "start a game first (op new or load)")
        return self.table

    def _viewed(self, event: Event | None = None, *, logged: bool = False) -> dict[str, Any]:
        """The view, with the move just made (``event``) or the whole log (``logged``: the page
        draws it anew)."""
        table = self._table()
        answer: dict[str, Any] = {"ok": True, "view": table.view()}
        if event is not None:
            answer["event"] = event.data()
        if logged:
            answer["log"] = table.log()
        return answer


def _variant(value: Any) -> Variant:
    if value not in ("base", "tactical"):
        raise RequestError("bad-request", "variant is 'base' or 'tactical'")
    return Variant(value)


def _is_seed(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_SEED
