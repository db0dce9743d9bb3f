"""Lookup tables for the kernels, built once at import with NumPy.

Both tables are indexed by ``(outer << 8) | inner`` for two 8-bit suit masks,
``inner`` a subset of ``outer``.
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


RELATIVE_RANKS = _build_relative_ranks()
EQUAL_CARD_REPRESENTATIVES = _build_equal_card_representatives()
