"""The rules of a single trick (docs/rules.md §5), in plain Python.

Follow suit if you can; when void, trump if you can; otherwise play anything.
Nobody is forced to beat, unless the table forbids under-trumping (``overtrump``,
docs/rules.md §7.6): then a player void in the suit led must beat a trump already
on the trick when they can.  The highest trump wins, otherwise the highest card
of the suit led.  Seats play in order ``s, (s + 1) % 3, ...``, skipping seats
out of play.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from .cards import NO_TRUMP, SUIT_MASKS, Bitboard, card_suit


def legal_cards_mask(hand: Bitboard, lead_card: int | None, trump: int,
                     best: int | None = None, overtrump: bool = False) -> Bitboard:
    """The cards of ``hand`` that may be played; ``lead_card`` is None when leading.
    With ``overtrump``, ``best`` is the card winning the trick so far."""
    if lead_card is None:
        return hand
    follow = hand & SUIT_MASKS[card_suit(lead_card)]
    if follow:
        return follow
    if trump != NO_TRUMP:
        ruff = hand & SUIT_MASKS[trump]
        if ruff:
            if overtrump and best is not None and card_suit(best) == trump:
                above = ruff & ~((2 << best) - 1)
                return above or ruff
            return ruff
    return hand


def beats(card: int, best: int, trump: int) -> bool:
    """Does ``card`` beat ``best``, the trick's current winning card?"""
    if card_suit(card) == card_suit(best):
        return card > best
    return card_suit(card) == trump


def next_seat(seat: int, active: Iterable[int]) -> int:
    """The seat in ``active`` that plays after ``seat``."""
    seats = set(active)
    for step in (1, 2, 3):
        s = (seat + step) % 3
        if s in seats:
            return s
    raise ValueError("no active seat")


def trick_seats(leader: int, active: Iterable[int]) -> list[int]:
    """The seats in play order for a trick led by ``leader``."""
    return list(play_order_of(leader, tuple(sorted(set(active)))))


@cache
def play_order_of(leader: int, active: tuple[int, ...]) -> tuple[int, ...]:
    """Play order from ``leader`` over ``active`` (sorted seats), cached."""
    order = [leader]
    while len(order) < len(active):
        order.append(next_seat(order[-1], active))
    return tuple(order)


def trick_winner(cards: Sequence[int], leader: int, trump: int, active: Iterable[int]) -> int:
    """The seat that wins a complete trick whose cards were played from ``leader`` on."""
    seats = trick_seats(leader, active)
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], trump):
            best = i
    return seats[best]
