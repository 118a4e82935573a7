"""Whether a position can occur in a game: the one place that decides it.

:func:`position_problems` lists every reason a position (a table, and the hands, decks and turn
of a game) cannot occur, as :class:`Problem` values: a code, the place at fault (stone, player,
index of the card on its side or in its pile) and the rule, with a sentence in the engine's
words. Each front end says them its own way: :meth:`schotten.game.Game.from_position` joins the
sentences into :class:`~schotten.errors.InvalidPositionError`, the casebook locates them in the
case file (``stones.4.you[2]``, file:line:column), the in-page checker maps the codes to its own
error codes.

>>> from schotten.cards import parse_card
>>> board = Board.empty(Variant.BASE).place(Player.FIRST, 4, parse_card("red 7"), at=0)
>>> board = board.place(Player.SECOND, 4, parse_card("red 7"), at=1)
>>> [(p.code, p.cards, str(p)) for p in table_problems(board)]
[('card-twice', (ClanCard.parse('red 7'),), 'red 7 is on the table 2 times (the game has 1)')]

Two checks look at how a game gets to a position (:func:`reach_problems`): a claimed stone its
taker could not have proven, because the other side is complete and beats it (or ties it and was
completed first); and cards placed in numbers that turns taken in alternation cannot give, even
with passes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from schotten import tactics
from schotten.board import STONES, Board, Player, Stone, Variant
from schotten.cards import CLAN_CARDS, TACTIC_CARDS, Card, ClanCard, Tactic, TacticKind
from schotten.claims import describe, side_formation
from schotten.errors import InvalidPositionError
from schotten.moves import Deck
from schotten.outcome import Outcome, Termination, winning_condition
from schotten.rules import Rule
from schotten.tactics import distinct
from schotten.turn import Phase

#: Player words in the sentences, when a front end gives none.
ENGINE_NAMES: Mapping[Player, str] = {p: str(p) for p in Player}


@dataclass(frozen=True)
class Problem:
    """One reason a position cannot occur.

    ``stone``, ``player`` and ``index`` say where, as far as the problem has a place: a side is
    (``stone``, ``player``), a card on it adds its ``index``; a card of a discard pile has a
    ``player`` and an ``index`` but no ``stone``. ``cards`` are the cards at fault.
    """

    code: str
    message: str
    rule: Rule | None = None
    stone: int | None = None
    player: Player | None = None
    index: int | None = None
    cards: tuple[Card, ...] = ()

    def __str__(self) -> str:
        return self.message


def check_table(board: Board) -> None:
    """Raise :class:`InvalidPositionError` if the table cannot occur (:func:`table_problems`)."""
    problems = [str(p) for p in table_problems(board)]
    if problems:
        raise InvalidPositionError("; ".join(problems))


def position_problems(
    board: Board,
    hands: Sequence[Sequence[Card]],
    decks: Mapping[Deck, Sequence[Card]],
    *,
    to_move: Player = Player.FIRST,
    phase: Phase = Phase.PLAY,
    step: int | None = None,
    recruited: bool = False,
    outcome: Outcome | None = None,
) -> list[Problem]:
    """Every problem of a whole game position: the table, the hands and decks (every card
    once), the turn and the outcome. ``step`` ``None``: not checked.

    How a game got there (:func:`reach_problems`) is not asked: a game may be set up from any
    table that the rules allow, to study it; a published ruling must be reachable, and the
    casebook asks it too."""
    problems = list(table_problems(board))
    problems += _card_problems(board, hands, decks, phase, to_move)
    if step is not None:
        problems += _step_problems(board, step)
    problems += _turn_problems(board, to_move, phase, recruited)
    problems += outcome_problems(board, outcome)
    return problems


# -- the table --------------------------------------------------------------------------------


def table_problems(board: Board, names: Mapping[Player, str] = ENGINE_NAMES) -> Iterator[Problem]:
    """Every reason the face-up table alone cannot occur: cards too often, tactic cards in the
    base game, sides over capacity or holding what is not placed there, completion times,
    discarded combat modes, a second Joker, a lead of tactic cards played."""
    if len(board.stones) != 9 or [s.number for s in board.stones] != list(STONES):
        yield Problem("stones", "a board has the nine stones numbered 1 to 9")
        return
    counts = Counter(board.visible())
    for card, n in sorted(counts.items(), key=lambda kv: str(kv[0])):
        most = card.copies if isinstance(card, Tactic) else 1
        if n > most:
            message = f"{card} is on the table {n} times (the game has {most})"
            yield Problem("card-twice", message, cards=(card,))
    if board.variant is Variant.BASE:
        found = sorted({c for c in counts if isinstance(c, Tactic)}, key=str)
        if found:
            message = f"tactic cards in the base game: {', '.join(map(str, found))}"
            yield Problem("tactic-in-base-game", message, cards=tuple(found))
    for stone in board.stones:
        yield from _stone_problems(stone, names)
    for player in Player:
        for index, card in enumerate(board.discard[player]):
            if isinstance(card, Tactic) and card.kind is TacticKind.COMBAT_MODE:
                message = f"{card} is never discarded: combat modes stay on their stone"
                yield Problem(
                    "combat-mode-discarded", message, Rule.COMBAT_MODE, None, player, index, (card,)
                )
        jokers = sum(1 for p, c in board.placed() if p is player and c is Tactic.JOKER)
        jokers += board.discard[player].count(Tactic.JOKER)
        if jokers > 1:
            message = f"{names[player]} has played {jokers} Jokers (one per player over the game)"
            yield Problem(
                "joker-once", message, Rule.JOKER_ONCE, player=player, cards=(Tactic.JOKER,)
            )
    played = [board.tactics_played(p) for p in Player]
    if abs(played[0] - played[1]) > 1:
        message = (
            f"tactic cards played {played[0]} against {played[1]}: one player may lead by one "
            "at most"
        )
        yield Problem("tactic-count", message, Rule.TACTIC_COUNT)


def _stone_problems(stone: Stone, names: Mapping[Player, str]) -> Iterator[Problem]:
    where = f"stone {stone.number}"
    n = stone.number
    for player in Player:
        side = stone.sides[player]
        if len(side.cards) > stone.capacity:
            held = len(side.cards)
            message = (
                f"{where}: {names[player]}'s side holds {held} cards (at most {stone.capacity})"
            )
            yield Problem("side-over-capacity", message, Rule.PLAY_CAPACITY, n, player)
        for index, card in enumerate(side.cards):
            if isinstance(card, Tactic) and card.kind is not TacticKind.ELITE_TROOP:
                message = f"{where}: {card} is not placed on a side"
                yield Problem("not-on-a-side", message, None, n, player, index, (card,))
        complete = len(side.cards) >= stone.capacity
        if complete and side.completed_at is None:
            message = f"{where}: {names[player]}'s side is complete but has no completion time"
            yield Problem("completion-time", message, Rule.COMPLETED_FIRST, n, player)
        if not complete and side.completed_at is not None:
            message = f"{where}: {names[player]}'s side is incomplete but has a completion time"
            yield Problem("completion-time", message, Rule.COMPLETED_FIRST, n, player)
    a, b = (s.completed_at for s in stone.sides)
    if a is not None and a == b:
        message = f"{where}: both sides cannot be completed at the same step"
        yield Problem("completion-time", message, Rule.COMPLETED_FIRST, n)


# -- how a game reaches the table ---------------------------------------------------------------


def reach_problems(board: Board, names: Mapping[Player, str] = ENGINE_NAMES) -> Iterator[Problem]:
    """What no game reaches, whatever was played: a claim that could not have been proven, and
    counts of cards placed that turns in alternation cannot give (passes included). Only for a
    table without :func:`table_problems` (they are not looked for otherwise)."""
    if next(table_problems(board), None) is not None:
        return
    for stone in board.stones:
        problem = _unproven_claim(stone, names)
        if problem is not None:
            yield problem
    for player in Player:
        problem = _count_problem(board, player, names)
        if problem is not None:
            yield problem


def _unproven_claim(stone: Stone, names: Mapping[Player, str]) -> Problem | None:
    """A stone held by a player whose complete side the other complete side beats, or ties
    having been completed first: once a stone is claimed no card is added or taken there, so
    both sides were so at the claim, and the claim was refused (rule ``claim-proof``)."""
    taker = stone.claimed_by
    if taker is None:
        return None
    mine, theirs = side_formation(stone, taker), side_formation(stone, taker.other)
    if mine is None or theirs is None:
        return None
    if theirs > mine:
        why = f"the other side's {describe(theirs)} beats it"
    elif theirs == mine and stone.completed_first() is taker.other:
        why = f"the other side ties it ({describe(theirs)}) and was completed first"
    else:
        return None
    message = (
        f"stone {stone.number} is claimed by {names[taker]}, whose side makes {describe(mine)}, "
        f"but {why}: no claim of this stone could have been granted ({Rule.CLAIM_PROOF})"
    )
    return Problem("claim-unproven", message, Rule.CLAIM_PROOF, stone.number, taker)


def _count_problem(board: Board, behind: Player, names: Mapping[Player, str]) -> Problem | None:
    """Turns alternate and each turn plays one card or passes, so a player who has put far fewer
    cards into play than the other has passed; a pass needs a hand without a Clan card that can
    be placed (site ruling ``pass``). ``behind`` could not have passed when they never had room
    on no stone and never lacked Clan cards in hand.

    Counts are bounds: a Traitor moves a card from one side to the other, a Recruiter returns two
    cards, a claimed stone shown without its cards hides what was placed there."""
    ahead = behind.other
    traitors = [board.discard[p].count(Tactic.TRAITOR) for p in Player]
    hidden = [0, 0]  # cards a claimed stone shown bare may hide, per side
    for stone in board.stones:
        if stone.claimed_by is not None and not any(s.cards for s in stone.sides):
            hidden = [h + stone.capacity for h in hidden]
    put = [_put_into_play(board, p) for p in Player]
    at_least = put[ahead] - traitors[ahead]
    at_most = put[behind] + traitors[ahead] + hidden[behind]
    passes = at_least - 1 - at_most
    if passes < 1:
        return None
    # No room at a pass: every stone open then (every stone open now, at least) was full on their
    # side; they never held that many cards there.
    open_now = sum(1 for s in board.stones if s.claimed_by is None)
    if at_most + traitors[behind] >= 3 * open_now:
        return None
    # No Clan card in hand: the dealt ones all played or returned by a Recruiter; in the base game
    # an empty hand, so an empty deck: every card out of it.
    recruiters = board.discard[behind].count(Tactic.RECRUITER)
    size = board.variant.hand_size
    if at_most + 2 * recruiters >= size:
        if board.variant is Variant.TACTICAL:
            return None
        on_table = sum(put) + sum(hidden)
        if on_table >= len(CLAN_CARDS) - size:
            return None
    times = "once" if passes == 1 else f"{passes} times"
    message = (
        f"cards put into play: {names[ahead]} {put[ahead]}, {names[behind]} {put[behind]}; turns "
        f"alternate, so {names[behind]} passed at least {times}, but a pass needs a hand "
        f"without a Clan card that can be placed, and {names[behind]} never lacked Clan cards in "
        f"hand ({size} dealt) nor room on the open stones: no game reaches these counts "
        f"({Rule.PASS})"
    )
    return Problem("card-count", message, Rule.PASS, player=behind)


def _put_into_play(board: Board, player: Player) -> int:
    """Cards on ``player``'s sides, combat modes they played and their discard pile."""
    count = sum(1 for p, _ in board.placed() if p is player)
    count += sum(1 for s in board.stones for m in (s.mud_fight, s.blind_mans_bluff) if m is player)
    return count + len(board.discard[player])


# -- hands, decks, turn, outcome -----------------------------------------------------------------


def all_cards(variant: Variant) -> Counter[Card]:
    """Every card of a game of ``variant``, with its copies."""
    cards: Counter[Card] = Counter(CLAN_CARDS)
    if variant is Variant.TACTICAL:
        cards.update(TACTIC_CARDS)
    return cards


def fill_decks(
    board: Board,
    hands: Sequence[Iterable[Card]],
    tops: Mapping[Deck, Sequence[Card]] | None = None,
) -> dict[Deck, tuple[Card, ...]]:
    """The decks of a position: the given ``tops`` (first drawn first), then every other card of
    the deck's kind not on the table, in the discard pile or in a hand, in the engine's card order
    (Clan: red 1 ... purple 9; Tactic: ``TACTIC_CARDS``).

    >>> from schotten.cards import format_cards
    >>> board = Board.empty(Variant.TACTICAL)
    >>> decks = fill_decks(board, [[], []], {Deck.TACTIC: [Tactic.TRAITOR]})
    >>> format_cards(decks[Deck.TACTIC][:3])
    'traitor, joker, joker'
    """
    tops = tops or {}
    accounted = Counter(board.visible())
    for hand in hands:
        accounted.update(hand)
    for cards in tops.values():
        accounted.update(cards)
    # A card accounted for too often is left to the position's own check, which names it.
    rest = all_cards(board.variant) - accounted
    decks: dict[Deck, tuple[Card, ...]] = {}
    orders: tuple[tuple[Deck, tuple[Card, ...]], ...] = (
        (Deck.CLAN, CLAN_CARDS),
        (Deck.TACTIC, TACTIC_CARDS),
    )
    for deck, order in orders:
        below = [c for c in distinct(order) for _ in range(rest[c])]
        decks[deck] = (*tops.get(deck, ()), *below)
    return decks


def _card_problems(
    board: Board,
    hands: Sequence[Sequence[Card]],
    decks: Mapping[Deck, Sequence[Card]],
    phase: Phase,
    to_move: Player,
) -> Iterator[Problem]:
    variant = board.variant
    clan, tactic = decks.get(Deck.CLAN, ()), decks.get(Deck.TACTIC, ())
    if variant is Variant.BASE and any(board.discard):
        yield Problem(
            "discard-in-base-game", "the base game has no discard pile (only ruses discard cards)"
        )
    for player, hand in zip(Player, hands, strict=True):
        # The Recruiter raises the mover's hand by two until the return step.
        limit = variant.hand_size + (2 if phase is Phase.RETURN and player is to_move else 0)
        if len(hand) > limit:
            message = f"{player}'s hand holds {len(hand)} cards (at most {limit})"
            yield Problem("hand-size", message, Rule.HAND_SIZE, player=player)
    for index, card in enumerate(clan):
        if not isinstance(card, ClanCard):
            yield Problem("wrong-deck", f"{card} is in the Clan deck", index=index, cards=(card,))
    for index, card in enumerate(tactic):
        if isinstance(card, ClanCard):
            yield Problem("wrong-deck", f"{card} is in the Tactic deck", index=index, cards=(card,))
    places: dict[Card, list[str]] = {}
    for card in board.visible():
        places.setdefault(card, []).append("on the table")
    for player, hand in zip(Player, hands, strict=True):
        for card in hand:
            places.setdefault(card, []).append(f"in {player}'s hand")
    for name, deck in (("Clan", clan), ("Tactic", tactic)):
        for card in deck:
            places.setdefault(card, []).append(f"in the {name} deck")
    everything = all_cards(variant)
    for card in distinct([*everything, *places]):
        where = places.get(card, [])
        copies = everything[card]
        hidden = any(not w.startswith("on the table") for w in where)
        if isinstance(card, Tactic) and variant is Variant.BASE:
            if hidden:
                message = f"{card} in the base game ({', '.join(where)})"
                yield Problem("tactic-in-base-game", message, cards=(card,))
        elif not where:
            message = f"{card} is missing (not on the table, in a hand or in a deck)"
            yield Problem("card-missing", message, cards=(card,))
        elif len(where) > copies and hidden:
            times = "twice" if len(where) == 2 else f"{len(where)} times"
            message = f"{card} is in the game {times} ({', '.join(distinct(where))})"
            yield Problem("card-twice", message, cards=(card,))
        elif len(where) < copies:
            message = f"{card} is in the game {len(where)} times, not {copies}"
            yield Problem("card-missing", message, cards=(card,))


def _step_problems(board: Board, step: int) -> Iterator[Problem]:
    late = [
        f"stone {st.number}"
        for st in board.stones
        for s in st.sides
        if s.completed_at is not None and s.completed_at >= step
    ]
    if late:
        message = f"step {step} is not after the completion times of {', '.join(late)}"
        yield Problem("completion-time", message, Rule.COMPLETED_FIRST)


def _turn_problems(
    board: Board, to_move: Player, phase: Phase, recruited: bool
) -> Iterator[Problem]:
    if recruited and phase in (Phase.PLAY, Phase.DRAW):
        message = (
            f"a Recruiter played this turn, but the turn is at its {phase} step "
            "(no normal draw after a Recruiter)"
        )
        yield Problem("recruiter", message, Rule.RECRUITER, player=to_move)
    if recruited or phase is Phase.RETURN:
        # Only a player who has just played the Recruiter can be at this point of a turn.
        why = tactics.recruiter_pending(board, to_move)
        if why is not None:
            where = "a Recruiter return step" if phase is Phase.RETURN else "recruited is true"
            message = f"[{Rule.RECRUITER}] {where}, but {why}"
            yield Problem("recruiter", message, Rule.RECRUITER, player=to_move)


def outcome_problems(
    board: Board, outcome: Outcome | None, names: Mapping[Player, str] = ENGINE_NAMES
) -> Iterator[Problem]:
    """The outcome against the stones held: a winning set ends the game at once (rule
    ``game-end``), a win needs its set, and the deadlock closing has its own verdict."""
    wins = {p: winning_condition(board, p) for p in Player}
    if outcome is None:
        for player, won in wins.items():
            if won is not None:
                held = ", ".join(map(str, board.stones_held(player)))
                message = (
                    f"{names[player]} holds stones {held} ({won}): the game is over, give its "
                    "outcome"
                )
                yield Problem("game-over", message, Rule.GAME_END, player=player)
    elif outcome.termination is not Termination.DEADLOCK:
        if outcome.winner is None or wins[outcome.winner] is None:
            yield Problem("outcome", f"outcome {outcome}: no such win on the board", Rule.GAME_END)
    else:
        # The closing's verdict: the one player who holds a winning set wins; else a draw.
        holders = [p for p, won in wins.items() if won is not None]
        winner = holders[0] if len(holders) == 1 else None
        if outcome.winner is not None and wins[outcome.winner] is None:
            message = f"outcome {outcome}: the winner does not hold a winning set of stones"
            yield Problem("outcome", message, Rule.GAME_END)
        elif outcome.winner != winner and winner is None:
            message = (
                f"[{Rule.DEADLOCK}] outcome {outcome}: both players hold a winning set: a draw"
            )
            yield Problem("outcome", message, Rule.DEADLOCK)
        elif outcome.winner != winner:
            assert winner is not None
            held = ", ".join(map(str, board.stones_held(winner)))
            message = (
                f"[{Rule.DEADLOCK}] outcome {outcome}: {winner} holds stones {held} "
                f"({wins[winner]}) and the other player no winning set: {winner} wins"
            )
            yield Problem("outcome", message, Rule.DEADLOCK)
