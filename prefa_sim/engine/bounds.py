"""Sure-trick bounds at a trick start: quick tricks, sure trump tricks, control and
stopper tricks, waiting tricks, a guarded trick, and the last trick played out."""

import numpy as np
from numba import njit

from .bits import highest_bit, lowest_bit, popcount
from .lookup import TRUMP_TRICKS
from .moves import beats, cards_above, next_active, strain_in_play
from .suits import (
    ALL_SUITS,
    NO_TRUMP,
    SUIT_BITS,
    at_or_below_top,
    suit_lengths,
    suit_max,
    suit_min,
    suit_presence,
    suit_total,
    suits_at_least,
    top_of_each_suit,
)


@njit(cache=True, inline="always")
def quick_tricks(hands, leader, trump):
    """Tricks the leader can cash at once, keeping the lead: top cards no one can ruff.

    In each suit, the leader's cards above every other card still out count;
    when there are at least as many of them as any other player holds in the
    suit, the others are void after they are cashed and every card of the suit
    counts.  In a side suit the count is limited by the length of any other
    player who holds trumps.  Seats out of play hold no cards, so they never
    limit anything.  Returns ``(tricks, relevant cards, side-suit tricks, their
    relevant cards)``: the top cards counted, in all suits and in the side suits.
    No trump falls on the side-suit tricks, so the leader's side takes its
    ``sure_trump_tricks`` on top of them.
    """
    mine = hands[leader]
    next1 = hands[leader + 1 if leader < 2 else 0]
    next2 = hands[leader - 1 if leader > 0 else 2]
    others = next1 | next2
    top = mine & ~at_or_below_top(others)
    n = suit_lengths(top)
    len1 = suit_lengths(next1)
    len2 = suit_lengths(next2)
    drawn = suits_at_least(n, len1) & suits_at_least(n, len2)
    n = (n & ~drawn) | (suit_lengths(mine) & drawn)
    rel = top & suit_presence(others)
    if trump >= NO_TRUMP:
        total = suit_total(n)
        return total, rel, total, rel
    tmask = SUIT_BITS << (8 * trump)
    if next1 & tmask:
        n = (suit_min(n, len1) & ~tmask) | (n & tmask)
    if next2 & tmask:
        n = (suit_min(n, len2) & ~tmask) | (n & tmask)
    total = suit_total(n)
    return total, rel, total - ((n >> (8 * trump)) & SUIT_BITS), rel & ~tmask


@njit(cache=True, inline="always")
def _trump_tricks(own, opposing):
    """Sure tricks from the trumps ``own`` (one suit's bits) against the ``opposing``
    side's trumps, and the lowest card the count relies on (a suit bit, 0 if none).

    Every trump is played by the end, each to a trick of its own, and it wins
    that trick for its side unless a higher trump of the opposing side is on it;
    each opposing trump takes at most one trick.  So for any ``k``, the top ``k``
    trumps of ``own`` are sure of ``k`` tricks less the opposing trumps above
    the ``k``-th: the count is the best ``k``, read from ``lookup.TRUMP_TRICKS``.
    """
    packed = np.int64(TRUMP_TRICKS[(own << 8) | opposing])
    card = np.int64(1) << ((packed >> 4) & 7) if packed & 128 else np.int64(0)
    return packed & 15, card


@njit(cache=True, inline="always")
def _defender_hands(hands, seat):
    """The hands of ``seat``'s opponents (the declarer's defenders, or with two hands the
    declarer and an empty seat): the one playing after it, then the one before."""
    return hands[seat + 1 if seat < 2 else 0], hands[seat - 1 if seat > 0 else 2]


@njit(cache=True, inline="always")
def sure_trump_tricks(hands, declarer, trump):
    """Tricks each side is sure to take with trumps (``_trump_tricks``).

    A defender's trump may fall on the partner's winning trump, but it still
    marks a distinct defence trick, so the larger of the two defenders' counts
    is sure.  Returns ``(declarer_tricks, defence_tricks, relevant cards for the
    first, for the second)``.
    """
    if trump >= NO_TRUMP:
        return 0, 0, np.int64(0), np.int64(0)
    sh = 8 * trump
    mine = (hands[declarer] >> sh) & SUIT_BITS
    first, second = _defender_hands(hands, declarer)
    first = (first >> sh) & SUIT_BITS
    second = (second >> sh) & SUIT_BITS
    lower, rel_lower = _trump_tricks(mine, first | second)
    defence, rel_defence = _trump_tricks(first, mine)
    defence2, rel_defence2 = _trump_tricks(second, mine)
    if defence2 > defence:
        defence = defence2
        rel_defence = rel_defence2
    return lower, defence, rel_lower << sh, rel_defence << sh


@njit(cache=True, inline="always")
def control_tricks(hands, seat, trump):
    """Sure tricks of ``seat`` when it holds the only trumps left: every trump, and
    every side-suit card above all the other cards of its suit (all the cards of
    the suit, when these are as many as any other hand holds of it).

    Until it is on lead it follows with the other cards, keeping these, and a
    suit it is void in it ruffs, which wins; once on lead it cashes them all, as
    no one can ruff.  The count is the declarer's, or with two hands either
    player's (a defender with a partner may have to discard on the partner's
    tricks).  Returns ``(tricks, relevant cards)``: the lowest of the top cards
    counted in each suit (0 tricks without trumps or if another hand holds one).
    """
    if trump >= NO_TRUMP:
        return 0, np.int64(0)
    tmask = SUIT_BITS << (8 * trump)
    mine = hands[seat]
    if not mine & tmask or (hands[0] | hands[1] | hands[2]) & ~mine & tmask:
        return 0, np.int64(0)
    # With no one else to ruff, these are the quick tricks the seat would have on lead.
    tricks, rel, _, _ = quick_tricks(hands, seat, trump)
    return tricks, rel


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
    With two hands a side's stopper tricks and its trump tricks
    (``sure_trump_tricks``) are different tricks but in one case: the other
    player, void in trumps, throws the suit on a trump lead.  From then on no
    one can ruff the side's top cards, so the sum still holds; the tests check
    it against exhaustive search.
    Returns ``(declarer_tricks, defence_tricks, relevant cards for the first,
    for the second)``.
    """
    mine = hands[declarer]
    first, second = _defender_hands(hands, declarer)
    side = ALL_SUITS & ~(SUIT_BITS << (8 * trump)) if trump < NO_TRUMP else np.int64(ALL_SUITS)
    mine_down = at_or_below_top(mine)
    k = suit_max(suit_lengths(first & ~mine_down), suit_lengths(second & ~mine_down))
    held = suit_min(k, suit_lengths(mine)) & side
    rel_defence = top_of_each_suit(mine) & suit_presence(held)
    lower = 0
    rel_lower = np.int64(0)
    if nact == 2:
        o = first | second
        top = mine & ~at_or_below_top(o)
        won = suit_min(suit_lengths(top), suit_lengths(o)) & side
        lower = suit_total(won)
        rel_lower = top & suit_presence(o) & side
    return lower, suit_total(held), rel_lower, rel_defence


@njit(cache=True, inline="always")
def waiting_tricks(hands, seat, trump):
    """Sure tricks of ``seat``'s top cards when no one holds a trump (or in
    no-trumps), whoever is on lead: the declarer's against its defenders, or
    with two hands the defender's against the declarer.

    A top card lies above every opponent's card of its suit, so it wins whenever
    it is played but as a discard.  The seat wins every trick in a suit it holds
    a top card of, and once on lead cashes them all.  Until then each trick is
    led by an opponent in a suit where the seat holds no top card: in a suit it
    holds none of at the start (a safe suit) at most as many times as the longer
    opponent holds cards of it.  The seat follows with low cards or throws them,
    and throws top cards only when it has no low card left: first those of
    suits the opponents are void in, then all but the last of each other suit.
    Throwing one of these last ones could open a new safe suit, so the count is
    0 when it comes to that.  Returns ``(tricks, relevant cards)``: the top
    cards, and the opponents' top card of each safe suit the seat holds cards of
    (it stays safe wherever the lower cards lie).
    """
    if strain_in_play(hands, trump) < NO_TRUMP:
        return 0, np.int64(0)
    mine = hands[seat]
    first, second = _defender_hands(hands, seat)
    tops = 0
    safe_leads = 0
    last_tops = 0  # suits with top cards that an opponent holds cards of
    rel = np.int64(0)
    for s in range(4):
        sh = 8 * s
        m = (mine >> sh) & SUIT_BITS
        o1 = (first >> sh) & SUIT_BITS
        o2 = (second >> sh) & SUIT_BITS
        o = o1 | o2
        if o == 0:
            tops += popcount(m)
            continue
        high = highest_bit(o)
        top = m & cards_above(high)
        if top:
            tops += popcount(top)
            last_tops += 1
            rel |= top << sh
        else:
            safe_leads += max(popcount(o1), popcount(o2))
            if m:
                rel |= np.int64(1) << (sh + high)
    thrown = max(0, safe_leads - (popcount(mine) - tops))
    if tops - thrown < last_tops:
        return 0, np.int64(0)
    return tops - thrown, rel


@njit(cache=True, inline="always")
def guarded_trick(mine, theirs, mine_leads):
    """A trick that ``mine`` is sure of against ``theirs``, with two hands: the card the
    rule relies on (one bit), or 0 when it finds none.

    Take a suit in which ``theirs`` holds ``a`` cards above ``mine``'s top card X and
    at least one below it, and ``mine`` holds at least ``a + 1`` cards.  Suppose
    ``theirs`` took every trick, leading each one.  ``mine`` keeps X: it plays its
    other cards of the suit on the leads of the suit above X (at most ``a``), and on
    other leads a card of another suit while it holds one.  Sooner or later
    ``theirs`` leads its card below X, and X wins that trick.  X could only go
    earlier on a lead above X with no other card of the suit left, and ``mine``
    throws cards of the suit only once it holds nothing else: X would be its last
    card, while ``theirs`` still holds the card it leads and the one below X.  So
    ``mine`` takes a trick.

    When ``mine`` is on lead, it first leads a card of another suit, which needs one.
    ``theirs`` wins that trick with a card of another suit, and the above holds from
    the next trick, or, the suit being trumps, by ruffing.  A ruff above X leaves the
    terms as they were.  A ruff below X with ``theirs``'s last card below X leaves it
    fewer trumps than ``mine``, all above X, and so more cards of the other suits:
    ``mine`` follows its trump leads with trumps other than X, and at some lead of
    another suit holds none of it and ruffs, which wins.

    The relevant card is the highest of ``theirs`` below X.  One trick decides a trick
    start only where the other side needs every trick left.
    """
    n_mine = popcount(mine)
    for s in range(4):
        sh = 8 * s
        m = (mine >> sh) & SUIT_BITS
        o = (theirs >> sh) & SUIT_BITS
        if m == 0 or o == 0:
            continue
        x = highest_bit(m)
        below = o & ((1 << x) - 1)
        if below == 0:
            continue
        n_m = popcount(m)
        if n_m > popcount(o >> x) and (not mine_leads or n_mine > n_m):
            return np.int64(1) << (sh + highest_bit(below))
    return np.int64(0)


@njit(cache=True, inline="always")
def last_trick(hands, leader, trump, active):
    """Winner of the last trick, each active seat holding one card, and the winning card
    when it won by rank (else 0), as a mask."""
    best = lowest_bit(hands[leader])
    winner = leader
    seat = next_active(leader, active)
    while seat != leader:
        c = lowest_bit(hands[seat])
        if beats(c, best, trump):
            best = c
            winner = seat
        seat = next_active(seat, active)
    same_suit = (hands[0] | hands[1] | hands[2]) & (SUIT_BITS << (8 * (best >> 3)))
    return winner, (np.int64(1) << best) if popcount(same_suit) > 1 else np.int64(0)
