"""The suite's vectors, kind by kind, computed by this engine from fixed seeds.

Each vector is a JSON object: an ``id``, a line of prose (``pins``) saying what it pins, the
input, and what the engine answered (``expect``, or the kind's own keys). The same engine gives
the same vectors, byte for byte: every vector draws from its own seeded generator.

>>> vector = formation_vector(0)
>>> vector["id"], vector["cards"], vector["expect"]
('f0000', ['blue 8', 'blue 9', 'blue 6', 'blue 7'], 'colour-run 30')
"""

from __future__ import annotations

import contextlib
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from schotten.board import Board, Player, Variant
from schotten.cards import CLAN_CARDS, Card, ClanCard, Colour, Tactic
from schotten.claims import StoneVerdict, judge_claim
from schotten.conformance.alternatives import (
    GameRulings,
    claim_rulings,
    formation_rulings,
    ids,
    tree_rulings,
)
from schotten.conformance.claims_gen import ClaimPosition, claim_position, features
from schotten.conformance.outcomes_gen import OUTCOMES, outcome_vector
from schotten.conformance.perft import divide, perft
from schotten.conformance.protocol import apply_answer, claim_answers, side_formation
from schotten.conformance.wire import KINDS, board_data, formation_data, game_data, moves_digest
from schotten.errors import IllegalActionError
from schotten.game import Game, Phase
from schotten.match import round_points
from schotten.moves import Banshee, Claim, Deck, Draw, Move, Pass, Play, Strategist, Traitor
from schotten.rules import Rule

GENERATED_CLAIMS = 10_000
FORMATIONS = 2_000
MOVE_POSITIONS = 300
GAMES = 200  # of each variant
FULL_GAMES = 1  # of each variant: the legal moves written out at every step
PROVABLE_PER_GAME = 6  # claim steps of each game in the provable kind
PERFT_SEEDS = (1, 2, 3)
PERFT_DEPTH = 4
PERFT_MIDGAME_MOVES = 75  # perft also from the position these many moves after the deal


def claim_request(
    board: Board, claimer: Player, stones: Sequence[int], hand: Sequence[Card] = ()
) -> dict[str, Any]:
    """The input of a claim vector (``hand``: cards known to be in the claimer's hand)."""
    position: dict[str, Any] = board_data(board, sparse=True)
    if hand:
        hands: dict[str, list[str]] = {str(p): [] for p in Player}
        hands[str(claimer)] = [str(c) for c in hand]
        position["hands"] = hands
    return {"position": position, "claimer": str(claimer), "stones": list(stones)}


# -- claims ------------------------------------------------------------------------------------


def case_claim_vectors(cases_folder: Path) -> list[dict[str, Any]]:
    """Every claim of the casebook (needs the ``cases`` extra: the cases are YAML)."""
    from schotten.casebook.folder import load_cases

    vectors = []
    for case in sorted(load_cases(cases_folder), key=lambda c: c.id):
        if not case.claim:
            continue
        verdicts = judge_claim(case.board, Player.FIRST, case.claim)
        rules = ", ".join(case.rules)
        exercised = claim_rulings(case.board, Player.FIRST, verdicts)
        vectors.append(
            {
                "id": f"case:{case.id}",
                "pins": f"the casebook's case {case.id} (rules {rules})",
                **claim_request(case.board, Player.FIRST, case.claim, case.hands[0]),
                "expect": claim_answers(verdicts),
                "rulings": _union(exercised, ids(case.rules)),
            }
        )
    return vectors


def claim_vector(index: int) -> dict[str, Any]:
    """The generated claim position number ``index`` with this engine's verdicts."""
    position = claim_position(index)
    verdicts = judge_claim(position.board, position.claimer, position.stones)
    return {
        "id": f"c{index:05d}",
        "pins": _claim_prose(position, [str(v.reason) for v in verdicts]),
        **claim_request(position.board, position.claimer, position.stones, position.hand),
        "expect": claim_answers(verdicts),
        "rulings": list(claim_rulings(position.board, position.claimer, verdicts)),
    }


def _union(*found: tuple[str, ...]) -> list[str]:
    return sorted(set().union(*found))


def _claim_prose(position: ClaimPosition, reasons: list[str]) -> str:
    board = position.board
    parts = []
    for number, reason in zip(position.stones, reasons, strict=True):
        stone = board.stone(number)
        notes = []
        if stone.mud_fight is not None:
            notes.append("Mud Fight")
        if stone.blind_mans_bluff is not None:
            notes.append("Blind-Man's Bluff")
        if any(isinstance(c, Tactic) for side in stone.sides for c in side.cards):
            notes.append("elite troop")
        parts.append(f"{number} {reason}" + (f" ({', '.join(notes)})" if notes else ""))
    extra = features(position)
    if position.hand:
        extra.append("hand known")
    head = f"{board.variant}, {position.claimer} claims {'; '.join(parts)}"
    return head + "".join(f"; {e}" for e in extra)


# -- formations --------------------------------------------------------------------------------

_SHAPES = ("colour-run", "same-value", "colour", "run", "sum", "wrap", "random")


def formation_vector(index: int) -> dict[str, Any]:
    """A complete side (3 or 4 cards, elite troops sometimes), evaluated."""
    rng = random.Random(f"formations {index}")
    size = 4 if rng.random() < 0.3 else 3
    totals_only = rng.random() < 0.2
    shape = _SHAPES[index % len(_SHAPES)]
    cards: list[Card] = list(_shaped_side(rng, shape, size))
    troops = rng.choices((0, 1, 2), weights=(60, 30, 10))[0]
    pool = [Tactic.JOKER, Tactic.SPY, Tactic.SHIELD_BEARER]
    rng.shuffle(pool)
    for troop in pool[:troops]:
        cards[rng.randrange(size)] = troop
    rng.shuffle(cards)
    side = tuple(cards)
    formation = side_formation(side, totals_only)
    troop_words = [str(c) for c in side if isinstance(c, Tactic)]
    notes = [f"{size} cards", f"shaped as {shape}"]
    if troop_words:
        notes.append("elite troops " + ", ".join(troop_words) + " at their best")
    if totals_only:
        notes.append("Blind-Man's Bluff: totals only")
    if shape == "wrap":
        notes.append("no run wraps from 9 to 1")
    return {
        "id": f"f{index:04d}",
        "pins": "; ".join(notes),
        "cards": [str(c) for c in side],
        "totals_only": totals_only,
        "expect": formation_data(formation),
        "rulings": list(
            formation_rulings([str(c) for c in side], totals_only, str(formation_data(formation)))
        ),
    }


def _shaped_side(rng: random.Random, shape: str, size: int) -> list[ClanCard]:
    colour = rng.choice(list(Colour))
    others = [c for c in Colour if c != colour]
    if shape in ("colour-run", "run"):
        low = rng.randrange(1, 11 - size)
        values = list(range(low, low + size))
        if shape == "colour-run":
            return [ClanCard(colour, v) for v in values]
        colours = [rng.choice(list(Colour)) for _ in values]
        colours[0] = others[0] if colours[1:] == [colour] * (size - 1) else colours[0]
        return [ClanCard(c, v) for c, v in zip(colours, values, strict=True)]
    if shape == "same-value":
        value = rng.randrange(1, 10)
        return [ClanCard(c, value) for c in rng.sample(list(Colour), size)]
    if shape == "colour":
        return [ClanCard(colour, v) for v in rng.sample(range(1, 10), size)]
    if shape == "wrap":
        values = rng.choice(([8, 9, 1, 2], [9, 1, 2, 3], [7, 8, 9, 1]))[:size]
        if size == 3 and rng.random() < 0.5:
            values = rng.choice(([9, 1, 2], [8, 9, 1]))
        same = rng.random() < 0.5
        return [ClanCard(colour if same else rng.choice(list(Colour)), v) for v in values]
    return rng.sample(CLAN_CARDS, size)


# -- moves: accepted and refused ---------------------------------------------------------------


def case_move_vectors(cases_folder: Path) -> list[dict[str, Any]]:
    """Every move of the casebook's play-ons, from the position before it."""
    from schotten.casebook.folder import load_cases
    from schotten.casebook.playon import start_game

    vectors = []
    for case in sorted(load_cases(cases_folder), key=lambda c: c.id):
        spec = case.play_on
        if spec is None:
            continue
        game = start_game(case.board, case.hands, spec.decks, spec.start)
        for number, (_, move) in enumerate(spec.moves, 1):
            vector = _move_vector(
                f"case:{case.id}#{number}",
                f"move {number} of the casebook's case {case.id} (rules {', '.join(case.rules)})",
                game,
                [move],
                case.rules,
            )
            vectors.append(vector)
            with contextlib.suppress(IllegalActionError):
                game.apply(move)
    return vectors


def move_vector(index: int) -> dict[str, Any]:
    """A position of a seeded random game, some legal moves and some the rules refuse."""
    rng = random.Random(f"moves {index}")
    variant = Variant.TACTICAL if index % 2 else Variant.BASE
    game = Game(variant, seed=rng.randrange(1 << 30))
    for _ in range(rng.randrange(0, 90)):
        if game.outcome is not None:
            break
        game.apply(_pick(rng, game))
    if game.outcome is not None:
        over = f"{variant}, the game is over"
        return _move_vector(f"m{index:04d}", over, game, [Claim(), Pass()])
    legal = game.legal_moves()
    accepted = rng.sample(legal, min(3, len(legal)))
    refused = _refused_sample(rng, game)
    return _move_vector(
        f"m{index:04d}",
        f"{variant}, {game.to_move} at the {game.phase} step, step {game.step}",
        game,
        [*accepted, *refused],
    )


def _move_vector(
    ident: str, pins: str, game: Game, moves: Sequence[Move], case_rules: Sequence[Rule] = ()
) -> dict[str, Any]:
    accepted, after, refused = [], [], []
    gathered = GameRulings(set(case_rules))
    gathered.position(game, [str(m) for m in game.legal_moves()])
    for move in moves:
        try:
            game.verify_move(move)
        except IllegalActionError as error:
            refused.append({"move": str(move), "rule": str(error.rule)})
            gathered.refused(str(move), str(error.rule))
        else:
            accepted.append(str(move))
            gathered.move(str(move))
            answer = apply_answer(game, str(move))
            after.append({"position": answer["position"], "points": answer["points"]})
            played = game.copy()
            played.apply(move)
            gathered.outcome(played)
    rules = sorted({r["rule"] for r in refused})
    if rules:
        pins += "; refused by " + ", ".join(rules)
    return {
        "id": ident,
        "pins": pins,
        "position": game_data(game),
        "accepted": accepted,
        "after": after,
        "refused": refused,
        "rulings": list(gathered.ids()),
    }


def _candidates(game: Game) -> Iterator[Move]:
    """Moves worth trying on a position: most are refused, each naming its rule."""
    me = game.to_move
    hand = game.hand(me)
    others = [c for c in game.hand(me.other)][:2]
    for card in (*hand, *others):
        if isinstance(card, Tactic) and card in _RUSES:
            continue  # written as ruses, below
        for stone in range(1, 10):
            yield Play(card, stone)
    yield Pass()
    for stone in range(1, 10):
        yield Claim((stone,))
    yield Claim()
    yield Draw(Deck.CLAN)
    yield Draw(Deck.TACTIC)
    for table_stone in game.board.stones:
        number = table_stone.number
        for player in Player:
            for card in table_stone.sides[player].cards:
                yield Banshee(card, number)
                yield Strategist(card, number, None)
                yield Traitor(card, number, number % 9 + 1)


_RUSES = (Tactic.RECRUITER, Tactic.STRATEGIST, Tactic.BANSHEE, Tactic.TRAITOR)


def _refused_sample(rng: random.Random, game: Game) -> list[Move]:
    by_rule: dict[str, list[Move]] = {}
    for move in _candidates(game):
        try:
            game.verify_move(move)
        except IllegalActionError as error:
            by_rule.setdefault(str(error.rule), []).append(move)
    picked = [rng.choice(by_rule[rule]) for rule in sorted(by_rule)]
    rng.shuffle(picked)
    return picked[:5]


def _pick(rng: random.Random, game: Game) -> Move:
    """The move a seeded random game plays: any legal move, but every provable stone at once."""
    if game.phase is Phase.CLAIM:
        return Claim(game.provable_stones())
    return rng.choice(game.legal_moves())


# -- games: the legal moves at every step ------------------------------------------------------


def game_vector(variant: Variant, index: int) -> dict[str, Any]:
    """A whole seeded random game: the deal, the moves, the legal moves before each move."""
    seed = index + (0 if variant is Variant.BASE else 1000)
    rng = random.Random(f"games {variant} {index}")
    game = Game(variant, seed=seed)
    start = game_data(game)
    moves, counts, digests, full = [], [], [], []
    gathered = GameRulings()
    while game.outcome is None:
        legal = [str(m) for m in game.legal_moves()]
        counts.append(len(legal))
        digests.append(moves_digest(legal))
        if index < FULL_GAMES:
            full.append(legal)
        gathered.position(game, legal)
        move = _pick(rng, game)
        moves.append(str(move))
        gathered.move(str(move))
        game.apply(move)
    gathered.outcome(game)
    assert game.outcome is not None
    first, second = round_points(game)
    kinds = Counter(m.split(":")[0].split(" ")[0] for m in moves)
    vector: dict[str, Any] = {
        "id": f"g-{variant}-{index:03d}",
        "pins": (
            f"{variant} game of {len(moves)} moves ({kinds['play']} plays, {kinds['claim']} "
            f"claim steps), {game.outcome}"
        ),
        "position": start,
        "moves": moves,
        "legal_counts": counts,
        "legal_digests": digests,
    }
    if full:
        vector["legal"] = full
    vector["outcome"] = {
        "winner": None if game.outcome.winner is None else str(game.outcome.winner),
        "termination": str(game.outcome.termination),
    }
    vector["points"] = {"first": first, "second": second}
    vector["rulings"] = list(gathered.ids())
    return vector


# -- provable: which stones the player to move can prove, in a real game -----------------------


def provable_vectors(variant: Variant, index: int) -> list[dict[str, Any]]:
    """Claim steps of the seeded game of :func:`game_vector`: every one where the player to
    move can prove a stone, and a few where nothing is provable, at most
    :data:`PROVABLE_PER_GAME`, spread over the game."""
    seed = index + (0 if variant is Variant.BASE else 1000)
    rng = random.Random(f"games {variant} {index}")
    game = Game(variant, seed=seed)
    steps: list[tuple[Game, tuple[int, ...]]] = []
    while game.outcome is None:
        if game.phase is Phase.CLAIM:
            steps.append((game.copy(), game.provable_stones()))
        game.apply(_pick(rng, game))
    proven = [s for s in steps if s[1]]
    empty = [s for s in steps if not s[1]]
    room = max(PROVABLE_PER_GAME - len(proven), 2)
    chosen = _spread(proven, PROVABLE_PER_GAME - 2) + _spread(empty, room)
    chosen.sort(key=lambda s: s[0].step)
    vectors = []
    for position, stones in chosen:
        claimer = position.to_move
        request = claim_request(position.board, claimer, (), position.hand(claimer))
        del request["stones"]
        said = ", ".join(str(n) for n in stones) or "nothing"
        vectors.append(
            {
                "id": f"v-{variant}-{index:03d}-{position.step:03d}",
                "pins": f"{variant} game {index}, step {position.step}: {claimer} can prove {said}",
                **request,
                "expect": list(stones),
                "rulings": list(claim_rulings(position.board, claimer, _open_verdicts(position))),
            }
        )
    return vectors


def _open_verdicts(game: Game) -> tuple[StoneVerdict, ...]:
    """The verdict on every unclaimed stone for the player to move: what ``provable`` judges."""
    board = game.board
    return judge_claim(
        board, game.to_move, [s.number for s in board.stones if s.claimed_by is None]
    )


def _spread(items: list[Any], count: int) -> list[Any]:
    if count <= 0 or not items:
        return []
    if len(items) <= count:
        return list(items)
    return [items[i * len(items) // count] for i in range(count)]


# -- perft -------------------------------------------------------------------------------------


def perft_start(variant: Variant, seed: int, midgame: bool) -> Game:
    """A perft position: the seeded deal, or the position a seeded playthrough reaches from it."""
    game = Game(variant, seed=seed)
    if midgame:
        rng = random.Random(f"perft {variant} {seed}")
        for _ in range(PERFT_MIDGAME_MOVES):
            if game.outcome is not None:
                break
            game.apply(_pick(rng, game))
    return game


def perft_vector(variant: Variant, seed: int, midgame: bool) -> dict[str, Any]:
    """Perft 1..PERFT_DEPTH from a seeded deal, or from a seeded position later in that game."""
    game = perft_start(variant, seed, midgame)
    where = f"{PERFT_MIDGAME_MOVES} seeded moves after the deal" if midgame else "the deal"
    nodes = [perft(game, depth) for depth in range(1, PERFT_DEPTH + 1)]
    return {
        "id": f"p-{variant}-{seed}{'-mid' if midgame else ''}",
        "pins": f"{variant}, deal {seed}, from {where}: move sequences of depth 1 to {PERFT_DEPTH}",
        "position": game_data(game),
        "nodes": nodes,
        "divide": dict(divide(game, PERFT_DEPTH)),
        "rulings": list(tree_rulings(game, PERFT_DEPTH)),
    }


# -- the whole suite ---------------------------------------------------------------------------


def expected_counts() -> dict[str, int]:
    """How many vectors of each kind are generated (the casebook's come on top)."""
    perft_count = len(Variant) * 2 * len(PERFT_SEEDS)
    return {
        "claims": GENERATED_CLAIMS,
        "formations": FORMATIONS,
        "provable": len(Variant) * GAMES * PROVABLE_PER_GAME,
        "moves": MOVE_POSITIONS,
        "games": len(Variant) * GAMES,
        "perft": perft_count,
        "outcomes": len(Variant) * OUTCOMES,
    }


def case_vectors(kind: str, cases_folder: Path) -> list[dict[str, Any]]:
    """The casebook's vectors of one kind (they open its file); none for a generated kind."""
    if kind == "claims":
        return case_claim_vectors(cases_folder)
    if kind == "moves":
        return case_move_vectors(cases_folder)
    return []


def vectors(kind: str, cases_folder: Path | None = None) -> Iterator[dict[str, Any]]:
    """Every vector of one kind, in the suite's order (casebook vectors need ``cases_folder``)."""
    if kind == "claims":
        if cases_folder is not None:
            yield from case_vectors(kind, cases_folder)
        yield from (claim_vector(i) for i in range(GENERATED_CLAIMS))
    elif kind == "formations":
        yield from (formation_vector(i) for i in range(FORMATIONS))
    elif kind == "provable":
        for variant in Variant:
            for index in range(GAMES):
                yield from provable_vectors(variant, index)
    elif kind == "moves":
        if cases_folder is not None:
            yield from case_vectors(kind, cases_folder)
        yield from (move_vector(i) for i in range(MOVE_POSITIONS))
    elif kind == "games":
        for variant in Variant:
            yield from (game_vector(variant, i) for i in range(GAMES))
    elif kind == "perft":
        for variant in Variant:
            for midgame in (False, True):
                yield from (perft_vector(variant, seed, midgame) for seed in PERFT_SEEDS)
    elif kind == "outcomes":
        for variant in Variant:
            yield from (outcome_vector(variant, i) for i in range(OUTCOMES))
    else:
        raise ValueError(f"unknown kind {kind!r}: expected one of {', '.join(KINDS)}")
