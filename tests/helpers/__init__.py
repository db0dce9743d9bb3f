"""Random positions and deals for the tests."""

import random

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from hypothesis import strategies as st

from prefa_sim.core.position import Position
from prefa_sim.sim.dataset import SCHEMA

from .reference import minimax

ACTIVE_SETS = [(0, 1, 2), (0, 1), (0, 2), (1, 2)]


def random_position(rng: random.Random, tricks: int, active: tuple[int, ...], trump: int,
                    leader: int, declarer: int, played: int,
                    overtrump: bool = False) -> Position:
    """A random ending of ``tricks`` tricks, then ``played`` random legal cards of the first
    (``overtrump``: under the rule against under-trumping)."""
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [0, 0, 0]
    for i, seat in enumerate(active):
        for card in deck[i * tricks:(i + 1) * tricks]:
            hands[seat] |= 1 << card
    # A seat out of play holds some unrelated cards, which must be ignored.
    for seat in range(3):
        if seat not in active:
            for card in deck[len(active) * tricks:len(active) * tricks + tricks]:
                hands[seat] |= 1 << card
    pos = Position(tuple(hands), trump, leader, declarer, active, overtrump=overtrump)
    for _ in range(played):
        legal = [c for c in range(32) if pos.legal_cards() >> c & 1]
        pos, _ = pos.play(rng.choice(legal))
    return pos



@st.composite
def endings(draw, min_tricks=1, max_tricks=4, trick_start=False, overtrump=False,
            active_sets=ACTIVE_SETS):
    """Random endings, 3-hand and 2-hand, any strain, leader and declarer; unless
    ``trick_start``, with some cards of the first trick already played (``overtrump``:
    under the rule against under-trumping)."""
    active = draw(st.sampled_from(active_sets))
    tricks = draw(st.integers(min_tricks, max_tricks))
    trump = draw(st.integers(0, 4))
    leader = draw(st.sampled_from(active))
    declarer = draw(st.sampled_from(active))
    played = draw(st.integers(0, 0 if trick_start else len(active) - 1))
    seed = draw(st.integers(0, 2**32 - 1))
    return random_position(random.Random(seed), tricks, active, trump, leader, declarer, played,
                           overtrump)

def relocate_below(pos: Position, relevant: int, seed: int) -> Position:
    """``pos`` with the cards of each suit below its lowest relevant card dealt again at
    random among the hands that held them, each hand keeping its length in the suit."""
    rng = random.Random(seed)
    hands = [pos.hand(s) if s in pos.active else 0 for s in range(3)]
    for suit in range(4):
        in_suit = [c for c in range(8 * suit, 8 * suit + 8)
                   if any(h >> c & 1 for h in hands)]
        floor = min((c for c in in_suit if relevant >> c & 1), default=8 * suit + 8)
        low = [c for c in in_suit if c < floor]
        owners = [next(s for s in range(3) if hands[s] >> c & 1) for c in low]
        rng.shuffle(owners)
        for c, owner in zip(low, owners, strict=True):
            for s in range(3):
                hands[s] &= ~(1 << c)
            hands[owner] |= 1 << c
    return Position(tuple(hands), pos.trump, pos.leader, pos.declarer, pos.active,
                    overtrump=pos.overtrump)


def reference_value(pos: Position) -> int:
    """The declarer's tricks from ``pos`` by plain exhaustive minimax (under the position's
    rule of play: ``Position.overtrump``)."""
    hands = [pos.hand(s) for s in range(3)]
    return minimax(hands, pos.trump, pos.leader, pos.declarer, pos.active, pos.trick,
                   pos.overtrump)


def synthetic(path, deals: int, seed: int, files: int = 3) -> pd.DataFrame:
    """A dataset in the simulation schema with random tricks: every declarer and strain of
    ``deals`` deals, cut into ``files`` parts; returns the rows as a DataFrame."""
    rng = np.random.default_rng(seed)
    rows = deals * 3 * 5
    frame = pd.DataFrame({field.name: np.zeros(rows, dtype=field.type.to_pandas_dtype())
                          for field in SCHEMA if field.name != "strain"})
    frame["deal"] = np.repeat(np.arange(deals), 15)
    frame["declarer"] = np.tile(np.repeat(np.arange(3), 5), deals).astype(np.int8)
    frame["strain"] = np.tile(["S", "C", "D", "H", "NT"], deals * 3)
    for mode in ("both", "first", "second"):
        frame[f"tricks_{mode}"] = rng.integers(0, 11, rows).astype(np.int8)
    frame = frame[SCHEMA.names]
    path.mkdir()
    for i, part in enumerate(np.array_split(np.arange(deals), files)):
        chunk = frame[frame.deal.isin(part)]
        pq.write_table(pa.Table.from_pandas(chunk, schema=SCHEMA, preserve_index=False),
                       path / f"part-{i:05d}.parquet")
    return frame


def random_deal(rng: random.Random) -> tuple[list[int], int]:
    """Three shuffled 10-card hands and the widow, from the standard library's ``rng``."""
    deck = list(range(32))
    rng.shuffle(deck)
    return [sum(1 << c for c in deck[10 * s:10 * s + 10]) for s in range(3)], (
        (1 << deck[30]) | (1 << deck[31]))


def relocated(pos: Position, rng: random.Random) -> Position:
    """``pos`` with the cards below a random floor in each suit (none, or every card of
    the suit) dealt again (``relocate_below``)."""
    floors = [rng.randrange(9) for _ in range(4)]  # 8: every card of the suit
    relevant = sum(1 << (8 * suit + f) for suit, f in enumerate(floors) if f < 8)
    return relocate_below(pos, relevant, rng.randrange(2**32))


def assert_the_table_answers_relocated_low_cards(pos: Position, seed: int) -> None:
    """Solve ``pos``, then four ``relocated`` copies of it with the table kept, each
    against minimax: the table answers for every way the low cards can lie."""
    from prefa_sim.solve.solver import Solver

    rng = random.Random(seed)
    solver = Solver(table_bits=12)
    assert solver.solve(pos) == reference_value(pos)
    for _ in range(4):
        other = relocated(pos, rng)
        assert solver.solve(other) == reference_value(other)


def assert_card_values_match_minimax(solver, pos: Position) -> None:
    """Every legal card's value is the declarer's tricks after it by minimax."""
    values = solver.card_values(pos)
    assert set(values) == {c for c in range(32) if pos.legal_cards() >> c & 1}
    for card, value in values.items():
        after, winner = pos.play(card)
        won = 1 if winner == pos.declarer else 0
        assert value == won + (reference_value(after) if after.tricks_left else 0)
