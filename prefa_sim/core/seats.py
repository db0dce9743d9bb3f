"""Seats and the roles players name them by (docs/rules.md §1).

Seats are numbered in play order: seat ``s + 1 mod 3`` acts right after seat
``s``.  First hand is the dealer's right-hand neighbour, ``dealer + 1``; second
hand is ``dealer + 2``; the dealer is third hand.  Everywhere in prefa-sim the
dealer is seat 2 unless one is named, so seat 0 is first hand by default.

Wherever a seat is asked for, a role may be given instead: ``first``,
``second`` or ``dealer`` (positions in the deal, which need the dealer).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

DEFAULT_DEALER = 2
"""The dealer when none is named: seat 0 is then first hand."""

SEATS = (0, 1, 2)
POSITIONS = ("first", "second", "dealer")
"""A seat's place in the deal, in speaking order: first hand, second hand, the dealer."""
POSITION_NAMES = {"first": "first hand", "second": "second hand", "dealer": "dealer"}
_ALIASES = {"first": "first", "first hand": "first", "first-hand": "first",
            "second": "second", "second hand": "second", "second-hand": "second",
            "dealer": "dealer", "third": "dealer", "third hand": "dealer"}


class SeatError(ValueError):
    """A seat that is neither 0, 1, 2 nor a role."""


SeatSpec = int | str
"""A seat number, or a role still to be placed with the dealer."""


def check_seat_spec(value: object) -> SeatSpec:
    """A seat (``0``-``2``, as an int or a digit string) or a role name, checked but
    not yet placed (roles need the dealer, which may come later)."""
    if isinstance(value, bool):
        raise SeatError(f"{value!r} is not a seat: give 0, 1, 2, first, second or dealer")
    if isinstance(value, int):
        if value in SEATS:
            return value
    elif isinstance(value, str):
        text = value.strip().lower()
        if text in ("0", "1", "2"):
            return int(text)
        if text in _ALIASES:
            return _ALIASES[text]
    raise SeatError(f"{value!r} is not a seat: give 0, 1, 2, first, second or dealer")


def seat_of(value: object, dealer: int = DEFAULT_DEALER) -> int:
    """The seat number of ``value`` (a seat or a role), the deal dealt by ``dealer``."""
    spec = check_seat_spec(value)
    if isinstance(spec, int):
        return spec
    return (dealer + 1 + POSITIONS.index(spec)) % 3


def seats_of(values: Iterable[object], dealer: int = DEFAULT_DEALER) -> tuple[int, ...]:
    """Sorted distinct seat numbers of seats or roles."""
    return tuple(sorted({seat_of(v, dealer) for v in values}))


def check_dealer(value: object) -> int:
    """The dealer must be a seat number (an int, or its digit as text): a role is
    defined by the dealer."""
    if isinstance(value, int) and not isinstance(value, bool) and value in SEATS:
        return value
    if isinstance(value, str) and value.strip() in ("0", "1", "2"):
        return int(value.strip())
    raise SeatError(f"the dealer must be seat 0, 1 or 2, got {value!r}")


def position_of(seat: int, dealer: int = DEFAULT_DEALER) -> str:
    """``first``, ``second`` or ``dealer``: the place of ``seat`` in the deal."""
    return POSITIONS[(seat - dealer - 1) % 3]


def seat_label(seat: int, dealer: int = DEFAULT_DEALER) -> str:
    """``seat 0 (first hand)``: the seat with its role."""
    return f"seat {seat} ({POSITION_NAMES[position_of(seat, dealer)]})"


def first_hand(dealer: int) -> int:
    """The dealer's right-hand neighbour, who speaks first."""
    return (dealer + 1) % 3


def seats_in_play(declarer: int, defenders: Iterable[str]) -> tuple[int, ...]:
    """The seats that play, in order: the declarer's and those of the ``defenders`` named
    (``first`` sits after the declarer, ``second`` after ``first``)."""
    offset = {"first": 1, "second": 2}
    return tuple(sorted({declarer, *((declarer + offset[r]) % 3 for r in defenders)}))


def opening_leader(dealer: int, active: Sequence[int]) -> int:
    """The first active seat counting from first hand (docs/rules.md §5)."""
    for k in (1, 2, 3):
        seat = (dealer + k) % 3
        if seat in active:
            return seat
    raise SeatError("no active seat")
