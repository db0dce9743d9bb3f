"""Exact suit-split odds: how the cards a player cannot see lie between two hands.

After the widow the declarer knows twelve cards; the other twenty lie ten and ten
with the defenders.  A suit with ``out`` cards among them splits ``k``-``(out-k)``
with the hypergeometric probability ``C(out, k) C(20-out, 10-k) / C(20, 10)``.
With a defender out of play, the lone defender sees their own ten cards and the
other twenty-two lie ten in the declarer's hand and twelve out of play (the
passed defender's ten and the two discards): the same law with sizes 10 and 12.
All figures are exact fractions.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

from ..core.cards import SUIT_MASKS, Bitboard, popcount

DEFENDERS_VIEW = (10, 10)
"""The declarer's view: the two defenders' hands."""
LONE_DEFENDER_VIEW = (10, 12)
"""A lone defender's view: the declarer's ten cards, and the twelve out of play."""


@dataclass(frozen=True)
class Split:
    """``first`` cards of the suit in the first hand, ``second`` in the other."""

    first: int
    second: int
    probability: Fraction


def suit_splits(out: int, sizes: tuple[int, int] = DEFENDERS_VIEW) -> list[Split]:
    """Every split of a suit with ``out`` unseen cards between two hands of ``sizes``
    cards (all unseen cards dealt at random), most cards in the first hand first."""
    first, second = sizes
    if first < 0 or second < 0:
        raise ValueError(f"hand sizes must be 0 or more, got {sizes}")
    if not 0 <= out <= min(8, first + second):
        raise ValueError(f"a suit has 0 to 8 cards, and at most {first + second} unseen here; "
                         f"got {out}")
    total = comb(first + second, first)
    splits = []
    for k in range(out, -1, -1):
        ways = comb(out, k) * comb(first + second - out, first - k)
        if ways:
            splits.append(Split(k, out - k, Fraction(ways, total)))
    return splits


def grouped(splits: list[Split]) -> list[tuple[str, Fraction]]:
    """Splits regardless of which hand holds more: ``3-1`` for 3-1 and 1-3, longest first."""
    groups: dict[tuple[int, int], Fraction] = {}
    for s in splits:
        key = (max(s.first, s.second), min(s.first, s.second))
        groups[key] = groups.get(key, Fraction(0)) + s.probability
    return [(f"{a}-{b}", p) for (a, b), p in sorted(groups.items(), reverse=True)]


def unseen_by_suit(known: Bitboard) -> list[int]:
    """How many cards of each suit (S C D H) a player who knows ``known`` cannot see."""
    return [8 - popcount(known & mask) for mask in SUIT_MASKS]
