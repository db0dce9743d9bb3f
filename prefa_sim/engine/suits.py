"""Bytewise arithmetic on the four suits of a card mask at once, for the numba kernels.

A card mask holds one suit per byte (``bit = 8 * suit + rank``).  These
functions treat the four bytes as four small numbers side by side (SIMD within
a register), so that a count over all four suits takes a few shifts and masks
instead of a loop with a branch per suit, which the sure-trick bounds at every
trick start would otherwise pay for in mispredicted branches.  "Counts" are
masks whose bytes hold numbers from 0 to 8, as ``suit_lengths`` returns them.
"""

from numba import njit

from ..core.cards import NO_TRUMP  # the strain number of no-trumps (the suits are 0 to 3)

ALL_SUITS = 0xFFFFFFFF
_HIGH = 0x80808080
RANK_BITS = 0x01010101
SUIT_BITS = 255


@njit(cache=True, inline="always")
def trump_held(in_play, trump):
    """Does anyone still hold a card of the trump suit (``trump``, or ``NO_TRUMP``)?
    ``in_play``: every card still in the hands."""
    return trump < NO_TRUMP and ((in_play >> (8 * trump)) & SUIT_BITS) != 0


@njit(cache=True, inline="always")
def suit_lengths(hand):
    """The hand's length in each suit, one per byte (a population count per byte)."""
    v = hand - ((hand >> 1) & 0x55555555)
    v = (v & 0x33333333) + ((v >> 2) & 0x33333333)
    return (v + (v >> 4)) & 0x0F0F0F0F


@njit(cache=True, inline="always")
def suit_presence(hand):
    """All eight bits of each byte of ``hand`` that is not zero (a suit the hand holds
    cards of, or a count above 0)."""
    t = hand | ((hand >> 4) & 0x0F0F0F0F)
    t |= (t >> 2) & 0x33333333
    t |= (t >> 1) & 0x55555555
    return (t & RANK_BITS) * SUIT_BITS


@njit(cache=True, inline="always")
def at_or_below_top(hand):
    """In each suit, the rank of the hand's highest card and every rank below it."""
    hand |= (hand >> 1) & 0x7F7F7F7F
    hand |= (hand >> 2) & 0x3F3F3F3F
    return hand | ((hand >> 4) & 0x0F0F0F0F)


@njit(cache=True, inline="always")
def top_of_each_suit(hand):
    """The hand's highest card of each suit."""
    down = at_or_below_top(hand)
    return down ^ ((down >> 1) & 0x7F7F7F7F)


@njit(cache=True, inline="always")
def at_or_above_bottom(hand):
    """In each suit, the rank of the hand's lowest card and every rank above it."""
    hand |= (hand << 1) & 0xFEFEFEFE
    hand |= (hand << 2) & 0xFCFCFCFC
    return hand | ((hand << 4) & 0xF0F0F0F0)


@njit(cache=True, inline="always")
def suits_at_least(a, b):
    """All eight bits of each suit where count ``a`` is at least count ``b``."""
    return ((((a | _HIGH) - b) & _HIGH) >> 7) * SUIT_BITS


@njit(cache=True, inline="always")
def suit_min(a, b):
    """The smaller of two counts, suit by suit."""
    ge = suits_at_least(a, b)
    return (b & ge) | (a & ~ge)


@njit(cache=True, inline="always")
def suit_max(a, b):
    """The larger of two counts, suit by suit."""
    ge = suits_at_least(a, b)
    return (a & ge) | (b & ~ge)


@njit(cache=True, inline="always")
def suit_total(a):
    """The sum of a count over the four suits."""
    return ((a * 0x01010101) >> 24) & SUIT_BITS
