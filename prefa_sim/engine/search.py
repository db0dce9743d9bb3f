"""The double-dummy search kernel: one zero-window test, "does the declarer reach t tricks?".

Everything here is numba over ints and arrays.  A position is three int64 card
masks ``hands[seat]`` (a seat out of play holds 0) plus the cards already on the
current trick.  The search is a depth-first AND/OR search over single card
plays with an explicit stack (no recursion), so that one call walks the whole
tree without call overhead:

* the declarer's nodes succeed when any card succeeds, the defenders' when all do;
* at each trick start: trivial bounds, the last trick played out directly, the
  transposition table (keyed by relative ranks, see ``lookup.RELATIVE_RANKS``),
  then quick tricks for the side on lead, sure trump tricks for each side and
  the tricks top cards in side suits the other side holds are sure to take;
* equal cards are searched once (``lookup.EQUAL_CARD_REPRESENTATIVES``);
* moves are tried in groups built from masks (sure winners, cheapest winner,
  low cards); the lead that decided a stored position is tried first, and the
  other leads are only generated when it does not decide it again.

The table stores lower and upper bounds on the declarer's tricks from a trick
start, so bounds found for one target serve every later target, discard,
or deal with the same strain, declarer and active seats.

Context array ``ctx`` (int64): ``[trump, declarer, active_mask, n_active, generation]``.
"""

import numpy as np
from numba import njit

from .bits import highest_bit, lowest_bit, popcount

CTX_TRUMP, CTX_DECLARER, CTX_ACTIVE, CTX_N_ACTIVE, CTX_GENERATION = range(5)
CTX_SIZE = 5

MAX_PLY = 34
"""Rows of the work arrays: up to 30 plies below a root with 0-2 trick cards."""

# Columns of the per-ply work array.
(W_PLAYER, W_POS, W_CARD, W_NMOVES, W_IDX, W_TARGET, W_SLOT, W_KEY1, W_KEY2, W_FIRST,
 W_BEST, W_BEST_SEAT, W_TABLE, W_LAZY, W_KILLER) = range(15)
WORK_COLUMNS = 15
# W_LAZY: 1 while only the stored lead (W_FIRST) has been listed; the other leads are
# generated only if it fails to decide the node.
# W_BEST, W_BEST_SEAT, W_TABLE: the winning card so far, its seat, and the mask of the
# cards on the table, before the play at that row (meaningful when W_POS > 0).
MAX_MOVES = 10

NO_TRUMP = 4
SUIT_BITS = 255
RANK_BITS = 0x01010101
_HASH_MULT = -7046029254386353131  # 0x9E3779B97F4A7C15 as int64

GENERATION_MASK = (1 << 22) - 1
KEY2_MASK = (1 << 48) - 1
_LOWER_SHIFT = 48
_UPPER_SHIFT = 52
_MOVE_SHIFT = 56  # 1 valid bit, 2 suit bits, 3 relative-rank bits of the lead that cut

STAT_NODES = 0
STAT_TT_HITS = 1
STAT_SEARCHES = 2
STATS_SIZE = 4

_SETUP, _NEXT, _RETURN = 0, 1, 2


@njit(cache=True, inline="always")
def next_active(seat, active):
    """The active seat that plays after ``seat``."""
    s = seat + 1 if seat < 2 else 0
    if not (active >> s) & 1:
        s = s + 1 if s < 2 else 0
    return s


@njit(cache=True, inline="always")
def beats(card, best, trump):
    """Does ``card`` beat ``best``, the trick's current winning card?"""
    cs = card >> 3
    bs = best >> 3
    if cs == bs:
        return card > best
    return cs == trump


@njit(cache=True, inline="always")
def legal_moves(hand, lead_card, trump):
    """Cards of ``hand`` that may be played; ``lead_card`` < 0 when leading."""
    if lead_card < 0:
        return hand
    follow = hand & (SUIT_BITS << ((lead_card >> 3) * 8))
    if follow:
        return follow
    if trump < NO_TRUMP:
        ruff = hand & (SUIT_BITS << (trump * 8))
        if ruff:
            return ruff
    return hand


@njit(cache=True, inline="always")
def position_key(hands, leader, ctx, rel_tab):
    """Transposition key of a trick start: who holds which relative rank, and who leads."""
    rem = hands[0] | hands[1] | hands[2]
    key1 = np.int64(0)
    key2 = np.int64(0)
    for s in range(4):
        sh = 8 * s
        r = (rem >> sh) & SUIT_BITS
        if r == 0:
            continue
        base = r << 8
        key1 |= np.int64(rel_tab[base | ((hands[0] >> sh) & SUIT_BITS)]) << sh
        key1 |= np.int64(rel_tab[base | ((hands[1] >> sh) & SUIT_BITS)]) << (sh + 32)
        key2 |= popcount(r) << (4 * s)
    key2 |= leader << 16
    key2 |= ctx[CTX_TRUMP] << 18
    key2 |= ctx[CTX_DECLARER] << 21
    key2 |= ctx[CTX_ACTIVE] << 23
    key2 |= (ctx[CTX_GENERATION] & GENERATION_MASK) << 26
    return key1, key2


@njit(cache=True, inline="always")
def encode_move(card, hands):
    """A card as valid bit, suit and rank among the cards of its suit still in play."""
    s = card >> 3
    rem = ((hands[0] | hands[1] | hands[2]) >> (8 * s)) & SUIT_BITS
    return 32 | (s << 3) | popcount(rem & ((1 << (card & 7)) - 1))


@njit(cache=True, inline="always")
def decode_move(code, hands):
    """The card that ``encode_move`` encoded, or -1 when ``code`` holds none."""
    if not code & 32:
        return -1
    s = (code >> 3) & 3
    rem = ((hands[0] | hands[1] | hands[2]) >> (8 * s)) & SUIT_BITS
    for _ in range(code & 7):
        rem &= rem - 1
    return 8 * s + lowest_bit(rem)


@njit(cache=True, inline="always")
def table_slot(key1, key2, mask):
    """Slot of a key in a table of ``mask + 1`` entries."""
    h = (key1 ^ (key2 * 0x2545F491)) * _HASH_MULT
    h ^= (h >> 31) & 0x1FFFFFFFF
    h *= _HASH_MULT
    return (h >> 20) & mask


@njit(cache=True, inline="always")
def quick_tricks(hands, leader, trump):
    """Tricks the leader can cash at once, keeping the lead: top cards no one can ruff.

    In each suit, the leader's cards above every other card still out count;
    when there are at least as many of them as any other player holds in the
    suit, the others are void after they are cashed and every card of the suit
    counts.  In a side suit the count is limited by the length of any other
    player who holds trumps.  Seats out of play hold no cards, so they never
    limit anything.
    """
    mine = hands[leader]
    next1 = hands[leader + 1 if leader < 2 else 0]
    next2 = hands[leader - 1 if leader > 0 else 2]
    others = next1 | next2
    tmask = SUIT_BITS << (8 * trump) if trump < NO_TRUMP else np.int64(0)
    ruffer1 = next1 & tmask != 0
    ruffer2 = next2 & tmask != 0
    total = 0
    for s in range(4):
        sh = 8 * s
        h = (mine >> sh) & SUIT_BITS
        if h == 0:
            continue
        o = (others >> sh) & SUIT_BITS
        n = popcount(h) if o == 0 else popcount(h >> (highest_bit(o) + 1))
        if n == 0:
            continue
        len1 = popcount((next1 >> sh) & SUIT_BITS)
        len2 = popcount((next2 >> sh) & SUIT_BITS)
        if n >= len1 and n >= len2:
            n = popcount(h)
        if s != trump:
            if ruffer1:
                n = min(n, len1)
            if ruffer2:
                n = min(n, len2)
        total += n
    return total


@njit(cache=True, inline="always")
def sure_trump_tricks(hands, declarer, trump):
    """Tricks each side takes with trumps above all the other side's trumps.

    Such a trump wins whatever trick it is played to, and every card is played
    by the end, so the declarer's count is a sure minimum.  A defender's top
    trumps may fall on the partner's winning trump, but each still marks a
    distinct defence trick, so the larger of the two defenders' counts is sure.
    Returns ``(declarer_tricks, defence_tricks)``.
    """
    if trump >= NO_TRUMP:
        return 0, 0
    sh = 8 * trump
    mine = (hands[declarer] >> sh) & SUIT_BITS
    first = (hands[declarer + 1 if declarer < 2 else 0] >> sh) & SUIT_BITS
    second = (hands[declarer - 1 if declarer > 0 else 2] >> sh) & SUIT_BITS
    theirs = first | second
    mine_top = highest_bit(mine) if mine else -1
    theirs_top = highest_bit(theirs) if theirs else -1
    defence = max(popcount(first >> (mine_top + 1)), popcount(second >> (mine_top + 1)))
    return popcount(mine >> (theirs_top + 1)), defence


@njit(cache=True, inline="always")
def stopper_tricks(hands, declarer, trump, nact):
    """Sure tricks from top cards in the side suits the other side holds.

    Take a side suit in which a defender holds ``k`` cards above all the
    declarer's ``n`` cards.  Each trick to which the declarer plays a card of
    that suit goes to the defence for as long as the defender keeps one of them:
    the suit is led and the top card covers, or the declarer, void in the suit
    led and out of trumps, discards it, and a discard never wins.  The defender
    is never forced to throw such a card away (holding only cards like these,
    it has more of them than the declarer has left), so ``min(k, n)`` such
    tricks are sure, and the tricks of different suits are different tricks.
    With two hands the same holds for the declarer against the one defender;
    with three it does not, as a defender may discard on the partner's tricks.
    Returns ``(declarer_tricks, defence_tricks)``.
    """
    mine = hands[declarer]
    first = hands[declarer + 1 if declarer < 2 else 0]
    second = hands[declarer - 1 if declarer > 0 else 2]
    lower = 0
    defence = 0
    for s in range(4):
        if s == trump:
            continue
        sh = 8 * s
        m = (mine >> sh) & SUIT_BITS
        if m == 0:
            continue
        n = popcount(m)
        above = highest_bit(m) + 1
        k = max(popcount(((first >> sh) & SUIT_BITS) >> above),
                popcount(((second >> sh) & SUIT_BITS) >> above))
        defence += min(k, n)
        if nact == 2:
            o = ((first | second) >> sh) & SUIT_BITS
            if o:
                lower += min(popcount(m >> (highest_bit(o) + 1)), popcount(o))
    return lower, defence


@njit(cache=True, inline="always")
def last_trick_winner(hands, leader, trump, active):
    """Winner of the last trick, each active seat holding one card."""
    best = lowest_bit(hands[leader])
    winner = leader
    seat = next_active(leader, active)
    while seat != leader:
        c = lowest_bit(hands[seat])
        if beats(c, best, trump):
            best = c
            winner = seat
        seat = next_active(seat, active)
    return winner


@njit(cache=True, inline="always")
def _representatives(legal, in_play, eq_tab):
    """One card of each run of equal cards in ``legal``."""
    reps = np.int64(0)
    for s in range(4):
        sh = 8 * s
        lg = (legal >> sh) & SUIT_BITS
        if lg:
            reps |= np.int64(eq_tab[(((in_play >> sh) & SUIT_BITS) << 8) | lg]) << sh
    return reps


@njit(cache=True, inline="always")
def lead_moves(hands, p, player, moves, trump, declarer, active, eq_tab, first_card, killer):
    """Leads of ``player`` at trick start ``p``, in groups tried one after the other:
    ``first_card`` (the lead that decided this position before, or -1); sure
    the lead that decided the last node at this depth (``killer``); sure winners,
    highest first; low leads to the partner's winner; other low leads (the
    declarer facing two defenders from the shortest suit, anyone else from the
    longest); leads an opponent can ruff; winners an opponent can ruff.
    """
    hand = hands[player]
    reps = _representatives(hand, hands[0] | hands[1] | hands[2], eq_tab)
    tmask = SUIT_BITS << (8 * trump) if trump < NO_TRUMP else np.int64(0)
    opponents = np.int64(0)
    partner = np.int64(0)
    ruffers = np.int64(0)  # union of the suits held by each opponent that holds trumps
    ruffing = False
    for x in range(3):
        if x == player:
            continue
        hx = hands[x]
        if player == declarer or x == declarer:
            opponents |= hx
            if hx & tmask:
                ruffing = True
                ruffers |= ~_suit_presence(hx)
        else:
            partner |= hx
    ruffable = ruffers & ~tmask if ruffing else np.int64(0)
    three_hands = active == 7
    others = opponents | partner
    winners = np.int64(0)
    to_partner = np.int64(0)
    low = np.int64(0)
    for s in range(4):
        sh = 8 * s
        mine = (reps >> sh) & SUIT_BITS
        if mine == 0:
            continue
        o = (others >> sh) & SUIT_BITS
        top = mine if o == 0 else mine & ~((2 << highest_bit(o)) - 1)
        winners |= top << sh
        rest = mine & ~top
        pt = (partner >> sh) & SUIT_BITS
        op = (opponents >> sh) & SUIT_BITS
        if pt and (op == 0 or highest_bit(pt) > highest_bit(op)):
            to_partner |= rest << sh
        else:
            low |= rest << sh
    n = 0
    if first_card >= 0:
        moves[p, 0] = first_card
        n = 1
        first = np.int64(1) << first_card
        winners &= ~first
        to_partner &= ~first
        low &= ~first
    if killer >= 0 and killer != first_card and (reps >> killer) & 1:
        moves[p, n] = killer
        n += 1
        first = np.int64(1) << killer
        winners &= ~first
        to_partner &= ~first
        low &= ~first
    n = _emit_high_first(moves, p, n, winners & ~ruffable)
    n = _emit(moves, p, n, to_partner & ~ruffable)
    n = _emit_by_suit_length(moves, p, n, low & ~ruffable, hand,
                             player != declarer or not three_hands)
    n = _emit(moves, p, n, (low | to_partner) & ruffable)
    return _emit_high_first(moves, p, n, winners & ruffable)


@njit(cache=True, inline="always")
def _emit(moves, p, n, mask):
    """Append the cards of ``mask`` to row ``p`` of ``moves``, lowest first."""
    while mask:
        moves[p, n] = lowest_bit(mask)
        mask &= mask - 1
        n += 1
    return n


@njit(cache=True, inline="always")
def _emit_by_rank(moves, p, n, mask):
    """Append the cards of ``mask`` to row ``p`` of ``moves``, lowest rank first, any suit."""
    rank = 0
    while mask:
        n = _emit(moves, p, n, mask & (RANK_BITS << rank))
        mask &= ~(RANK_BITS << rank)
        rank += 1
    return n


@njit(cache=True, inline="always")
def _emit_high_first(moves, p, n, mask):
    """Append the cards of ``mask`` to row ``p`` of ``moves``, highest first."""
    while mask:
        c = highest_bit(mask)
        moves[p, n] = c
        mask ^= np.int64(1) << c
        n += 1
    return n


@njit(cache=True, inline="always")
def _emit_by_suit_length(moves, p, n, mask, hand, longest_first):
    """Append the cards of ``mask``, suit by suit in order of ``hand``'s length in the
    suit (longest or shortest first), lowest card first within a suit."""
    while mask:
        pick = -1
        pick_len = 0
        for s in range(4):
            if (mask >> (8 * s)) & SUIT_BITS:
                length = popcount((hand >> (8 * s)) & SUIT_BITS)
                if pick < 0 or (length > pick_len if longest_first else length < pick_len):
                    pick = s
                    pick_len = length
        suit = SUIT_BITS << (8 * pick)
        n = _emit(moves, p, n, mask & suit)
        mask &= ~suit
    return n


@njit(cache=True, inline="always")
def _suit_presence(hand):
    """Mask with all eight bits of each suit in which ``hand`` holds a card."""
    t = hand | ((hand >> 4) & 0x0F0F0F0F)
    t |= (t >> 2) & 0x33333333
    t |= (t >> 1) & 0x55555555
    return (t & RANK_BITS) * SUIT_BITS


@njit(cache=True, inline="always")
def _above(card):
    """Mask of the card indices above ``card``."""
    return ~((np.int64(2) << card) - 1)


@njit(cache=True, inline="always")
def follow_moves(hands, p, player, pos, work, moves, trump, declarer, active, nact, eq_tab):
    """Plays of ``player`` to a trick in progress, cheapest first within each group.

    When the own side is winning: losing cards, then winning ones.  Otherwise:
    winners no later player can beat, winners that may be beaten, then
    losers (trumps last).
    """
    in_play = hands[0] | hands[1] | hands[2] | work[p, W_TABLE]
    lead_card = work[p - pos, W_CARD]
    best = work[p, W_BEST]
    reps = _representatives(legal_moves(hands[player], lead_card, trump), in_play, eq_tab)
    tmask = SUIT_BITS << (8 * trump) if trump < NO_TRUMP else np.int64(0)
    best_suit = SUIT_BITS << (8 * (best >> 3))
    winners = reps & best_suit & _above(best)
    if not (np.int64(1) << best) & tmask:
        winners |= reps & tmask
    losers = reps & ~winners
    if work[p, W_BEST_SEAT] != declarer and player != declarer:
        n = _emit_by_rank(moves, p, 0, losers)
        return _emit(moves, p, n, winners)
    safe = winners
    if pos + 1 < nact:
        later = hands[next_active(player, active)]
        lead_suit = SUIT_BITS << (8 * (lead_card >> 3))
        if later & lead_suit:
            safe = (winners & ~lead_suit) | (winners & _above(highest_bit(later & lead_suit)))
        elif later & tmask and not lead_suit & tmask:
            safe = winners & tmask & _above(highest_bit(later & tmask))
    n = _emit(moves, p, 0, safe)
    n = _emit(moves, p, n, winners & ~safe)
    n = _emit(moves, p, n, losers & ~tmask)
    return _emit(moves, p, n, losers & tmask)


# The search allocates nothing, so it is compiled without numba's reference
# counting (``_nrt=False``), which would otherwise sit in the innermost loop.
@njit(cache=True, _nrt=False)
def search(hands, root, target, ctx, table, rel_tab, eq_tab, work, moves, stats):
    """Zero-window test: can the declarer take at least ``target`` tricks from here?

    ``root`` is the number of cards already on the current trick; rows
    ``0..root-1`` of ``work`` hold them (``W_CARD``, ``W_PLAYER``) and row
    ``root`` holds the seat to move and the trick so far (``W_PLAYER``,
    ``W_BEST``, ``W_BEST_SEAT``, ``W_TABLE``), as ``driver.setup_trick``
    writes them.  ``target`` counts the current trick.  ``hands`` is restored
    before returning.
    """
    trump = ctx[CTX_TRUMP]
    declarer = ctx[CTX_DECLARER]
    active = ctx[CTX_ACTIVE]
    nact = ctx[CTX_N_ACTIVE]
    tt_mask = table.shape[0] - 1
    p = root
    work[p, W_POS] = root
    work[p, W_TARGET] = target
    state = _SETUP
    val = False
    while True:
        if state == _SETUP:
            stats[STAT_NODES] += 1
            player = work[p, W_PLAYER]
            t = work[p, W_TARGET]
            work[p, W_SLOT] = -1
            if work[p, W_POS] == 0:
                r = popcount(hands[player])
                if t <= 0:
                    val = True
                    state = _RETURN
                    continue
                if t > r:
                    val = False
                    state = _RETURN
                    continue
                if r == 1:
                    val = last_trick_winner(hands, player, trump, active) == declarer
                    state = _RETURN
                    continue
                k1, k2 = position_key(hands, player, ctx, rel_tab)
                slot = table_slot(k1, k2, tt_mask)
                entry = table[slot, 1]
                work[p, W_FIRST] = -1
                if table[slot, 0] == k1 and (entry & KEY2_MASK) == k2:
                    work[p, W_FIRST] = decode_move(entry >> _MOVE_SHIFT, hands)
                    if ((entry >> _LOWER_SHIFT) & 15) >= t:
                        stats[STAT_TT_HITS] += 1
                        val = True
                        state = _RETURN
                        continue
                    if ((entry >> _UPPER_SHIFT) & 15) < t:
                        stats[STAT_TT_HITS] += 1
                        val = False
                        state = _RETURN
                        continue
                lower, defence = sure_trump_tricks(hands, declarer, trump)
                q = quick_tricks(hands, player, trump)
                if player == declarer:
                    lower = max(lower, q)
                else:
                    defence = max(defence, q)
                if nact == 2 or t == r:  # with three hands it pays only for all the tricks
                    stop_lower, stop_defence = stopper_tricks(hands, declarer, trump, nact)
                    lower = max(lower, stop_lower)
                    defence = max(defence, stop_defence)
                if lower >= t:
                    val = True
                    state = _RETURN
                    continue
                if r - defence < t:
                    val = False
                    state = _RETURN
                    continue
                work[p, W_SLOT] = slot
                work[p, W_KEY1] = k1
                work[p, W_KEY2] = k2
            work[p, W_LAZY] = 0
            if work[p, W_POS] == 0:
                if work[p, W_FIRST] >= 0:
                    moves[p, 0] = work[p, W_FIRST]
                    work[p, W_LAZY] = 1
                    n = 1
                else:
                    n = lead_moves(hands, p, player, moves, trump, declarer, active, eq_tab, -1,
                                   work[p, W_KILLER])
            else:
                n = follow_moves(hands, p, player, work[p, W_POS], work, moves, trump,
                                 declarer, active, nact, eq_tab)
            work[p, W_NMOVES] = n
            work[p, W_IDX] = 0
            state = _NEXT

        if state == _NEXT:
            i = work[p, W_IDX]
            if i == work[p, W_NMOVES] and work[p, W_LAZY]:
                work[p, W_LAZY] = 0
                work[p, W_NMOVES] = lead_moves(hands, p, work[p, W_PLAYER], moves, trump,
                                               declarer, active, eq_tab, work[p, W_FIRST],
                                               work[p, W_KILLER])
            if i < work[p, W_NMOVES]:
                work[p, W_IDX] = i + 1
                c = moves[p, i]
                player = work[p, W_PLAYER]
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
                    # A trick that settles the target needs no child node.
                    if t_next <= 0 or t_next > popcount(hands[winner]):
                        stats[STAT_NODES] += 1
                        hands[player] ^= np.int64(1) << c
                        val = t_next <= 0
                        if (player == declarer) == val:
                            state = _RETURN
                        continue
                    work[p + 1, W_PLAYER] = winner
                    work[p + 1, W_POS] = 0
                    work[p + 1, W_TARGET] = t_next
                else:
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
                state = _RETURN

        if state == _RETURN:
            slot = work[p, W_SLOT]
            if slot >= 0:
                k1 = work[p, W_KEY1]
                k2 = work[p, W_KEY2]
                entry = table[slot, 1]
                player = work[p, W_PLAYER]
                move = np.int64(0)
                if table[slot, 0] == k1 and (entry & KEY2_MASK) == k2:
                    lower = (entry >> _LOWER_SHIFT) & 15
                    upper = (entry >> _UPPER_SHIFT) & 15
                    move = (entry >> _MOVE_SHIFT) & 63
                else:
                    lower = 0
                    upper = popcount(hands[player])
                t = work[p, W_TARGET]
                if val:
                    lower = max(lower, t)
                else:
                    upper = min(upper, t - 1)
                if val == (player == declarer):  # a cut-off: remember the card that made it
                    move = encode_move(work[p, W_CARD], hands)
                table[slot, 0] = k1
                table[slot, 1] = (k2 | (lower << _LOWER_SHIFT) | (upper << _UPPER_SHIFT)
                                  | (move << _MOVE_SHIFT))
            if p == root:
                return val
            p -= 1
            player = work[p, W_PLAYER]
            hands[player] |= np.int64(1) << work[p, W_CARD]
            if (player == declarer) != val:
                state = _NEXT
            elif work[p, W_POS] == 0:
                work[p, W_KILLER] = work[p, W_CARD]
