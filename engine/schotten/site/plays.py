"""The moves of a play-on case as the site shows them: who plays what, and what the engine said.

Each move reads as an infinitive after the player's name, so that one sentence serves both
players in either language (``Toi — poser le 7 rouge sur la Borne 3``), followed by the engine's
answer: accepted, or refused with the rule it names.

>>> from schotten.board import Player
>>> from schotten.moves import Move
>>> move_text(Player.FIRST, Move.parse("play banshee: green 7 at 8"), "fr")
'Toi — jouer la Banshee\\xa0: défausser le 7 vert de sa Borne 8'
>>> step_text(Player.SECOND, Move.parse("claim 3 4"), "illegal claim-together", "es")
'Tu oponente — conquistar las piedras 3 y 4 → rechazada: todas las piedras nombradas juntas \
deben estar demostradas; si no, no se conquista ninguna (decisión del sitio)'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from schotten import moves
from schotten.board import Player
from schotten.cards import Tactic
from schotten.moves import Move
from schotten.site import SiteCheckError, labels
from schotten.site.words import card_with_article, cards_with_articles, joined

_WHO = {Player.FIRST: "you", Player.SECOND: "opponent"}


def move_text(player: Player, move: Move, lang: str) -> str:
    """``Toi — poser le 7 rouge sur la Borne 3``."""
    words = labels(lang)["moves"]
    return f"{words['who'][_WHO[player]]} — {_action(player, move, lang)}"


def step_text(player: Player, move: Move, step: str, lang: str) -> str:
    """The move and the answer: ``… → accepté``, or ``… → refusé : the rule, as a sentence``."""
    words = labels(lang)["moves"]
    if step == "ok":
        return f"{move_text(player, move, lang)} → {words['accepted']}"
    colon = labels(lang)["punctuation"]["colon"].lstrip(" ")
    return f"{move_text(player, move, lang)} → {words['refused']}{colon}{refusal(step, lang)}"


def refusal(step: str, lang: str) -> str:
    """Why a move is refused, as a sentence stating the rule it breaks."""
    rule = step.removeprefix("illegal ")
    sentences = labels(lang)["refusals"]
    if rule == step or rule not in sentences:
        raise SiteCheckError(f"play-on step {step!r}: no refusal sentence for it")
    return str(sentences[rule])


def steps_summary(steps: Sequence[str], game: str, termination: str | None, lang: str) -> str:
    """What a play-on case comes to, for a player: the first refusal and its rule, or where the
    game stands when every move was allowed (``Coup refusé : une Borne revendiquée est fermée…``).
    """
    words = labels(lang)["moves"]
    refused = [s for s in steps if s != "ok"]
    if refused:
        return str(words["refused_summary"]).format(reason=refusal(refused[0], lang))
    state = str(words["game"][game])
    if termination is not None:
        state += str(words["termination"][termination])
    return state


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


def _action(player: Player, move: Move, lang: str) -> str:
    words = labels(lang)["moves"]
    own, other = words["own"][_WHO[player]], words["other"][_WHO[player]]
    if isinstance(move, moves.Play):
        # A combat mode is played on a stone; a Clan card or an elite troop is placed on a side.
        key = "play_mode" if isinstance(move.card, Tactic) and not move.card.values else "play"
        return str(words[key]).format(card=card_with_article(move.card, lang), stone=move.stone)
    if isinstance(move, moves.Strategist):
        card = card_with_article(move.card, lang)
        if move.target is None:
            return str(words["strategist_discard"]).format(card=card, source=move.source, own=own)
        return str(words["strategist"]).format(
            card=card, source=move.source, target=move.target, own=own
        )
    if isinstance(move, moves.Banshee):
        card = card_with_article(move.card, lang)
        return str(words["banshee"]).format(card=card, stone=move.stone, other=other)
    if isinstance(move, moves.Traitor):
        card = card_with_article(move.card, lang)
        return str(words["traitor"]).format(
            card=card, source=move.source, target=move.target, own=own, other=other
        )
    if isinstance(move, moves.Recruiter):
        counts = Counter(move.decks)
        decks = [
            str(words["deck_cards"][str(deck)][0 if counts[deck] == 1 else 1]).format(
                count=counts[deck]
            )
            for deck in moves.Deck
            if counts[deck]
        ]
        return str(words["recruiter"]).format(decks=joined(decks, lang))
    if isinstance(move, moves.Return):
        one_or_more = words["return"][0 if len(move.cards) == 1 else 1]
        return str(one_or_more).format(cards=cards_with_articles(move.cards, lang))
    if isinstance(move, moves.Pass):
        return str(words["pass"])
    if isinstance(move, moves.Claim):
        if not move.stones:
            return str(words["claim_none"])
        key = "claim_one" if len(move.stones) == 1 else "claim_many"
        return str(words[key]).format(stones=joined([str(n) for n in move.stones], lang))
    if isinstance(move, moves.Draw):
        return str(words["draw"][str(move.deck)])
    raise SiteCheckError(f"no words for the move {move}")
