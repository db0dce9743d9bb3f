"""Moves: who plays next, which card wins, the legal cards, and the groups of leads and
follows in the order the search tries them."""

import numpy as np
from numba import njit

from .bits import highest_bit, lowest_bit, popcount
from .layout import (
    ORDER_HIGH,
    ORDER_LONGEST,
    ORDER_LOW,
    ORDER_RANK,
    ORDER_SHIFT,
    ORDER_SHORTEST,
    W_BEST,
    W_BEST_SEAT,
    W_CARD,
    W_REL,
    W_TABLE,
)
from .suits import (
    NO_TRUMP,
    RANK_BITS,
    SUIT_BITS,
    suit_presence,
    trump_held,
)


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
def strain_in_play(hands, trump):
    """The strain the rest of play goes by: ``trump``, or no-trumps once no one holds a
    trump (at a trick start)."""
    return trump if trump_held(hands[0] | hands[1] | hands[2], trump) else NO_TRUMP


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
    ``first_card`` (the lead that decided this position before, or -1); the lead
    that decided the last node at this depth (``killer``); low leads to the
    partner's winner; sure winners, from the longest suit first; with two hands,
    winners the opponent can ruff (forcing it to ruff); other low leads (the
    declarer facing two defenders from the shortest suit, anyone else from the
    longest); low leads an opponent can ruff; with three hands, winners an
    opponent can ruff.  (Orders chosen by node counts on the benchmark deals.)
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
                ruffers |= ~suit_presence(hx)
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
    ahead = np.int64(0)  # the leads tried first, each a group of its own
    if first_card >= 0:
        ahead = np.int64(1) << first_card
        n = _group(moves, p, n, ahead, ORDER_LOW)
    if killer >= 0 and killer != first_card and (reps >> killer) & 1:
        n = _group(moves, p, n, np.int64(1) << killer, ORDER_LOW)
        ahead |= np.int64(1) << killer
    winners &= ~ahead
    to_partner &= ~ahead
    low &= ~ahead
    n = _group(moves, p, n, to_partner & ~ruffable, ORDER_LOW)
    n = _group(moves, p, n, winners & ~ruffable, ORDER_LONGEST)
    if not three_hands:
        n = _group(moves, p, n, winners & ruffable, ORDER_HIGH)
    n = _group(moves, p, n, low & ~ruffable,
               ORDER_LONGEST if player != declarer or not three_hands else ORDER_SHORTEST)
    n = _group(moves, p, n, (low | to_partner) & ruffable, ORDER_LOW)
    if three_hands:
        n = _group(moves, p, n, winners & ruffable, ORDER_HIGH)
    return n


@njit(cache=True, inline="always")
def _group(moves, p, n, mask, order):
    """Append the cards of ``mask`` to row ``p`` of ``moves`` as one group, to be tried
    in ``order`` (``ORDER_*``); an empty mask adds nothing."""
    if mask:
        moves[p, n] = mask | (order << ORDER_SHIFT)
        n += 1
    return n


@njit(cache=True, inline="always")
def next_in_group(mask, order, hand):
    """The card of ``mask`` (not empty) that its group's ``order`` tries next; ``hand``
    is the mover's hand, whose suit lengths order ``ORDER_LONGEST`` and ``ORDER_SHORTEST``."""
    if order == ORDER_LOW:
        return lowest_bit(mask)
    if order == ORDER_HIGH:
        return highest_bit(mask)
    if order == ORDER_RANK:
        ranks = (mask | (mask >> 8) | (mask >> 16) | (mask >> 24)) & SUIT_BITS
        return lowest_bit(mask & (RANK_BITS << lowest_bit(ranks)))
    pick = -1
    pick_len = 0
    for s in range(4):
        if (mask >> (8 * s)) & SUIT_BITS:
            length = popcount((hand >> (8 * s)) & SUIT_BITS)
            if pick < 0 or (length > pick_len if order == ORDER_LONGEST else length < pick_len):
                pick = s
                pick_len = length
    return lowest_bit(mask & (SUIT_BITS << (8 * pick)))


@njit(cache=True, inline="always")
def cards_above(card):
    """Mask of the card indices above ``card``."""
    return ~((np.int64(2) << card) - 1)


@njit(cache=True, inline="always")
def _can_beat(hand, best, lead_suit, tmask):
    """Can a player holding ``hand`` beat ``best``, the card winning a trick led in
    ``lead_suit``: following above it, or, void in the suit, trumping it?"""
    if hand & lead_suit:
        return (lead_suit >> best) & 1 == 1 and (hand & lead_suit & cards_above(best)) != 0
    return (hand & tmask) != 0 and (not (np.int64(1) << best) & tmask
                                    or (hand & tmask & cards_above(best)) != 0)


@njit(cache=True, inline="always")
def overtrump_moves(legal, hand, best, lead_suit, tmask):
    """The cards of ``legal`` left by the rule against under-trumping (docs/rules.md
    §7.6), and whether the rule applied: a player void in the suit led who holds trumps,
    after a trump has beaten a side-suit lead, must play a trump above it if they can.
    When it applies, the result depends on ``best``'s rank against the player's trumps."""
    if (np.int64(1) << best) & tmask and not lead_suit & tmask and not hand & lead_suit \
            and hand & tmask:
        above = legal & cards_above(best)
        return (above if above else legal), True
    return legal, False


@njit(cache=True, inline="always")
def follow_moves(hands, p, player, pos, work, moves, trump, declarer, active, nact, eq_tab,
                 overtrump):
    """Plays of ``player`` to a trick in progress, cheapest first within each group.

    When the own side is winning, or a defender's partner still to play can
    beat the declarer's card: losing cards, then winning ones.  Otherwise:
    winners no later player can beat, winners that may be beaten, then
    losers (trumps last).  With ``overtrump`` (``layout.FLAG_OVERTRUMP``) a player
    who must beat a trump may only play trumps above it, and the trump on the
    trick joins the cards the node's result depends on (``W_REL``).
    """
    in_play = hands[0] | hands[1] | hands[2] | work[p, W_TABLE]
    lead_card = work[p - pos, W_CARD]
    best = work[p, W_BEST]
    legal = legal_moves(hands[player], lead_card, trump)
    tmask = SUIT_BITS << (8 * trump) if trump < NO_TRUMP else np.int64(0)
    lead_suit = SUIT_BITS << (8 * (lead_card >> 3))
    if overtrump:
        legal, forced = overtrump_moves(legal, hands[player], best, lead_suit, tmask)
        if forced:
            work[p, W_REL] |= np.int64(1) << best
    reps = _representatives(legal, in_play, eq_tab)
    best_suit = SUIT_BITS << (8 * (best >> 3))
    winners = reps & best_suit & cards_above(best)
    if not (np.int64(1) << best) & tmask:
        winners |= reps & tmask
    losers = reps & ~winners
    later_seat = next_active(player, active)
    later = hands[later_seat] if pos + 1 < nact else np.int64(0)  # the next to play, if any
    if player != declarer and (work[p, W_BEST_SEAT] != declarer or (
            later_seat != declarer and _can_beat(later, best, lead_suit, tmask))):
        n = _group(moves, p, 0, losers, ORDER_RANK)
        return _group(moves, p, n, winners, ORDER_LOW)
    safe = winners
    if later & lead_suit:
        safe = (winners & ~lead_suit) | (winners & cards_above(highest_bit(later & lead_suit)))
    elif later & tmask and not lead_suit & tmask:
        safe = winners & tmask & cards_above(highest_bit(later & tmask))
    n = _group(moves, p, 0, safe, ORDER_LOW)
    n = _group(moves, p, n, winners & ~safe, ORDER_LOW)
    n = _group(moves, p, n, losers & ~tmask, ORDER_LOW)
    return _group(moves, p, n, losers & tmask, ORDER_LOW)


@njit(cache=True, inline="always")
def same_result_cards(card, rel):
    """The cards of ``card``'s suit that give the same result as ``card`` did, when
    that result depended on the cards ``rel``: if ``card`` lies below every card of
    its suit in ``rel``, so does any other such card, and swapping the two changes
    only cards below the relevant ones (the partial-position argument, above), so
    the result is the same.  Else none."""
    suit = SUIT_BITS << (8 * (card >> 3))
    rel_suit = rel & suit
    below = suit & ((np.int64(1) << lowest_bit(rel_suit)) - 1) if rel_suit else suit
    return below if (below >> card) & 1 else np.int64(0)
