"""The double-dummy search kernel: one zero-window test, "does the declarer reach t tricks?".

Everything here is numba over ints and arrays.  A position is three int64 card
masks ``hands[seat]`` (a seat out of play holds 0) plus the cards already on the
current trick.  The search is a depth-first AND/OR search over single card
plays with an explicit stack (no recursion), so that one call walks the whole
tree without call overhead:

* the declarer's nodes succeed when any card succeeds, the defenders' when all do;
* at each trick start: trivial bounds, the last trick played out directly,
  quick tricks for the side on lead, sure trump tricks for each side, the
  tricks of a player holding the only trumps and the tricks top cards in side
  suits the other side holds are sure to take (alone, or added up where they
  are different tricks), the top cards of the side not on lead when no trumps
  are held (``waiting_tricks``: the declarer's, and with two hands the
  defender's), with two hands, where one side needs every trick left, a trick
  the other is sure of with a guarded top card (``guarded_trick``), then
  the transposition table (partial positions, below).  The bounds come first:
  they cost less than a probe, and a result they decide depends on fewer
  cards than a stored one, so the positions above it are stored more generally;
* with two hands and at most ``endgame.ENDGAME_TRICKS`` tricks left, the 2-hand
  endgame table gives the result and its relevant cards instead (``endgame``);
* equal cards are searched once (``lookup.EQUAL_CARD_REPRESENTATIVES``), and a
  card is skipped when a card of its suit already tried at the node lies, like it,
  below every card of the suit that the tried card's result depended on
  (``same_result_cards``);
* moves are tried in groups built from masks (sure winners, cheapest winner,
  low cards); the lead that decided a stored position is tried first, and the
  other leads are only generated when it does not decide it again.

The table stores lower and upper bounds on the declarer's tricks from a trick
start, so bounds found for one target serve every later target, discard,
or deal with the same strain, declarer and active seats (and, once no trumps
are left, the same position in any strain: ``length_key``).

Partial positions.  Every result comes with the set of cards whose ranks it
depended on: the cards that won a trick by beating a card of their own suit
(with the equal cards below them in the same hand, which the search stood
for), and the top cards the sure-trick bounds counted.  A trick start is
stored under every seat's length in every suit (``length_key``) and, within
each suit, only who holds the cards from the lowest relevant one up, counted
among the cards still in play (``relevance_mask`` over ``rank_key``).  Any
position with the same lengths and the same holders of those cards has the
same result: the other cards of a suit lie below all of them and only ever
lose to them or win by suit, never by rank.  So one entry answers for every
way the low cards can lie.  A bucket of ``WAYS`` entries holds results whose
length keys hash to it; a probe checks each, a store replaces the oldest.

Context array ``ctx`` (int64): ``[trump, declarer, active_mask, n_active, generation]``.
"""

import numpy as np
from numba import njit

from .bits import lowest_bit, popcount, prefetch
from .bounds import (
    control_tricks,
    guarded_trick,
    last_trick,
    quick_tricks,
    stopper_tricks,
    sure_trump_tricks,
    waiting_tricks,
)
from .endgame import endgame_lookup
from .layout import (
    CARDS,
    CTX_ACTIVE,
    CTX_DECLARER,
    CTX_FLAGS,
    CTX_GENERATION,
    CTX_N_ACTIVE,
    CTX_TRUMP,
    FLAG_OVERTRUMP,
    GENERATION_MASK,
    MOVE_SHIFT,
    ORDER_SHIFT,
    STAT_ENDGAME_HITS,
    STAT_NODES,
    STAT_TT_HITS,
    T_DATA,
    T_LENGTHS,
    T_MASK,
    W_BEST,
    W_BEST_SEAT,
    W_CARD,
    W_FIRST,
    W_IDX,
    W_KEY1,
    W_KEY2,
    W_KILLER,
    W_LAZY,
    W_NMOVES,
    W_PLAYER,
    W_POS,
    W_REL,
    W_SAME,
    W_SLOT,
    W_TABLE,
    W_TARGET,
    W_TRICK_REL,
)
from .moves import beats, follow_moves, lead_moves, next_active, next_in_group, same_result_cards
from .transposition import (
    decode_move,
    encode_move,
    length_key,
    probe,
    rank_key,
    relevance_mask,
    relevant_cards,
    store,
    table_bucket,
    trick_relevance,
)

_SETUP, _NEXT, _RETURN = 0, 1, 2


# The search allocates nothing, so it is compiled without numba's reference
# counting (``_nrt=False``), which would otherwise sit in the innermost loop.
@njit(cache=True, _nrt=False)
def search(hands, root, target, ctx, table, rel_tab, eq_tab, endgame, work, moves, stats):
    """Zero-window test: can the declarer take at least ``target`` tricks from here?

    ``root`` is the number of cards already on the current trick; rows
    ``0..root-1`` of ``work`` hold them (``W_CARD``, ``W_PLAYER``) and row
    ``root`` holds the seat to move and the trick so far (``W_PLAYER``,
    ``W_BEST``, ``W_BEST_SEAT``, ``W_TABLE``), as ``driver.setup_trick``
    writes them.  ``target`` counts the current trick.  ``hands`` is restored
    before returning, and ``work[root, W_REL]`` holds the cards whose ranks the
    result depends on.  ``endgame`` is the 2-hand endgame table (``endgame``;
    ``endgame[0]`` the tricks it covers, 0 for none).
    """
    trump = ctx[CTX_TRUMP]
    declarer = ctx[CTX_DECLARER]
    active = ctx[CTX_ACTIVE]
    nact = ctx[CTX_N_ACTIVE]
    overtrump = ctx[CTX_FLAGS] & FLAG_OVERTRUMP
    defender = lowest_bit(active & ~(1 << declarer))  # the one, with two hands
    generation = ctx[CTX_GENERATION] & GENERATION_MASK
    tt_mask = table.shape[0] - 1
    p = root
    work[p, W_POS] = root
    work[p, W_TARGET] = target
    state = _SETUP
    val = False
    rel = np.int64(0)  # the cards whose ranks the result being returned depends on
    while True:
        if state == _SETUP:
            stats[STAT_NODES] += 1
            player = work[p, W_PLAYER]
            t = work[p, W_TARGET]
            work[p, W_SLOT] = -1
            work[p, W_REL] = 0
            work[p, W_SAME] = 0
            if work[p, W_POS] == 0:
                r = popcount(hands[player])
                rel = 0
                if t <= 0 or t > r:
                    val = t <= 0
                    state = _RETURN
                    continue
                if r == 1:
                    winner, rel = last_trick(hands, player, trump, active)
                    val = winner == declarer
                    state = _RETURN
                    continue
                if nact == 2 and r <= endgame[0]:  # at the root: its children are read inline
                    stats[STAT_ENDGAME_HITS] += 1
                    val, rel = endgame_lookup(endgame, hands[declarer], hands[defender],
                                              player == declarer, trump, r, t)
                    state = _RETURN
                    continue
                # The bucket is read only if the bounds do not decide: fetch it meanwhile.
                lengths = length_key(hands, player, ctx)
                bucket = table_bucket(lengths, generation, tt_mask)
                prefetch(table, bucket, T_LENGTHS)
                trump_lower, trump_defence, rel_tl, rel_td = sure_trump_tricks(hands, declarer,
                                                                               trump)
                lower, defence, rel_lower, rel_defence = trump_lower, trump_defence, rel_tl, rel_td
                if lower < t:
                    control, rel_c = control_tricks(hands, declarer, trump)
                    if control > lower:
                        lower = control
                        rel_lower = rel_c
                if nact == 2 and r - defence >= t:
                    control, rel_c = control_tricks(hands, defender, trump)
                    if control > defence:
                        defence = control
                        rel_defence = rel_c
                if nact == 2 and (t == r or t == 1) and lower < t and r - defence >= t:
                    # One side needs every trick left: one sure trick of the other decides.
                    if t == r:
                        rel_g = guarded_trick(hands[defender], hands[declarer],
                                              player == defender)
                        if rel_g:
                            defence = 1
                            rel_defence = rel_g
                    else:
                        rel_g = guarded_trick(hands[declarer], hands[defender],
                                              player == declarer)
                        if rel_g:
                            lower = 1
                            rel_lower = rel_g
                if lower < t and r - defence >= t:  # the bounds so far have not decided
                    q, rel_q, q_side, rel_side = quick_tricks(hands, player, trump)
                    own, rel_own = ((trump_lower, rel_tl) if player == declarer
                                    else (trump_defence, rel_td))
                    if q_side + own > q:  # the side-suit tricks, then the trump tricks
                        q = q_side + own
                        rel_q = rel_side | rel_own
                    if player == declarer:
                        if q > lower:
                            lower = q
                            rel_lower = rel_q
                    elif q > defence:
                        defence = q
                        rel_defence = rel_q
                # With three hands the stopper tricks pay only when all the tricks are needed.
                if (nact == 2 or t == r) and lower < t and r - defence >= t:
                    stop_lower, stop_defence, rel_sl, rel_sd = stopper_tricks(
                        hands, declarer, trump, nact)
                    if nact == 2:  # other tricks than the trump tricks (``stopper_tricks``)
                        stop_lower += trump_lower
                        rel_sl |= rel_tl
                        stop_defence += trump_defence
                        rel_sd |= rel_td
                    if stop_lower > lower:
                        lower = stop_lower
                        rel_lower = rel_sl
                    if stop_defence > defence:
                        defence = stop_defence
                        rel_defence = rel_sd
                if lower < t and player != declarer:
                    waiting, rel_w = waiting_tricks(hands, declarer, trump)
                    if waiting > lower:
                        lower = waiting
                        rel_lower = rel_w
                if nact == 2 and player == declarer and lower < t and r - defence >= t:
                    waiting, rel_w = waiting_tricks(hands, defender, trump)
                    if waiting > defence:
                        defence = waiting
                        rel_defence = rel_w
                if lower >= t:
                    val = True
                    rel = rel_lower
                    state = _RETURN
                    continue
                if r - defence < t:
                    val = False
                    rel = rel_defence
                    state = _RETURN
                    continue
                key = rank_key(hands, rel_tab)
                found, entry, hint = probe(table, bucket, lengths, key, generation, t)
                if found >= 0:
                    stats[STAT_TT_HITS] += 1
                    val = found == 1
                    rel = relevant_cards(table[bucket, T_MASK + 3 * entry],
                                         hands[0] | hands[1] | hands[2])
                    state = _RETURN
                    continue
                work[p, W_FIRST] = -1
                if hint >= 0:
                    code = table[bucket, T_DATA + 3 * hint] >> MOVE_SHIFT
                    work[p, W_FIRST] = decode_move(code, hands, player)
                work[p, W_SLOT] = bucket
                work[p, W_KEY1] = lengths
                work[p, W_KEY2] = key
            work[p, W_LAZY] = 0
            if work[p, W_POS] == 0:
                if work[p, W_FIRST] >= 0:
                    moves[p, 0] = np.int64(1) << work[p, W_FIRST]
                    work[p, W_LAZY] = 1
                    n = 1
                else:
                    n = lead_moves(hands, p, player, moves, trump, declarer, active, eq_tab, -1,
                                   work[p, W_KILLER])
            else:
                n = follow_moves(hands, p, player, work[p, W_POS], work, moves, trump,
                                 declarer, active, nact, eq_tab, overtrump)
            work[p, W_NMOVES] = n
            work[p, W_IDX] = 0
            state = _NEXT

        if state == _NEXT:
            # The next card: the first of the current group's that is not known to
            # give the same result as one tried (W_SAME); a spent group moves W_IDX on.
            player = work[p, W_PLAYER]
            i = work[p, W_IDX]
            c = -1
            while True:
                if i == work[p, W_NMOVES]:
                    if not work[p, W_LAZY]:
                        break
                    work[p, W_LAZY] = 0
                    work[p, W_NMOVES] = lead_moves(hands, p, player, moves, trump, declarer,
                                                   active, eq_tab, work[p, W_FIRST],
                                                   work[p, W_KILLER])
                    continue
                group = moves[p, i]
                left = group & CARDS & ~work[p, W_SAME]
                if left:
                    c = next_in_group(left, group >> ORDER_SHIFT, hands[player])
                    moves[p, i] = group ^ (np.int64(1) << c)
                    break
                i += 1
            work[p, W_IDX] = i
            if c >= 0:
                pos = work[p, W_POS]
                work[p, W_CARD] = c
                hands[player] ^= np.int64(1) << c
                t = work[p, W_TARGET]
                if pos == 0:
                    best = c
                    winner = player
                    on_table = np.int64(1) << c
                else:
                    best = work[p, W_BEST]
                    winner = work[p, W_BEST_SEAT]
                    on_table = work[p, W_TABLE] | (np.int64(1) << c)
                    if beats(c, best, trump):
                        best = c
                        winner = player
                if pos + 1 == nact:
                    t_next = t - 1 if winner == declarer else t
                    trick_rel = trick_relevance(best, winner, on_table, hands)
                    r_next = popcount(hands[winner])
                    # A trick that settles the target, or starts an ending that the endgame
                    # table holds, needs no child node.
                    settled = t_next <= 0 or t_next > r_next
                    if settled or (nact == 2 and r_next <= endgame[0]):
                        stats[STAT_NODES] += 1
                        if settled:
                            val = t_next <= 0
                        else:
                            stats[STAT_ENDGAME_HITS] += 1
                            val, rel_next = endgame_lookup(endgame, hands[declarer],
                                                           hands[defender], winner == declarer,
                                                           trump, r_next, t_next)
                            trick_rel |= rel_next
                        hands[player] ^= np.int64(1) << c
                        if (player == declarer) == val:
                            rel = trick_rel
                            if overtrump:  # the rule's dependence (``follow_moves``)
                                rel |= work[p, W_REL]
                            state = _RETURN
                        else:
                            work[p, W_REL] |= trick_rel
                            work[p, W_SAME] |= same_result_cards(c, trick_rel)
                        continue
                    work[p, W_TRICK_REL] = trick_rel
                    work[p + 1, W_PLAYER] = winner
                    work[p + 1, W_POS] = 0
                    work[p + 1, W_TARGET] = t_next
                else:
                    work[p, W_TRICK_REL] = 0
                    work[p + 1, W_PLAYER] = next_active(player, active)
                    work[p + 1, W_POS] = pos + 1
                    work[p + 1, W_TARGET] = t
                    work[p + 1, W_BEST] = best
                    work[p + 1, W_BEST_SEAT] = winner
                    work[p + 1, W_TABLE] = on_table
                p += 1
                state = _SETUP
            else:
                # No card reached the node's goal: the declarer fails, the defence holds.
                val = work[p, W_PLAYER] != declarer
                rel = work[p, W_REL]
                state = _RETURN

        if state == _RETURN:
            bucket = work[p, W_SLOT]
            if bucket >= 0:
                player = work[p, W_PLAYER]
                in_play = hands[0] | hands[1] | hands[2]
                move = np.int64(0)
                if val == (player == declarer):  # a cut-off: remember the card that made it
                    move = encode_move(work[p, W_CARD], hands)
                store(table, bucket, work[p, W_KEY1], work[p, W_KEY2],
                      relevance_mask(rel, in_play), generation, popcount(hands[player]),
                      work[p, W_TARGET], val, move)
            if p == root:
                work[p, W_REL] = rel
                return val
            p -= 1
            player = work[p, W_PLAYER]
            hands[player] |= np.int64(1) << work[p, W_CARD]
            rel |= work[p, W_TRICK_REL]
            if (player == declarer) != val:
                work[p, W_REL] |= rel
                work[p, W_SAME] |= same_result_cards(work[p, W_CARD], rel)
                state = _NEXT
            else:
                if overtrump:  # a cut-off also depends on what the rule let the node play
                    rel |= work[p, W_REL]
                if work[p, W_POS] == 0:
                    work[p, W_KILLER] = work[p, W_CARD]
