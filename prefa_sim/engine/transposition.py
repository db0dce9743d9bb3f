"""The transposition table of partial positions: the keys of a trick start (lengths, and
who holds the relevant cards), the relevant cards of a result, and the probe and store of
a bucket (the search's docstring describes the scheme)."""

import numpy as np
from numba import njit

from .bits import highest_bit, lowest_bit, popcount
from .layout import (
    CTX_ACTIVE,
    CTX_DECLARER,
    CTX_FLAGS,
    CTX_TRUMP,
    FIFO_SHIFT,
    GENERATION_MASK,
    HASH_MULT,
    LENGTH_BITS,
    LOWER_SHIFT,
    MOVE_SHIFT,
    T_DATA,
    T_KEY,
    T_LENGTHS,
    T_MASK,
    UPPER_SHIFT,
    WAYS,
)
from .lookup import RANK_CARDS, RELATIVE_RANKS
from .moves import cards_above, strain_in_play
from .suits import (
    SUIT_BITS,
    at_or_above_bottom,
    suit_lengths,
)


@njit(cache=True, inline="always")
def length_key(hands, leader, ctx):
    """Bucket key of a trick start: every seat's length in every suit (seat 0's and 1's
    in the low and high half of each byte of bits 0-31, seat 2's in the low halves of
    bits 32-63), who leads, and the strain, declarer, rules of play (``CTX_FLAGS``) and
    seats in play (high halves), so that results under other rules never meet.
    A position with no trumps left plays as in no-trumps and is keyed so, which lets
    the strains of one deal share it."""
    key = suit_lengths(hands[0]) | (suit_lengths(hands[1]) << 4)
    key |= suit_lengths(hands[2]) << 32
    strain = strain_in_play(hands, ctx[CTX_TRUMP])
    key |= (leader << 36) | (ctx[CTX_DECLARER] << 38) | (strain << 44)
    return key | (ctx[CTX_FLAGS] << 47) | (ctx[CTX_ACTIVE] << 52)


@njit(cache=True, inline="always")
def rank_key(hands, rel_tab):
    """Who holds which relative rank: seat 0's cards of each suit renumbered among the
    cards still in play in bits 0-31, seat 1's in bits 32-63 (seat 2 holds the rest)."""
    rem = hands[0] | hands[1] | hands[2]
    key = np.int64(0)
    for s in range(4):
        sh = 8 * s
        r = (rem >> sh) & SUIT_BITS
        if r == 0:
            continue
        base = r << 8
        key |= np.int64(rel_tab[base | ((hands[0] >> sh) & SUIT_BITS)]) << sh
        key |= np.int64(rel_tab[base | ((hands[1] >> sh) & SUIT_BITS)]) << (sh + 32)
    return key


@njit(cache=True, inline="always")
def relevance_mask(rel, in_play):
    """The bits of a rank key that a result depending on the cards ``rel`` needs: in each
    suit, the relative ranks from the lowest card of ``rel`` up, in both halves."""
    kept = in_play & at_or_above_bottom(rel & in_play)
    mask = np.int64(0)
    for s in range(4):
        sh = 8 * s
        mask |= np.int64(RELATIVE_RANKS[(((in_play >> sh) & SUIT_BITS) << 8)
                                        | ((kept >> sh) & SUIT_BITS)]) << sh
    return mask | (mask << 32)


@njit(cache=True, inline="always")
def relevant_cards(mask, in_play):
    """The cards a ``relevance_mask`` stands for in the position ``in_play``: in each
    suit, the cards still in play at the relative ranks it keeps."""
    rel = np.int64(0)
    for s in range(4):
        sh = 8 * s
        rel |= np.int64(RANK_CARDS[(((in_play >> sh) & SUIT_BITS) << 8)
                                   | ((mask >> sh) & SUIT_BITS)]) << sh
    return rel


@njit(cache=True, inline="always")
def trick_relevance(best, winner, on_table, hands):
    """Cards whose ranks decided a complete trick won by ``best`` (seat ``winner``).

    None when ``best`` won by suit alone; otherwise ``best`` and the cards below it
    in the same unbroken run of the winner's hand, which the search let ``best``
    stand for: given as the lowest of them.
    """
    suit = SUIT_BITS << (8 * (best >> 3))
    if popcount(on_table & suit) < 2:
        return np.int64(0)
    below = (hands[0] | hands[1] | hands[2] | on_table) & suit & ((np.int64(1) << best) - 1)
    others = below & ~hands[winner]
    run = below & cards_above(highest_bit(others)) if others else below
    return np.int64(1) << (lowest_bit(run) if run else best)


@njit(cache=True, inline="always")
def encode_move(card, hands):
    """A card as valid bit, suit and rank among the cards of its suit still in play."""
    s = card >> 3
    rem = ((hands[0] | hands[1] | hands[2]) >> (8 * s)) & SUIT_BITS
    return 32 | (s << 3) | popcount(rem & ((1 << (card & 7)) - 1))


@njit(cache=True, inline="always")
def decode_move(code, hands, player):
    """The card that ``encode_move`` encoded, if it is ``player``'s; else (an entry that
    matched on other cards than the lead) the player's lowest card of that suit; -1 when
    ``code`` holds no card or the player has none of the suit."""
    if not code & 32:
        return -1
    s = (code >> 3) & 3
    rem = ((hands[0] | hands[1] | hands[2]) >> (8 * s)) & SUIT_BITS
    for _ in range(code & 7):
        rem &= rem - 1
    card = 8 * s + lowest_bit(rem) if rem else -1
    if card >= 0 and (hands[player] >> card) & 1:
        return card
    own = (hands[player] >> (8 * s)) & SUIT_BITS
    return 8 * s + lowest_bit(own) if own else -1


@njit(cache=True, inline="always")
def table_bucket(lengths, generation, mask):
    """Bucket (row) of a length key in a table of ``mask + 1`` rows."""
    h = (lengths ^ (generation * 0x2545F491)) * HASH_MULT
    h ^= (h >> 31) & 0x1FFFFFFFF
    h *= HASH_MULT
    return (h >> 20) & mask


@njit(cache=True, inline="always")
def probe(table, bucket, lengths, key, generation, target):
    """Look a trick start up: ``(result, way, hint)``.  ``result`` is 1 when an entry
    proves the declarer reaches ``target``, 0 when one proves it fails (``way`` is
    that entry's), -1 otherwise; ``hint`` is the way of an entry with a stored lead, or -1."""
    hint = -1
    matches = 0
    for w in range(WAYS):
        matches |= np.int64((table[bucket, T_LENGTHS + w] & LENGTH_BITS) == lengths) << w
    while matches:
        w = lowest_bit(matches)
        matches &= matches - 1
        data = table[bucket, T_DATA + 3 * w]
        if (data & GENERATION_MASK) != generation or (
                key & table[bucket, T_MASK + 3 * w]) != table[bucket, T_KEY + 3 * w]:
            continue
        if ((data >> LOWER_SHIFT) & 15) >= target:
            return 1, w, hint
        if ((data >> UPPER_SHIFT) & 15) < target:
            return 0, w, hint
        if hint < 0 and (data >> MOVE_SHIFT) & 32:
            hint = w
    return -1, -1, hint


@njit(cache=True, inline="always")
def store(table, bucket, lengths, key, mask, generation, tricks, target, val, move):
    """Record that the declarer does (``val``) or does not reach ``target`` from a trick
    start where ``tricks`` are left, for every position that matches ``key`` on ``mask``,
    in place of the bucket's oldest entry.  (Merging with an entry for the same
    positions found nothing more on the benchmark deals: a probe reads every way.)
    """
    way = table[bucket, T_LENGTHS] >> FIFO_SHIFT
    lower = target if val else 0
    upper = tricks if val else target - 1
    table[bucket, T_LENGTHS + way] = lengths
    following = way + 1 if way < WAYS - 1 else 0
    table[bucket, T_LENGTHS] = (table[bucket, T_LENGTHS] & LENGTH_BITS) | (
        following << FIFO_SHIFT)
    table[bucket, T_KEY + 3 * way] = key & mask
    table[bucket, T_MASK + 3 * way] = mask
    table[bucket, T_DATA + 3 * way] = (generation | (lower << LOWER_SHIFT)
                                       | (upper << UPPER_SHIFT) | (move << MOVE_SHIFT))
