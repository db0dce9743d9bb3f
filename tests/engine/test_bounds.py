"""The search's sure-trick bounds never promise more than best play gives, and hold
wherever the cards they name as relevant lie the same (partial positions)."""

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from prefa_sim.core.cards import parse_hand
from prefa_sim.core.position import Position
from prefa_sim.engine.bounds import (
    control_tricks,
    guarded_trick,
    quick_tricks,
    stopper_tricks,
    sure_trump_tricks,
    waiting_tricks,
)

from ..helpers import ACTIVE_SETS, endings, random_position, reference_value, relocate_below


def hands_array(pos: Position) -> np.ndarray:
    return np.array([pos.hand(s) if s in pos.active else 0 for s in range(3)], dtype=np.int64)


def bounds(pos: Position) -> list[tuple[int, int, bool]]:
    """Every bound as (tricks, relevant cards, for the declarer?)."""
    hands = hands_array(pos)
    declarer, trump = pos.declarer, int(pos.trump)
    trump_lower, trump_defence, rel_lower, rel_defence = sure_trump_tricks(hands, declarer,
                                                                           trump)
    stop_lower, stop_defence, rel_sl, rel_sd = stopper_tricks(hands, declarer, trump,
                                                              len(pos.active))
    quick, rel_quick, side, rel_side = quick_tricks(hands, pos.leader, trump)
    leading = pos.leader == declarer
    cashed = ((side + trump_lower, rel_side | rel_lower, True) if leading
              else (side + trump_defence, rel_side | rel_defence, False))
    control, rel_control = control_tricks(hands, declarer, trump)
    found = [(trump_lower, rel_lower, True), (trump_defence, rel_defence, False),
             (stop_lower, rel_sl, True), (stop_defence, rel_sd, False),
             (quick, rel_quick, leading), (control, rel_control, True), cashed,
             (*waiting_tricks(hands, declarer, trump), True)]
    if len(pos.active) == 2:
        defender = next(s for s in pos.active if s != declarer)
        found += [(*control_tricks(hands, defender, trump), False),
                  (*waiting_tricks(hands, defender, trump), False),
                  (stop_lower + trump_lower, rel_sl | rel_lower, True),
                  (stop_defence + trump_defence, rel_sd | rel_defence, False)]
        found += [guarded(pos, defender, declarer, False), guarded(pos, declarer, defender, True)]
    return found


def guarded(pos: Position, seat: int, other: int, for_declarer: bool) -> tuple[int, int, bool]:
    """``guarded_trick`` of ``seat`` against ``other`` as a bound: 1 trick or none."""
    rel = guarded_trick(pos.hand(seat), pos.hand(other), pos.leader == seat)
    return (1 if rel else 0), rel, for_declarer


@settings(max_examples=1500, deadline=None)
@given(endings(trick_start=True))
def test_bounds_hold_at_trick_starts(pos):
    value = reference_value(pos)
    for tricks, _, for_declarer in bounds(pos):
        assert tricks <= (value if for_declarer else pos.tricks_left - value)


@settings(max_examples=600, deadline=None)
@given(endings(min_tricks=2, max_tricks=4, trick_start=True), st.integers(0, 2**32 - 1))
def test_bounds_hold_wherever_the_irrelevant_cards_lie(pos, seed):
    for tricks, relevant, for_declarer in bounds(pos):
        other = relocate_below(pos, int(relevant), seed)
        value = reference_value(other)
        assert tricks <= (value if for_declarer else other.tricks_left - value)


@st.composite
def top_heavy_endings(draw):
    """Endings without trumps in play where one player (the declarer, or with two hands
    either) holds the top cards of some suits: the positions the waiting-tricks bound
    speaks of, rare among random deals.  Returns the position and that player."""
    active = draw(st.sampled_from([(0, 1, 2), (0, 1, 2), (0, 1), (0, 2), (1, 2)]))
    tricks = draw(st.integers(2, 4 if len(active) == 3 else 5))
    declarer = draw(st.sampled_from(active))
    holder = declarer if len(active) == 3 else draw(st.sampled_from(active))
    leader = draw(st.sampled_from(active))
    suits = draw(st.lists(st.integers(0, 3), min_size=2, max_size=4, unique=True))
    trump = draw(st.sampled_from([4] + [s for s in range(4) if s not in suits]))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    tops = [8 * s + 7 - k for s in suits for k in range(rng.randint(0, 2))]  # ace, king
    rng.shuffle(tops)
    tops = tops[:tricks]
    rest = [c for c in range(32) if c // 8 in suits and c not in tops]
    rng.shuffle(rest)
    dealt = {holder: tops + rest[:tricks - len(tops)]}
    rest = rest[tricks - len(tops):]
    for seat in active:
        if seat != holder:
            dealt[seat], rest = rest[:tricks], rest[tricks:]
    hands = [sum(1 << c for c in dealt.get(seat, [])) for seat in range(3)]
    return Position(tuple(hands), trump, leader, declarer, active), holder


def side_tricks(pos: Position, seat: int) -> int:
    """The tricks left that ``seat``'s side takes with best play."""
    value = reference_value(pos)
    return value if seat == pos.declarer else pos.tricks_left - value


@settings(max_examples=800, deadline=None)
@given(top_heavy_endings(), st.integers(0, 2**32 - 1))
def test_waiting_tricks_hold_wherever_the_irrelevant_cards_lie(ending, seed):
    pos, holder = ending
    tricks, relevant = waiting_tricks(hands_array(pos), holder, int(pos.trump))
    assert tricks <= side_tricks(pos, holder)
    assert tricks <= side_tricks(relocate_below(pos, int(relevant), seed), holder)


@st.composite
def two_hand_endings(draw):
    """Two-hand endings at a trick start, up to five tricks: the guarded trick is found in
    about half of them."""
    active = draw(st.sampled_from(ACTIVE_SETS[1:]))
    return random_position(random.Random(draw(st.integers(0, 2**32 - 1))),
                           draw(st.integers(2, 5)), active, draw(st.integers(0, 4)),
                           draw(st.sampled_from(active)), draw(st.sampled_from(active)), 0)


@settings(max_examples=600, deadline=None)
@given(two_hand_endings(), st.integers(0, 2**32 - 1))
def test_guarded_trick_is_taken_wherever_the_irrelevant_cards_lie(pos, seed):
    for seat in pos.active:
        other = next(s for s in pos.active if s != seat)
        tricks, relevant, _ = guarded(pos, seat, other, seat == pos.declarer)
        assert tricks <= side_tricks(pos, seat)
        assert tricks <= side_tricks(relocate_below(pos, relevant, seed), seat)


def test_guarded_trick_beats_a_declarer_who_needs_every_trick():
    # No trumps, the declarer on lead with two spade and a club winners and the king of
    # hearts: the defender keeps the queen guarded and takes the fifth trick.
    declarer, defender = parse_hand("T9.9.-.KT"), parse_hand("87.-.-.Q98")
    pos = Position((declarer, defender, 0), 4, 0, 0, (0, 1))
    assert guarded_trick(defender, declarer, False) == 1 << (8 * 3 + 3)  # the ten
    assert reference_value(pos) == 4


def test_no_guarded_trick_for_a_leader_holding_one_suit():
    # On lead with nothing but diamonds, the defender must lead into the king and ten.
    declarer, defender = parse_hand("-.-.KT.T"), parse_hand("-.-.J87.-")
    pos = Position((declarer, defender, 0), 0, 1, 0, (0, 1))
    assert reference_value(pos) == 3
    assert guarded_trick(defender, declarer, True) == 0
    assert guarded_trick(defender, declarer, False) != 0  # with the declarer on lead
    assert reference_value(Position((declarer, defender, 0), 0, 0, 0, (0, 1))) == 2
