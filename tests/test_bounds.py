"""The search's sure-trick bounds never promise more than best play gives."""

import numpy as np
from hypothesis import given, settings

from prefa_sim.engine.search import quick_tricks, stopper_tricks, sure_trump_tricks

from .helpers import endings, reference_value


@settings(max_examples=1500, deadline=None)
@given(endings(trick_start=True))
def test_bounds_hold_at_trick_starts(pos):
    hands = np.array([pos.hand(s) if s in pos.active else 0 for s in range(3)], dtype=np.int64)
    value = reference_value(pos)
    defence = pos.tricks_left - value
    declarer, trump = pos.declarer, int(pos.trump)

    trump_lower, trump_defence = sure_trump_tricks(hands, declarer, trump)
    stop_lower, stop_defence = stopper_tricks(hands, declarer, trump, len(pos.active))
    quick = quick_tricks(hands, pos.leader, trump)
    assert trump_lower <= value and stop_lower <= value
    assert trump_defence <= defence and stop_defence <= defence
    assert quick <= (value if pos.leader == declarer else defence)
