"""The moves of a play-on case as the site shows them: who plays what, and what the engine said.

Each move reads as an infinitive after the player's name, so that one sentence serves both
players in either language (``Toi — poser le 7 rouge sur la Borne 3``), followed by the engine's
answer: accepted, or refused with the rule it names. The case's question (its ``question:``
move) is answered in the badge (:func:`answer_text`); the other refused moves read as tries.

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
from schotten.casebook.playon import Answer
from schotten.moves import Move
from schotten.site import SiteCheckError, labels
from schotten.site.words import card_with_article, cards_with_articles, joined

_WHO = {Player.FIRST: "you", Player.SECOND: "opponent"}


def move_text(player: Player, move: Move, lang: str) -> str:
    """``Toi — poser le 7 rouge sur la Borne 3``."""
    words = labels(lang)["moves"]
    return f"{words['who'][_WHO[player]]} — {_action(player, move, lang)}"


def step_text(player: Player, move: Move, step: str, lang: str, *, asked: bool = True) -> str:
    """The move and the answer: ``… → accepté``, or ``… → refusé : the rule, as a sentence``.

    A refused move that is not the case's question (``asked=False``) only shows a rule on the way:
    it reads as a try (``… → essai refusé : …``), not as the case's answer."""
    words = labels(lang)["moves"]
    if step == "ok":
        return f"{move_text(player, move, lang)} → {words['accepted']}"
    colon = labels(lang)["punctuation"]["colon"].lstrip(" ")
    refused = words["refused"] if asked else words["tried"]
    return f"{move_text(player, move, lang)} → {refused}{colon}{refusal(step, lang)}"


def refusal(step: str, lang: str) -> str:
    """Why a move is refused, as a sentence stating the rule it breaks."""
    rule = step.removeprefix("illegal ")
    sentences = labels(lang)["refusals"]
    if rule == step or rule not in sentences:
        raise SiteCheckError(f"play-on step {step!r}: no refusal sentence for it")
    return str(sentences[rule])


def answer_text(answer: Answer, lang: str) -> str:
    """The engine's answer to a case's question, as the case's badge says it: accepted, with
    what the move does (``Accepté : le Chasseur de Tête se joue ainsi``), and how the game ends
    if it ends there; or refused, with the rule that refused it."""
    words = labels(lang)["moves"]
    if not answer.accepted:
        return str(words["answer_refused"]).format(reason=refusal(answer.step, lang))
    said = _answer(answer.player, answer.move, lang)
    if answer.game != "ongoing":
        state = str(words["game"][answer.game])
        if answer.termination is not None:
            state += str(words["termination"][answer.termination])
        said = str(words["answer_end"]).format(answer=said, state=state[:1].lower() + state[1:])
    return str(words["answer_accepted"]).format(answer=said)


def _answer(player: Player, move: Move, lang: str) -> str:
    """What an accepted move does, as a sentence that answers the question asked about it."""
    words = labels(lang)["moves"]["answer"]
    who = _WHO[player]
    if isinstance(move, moves.Play):
        key = "play_mode" if isinstance(move.card, Tactic) and not move.card.values else "play"
        return str(words[key]).format(card=card_with_article(move.card, lang), stone=move.stone)
    ruse = _RUSES.get(type(move))
    if ruse is not None:
        return str(words["ruse"]).format(ruse=card_with_article(ruse, lang))
    if isinstance(move, moves.Claim):
        key = "claim_none" if not move.stones else "claim_one"
        key = "claim_many" if len(move.stones) > 1 else key
        return str(words[key][who]).format(stones=joined([str(n) for n in move.stones], lang))
    for kind, key in ((moves.Return, "return"), (moves.Pass, "pass"), (moves.Draw, "draw")):
        if isinstance(move, kind):
            return str(words[key][who])
    raise SiteCheckError(f"no words for the answer to {move}")


_RUSES = {
    moves.Strategist: Tactic.STRATEGIST,
    moves.Banshee: Tactic.BANSHEE,
    moves.Traitor: Tactic.TRAITOR,
    moves.Recruiter: Tactic.RECRUITER,
}


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
        # Each card goes under its own deck: two Clan cards go under the one Clan deck.
        tactic = {isinstance(card, Tactic) for card in move.cards}
        deck = "both" if len(tactic) == 2 else "tactic" if True in tactic else "clan"
        return str(words["return"][deck]).format(cards=cards_with_articles(move.cards, lang))
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
