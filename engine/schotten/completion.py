"""The strongest formation a side can reach: closed form per formation kind, with elite troops.

This is the heart of both evaluation and proof. Given the cards already on a side (Clan cards and
elite troops, all forced), the number of cards it still needs, the Clan cards it could still get
(a pool) and the elite troops it could still get (wild cards), it returns the strongest formation
that side can end with and one way to reach it.

It never enumerates completions. Kinds are tried from the strongest down; within a kind the
highest total is found directly: value windows slid from the top for runs, the top unseen values
of each colour for a colour, the count of unseen cards of one value for same value. Elite troops
are matched to the values they must stand for (a handful of candidates at most), and each takes
any colour, even the colour and value of a card already on the table (RULES.md, Formations).

>>> from schotten.cards import parse_cards
>>> best_completion(parse_cards(["red 9", "joker", "red 7"]), 3).formation
Formation(kind=FormationKind.COLOUR_RUN, total=24)
>>> c = best_completion(parse_cards(["red 3", "green 3"]), 3, pool=parse_cards(["blue 3", "red 9"]))
>>> c.formation, c.added
(Formation(kind=FormationKind.SAME_VALUE, total=9), (ClanCard.parse('blue 3'),))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from schotten.cards import CLAN_CARDS, VALUES, Card, ClanCard, Colour, Tactic, is_wild
from schotten.formations import Formation, FormationKind, evaluate


@dataclass(frozen=True)
class Completion:
    """A way for a side to end: the cards added and the whole side, elite troops resolved."""

    formation: Formation
    added: tuple[Card, ...]
    resolved: tuple[ClanCard, ...]


ALL_CLAN_MASK = (1 << len(CLAN_CARDS)) - 1
# The six cards of each value, as bits of a pool mask.
_VALUE_MASKS = {v: sum(1 << (c * 9 + v - 1) for c in range(6)) for v in VALUES}


def pool_mask(cards: Iterable[Card]) -> int:
    """The Clan cards among ``cards`` as a 54-bit set."""
    mask = 0
    for card in cards:
        if isinstance(card, ClanCard):
            mask |= 1 << (card.colour * 9 + card.value - 1)
    return mask


def best_completion(
    placed: Sequence[Card],
    size: int,
    *,
    totals_only: bool = False,
    pool: Iterable[Card] | int = 0,
    wilds: Sequence[Tactic] = (),
) -> Completion | None:
    """The strongest way to complete a side, or ``None`` if it cannot be completed.

    ``placed`` is forced; ``size - len(placed)`` cards come from ``pool`` (Clan cards, as cards or
    as a :func:`pool_mask`) and ``wilds`` (elite troops the side may still get, each at most once).
    """
    clan = [c for c in placed if isinstance(c, ClanCard)]
    forced = [c for c in placed if isinstance(c, Tactic)]
    if any(not is_wild(c) for c in forced):
        raise ValueError("only Clan cards and elite troops stand on a side")
    need = size - len(placed)
    if need < 0:
        raise ValueError(f"{len(placed)} cards on a side of {size}")
    if need == 0 and not forced:
        return Completion(evaluate(clan, totals_only=totals_only), (), tuple(clan))
    mask = pool if isinstance(pool, int) else pool_mask(pool)
    search = _Search(clan, forced, list(wilds), need, size, mask)
    if need > mask.bit_count() + len(wilds):
        return None
    if totals_only:
        return search.highest_sum(FormationKind.TOTAL)
    return (
        search.colour_run()
        or search.same_value()
        or search.colour()
        or search.run()
        or search.highest_sum(FormationKind.SUM)
    )


class _Search:
    def __init__(
        self,
        clan: list[ClanCard],
        forced: list[Tactic],
        optional: list[Tactic],
        need: int,
        size: int,
        mask: int,
    ) -> None:
        self.clan = clan
        self.forced = forced
        self.optional = optional
        self.need = need
        self.size = size
        self.mask = mask
        self.values = {c.value for c in clan}
        self.colours = {c.colour for c in clan}

    def has(self, colour: int, value: int) -> bool:
        return bool(self.mask >> (colour * 9 + value - 1) & 1)

    def windows(self) -> Iterable[range]:
        """Value windows of the side's size, highest first, holding every placed value once."""
        if len(self.values) < len(self.clan):
            return
        for start in range(10 - self.size, 0, -1):
            window = range(start, start + self.size)
            if self.values.issubset(window):
                yield window

    def colour_run(self) -> Completion | None:
        if len(self.colours) > 1:
            return None
        colours: list[Colour] = list(self.colours) or list(Colour)
        for window in self.windows():
            missing = [v for v in window if v not in self.values]
            for colour in colours:

                def in_pool(v: int, c: Colour = colour) -> bool:
                    return self.has(c, v)

                def this_colour(v: int, c: Colour = colour) -> Colour:
                    return c

                cover = _cover(missing, in_pool, self.forced, self.optional)
                if cover is not None:
                    return self._build(FormationKind.COLOUR_RUN, window, cover, this_colour)
        return None

    def run(self) -> Completion | None:
        for window in self.windows():
            missing = [v for v in window if v not in self.values]
            cover = _cover(missing, self.any_colour, self.forced, self.optional)
            if cover is not None:
                return self._build(FormationKind.RUN, window, cover, self.first_colour)
        return None

    def any_colour(self, value: int) -> bool:
        return any(self.has(c, value) for c in range(6))

    def first_colour(self, value: int) -> Colour:
        return next((Colour(c) for c in range(6) if self.has(c, value)), Colour.RED)

    def _build(
        self,
        kind: FormationKind,
        window: range,
        cover: list[Card],
        colour_of: Callable[[int], Colour],
    ) -> Completion:
        missing = [v for v in window if v not in self.values]
        added: list[Card] = []
        resolved = list(self.clan)
        for value, source in zip(missing, cover, strict=True):
            card = ClanCard(colour_of(value), value)
            if isinstance(source, ClanCard):
                added.append(card)
            elif source not in self.forced:
                added.append(source)
            resolved.append(card)
        return Completion(Formation(kind, sum(window)), _sorted(added), tuple(resolved))

    def same_value(self) -> Completion | None:
        if len(self.values) > 1:
            return None
        values = list(self.values) or list(reversed(VALUES))
        for value in values:
            if any(value not in w.values for w in self.forced):
                continue
            clan: list[Card] = [
                CLAN_CARDS[c * 9 + value - 1] for c in range(6) if self.has(c, value)
            ]
            extra = [w for w in self.optional if value in w.values]
            added: list[Card] = [*clan, *extra][: self.need]
            if len(added) < self.need:
                continue
            wild_count = len(self.forced) + sum(1 for c in added if isinstance(c, Tactic))
            resolved = [*self.clan, *(c for c in added if isinstance(c, ClanCard))]
            resolved += [ClanCard(Colour.RED, value)] * wild_count
            return Completion(
                Formation(FormationKind.SAME_VALUE, value * self.size),
                _sorted(added),
                tuple(resolved),
            )
        return None

    def colour(self) -> Completion | None:
        if len(self.colours) > 1:
            return None
        best: Completion | None = None
        for colour in list(self.colours) or list(Colour):
            candidates: list[tuple[int, Card]] = [
                (v, CLAN_CARDS[colour * 9 + v - 1]) for v in VALUES if self.has(colour, v)
            ]
            candidates += [(max(w.values), w) for w in self.optional]
            candidates.sort(key=lambda vc: vc[0], reverse=True)
            if len(candidates) < self.need:
                continue
            chosen = candidates[: self.need]
            wild_values = [max(w.values) for w in self.forced]
            wild_values += [v for v, c in chosen if isinstance(c, Tactic)]
            resolved = [*self.clan, *(c for _, c in chosen if isinstance(c, ClanCard))]
            resolved += [ClanCard(colour, v) for v in wild_values]
            total = sum(c.value for c in resolved)
            if best is None or total > best.formation.total:
                added = _sorted(c for _, c in chosen)
                best = Completion(Formation(FormationKind.COLOUR, total), added, tuple(resolved))
        return best

    def highest_sum(self, kind: FormationKind) -> Completion | None:
        # The top values of the pool, highest first: enough to fill the side, no more.
        candidates: list[tuple[int, Card]] = []
        for value in range(9, 0, -1):
            bits = self.mask & _VALUE_MASKS[value]
            while bits and len(candidates) < self.need:
                low = bits & -bits
                candidates.append((value, CLAN_CARDS[low.bit_length() - 1]))
                bits ^= low
            if len(candidates) == self.need:
                break
        candidates += [(max(w.values), w) for w in self.optional]
        candidates.sort(key=lambda vc: vc[0], reverse=True)
        if len(candidates) < self.need:
            return None
        chosen = candidates[: self.need]
        resolved = [*self.clan, *(c for _, c in chosen if isinstance(c, ClanCard))]
        wild_values = [max(w.values) for w in self.forced]
        wild_values += [v for v, c in chosen if isinstance(c, Tactic)]
        resolved += [ClanCard(Colour.RED, v) for v in wild_values]
        total = sum(c.value for c in resolved)
        return Completion(Formation(kind, total), _sorted(c for _, c in chosen), tuple(resolved))


def _cover(
    values: list[int],
    clan_ok: Callable[[int], bool],
    forced: list[Tactic],
    optional: list[Tactic],
) -> list[Card] | None:
    """Give each missing value a source: every forced elite troop exactly once, then Clan cards
    from the pool or optional elite troops. A placeholder ClanCard marks a pool card."""
    if len(forced) > len(values):
        return None
    if not values:
        return []
    value, rest = values[0], values[1:]
    for i, wild in enumerate(forced):
        if value in wild.values and wild not in forced[:i]:
            tail = _cover(rest, clan_ok, forced[:i] + forced[i + 1 :], optional)
            if tail is not None:
                return [wild, *tail]
    if clan_ok(value):
        tail = _cover(rest, clan_ok, forced, optional)
        if tail is not None:
            return [_POOL_CARD[value], *tail]
    for i, wild in enumerate(optional):
        if value in wild.values and wild not in optional[:i]:
            tail = _cover(rest, clan_ok, forced, optional[:i] + optional[i + 1 :])
            if tail is not None:
                return [wild, *tail]
    return None


# Stands for "a Clan card of this value from the pool"; _build picks its real colour.
_POOL_CARD = {v: ClanCard(Colour.RED, v) for v in VALUES}


def _sorted(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=lambda c: (isinstance(c, Tactic), str(c))))
