"""What each elite troop of a side becomes, for answers in words (the pages, the checker).

Not one of the rule modules (:data:`schotten.verify.report.RULE_MODULES`): it decides nothing,
it only pairs a side's cards with the engine's own resolution of that side.
"""

from __future__ import annotations

from collections.abc import Sequence

from schotten.cards import Card, ClanCard, Colour, Tactic
from schotten.formations import evaluate


def troops_as(
    placed: Sequence[Card], resolved: Sequence[ClanCard]
) -> tuple[tuple[Card, ClanCard | None], ...]:
    """Each card of a side with, for an elite troop, the Clan card it becomes in ``resolved``
    (the side as :func:`schotten.completion.best_completion` resolves it); ``None`` for a Clan
    card.

    Where only its value counts (a Brelan), the engine gives a troop an arbitrary colour: it is
    then shown in a colour that no card of the side shows, never as a second copy of one. Where
    the colour makes the formation (a Couleur), the troop keeps it, a copy of its side's card
    (site ruling ``elite-troop-value``): the cards as shown always make the formation resolved.

    >>> troops_as([ClanCard(Colour.RED, 3), Tactic.JOKER],
    ...           [ClanCard(Colour.RED, 3), ClanCard(Colour.RED, 3)])[1]
    (<Tactic.JOKER: 'joker'>, ClanCard.parse('orange 3'))
    """
    left = list(resolved)
    # The formation the troops' cards must keep: a troop that copies a card of its side is shown
    # in another colour only where the colour makes no difference to it (a Brelan, a Sum).
    named = evaluate(resolved) if len(resolved) >= 3 else None
    for card in placed:
        if isinstance(card, ClanCard) and card in left:
            left.remove(card)
    # Narrow ranges first, so that a Spy takes the 7 and a Shield-Bearer a low card.
    troops = sorted((c for c in placed if isinstance(c, Tactic)), key=lambda t: len(t.values))
    becomes: dict[Tactic, ClanCard] = {}
    for troop in troops:
        fit = next((c for c in left if c.value in troop.values), None)
        if fit is None:
            raise ValueError(f"no resolution of {troop} among {list(resolved)}")
        left.remove(fit)
        clan = [c for c in placed if isinstance(c, ClanCard)]
        used = {*clan, *becomes.values()}
        if fit in used:
            others = (ClanCard(k, fit.value) for k in Colour)
            fit = next(
                (
                    other
                    for other in others
                    if other not in used
                    and (
                        named is None or evaluate([*clan, *becomes.values(), other, *left]) == named
                    )
                ),
                fit,
            )
        becomes[troop] = fit
    return tuple((c, becomes[c] if isinstance(c, Tactic) else None) for c in placed)
