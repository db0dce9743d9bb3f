"""The 2-hand endgame table: exact results of short 2-hand endings, read instead of searched.

With two hands in play and at most ``ENDGAME_TRICKS`` tricks left, a trick start is
one of some 1.6 million positions, up to the ranks of the cards already gone: each
hand's cards of each suit renumbered among the cards still in play, who leads, and
whether a trump suit is still held.  ``endgame_build`` solves each of them once
with the search itself and keeps the declarer's tricks with the cards that result
depends on, so that a lookup gives the search what a search of the position would
have given: a result, and its relevant cards.

A position is indexed in a canonical suit order (the trump suit first while a
trump is held, the others in their order; else the natural order), by its shape
(whether trumps are held and the suits' lengths in play, ranked among the shapes
of as many cards), who leads, and which relative ranks the declarer holds (the
rank of that pattern among those of as many cards).

The table is an int32 array: ``table[0]`` is the number of tricks it covers (0 for
an empty table, which the search never reads), entry ``i`` is at ``table[1 + i]``.
An entry holds the declarer's tricks ``v`` in bits 0-3, then the relevant cards of
"at least ``v``" (which serve every lower target: the same play reaches them) in
bits 4-15, and those of "not ``v + 1``" (which serve every higher one) in bits
16-27.  The relevant cards are packed as, for each suit in canonical order, 3 bits
counting the top cards of the suit in play (7 meaning all) from which on the result
depends.  Keeping those of every target instead saved 0.2% of the 2-hand nodes (with
endings of up to five tricks), in twice the memory.
"""

from math import comb

import numpy as np
from numba import njit

from .bits import lowest_bit, popcount
from .lookup import RANK_CARDS, RELATIVE_RANKS
from .suits import trump_held

ENDGAME_TRICKS = 6
"""Tricks left up to which the table holds every 2-hand trick start."""
REACHED_SHIFT = 4
FAILED_SHIFT = 16
_COUNT_BITS = 3
_ALL_CARDS = 7  # a count meaning every card of the suit still in play


def _shapes() -> tuple[np.ndarray, np.ndarray]:
    """Rank of each shape among those of the same total, for even totals up to
    ``2 * ENDGAME_TRICKS`` (-1 for the others), and the number of shapes of each total.
    A shape is the suit lengths in play ``(l0, l1, l2, l3)`` in canonical order, at index
    ``trump_held * 9**4 + ((l0 * 9 + l1) * 9 + l2) * 9 + l3``; with trumps held ``l0``
    (the trump suit's) is at least 1."""
    ranks = np.full(2 * 9 ** 4, -1, dtype=np.int64)
    seen = np.zeros(2 * ENDGAME_TRICKS + 1, dtype=np.int64)
    for index in range(2 * 9 ** 4):
        trump_held, rest = divmod(index, 9 ** 4)
        lengths = [(rest // 9 ** k) % 9 for k in (3, 2, 1, 0)]
        total = sum(lengths)
        if total % 2 == 0 and 0 < total <= 2 * ENDGAME_TRICKS and lengths[0] >= trump_held:
            ranks[index] = seen[total]
            seen[total] += 1
    return ranks, seen


def _pattern_ranks() -> np.ndarray:
    """Rank of each bit pattern among the patterns with as many bits set, in numeric order."""
    ranks = np.zeros(1 << (2 * ENDGAME_TRICKS), dtype=np.int64)
    seen = [0] * (2 * ENDGAME_TRICKS + 1)
    for bits in range(len(ranks)):
        ones = bin(bits).count("1")
        ranks[bits] = seen[ones]
        seen[ones] += 1
    return ranks


def _layout(shape_counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """Per number of tricks left: the first entry, and the entries per shape and leader;
    and the table's number of entries (``shape_counts``: the shapes of each total)."""
    base = np.zeros(ENDGAME_TRICKS + 1, dtype=np.int64)
    stride = np.zeros(ENDGAME_TRICKS + 1, dtype=np.int64)
    total = 0
    for tricks in range(1, ENDGAME_TRICKS + 1):
        base[tricks] = total
        patterns = comb(2 * tricks, tricks)  # which of the cards in play the declarer holds
        stride[tricks] = patterns
        total += int(shape_counts[2 * tricks]) * 2 * patterns
    return base, stride, total


SHAPE_RANKS, _SHAPE_COUNTS = _shapes()
_PATTERN_RANKS = _pattern_ranks()
LEVEL_BASE, LEVEL_STRIDE, ENDGAME_ENTRIES = _layout(_SHAPE_COUNTS)

EMPTY_ENDGAME = np.zeros(1, dtype=np.int32)
"""A table that covers no tricks: the search never reads it."""


@njit(cache=True, inline="always")
def canonical_suit(slot, held, trump):
    """The suit at ``slot`` of the canonical order: the trump suit first while trumps are
    ``held``, the other suits after it in their order; else the natural order."""
    if not held or slot > trump:
        return slot
    return trump if slot == 0 else slot - 1


@njit(cache=True, inline="always")
def endgame_index(declarer_hand, defender_hand, declarer_leads, trump, tricks):
    """The table entry (from 0) of a 2-hand trick start with ``tricks`` tricks left."""
    in_play = declarer_hand | defender_hand
    held = trump_held(in_play, trump)
    pattern = np.int64(0)
    shift = 0
    shape = 0
    for slot in range(4):
        sh = 8 * canonical_suit(slot, held, trump)
        rem = (in_play >> sh) & 255
        pattern |= np.int64(RELATIVE_RANKS[(rem << 8) | ((declarer_hand >> sh) & 255)]) << shift
        length = popcount(rem)
        shift += length
        shape = shape * 9 + length
    group = SHAPE_RANKS[held * 9 ** 4 + shape] * 2 + declarer_leads
    return LEVEL_BASE[tricks] + group * LEVEL_STRIDE[tricks] + _PATTERN_RANKS[pattern]


@njit(cache=True, inline="always")
def endgame_lookup(table, declarer_hand, defender_hand, declarer_leads, trump, tricks,
                   target):
    """Does the declarer reach ``target`` (1 to ``tricks``) from this 2-hand trick start?
    ``(result, relevant cards)``: the lowest relevant card of each suit stands for it
    and the cards above it, as in the search."""
    entry = table[1 + endgame_index(declarer_hand, defender_hand, declarer_leads, trump,
                                     tricks)]
    tricks_reached = entry & 15
    counts = entry >> (REACHED_SHIFT if target <= tricks_reached else FAILED_SHIFT)
    in_play = declarer_hand | defender_hand
    held = trump_held(in_play, trump)
    rel = np.int64(0)
    for slot in range(4):
        k = (counts >> (_COUNT_BITS * slot)) & _ALL_CARDS
        if k:
            sh = 8 * canonical_suit(slot, held, trump)
            rem = (in_play >> sh) & 255
            length = popcount(rem)
            if k == _ALL_CARDS or k >= length:
                rel |= np.int64(1) << (sh + lowest_bit(rem))
            else:
                rel |= np.int64(RANK_CARDS[(rem << 8) | (1 << (length - k))]) << sh
    return tricks_reached >= target, rel


@njit(cache=True, inline="always")
def relevance_counts(rel, in_play):
    """The packed per-suit counts (natural suit order) of ``rel``: for each suit, the
    cards in play from its lowest relevant card up (``_ALL_CARDS`` for 7 or more)."""
    counts = np.int64(0)
    for s in range(4):
        rem = (in_play >> (8 * s)) & 255
        low = (rel >> (8 * s)) & rem
        if low:
            k = popcount(rem & ~((1 << lowest_bit(low)) - 1))
            counts |= np.int64(min(k, _ALL_CARDS)) << (_COUNT_BITS * s)
    return counts
