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

from .bits import highest_bit, lowest_bit, popcount, prefetch
from .endgame import endgame_lookup
from .lookup import RANK_CARDS, RELATIVE_RANKS, TRUMP_TRICKS
from .suits import (
    ALL_SUITS,
    NO_TRUMP,
    RANK_BITS,
    SUIT_BITS,
    at_or_above_bottom,
    at_or_below_top,
    suit_lengths,
    suit_max,
    suit_min,
    suit_presence,
    suit_total,
    suits_at_least,
    top_of_each_suit,
    trump_held,
)

CTX_TRUMP, CTX_DECLARER, CTX_ACTIVE, CTX_N_ACTIVE, CTX_GENERATION = range(5)
CTX_SIZE = 5

MAX_PLY = 34
"""Rows of the work arrays: up to 30 plies below a root with 0-2 trick cards."""

# Columns of the per-ply work array.
(W_PLAYER, W_POS, W_CARD, W_NMOVES, W_IDX, W_TARGET, W_SLOT, W_KEY1, W_KEY2, W_FIRST,
 W_BEST, W_BEST_SEAT, W_TABLE, W_LAZY, W_KILLER, W_REL, W_TRICK_REL, W_SAME) = range(18)
WORK_COLUMNS = 18
# W_SLOT, W_KEY1, W_KEY2: the table bucket, length key and rank key of a searched trick start.
# W_REL: the cards whose ranks the results of the moves tried so far depended on.
# W_TRICK_REL: the same for the trick that the move at that row completed (0 if none).
# W_SAME: cards that give the same result as a card already tried at that row
# (``same_result_cards``).
# W_LAZY: 1 while only the stored lead (W_FIRST) has been listed; the other leads are
# generated only if it fails to decide the node.
# W_BEST, W_BEST_SEAT, W_TABLE: the winning card so far, its seat, and the mask of the
# cards on the table, before the play at that row (meaningful when W_POS > 0).
MAX_MOVES = 10
"""Columns of the move array: a node's moves are up to ``MAX_MOVES`` groups, each a mask of
cards (``CARDS``) and the order to try them in (from bit ``_ORDER_SHIFT``), picked one card
at a time (``next_in_group``), so that a node cut off early never orders the rest."""
CARDS = (1 << 32) - 1
_ORDER_SHIFT = 32
ORDER_LOW, ORDER_HIGH, ORDER_RANK, ORDER_LONGEST, ORDER_SHORTEST = range(5)
"""Orders within a group: lowest card first; highest first; lowest rank first, any suit;
suit by suit, from the mover's longest (or shortest) suit, lowest card first."""

_HASH_MULT = -7046029254386353131  # 0x9E3779B97F4A7C15 as int64

# Columns of the transposition table: the length key, the data word, the rank key
# restricted to the relevant cards, and that restriction's mask.
WAYS = 8
"""Entries per bucket: a row of the table is a bucket."""
T_LENGTHS, T_DATA, T_KEY, T_MASK = 0, WAYS, WAYS + 1, WAYS + 2
"""Columns of each field of way 0 in a bucket: the length key of way ``w`` is at
``T_LENGTHS + w``, so that a probe reads the length keys of all ways from one cache line
(fetched while the trick start's bounds are counted), and its other fields at
``T_* + 3 * w``, side by side, so that a matching way's fields are in one line."""
TABLE_COLUMNS = 4 * WAYS
LENGTH_BITS = (1 << 60) - 1
_FIFO_SHIFT = 60  # the next way to replace, kept in the top bits of way 0's length key

# Fields of the data word.
GENERATION_MASK = (1 << 22) - 1
_LOWER_SHIFT = 22
_UPPER_SHIFT = 26
_MOVE_SHIFT = 30  # 1 valid bit, 2 suit bits, 3 relative-rank bits of the lead that cut

STAT_NODES = 0
STAT_TT_HITS = 1
STAT_SEARCHES = 2
STAT_ENDGAME_HITS = 3
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
def strain_in_play(hands, trump):
    """The strain the rest of play goes by: ``trump``, or no-trumps once no one holds a
    trump (at a trick start)."""
    return trump if trump_held(hands[0] | hands[1] | hands[2], trump) else NO_TRUMP


@njit(cache=True, inline="always")
def length_key(hands, leader, ctx):
    """Bucket key of a trick start: every seat's length in every suit (seat 0's and 1's
    in the low and high half of each byte of bits 0-31, seat 2's in the low halves of
    bits 32-63), who leads, and the strain, declarer and seats in play (high halves).
    A position with no trumps left plays as in no-trumps and is keyed so, which lets
    the strains of one deal share it."""
    key = suit_lengths(hands[0]) | (suit_lengths(hands[1]) << 4)
    key |= suit_lengths(hands[2]) << 32
    strain = strain_in_play(hands, ctx[CTX_TRUMP])
    key |= (leader << 36) | (ctx[CTX_DECLARER] << 38) | (strain << 44)
    return key | (ctx[CTX_ACTIVE] << 52)


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
    run = below & _above(highest_bit(others)) if others else below
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
    h = (lengths ^ (generation * 0x2545F491)) * _HASH_MULT
    h ^= (h >> 31) & 0x1FFFFFFFF
    h *= _HASH_MULT
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
        if ((data >> _LOWER_SHIFT) & 15) >= target:
            return 1, w, hint
        if ((data >> _UPPER_SHIFT) & 15) < target:
            return 0, w, hint
        if hint < 0 and (data >> _MOVE_SHIFT) & 32:
            hint = w
    return -1, -1, hint


@njit(cache=True, inline="always")
def store(table, bucket, lengths, key, mask, generation, tricks, target, val, move):
    """Record that the declarer does (``val``) or does not reach ``target`` from a trick
    start where ``tricks`` are left, for every position that matches ``key`` on ``mask``,
    in place of the bucket's oldest entry.  (Merging with an entry for the same
    positions found nothing more on the benchmark deals: a probe reads every way.)
    """
    way = table[bucket, T_LENGTHS] >> _FIFO_SHIFT
    lower = target if val else 0
    upper = tricks if val else target - 1
    table[bucket, T_LENGTHS + way] = lengths
    following = way + 1 if way < WAYS - 1 else 0
    table[bucket, T_LENGTHS] = (table[bucket, T_LENGTHS] & LENGTH_BITS) | (
        following << _FIFO_SHIFT)
    table[bucket, T_KEY + 3 * way] = key & mask
    table[bucket, T_MASK + 3 * way] = mask
    table[bucket, T_DATA + 3 * way] = (generation | (lower << _LOWER_SHIFT)
                                       | (upper << _UPPER_SHIFT) | (move << _MOVE_SHIFT))


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
        top = m & _above(high)
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
        moves[p, n] = mask | (order << _ORDER_SHIFT)
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
def _above(card):
    """Mask of the card indices above ``card``."""
    return ~((np.int64(2) << card) - 1)


@njit(cache=True, inline="always")
def _can_beat(hand, best, lead_suit, tmask):
    """Can a player holding ``hand`` beat ``best``, the card winning a trick led in
    ``lead_suit``: following above it, or, void in the suit, trumping it?"""
    if hand & lead_suit:
        return (lead_suit >> best) & 1 == 1 and (hand & lead_suit & _above(best)) != 0
    return (hand & tmask) != 0 and (not (np.int64(1) << best) & tmask
                                    or (hand & tmask & _above(best)) != 0)


@njit(cache=True, inline="always")
def follow_moves(hands, p, player, pos, work, moves, trump, declarer, active, nact, eq_tab):
    """Plays of ``player`` to a trick in progress, cheapest first within each group.

    When the own side is winning, or a defender's partner still to play can
    beat the declarer's card: losing cards, then winning ones.  Otherwise:
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
    lead_suit = SUIT_BITS << (8 * (lead_card >> 3))
    later_seat = next_active(player, active)
    later = hands[later_seat] if pos + 1 < nact else np.int64(0)  # the next to play, if any
    if player != declarer and (work[p, W_BEST_SEAT] != declarer or (
            later_seat != declarer and _can_beat(later, best, lead_suit, tmask))):
        n = _group(moves, p, 0, losers, ORDER_RANK)
        return _group(moves, p, n, winners, ORDER_LOW)
    safe = winners
    if later & lead_suit:
        safe = (winners & ~lead_suit) | (winners & _above(highest_bit(later & lead_suit)))
    elif later & tmask and not lead_suit & tmask:
        safe = winners & tmask & _above(highest_bit(later & tmask))
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
                    code = table[bucket, T_DATA + 3 * hint] >> _MOVE_SHIFT
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
                                 declarer, active, nact, eq_tab)
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
                    c = next_in_group(left, group >> _ORDER_SHIFT, hands[player])
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
            elif work[p, W_POS] == 0:
                work[p, W_KILLER] = work[p, W_CARD]
