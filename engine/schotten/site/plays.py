"""The moves of a play-on case as the site shows them: who plays what, and what the engine said.

Each move reads as an infinitive after the player's name, so that one sentence serves both
players in either language (``Toi — poser le 7 rouge sur la Borne 3``), followed by the engine's
answer: accepted, or refused with the rule it names.

>>> from schotten.board import Player
>>> from schotten.moves import Move
>>> move_text(Player.FIRST, Move.parse("play banshee: green 7 at 8"), "fr")
'Toi — jouer la Banshee\\xa0: défausser le 7 vert de la Borne 8'
>>> step_text(Player.SECOND, Move.parse("claim 3 4"), "illegal claim-proof", "es")
'Tu oponente — conquistar las piedras 3 y 4 → rechazado (una conquista debe demostrarse)'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from schotten.board import Player
from schotten.cards import Tactic
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
from schotten.site import SiteCheckError, labels
from schotten.site.verified import card_with_article, cards_with_articles, joined

_WHO = {Player.FIRST: "you", Player.SECOND: "opponent"}


def move_text(player: Player, move: Move, lang: str) -> str:
    """``Toi — poser le 7 rouge sur la Borne 3``."""
    words = labels(lang)["moves"]
    return f"{words['who'][_WHO[player]]} — {_action(move, lang)}"


def step_text(player: Player, move: Move, step: str, lang: str) -> str:
    """The move and the engine's answer: ``… → accepté`` or ``… → refusé (the rule)``."""
    names = labels(lang)
    words = names["moves"]
    if step == "ok":
        return f"{move_text(player, move, lang)} → {words['accepted']}"
    rule = step.removeprefix("illegal ")
    if rule == step or rule not in names["rules"]:
        raise SiteCheckError(f"play-on step {step!r}: no rule label for it")
    return f"{move_text(player, move, lang)} → {words['refused']} ({names['rules'][rule]})"


def steps_summary(steps: Sequence[str], lang: str) -> str:
    """The table's cell for a play-on case: ``Coups acceptés : 3 sur 4``."""
    accepted = sum(1 for s in steps if s == "ok")
    return str(labels(lang)["moves"]["summary"]).format(accepted=accepted, moves=len(steps))


def outcome_text(
    game: str,
    held: tuple[Sequence[int], Sequence[int]],
    termination: str | None,
    points: tuple[int, int] | None,
    lang: str,
) -> list[str]:
    """Where the moves leave the game: its state, the stones each player holds, the points."""
    names = labels(lang)
    words = names["moves"]
    state = str(words["game"][game])
    if termination is not None:
        state += str(words["termination"][termination])
    lines = [state + "."]
    mine = joined([str(n) for n in held[0]], lang) or words["none"]
    theirs = joined([str(n) for n in held[1]], lang) or words["none"]
    lines.append(str(words["held"]).format(you=mine, opponent=theirs))
    if points is not None:
        lines.append(str(words["points"]).format(you=points[0], opponent=points[1]))
    return lines


def _action(move: Move, lang: str) -> str:
    words = labels(lang)["moves"]
    if isinstance(move, Play):
        # A combat mode is played on a stone; a Clan card or an elite troop is placed on a side.
        key = "play_mode" if isinstance(move.card, Tactic) and not move.card.values else "play"
        return str(words[key]).format(card=card_with_article(move.card, lang), stone=move.stone)
    if isinstance(move, Strategist):
        card = card_with_article(move.card, lang)
        if move.target is None:
            return str(words["strategist_discard"]).format(card=card, source=move.source)
        return str(words["strategist"]).format(card=card, source=move.source, target=move.target)
    if isinstance(move, Banshee):
        card = card_with_article(move.card, lang)
        return str(words["banshee"]).format(card=card, stone=move.stone)
    if isinstance(move, Traitor):
        card = card_with_article(move.card, lang)
        return str(words["traitor"]).format(card=card, source=move.source, target=move.target)
    if isinstance(move, Recruiter):
        counts = Counter(move.decks)
        decks = [
            str(words["deck_cards"][str(deck)][0 if counts[deck] == 1 else 1]).format(
                count=counts[deck]
            )
            for deck in Deck
            if counts[deck]
        ]
        return str(words["recruiter"]).format(decks=joined(decks, lang))
    if isinstance(move, Return):
        return str(words["return"]).format(cards=cards_with_articles(move.cards, lang))
    if isinstance(move, Pass):
        return str(words["pass"])
    if isinstance(move, Claim):
        if not move.stones:
            return str(words["claim_none"])
        key = "claim_one" if len(move.stones) == 1 else "claim_many"
        return str(words[key]).format(stones=joined([str(n) for n in move.stones], lang))
    if isinstance(move, Draw):
        return str(words["draw"][str(move.deck)])
    raise SiteCheckError(f"no words for the move {move}")
