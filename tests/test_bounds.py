"""The search's sure-trick bounds never promise more than best play gives."""

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from prefa_sim.engine.search import quick_tricks, stopper_tricks, sure_trump_tricks

from .helpers import random_position
from .reference import minimax

ACTIVE_SETS = [(0, 1, 2), (0, 1), (0, 2), (1, 2)]


@settings(max_examples=1500, deadline=None)
@given(st.sampled_from(ACTIVE_SETS), st.integers(1, 4), st.integers(0, 4),
       st.integers(0, 2), st.integers(0, 2), st.integers(0, 2**32 - 1))
def test_bounds_hold_at_trick_starts(active, tricks, trump, leader_pick, declarer_pick, seed):
    leader = active[leader_pick % len(active)]
    declarer = active[declarer_pick % len(active)]
    pos = random_position(random.Random(seed), tricks, active, trump, leader, declarer, 0)
    hands = np.array([pos.hand(s) if s in active else 0 for s in range(3)], dtype=np.int64)
    value = minimax([int(h) for h in hands], trump, leader, declarer, active, ())
    defence = tricks - value

    trump_lower, trump_defence = sure_trump_tricks(hands, declarer, trump)
    stop_lower, stop_defence = stopper_tricks(hands, declarer, trump, len(active))
    quick = quick_tricks(hands, leader, trump)
    assert trump_lower <= value and stop_lower <= value
    assert trump_defence <= defence and stop_defence <= defence
    assert quick <= (value if leader == declarer else defence)
