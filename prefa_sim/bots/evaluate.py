"""Hand evaluation by sure and probable tricks, as players count them at the table.

A suit's tricks come from its honours (an ace is a trick, a king with the ace or
guarded is a half or a whole, a queen behind the ace and king) and, in the trump suit or
a long suit in no trumps, from its length.  The weights are rough on purpose: they are
what a player can count at a glance, not a solver.
"""

from __future__ import annotations

from ..core.cards import Bitboard, Strain, popcount

ACE, KING, QUEEN, JACK = 0x80, 0x40, 0x20, 0x10


def suit_ranks(hand: Bitboard, suit: int) -> int:
    """The 8-bit rank mask of one suit of a hand (bit 7 the ace, bit 0 the seven)."""
    return (hand >> (8 * suit)) & 0xFF


def honour_tricks(ranks: int) -> float:
    """Tricks a suit's top cards are worth outside trumps."""
    n = popcount(ranks)
    tricks = 0.0
    if ranks & ACE:
        tricks += 1
    if ranks & KING:
        tricks += 1 if ranks & ACE else 0.5 if n >= 2 else 0.1
    if ranks & QUEEN:
        if ranks & ACE and ranks & KING:
            tricks += 1
        elif (ranks & (ACE | KING)) and n >= 3:
            tricks += 0.5
        elif n >= 3:
            tricks += 0.2
    if ranks & JACK and ranks & ACE and ranks & KING and ranks & QUEEN:
        tricks += 1
    return tricks


def trump_tricks(ranks: int) -> float:
    """Tricks of the trump suit: its honours, and every trump beyond the third."""
    n = popcount(ranks)
    return honour_tricks(ranks) + max(0, n - 3) * 0.9


def long_suit_tricks(ranks: int) -> float:
    """Extra tricks of a long suit in no trumps, once its top is held."""
    n = popcount(ranks)
    if n < 5 or not ranks & (ACE | KING):
        return 0.0
    return (n - 4) * (1.0 if ranks & ACE and ranks & KING else 0.6)


def declarer_tricks(hand: Bitboard, strain: Strain) -> float:
    """The tricks a declarer's ten cards are worth in ``strain`` (a rough count)."""
    suits = [suit_ranks(hand, s) for s in range(4)]
    if strain == Strain.NT:
        tricks = sum(honour_tricks(r) + long_suit_tricks(r) for r in suits)
        open_suits = sum(1 for r in suits if not r & ACE and not (r & KING and popcount(r) >= 2))
        return tricks - 0.75 * open_suits
    trumps = suits[int(strain)]
    spare = max(0, popcount(trumps) - 3)
    tricks = trump_tricks(trumps)
    for s, ranks in enumerate(suits):
        if s == int(strain):
            continue
        tricks += honour_tricks(ranks)
        short = max(0, 2 - popcount(ranks))
        ruffs = min(short, spare)
        tricks += 0.6 * ruffs
        spare -= ruffs
    return tricks


def defender_tricks(hand: Bitboard, strain: Strain) -> float:
    """The tricks a defender's cards are worth against a contract in ``strain``."""
    total = 0.0
    for s in range(4):
        ranks = suit_ranks(hand, s)
        if strain != Strain.NT and s == int(strain):
            n = popcount(ranks)
            total += (1 if ranks & ACE else 0) + (0.7 if ranks & KING and n >= 2 else 0) \
                + (0.4 if ranks & QUEEN and n >= 3 else 0) + max(0, n - 3) * 0.5
        else:
            n = popcount(ranks)
            total += (1 if ranks & ACE else 0) + (0.5 if ranks & KING and n >= 2 else 0)
    return total


def best_discard(twelve: Bitboard, strain: Strain, among: Bitboard | None = None
                 ) -> tuple[int, int]:
    """Two cards to lay away for ``strain``: the lowest cards outside the trump suit,
    from the shortest suits first (to make voids), never an ace or a guarded king.
    ``among`` limits the choice to those cards (the suit lengths still count all twelve)."""
    def keep_value(card: int) -> tuple:
        suit, rank = divmod(card, 8)
        length = popcount(suit_ranks(twelve, suit))
        is_trump = strain != Strain.NT and suit == int(strain)
        honour = rank == 7 or (rank == 6 and length >= 2)
        return (is_trump, honour, length, rank)

    pool = twelve if among is None else twelve & among
    cards = sorted((c for c in range(32) if pool >> c & 1), key=keep_value)
    return cards[0], cards[1]
