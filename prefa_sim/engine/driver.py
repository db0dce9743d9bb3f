"""Kernels built on the zero-window search: exact values, per-card values, widow search.

All take a ``Table`` worth of arrays (``tt_key``, ``tt_bound``), the lookup
tables, and scratch arrays (``work``, ``moves``, ``stats``) created once by the
Python front end.
"""

import numpy as np
from numba import njit

from .bits import popcount
from .search import (
    CTX_ACTIVE,
    CTX_DECLARER,
    CTX_TRUMP,
    W_CARD,
    W_PLAYER,
    next_active,
    search,
)


@njit(cache=True)
def setup_trick(trick_cards, n_trick, trick_leader, active, work):
    """Write the cards already on the current trick into ``work``; return the seat to move."""
    seat = trick_leader
    for i in range(n_trick):
        work[i, W_CARD] = trick_cards[i]
        work[i, W_PLAYER] = seat
        seat = next_active(seat, active)
    work[n_trick, W_PLAYER] = seat
    return seat


@njit(cache=True)
def estimate_tricks(hands, declarer, leader, trump, active):
    """A rough guess of the declarer's tricks out of ten, from high cards and trumps.

    Only the order of the zero-window tests depends on it, never the answer.
    Least-squares fits on random deals, in hundredths of a trick.
    """
    hand = hands[declarer]
    lead_bonus = 52 if leader == declarer else 0
    if popcount(active) == 2:
        other = hands[0] | hands[1] | hands[2]
        other &= ~hand
        est = 482 + 40 * (leader == declarer)
        est += 74 * (popcount(hand & 0x80808080) - popcount(other & 0x80808080))
        est += 52 * (popcount(hand & 0x40404040) - popcount(other & 0x40404040))
        est += 33 * (popcount(hand & 0x20202020) - popcount(other & 0x20202020))
        est += 17 * (popcount(hand & 0x10101010) - popcount(other & 0x10101010))
        if trump < 4:
            tmask = np.int64(255) << (8 * trump)
            est += 62 * (popcount(hand & tmask) - popcount(other & tmask))
        return (est + 50) // 100
    est = -270 + 137 * popcount(hand & 0x80808080) + 61 * popcount(hand & 0x40404040)
    est += 17 * popcount(hand & 0x20202020) + lead_bonus
    if trump < 4:
        t = (hand >> (8 * trump)) & 255
        est += 84 * popcount(t) + 27 * popcount(t & 0xF0)
    else:
        longest = 0
        for s in range(4):
            longest = max(longest, popcount((hand >> (8 * s)) & 255))
        est += 48 * longest
    return (est + 50) // 100


@njit(cache=True)
def exact_value(hands, n_trick, lo, hi, guess, ctx, table, rel_tab, eq_tab, work, moves, stats):
    """The declarer's tricks from the position set up in ``work`` (``lo <= value <= hi``).

    Zero-window tests step from ``guess`` towards the answer (MTD(f)); the
    table keeps the bounds each test proves, so later tests run mostly on
    stored results.
    """
    target = min(max(guess, lo + 1), hi)
    while lo < hi:
        stats[2] += 1
        if search(hands, n_trick, target, ctx, table, rel_tab, eq_tab, work, moves, stats):
            lo = target
            target += 1
        else:
            hi = target - 1
            target -= 1
    return lo


@njit(cache=True)
def solve_position(hands, trick_cards, n_trick, trick_leader, declarer_won, ctx,
                   table, rel_tab, eq_tab, work, moves, stats):
    """Exact declarer tricks from a position, counting ``declarer_won`` tricks already taken.

    Returns ``declarer_won`` plus the tricks the declarer takes from here on
    (the current trick included).
    """
    mover = setup_trick(trick_cards, n_trick, trick_leader, ctx[CTX_ACTIVE], work)
    remaining = popcount(hands[mover])
    guess = estimate_tricks(hands, ctx[CTX_DECLARER], trick_leader, ctx[CTX_TRUMP],
                            ctx[CTX_ACTIVE])
    guess = guess * remaining // 10
    value = exact_value(hands, n_trick, 0, remaining, guess, ctx, table,
                        rel_tab, eq_tab, work, moves, stats)
    return declarer_won + value


@njit(cache=True)
def solve_many(deals, ctx_rows, table, rel_tab, eq_tab, work, moves, stats, out,
               fresh_table):
    """Solve full deals at a trick start: ``deals[i] = [h0, h1, h2, leader]``.

    ``ctx_rows[i]`` is each deal's context; with ``fresh_table`` the table's
    generation moves on per deal, so no deal profits from another's entries.
    """
    trick = np.zeros(3, dtype=np.int64)
    hands = np.zeros(3, dtype=np.int64)
    for i in range(deals.shape[0]):
        ctx = ctx_rows[i]
        for s in range(3):
            hands[s] = deals[i, s] if (ctx[CTX_ACTIVE] >> s) & 1 else 0
        if fresh_table:
            ctx[4] = ctx[4] + i
        out[i] = solve_position(hands, trick, 0, deals[i, 3], 0, ctx, table,
                                rel_tab, eq_tab, work, moves, stats)
