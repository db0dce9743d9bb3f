"""Lookup tables for the kernels, built once at import with NumPy.

The tables are indexed by two 8-bit masks of one suit, ``(outer << 8) | inner``:
``inner`` a subset of ``outer`` for the first two (for ``RANK_CARDS``, positions among
``outer``'s cards), disjoint from it for the last.
"""

import numpy as np


def _build_relative_ranks() -> np.ndarray:
    """``inner`` compressed onto the positions of ``outer`` (a software PEXT).

    Renumbering the cards still in play from the bottom makes positions that
    differ only by cards already gone share one transposition-table entry.
    """
    table = np.zeros(1 << 16, dtype=np.uint8)
    for outer in range(256):
        positions = [b for b in range(8) if outer >> b & 1]
        for inner in range(256):
            if inner & ~outer:
                continue
            compressed = sum(1 << i for i, b in enumerate(positions) if inner >> b & 1)
            table[outer << 8 | inner] = compressed
    return table


def _build_rank_cards() -> np.ndarray:
    """The cards of ``outer`` at the positions ``inner`` (a software PDEP, the inverse
    of ``RELATIVE_RANKS``): relative ranks among the cards still in play back to cards.
    Positions beyond the cards of ``outer`` stand for no card."""
    table = np.zeros(1 << 16, dtype=np.uint8)
    inner = np.arange(256)  # every ``inner`` of one ``outer`` at once
    for outer in range(256):
        cards = np.zeros(256, dtype=np.int64)
        positions = [b for b in range(8) if outer >> b & 1]
        for i, b in enumerate(positions):
            cards |= ((inner >> i) & 1) << b
        table[outer << 8:(outer + 1) << 8] = cards
    return table


def _build_equal_card_representatives() -> np.ndarray:
    """The highest card of each run of ``inner`` that is unbroken within ``outer``.

    Cards of one hand that are adjacent among the cards still in play (the
    cards on the current trick included) are interchangeable: only one of
    each run needs searching.
    """
    table = np.zeros(1 << 16, dtype=np.uint8)
    for outer in range(256):
        for inner in range(256):
            if inner & ~outer:
                continue
            keep = 0
            for b in range(8):
                if not inner >> b & 1:
                    continue
                above = outer & ~((2 << b) - 1)
                next_up = (above & -above).bit_length() - 1 if above else -1
                if next_up < 0 or not inner >> next_up & 1:
                    keep |= 1 << b
            table[outer << 8 | inner] = keep
    return table


def _build_trump_tricks() -> np.ndarray:
    """Sure tricks of the trumps ``outer`` against the opposing trumps ``inner``
    (disjoint masks of one suit): the best, over ``k``, of ``k`` less the opposing
    trumps above the ``k``-th highest of ``outer`` (``search._trump_tricks``).

    Packed as ``tricks | (index of that k-th card) << 4 | 128``, the card whose rank
    the count relies on; ``tricks`` alone when it relies on none (no opposing trumps,
    or nothing to count).
    """
    table = np.zeros(1 << 16, dtype=np.uint8)
    opposing = np.arange(256)
    above = np.zeros((8, 256), dtype=np.int64)  # opposing cards above each card
    for b in range(8):
        above[b] = [bin(o >> (b + 1)).count("1") for o in range(256)]
    for own in range(256):
        best = np.zeros(256, dtype=np.int64)
        card = np.full(256, -1, dtype=np.int64)
        k = 0
        for b in range(7, -1, -1):
            if not own >> b & 1:
                continue
            k += 1
            n = k - above[b]
            better = n > best
            best = np.where(better, n, best)
            card = np.where(better, b, card)
        packed = np.where((opposing != 0) & (card >= 0), best | (card << 4) | 128, 0)
        packed = np.where(opposing == 0, bin(own).count("1"), packed)
        valid = (opposing & own) == 0
        table[(own << 8) | opposing[valid]] = packed[valid]
    return table


RELATIVE_RANKS = _build_relative_ranks()
RANK_CARDS = _build_rank_cards()
EQUAL_CARD_REPRESENTATIVES = _build_equal_card_representatives()
TRUMP_TRICKS = _build_trump_tricks()
