"""The position spaces: classes cover each space exactly, representatives are smallest images,
chunks are deterministic and split a space without overlap."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

from schotten.board import Player, Variant
from schotten.cards import ClanCard
from schotten.claims import judge_stone
from schotten.position import check_table
from schotten.verify.check import check_chunk
from schotten.verify.names import SPACE_NAMES
from schotten.verify.ranks import card_index
from schotten.verify.spaces import SPACES, Shape, Space
from schotten.verify.symmetry import (
    canonical_sets,
    class_count,
    colour_perms,
    image,
    orbit_size,
    second_fixed,
    seconds_fixed,
    smallest,
    stabiliser_size,
    value_cards,
    value_class_count,
    value_class_size,
    value_sets,
)

ONE_STONE = [name for name, space in SPACES.items() if isinstance(space, Space)]
BY_COLOURS = [name for name in ONE_STONE if not SPACES[name].by_values]  # type: ignore[union-attr]
BY_VALUES = [name for name in ONE_STONE if name not in BY_COLOURS]


def test_the_command_lists_every_space_by_its_name_in_order() -> None:
    assert tuple(SPACES) == SPACE_NAMES
    assert all(space.name == name for name, space in SPACES.items())


@pytest.mark.parametrize("size", range(5))
def test_orbits_of_the_claimers_cards_add_up_to_every_set(size: int) -> None:
    # Every set of `size` Clan cards is in the orbit of exactly one canonical set.
    assert sum(orbit_size(a) for a in canonical_sets(size)) == math.comb(54, size)


def test_smallest_is_the_smallest_of_the_720_images() -> None:
    rng = random.Random(11)
    perms = colour_perms()
    for _ in range(200):
        cards = tuple(sorted(rng.sample(range(54), rng.randint(0, 5))))
        assert smallest(cards) == min(image(p, cards) for p in perms)


def test_a_pair_is_kept_exactly_when_it_is_the_smallest_image_and_counted_by_its_stabiliser() -> (
    None
):
    rng = random.Random(12)
    perms = colour_perms()
    for _ in range(150):
        mine = smallest(tuple(sorted(rng.sample(range(54), rng.randint(0, 4)))))
        free = [i for i in range(54) if i not in mine]
        theirs = tuple(sorted(rng.sample(free, rng.randint(0, 3))))
        images = [(image(p, mine), image(p, theirs)) for p in perms]
        fixed = second_fixed(mine, theirs)
        assert (fixed > 0) == (min(images) == (mine, theirs))
        if fixed:
            assert fixed == images.count((mine, theirs))
            assert len(set(images)) == 720 // fixed  # the class size used as the weight
        assert stabiliser_size(mine) == sum(1 for p in perms if image(p, mine) == mine)


def test_the_test_of_a_unit_at_once_is_the_test_of_each_pair() -> None:
    # seconds_fixed (the enumeration's) against second_fixed (the one checked above by the 720
    # images), on claimer sets whose stabiliser swaps colours, every opponent size.
    rng = random.Random(13)
    for _ in range(300):
        mine = smallest(tuple(sorted(rng.sample(range(54), rng.randint(0, 4)))))
        free = [i for i in range(54) if i not in mine]
        size = rng.randint(1, 3)
        seconds = [tuple(sorted(rng.sample(free, size))) for _ in range(6)]
        expected = [second_fixed(mine, theirs) for theirs in seconds]
        assert seconds_fixed(mine, np.array(seconds)).tolist() == expected, (mine, seconds)
    assert seconds_fixed((0, 1, 2), np.array([[9, 18], [18, 27], [9, 10]])).tolist() == [12, 0, 24]


def _weights_of(
    space: Space, units: dict[tuple[int, int], list[int]], shape: Shape, mine: tuple[int, ...]
) -> int:
    key = (space.shapes.index(shape), canonical_sets(shape.mine_clan).index(mine))
    count = len(space.units())
    return sum(w for k in units[key] for _, m, _, w in space.classes(k, count) if m == mine)


@pytest.mark.parametrize("name", BY_COLOURS)
def test_classes_cover_the_space(name: str) -> None:
    """Counting argument: the canonical claimer sets' orbits cover every claimer set (test
    above); for a canonical set A, the classes starting with A must stand for every opponent
    set, orbit(A) x C(54 - |A|, b) positions. Checked on the first, last and a few random A of
    every shape; with the orbit sum this covers the raw count exactly."""
    space = SPACES[name]
    assert isinstance(space, Space)
    rng = random.Random(name)
    units: dict[tuple[int, int], list[int]] = {}
    for k, (s, a, _) in enumerate(space.units()):
        units.setdefault((s, a), []).append(k)
    shapes = space.shapes if len(space.shapes) <= 4 else rng.sample(space.shapes, 4)
    for shape in shapes:
        sets = canonical_sets(shape.mine_clan)
        picks = {sets[0], sets[-1], *rng.sample(sets, 1)}
        for mine in picks:
            expected = orbit_size(mine) * math.comb(54 - len(mine), shape.theirs_clan)
            assert _weights_of(space, units, shape, mine) == expected, (shape, mine)
    assert space.raw_size() == sum(s.raw_size() * len(s.orders) for s in space.shapes)


def test_base_one_stone_has_the_raw_count_of_its_definition() -> None:
    space = SPACES["base-one-stone"]
    opponent = sum(math.comb(51, b) for b in range(3))
    assert space.raw_size() == math.comb(54, 3) * opponent == 32_914_908


def test_a_chunk_is_the_same_every_time_and_chunks_do_not_overlap() -> None:
    space = SPACES["base-one-stone"]
    assert isinstance(space, Space)
    first = [(m, t) for _, m, t, _ in space.classes(3, 400)]
    assert first == [(m, t) for _, m, t, _ in space.classes(3, 400)]
    # Chunks 3 and 403 of 800 are chunk 3 of 400, split in two.
    halves = [(m, t) for k in (3, 403) for _, m, t, _ in space.classes(k, 800)]
    assert sorted(halves) == sorted(first)


@pytest.mark.parametrize("name", [*ONE_STONE, "sampled"])
def test_a_chunks_counts_are_what_its_items_count(name: str) -> None:
    space = SPACES[name]
    count = space.chunks * 50 if isinstance(space, Space) else space.chunks  # small chunks
    for index in (0, 7):
        items = list(space.chunk(index, count))
        assert items
        assert space.chunk_counts(index, count) == (len(items), sum(i.weight for i in items))


def test_one_stone_items_are_valid_boards_seen_by_the_engine() -> None:
    for name in ONE_STONE:
        space = SPACES[name]
        for item in list(space.chunk(5, space.chunks))[:20]:
            check_table(item.board)
            stone = item.board.stone(item.stone)
            assert stone.is_complete(Player.FIRST)
            mine = [card_index(c) for c in item.position.mine if isinstance(c, ClanCard)]
            assert tuple(sorted(mine)) == smallest(tuple(sorted(mine)))
            judge_stone(item.board, Player.FIRST, item.stone)  # the engine takes it


def test_sampled_positions_are_claim_steps_of_real_games() -> None:
    items = list(SPACES["sampled"].chunk(1, SPACES["sampled"].chunks))
    assert items
    for item in items:
        check_table(item.board)
        assert item.board.stone(item.stone).is_complete(item.claimer)


@pytest.mark.parametrize("shape", [Shape(3, 0), Shape(3, 1), Shape(2, 1), Shape(4, 0)])
def test_burnside_count_is_the_number_of_classes_enumerated(shape: Shape) -> None:
    space = Space("probe", Variant.BASE, (shape,), chunks=1)
    assert sum(1 for _ in space.classes(0, 1)) == class_count(shape.mine_clan, shape.theirs_clan)
    assert sum(w for *_, w in space.classes(0, 1)) == space.raw_size()


def test_every_shape_of_the_elite_space_is_a_legal_board() -> None:
    space = SPACES["elite-one-stone"]
    assert isinstance(space, Space)
    seen = set()
    for k, (shape_no, _, _) in enumerate(space.units()):
        if shape_no in seen:
            continue
        seen.add(shape_no)
        item = next(space.chunk(k, len(space.units())), None)
        if item is None:  # a unit may hold no class of its own
            seen.discard(shape_no)
            continue
        check_table(item.board)  # one Joker a player, tactic counts within one, capacities
    assert seen == set(range(len(space.shapes)))


def _values(cards: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(i % 9 for i in cards))


@pytest.mark.parametrize("name", BY_VALUES)
def test_value_classes_cover_the_space(name: str) -> None:
    """Each class is a pair of value multisets, once, whose representative holds those values;
    the class sizes add up to the raw count, and the count is the generating function's."""
    space = SPACES[name]
    assert isinstance(space, Space) and space.blind  # colours play no part: totals only
    seen = set()
    total = 0
    for index in range(space.chunks):
        for shape, mine, theirs, weight in space.classes(index, space.chunks):
            key = (shape, _values(mine), _values(theirs))
            assert key not in seen and weight > 0
            assert not set(mine) & set(theirs)
            seen.add(key)
            total += weight * len(shape.orders)
    assert total == space.raw_size()
    assert len(seen) == space.class_count()


@pytest.mark.parametrize(("first", "second"), [(4, 3), (4, 2), (3, 2), (2, 2)])
def test_a_value_class_is_every_position_with_those_values(first: int, second: int) -> None:
    """Its size, counted one position at a time: every claimer set with the values of ``A``,
    and for one of them every opponent set with the values of ``B``."""
    rng = random.Random(first * 10 + second)
    for _ in range(3):
        a = rng.choice(value_sets(first))
        b = rng.choice([b for b in value_sets(second) if value_class_size(a, b)])
        claimers = [m for m in itertools.combinations(range(54), first) if _values(m) == a]
        mine = value_cards(a)
        free = [i for i in range(54) if i not in mine]
        opponents = [t for t in itertools.combinations(free, second) if _values(t) == b]
        assert len(claimers) * len(opponents) == value_class_size(a, b)
        assert _values(value_cards(b, a)) == b and not set(value_cards(b, a)) & set(mine)
    count = sum(1 for a in value_sets(first) for b in value_sets(second) if value_class_size(a, b))
    assert count == value_class_count(first, second)


@pytest.mark.parametrize("name", list(SPACES))
def test_a_few_chunks_of_every_space_agree_with_the_brute_force(name: str) -> None:
    """The engine against the brute force, as ``schotten verify`` runs them: no disagreement."""
    count = SPACES[name].chunks
    for index in (0, count // 3, count - 1):
        result = check_chunk(name, index, count)
        assert result.classes > 0 and result.disagreements == ()
        assert sum(c for c, _ in result.reasons.values()) == result.classes
