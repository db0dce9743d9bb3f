"""The bytewise suit arithmetic agrees, suit by suit, with counting each suit on its own."""

from hypothesis import given, settings
from hypothesis import strategies as st

from prefa_sim.engine.suits import (
    at_or_above_bottom,
    at_or_below_top,
    suit_lengths,
    suit_max,
    suit_min,
    suit_presence,
    suit_total,
    suits_at_least,
    top_of_each_suit,
)

masks = st.integers(min_value=0, max_value=(1 << 32) - 1)
counts = st.lists(st.integers(min_value=0, max_value=8), min_size=4, max_size=4)


def suit(mask: int, s: int) -> int:
    return (mask >> (8 * s)) & 255


def packed(values: list[int]) -> int:
    return sum(v << (8 * s) for s, v in enumerate(values))


@settings(max_examples=500, deadline=None)  # the first call compiles
@given(masks)
def test_lengths_presence_and_the_ranks_up_to_the_top_and_from_the_bottom_card(hand: int) -> None:
    lengths = suit_lengths(hand)
    presence = suit_presence(hand)
    down = at_or_below_top(hand)
    up = at_or_above_bottom(hand)
    tops = top_of_each_suit(hand)
    for s in range(4):
        cards = suit(hand, s)
        assert suit(lengths, s) == bin(cards).count("1")
        assert suit(presence, s) == (255 if cards else 0)
        assert suit(down, s) == ((1 << cards.bit_length()) - 1)
        assert suit(up, s) == (255 & -(cards & -cards) if cards else 0)
        assert suit(tops, s) == (1 << (cards.bit_length() - 1) if cards else 0)


@settings(max_examples=500, deadline=None)
@given(counts, counts)
def test_comparisons_minimum_maximum_and_total(a: list[int], b: list[int]) -> None:
    pa, pb = packed(a), packed(b)
    pairs = list(zip(a, b, strict=True))
    assert suits_at_least(pa, pb) == packed([255 if x >= y else 0 for x, y in pairs])
    assert suit_min(pa, pb) == packed([min(x, y) for x, y in pairs])
    assert suit_max(pa, pb) == packed([max(x, y) for x, y in pairs])
    assert suit_total(pa) == sum(a)
    assert suit_presence(pa) == packed([255 if x else 0 for x in a])
