"""The kernels' lookup tables, and the round trip between cards and relative ranks that
the transposition table's partial positions rest on."""

from hypothesis import given, settings
from hypothesis import strategies as st

from prefa_sim.engine.lookup import RANK_CARDS, RELATIVE_RANKS
from prefa_sim.engine.transposition import relevance_mask, relevant_cards


def test_rank_cards_undo_relative_ranks() -> None:
    for outer in range(256):
        inner = outer
        while True:  # every subset of outer
            ranks = int(RELATIVE_RANKS[outer << 8 | inner])
            assert ranks < 1 << bin(outer).count("1")
            assert RANK_CARDS[outer << 8 | ranks] == inner
            if inner == 0:
                break
            inner = (inner - 1) & outer


def lowest_per_suit(cards: int) -> list[int | None]:
    lowest = []
    for s in range(4):
        suit = (cards >> (8 * s)) & 255
        lowest.append((suit & -suit).bit_length() - 1 if suit else None)
    return lowest


@settings(max_examples=500, deadline=None)  # the first call compiles
@given(st.integers(min_value=0, max_value=(1 << 32) - 1), st.integers(min_value=0))
def test_the_relevant_cards_come_back_from_their_mask(in_play: int, pick: int) -> None:
    rel = in_play & pick
    back = relevant_cards(relevance_mask(rel, in_play), in_play)
    assert back & ~in_play == 0
    assert lowest_per_suit(back) == lowest_per_suit(rel)


@settings(max_examples=500, deadline=None)
@given(st.integers(min_value=0, max_value=(1 << 32) - 1), st.integers(min_value=0))
def test_the_relevance_mask_keeps_the_ranks_from_the_lowest_relevant_card_up(
        in_play: int, pick: int) -> None:
    rel = in_play & pick
    mask = relevance_mask(rel, in_play)
    assert (mask >> 32) & 0xFFFFFFFF == mask & 0xFFFFFFFF  # both halves of a rank key alike
    for s in range(4):
        cards = [b for b in range(8) if in_play >> (8 * s + b) & 1]  # low to high
        relevant = [i for i, b in enumerate(cards) if rel >> (8 * s + b) & 1]
        kept = range(relevant[0], len(cards)) if relevant else range(0)
        assert (mask >> (8 * s)) & 255 == sum(1 << i for i in kept)
