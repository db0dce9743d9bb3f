"""Kernels built on the zero-window search: exact values, per-card values, widow search.

All take the transposition ``table``, the lookup tables (``rel_tab``,
``eq_tab``), the 2-hand endgame table (``endgame``, ``endgame.EMPTY_ENDGAME`` for
none) and scratch arrays (``work``, ``moves``, ``stats``) that the Python front end
(``prefa_sim.solve.solver.Solver``) creates once.  Hands are ``int64[3]`` card masks; a
seat out of play holds 0.
"""

import numpy as np
from numba import njit

from .bits import lowest_bit, popcount
from .layout import (
    CTX_ACTIVE,
    CTX_DECLARER,
    CTX_GENERATION,
    CTX_N_ACTIVE,
    CTX_TRUMP,
    GENERATION_MASK,
    STAT_SEARCHES,
    W_BEST,
    W_BEST_SEAT,
    W_CARD,
    W_PLAYER,
    W_TABLE,
)
from .moves import beats, next_active
from .search import search


@njit(cache=True)
def setup_trick(trick_cards, n_trick, trick_leader, ctx, work):
    """Write the cards already on the current trick into ``work``; return the seat to move."""
    seat = trick_leader
    best = -1
    best_seat = -1
    on_table = np.int64(0)
    for i in range(n_trick):
        c = trick_cards[i]
        work[i, W_CARD] = c
        work[i, W_PLAYER] = seat
        if i == 0 or beats(c, best, ctx[CTX_TRUMP]):
            best = c
            best_seat = seat
        on_table |= np.int64(1) << c
        seat = next_active(seat, ctx[CTX_ACTIVE])
    work[n_trick, W_PLAYER] = seat
    work[n_trick, W_BEST] = best
    work[n_trick, W_BEST_SEAT] = best_seat
    work[n_trick, W_TABLE] = on_table
    return seat


@njit(cache=True)
def estimate_tricks(hands, declarer, leader, trump, active):
    """A rough guess of the declarer's tricks out of ten, from high cards and trumps.

    Only the order of the zero-window tests depends on it, never the answer.
    Least-squares fits on random deals, in hundredths of a trick, rounded up
    a little: a test just above the answer fails quickly, so erring high is cheaper.
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
        return (est + 90) // 100
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
    return (est + 130) // 100


@njit(cache=True)
def exact_value(hands, n_trick, lo, hi, guess, ctx, table, rel_tab, eq_tab, endgame, work,
                moves, stats):
    """The declarer's tricks from the position set up in ``work`` (``lo <= value <= hi``).

    Zero-window tests step from ``guess`` towards the answer (MTD(f)); the
    table keeps the bounds each test proves, so later tests run mostly on
    stored results.
    """
    target = min(max(guess, lo + 1), hi)
    while lo < hi:
        stats[STAT_SEARCHES] += 1
        if search(hands, n_trick, target, ctx, table, rel_tab, eq_tab, endgame, work, moves, stats):
            lo = target
            target += 1
        else:
            hi = target - 1
            target -= 1
    return lo


@njit(cache=True)
def solve_position(hands, trick_cards, n_trick, trick_leader, declarer_won, ctx,
                   table, rel_tab, eq_tab, endgame, work, moves, stats):
    """Exact declarer tricks from a position, counting ``declarer_won`` tricks already taken.

    Returns ``declarer_won`` plus the tricks the declarer takes from here on
    (the current trick included).
    """
    mover = setup_trick(trick_cards, n_trick, trick_leader, ctx, work)
    remaining = popcount(hands[mover])
    guess = estimate_tricks(hands, ctx[CTX_DECLARER], trick_leader, ctx[CTX_TRUMP],
                            ctx[CTX_ACTIVE])
    guess = guess * remaining // 10
    value = exact_value(hands, n_trick, 0, remaining, guess, ctx, table,
                        rel_tab, eq_tab, endgame, work, moves, stats)
    return declarer_won + value


@njit(cache=True)
def trick_winner(trick_cards, n, trick_leader, trump, active):
    """Seat that wins a complete trick of ``n`` cards led by ``trick_leader``."""
    best = trick_cards[0]
    winner = trick_leader
    seat = trick_leader
    for i in range(1, n):
        seat = next_active(seat, active)
        if beats(trick_cards[i], best, trump):
            best = trick_cards[i]
            winner = seat
    return winner


@njit(cache=True)
def card_values(hands, trick_cards, n_trick, trick_leader, ctx, table, rel_tab, eq_tab, endgame,
                work, moves, stats, cards, out):
    """For each card in ``cards`` (the mover's legal cards), the declarer's tricks
    from the current trick on after that card is played, with best play after it."""
    active = ctx[CTX_ACTIVE]
    nact = ctx[CTX_N_ACTIVE]
    mover = trick_leader
    for _ in range(n_trick):
        mover = next_active(mover, active)
    after = np.zeros(3, dtype=np.int64)
    for k in range(cards.shape[0]):
        c = cards[k]
        hands[mover] ^= np.int64(1) << c
        trick_cards[n_trick] = c
        if n_trick + 1 == nact:
            winner = trick_winner(trick_cards, nact, trick_leader, ctx[CTX_TRUMP], active)
            won = 1 if winner == ctx[CTX_DECLARER] else 0
            out[k] = solve_position(hands, after, 0, winner, won, ctx, table, rel_tab,
                                    eq_tab, endgame, work, moves, stats)
        else:
            out[k] = solve_position(hands, trick_cards, n_trick + 1, trick_leader, 0, ctx,
                                    table, rel_tab, eq_tab, endgame, work, moves, stats)
        hands[mover] ^= np.int64(1) << c


@njit(cache=True)
def _run_ids(hand12, in_play, cards):
    """Run number of each card of ``cards`` (ascending): equal cards share a run."""
    runs = np.zeros(cards.shape[0], dtype=np.int64)
    others = in_play & ~hand12
    run = 0
    for i in range(1, cards.shape[0]):
        lo = cards[i - 1]
        hi = cards[i]
        between = others & (((np.int64(1) << hi) - 1) & ~((np.int64(2) << lo) - 1))
        if (lo >> 3) != (hi >> 3) or between:
            run += 1
        runs[i] = run
    return runs


@njit(cache=True)
def widow_search(hands, hand12, leader, ctx, table, rel_tab, eq_tab, endgame, work, moves, stats,
                 pair_reaches):
    """Best declarer tricks over all discards of two cards from ``hand12``.

    ``hands[declarer]`` is overwritten with each 10-card hand tried and
    restored to 0 at the end.  ``pair_reaches[k]`` is set to 1 for every
    discard pair that reaches the best, pairs numbered ``(i, j), i < j`` in
    order over the 12 cards in ascending card order.  Returns the best.

    Discards differing only by equal cards form one class and are searched
    once.  Classes are tried from the most promising (by estimate); the first
    is solved exactly, every other one is first asked only "does it reach the
    best so far?" by one zero-window test, and solved upward only when it does.
    """
    declarer = ctx[CTX_DECLARER]
    active = ctx[CTX_ACTIVE]
    cards = np.zeros(12, dtype=np.int64)
    m = hand12
    for i in range(12):
        cards[i] = lowest_bit(m)
        m &= m - 1
    in_play = hand12
    for s in range(3):
        if s != declarer:
            in_play |= hands[s]
    runs = _run_ids(hand12, in_play, cards)
    # Classes of discard pairs: the pair of runs they take their cards from.
    pair_class = np.zeros(66, dtype=np.int64)
    class_of_runs = np.full(144, -1, dtype=np.int64)
    class_pair = np.zeros(66, dtype=np.int64)
    n_classes = 0
    k = 0
    for i in range(12):
        for j in range(i + 1, 12):
            key = runs[i] * 12 + runs[j]
            if class_of_runs[key] < 0:
                class_of_runs[key] = n_classes
                class_pair[n_classes] = k
                n_classes += 1
            pair_class[k] = class_of_runs[key]
            k += 1
    pair_i = np.zeros(66, dtype=np.int64)
    pair_j = np.zeros(66, dtype=np.int64)
    k = 0
    for i in range(12):
        for j in range(i + 1, 12):
            pair_i[k] = i
            pair_j[k] = j
            k += 1
    # Order the classes by estimated tricks, most promising first.
    order = np.zeros(n_classes, dtype=np.int64)
    score = np.zeros(n_classes, dtype=np.int64)
    for c in range(n_classes):
        kp = class_pair[c]
        hands[declarer] = hand12 & ~(np.int64(1) << cards[pair_i[kp]]) & ~(
            np.int64(1) << cards[pair_j[kp]])
        score[c] = discard_score(hands, declarer, leader, ctx[CTX_TRUMP], active)
        i = c
        while i > 0 and score[order[i - 1]] < score[c]:
            order[i] = order[i - 1]
            i -= 1
        order[i] = c
    reaches = np.zeros(n_classes, dtype=np.int64)
    best = -1
    tricks = popcount(hand12) - 2
    for n in range(n_classes):
        c = order[n]
        kp = class_pair[c]
        hands[declarer] = hand12 & ~(np.int64(1) << cards[pair_i[kp]]) & ~(
            np.int64(1) << cards[pair_j[kp]])
        setup_trick(cards, 0, leader, ctx, work)
        if best < 0:
            guess = estimate_tricks(hands, declarer, leader, ctx[CTX_TRUMP], active)
            best = exact_value(hands, 0, 0, tricks, guess, ctx, table, rel_tab, eq_tab, endgame,
                               work, moves, stats)
            reaches[c] = 1
            continue
        if best > 0 and not search(hands, 0, best, ctx, table, rel_tab, eq_tab, endgame, work,
                                   moves, stats):
            continue
        if best < tricks and search(hands, 0, best + 1, ctx, table, rel_tab, eq_tab, endgame,
                                    work, moves, stats):
            best = exact_value(hands, 0, best + 1, tricks, best + 2, ctx, table, rel_tab,
                               eq_tab, endgame, work, moves, stats)
            reaches[:] = 0
        reaches[c] = 1
    hands[declarer] = 0
    for kp in range(66):
        pair_reaches[kp] = reaches[pair_class[kp]]
    return best


@njit(cache=True)
def discard_score(hands, declarer, leader, trump, active):
    """Ordering score of a 10-card declarer hand: estimated tricks, then voids."""
    hand = hands[declarer]
    voids = 0
    for s in range(4):
        if s != trump and ((hand >> (8 * s)) & 255) == 0:
            voids += 1
    return 16 * estimate_tricks(hands, declarer, leader, trump, active) + voids


@njit(cache=True, nogil=True)  # nogil: a process solving a batch still feeds its workers
def solve_many(deals, ctx, table, rel_tab, eq_tab, endgame, work, moves, stats, out, fresh_table):
    """Solve positions at a trick start: ``deals[i] = [h0, h1, h2, trump, leader, declarer,
    active_mask]``, hands of seats out of play ignored.

    ``ctx`` carries the starting generation; with ``fresh_table`` every deal
    gets a generation of its own, so no deal profits from another's entries.
    """
    trick = np.zeros(3, dtype=np.int64)
    hands = np.zeros(3, dtype=np.int64)
    row = ctx.copy()
    for i in range(deals.shape[0]):
        active = deals[i, 6]
        for s in range(3):
            hands[s] = deals[i, s] if (active >> s) & 1 else 0
        row[CTX_TRUMP] = deals[i, 3]
        row[CTX_DECLARER] = deals[i, 5]
        row[CTX_ACTIVE] = active
        row[CTX_N_ACTIVE] = popcount(active)
        if fresh_table:
            row[CTX_GENERATION] = (ctx[CTX_GENERATION] + i) & GENERATION_MASK
        out[i] = solve_position(hands, trick, 0, deals[i, 4], 0, row, table, rel_tab, eq_tab,
                                endgame, work, moves, stats)


@njit(cache=True, nogil=True)  # nogil: a process solving a batch still feeds its workers
def widow_many(cells, ctx, table, rel_tab, eq_tab, endgame, work, moves, stats, best, reaches):
    """``widow_search`` over many cells in one call: ``cells[i] = [h0, h1, h2, hand12,
    trump, leader, declarer, active_mask]`` (the declarer's own entry and the hands of
    seats out of play ignored); ``best[i]`` the best tricks, ``reaches[i]`` the 66 pairs'
    flags."""
    hands = np.zeros(3, dtype=np.int64)
    row = ctx.copy()
    for i in range(cells.shape[0]):
        active = cells[i, 7]
        declarer = cells[i, 6]
        for s in range(3):
            hands[s] = cells[i, s] if (active >> s) & 1 and s != declarer else 0
        row[CTX_TRUMP] = cells[i, 4]
        row[CTX_DECLARER] = declarer
        row[CTX_ACTIVE] = active
        row[CTX_N_ACTIVE] = popcount(active)
        best[i] = widow_search(hands, cells[i, 3], cells[i, 5], row, table, rel_tab, eq_tab,
                               endgame, work, moves, stats, reaches[i])


def compiled() -> bool:
    """Is the search kernel in numba's cache, so that the first solve loads it instead of
    compiling it (some half a minute)?  Every solve and simulation calls it; the small
    kernels around it compile in seconds.  True when numba does not say where its cache
    is."""
    from pathlib import Path

    try:
        return Path(search._cache._cache_file._index_path).exists()
    except AttributeError:  # pragma: no cover - another numba's internals
        return True
