"""Deals to replay (``prefa simulate --replay``): JSON Lines in the ``prefa solve`` format,
read into rows of cards with the bad lines named."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

import numpy as np

from ..core.cards import ALL_CARDS, parse_hand, popcount
from ..core.seats import DEFAULT_DEALER, SeatError, check_dealer
from ..util.jsonl import decode, misspelt_field, numbered_lines, unexpected


def replay_rows(deals: np.ndarray) -> tuple[np.ndarray, str]:
    """Deals to replay as int64 rows ``[hand0, hand1, hand2, widow, dealer]`` and their SHA-256."""
    rows = np.ascontiguousarray(deals, dtype=np.int64)
    return rows, hashlib.sha256(rows.tobytes()).hexdigest()


def parse_replay_deal(obj) -> list[int]:
    """One replay line, decoded: ``[hand0, hand1, hand2, widow, dealer]``."""
    misspelt = misspelt_field(obj, ("hands", "widow", "dealer")) if isinstance(obj, dict) \
        else None
    if misspelt:
        raise ValueError(misspelt)
    if not isinstance(obj, dict) or not isinstance(obj.get("hands"), list) \
            or len(obj["hands"]) != 3:
        raise ValueError("a line needs 'hands': three hands of ten cards")
    hands = []
    for seat, hand in enumerate(obj["hands"]):
        if not isinstance(hand, str | list):
            raise ValueError(f"hand of seat {seat} must be cards, e.g. \"AKQ.-.J7.AT98\"")
        try:
            hands.append(parse_hand(hand, 10))
        except ValueError as exc:
            raise ValueError(f"hand of seat {seat}: {exc}") from None
    dealt = hands[0] | hands[1] | hands[2]
    if popcount(dealt) != 30:
        raise ValueError("a card is in two hands")
    if "widow" in obj:
        if not isinstance(obj["widow"], str | list):
            raise ValueError("'widow' must be two cards")
        widow = parse_hand(obj["widow"], 2)
    else:
        widow = ALL_CARDS & ~dealt
    if widow & dealt:
        raise ValueError("a widow card is also in a hand")
    try:
        dealer = obj.get("dealer")
        dealer = DEFAULT_DEALER if dealer is None else check_dealer(dealer)
    except SeatError as exc:
        raise ValueError(str(exc)) from None
    return [*hands, widow, dealer]


def read_replay(lines: Iterable[bytes | str], limit: int | None = None
                ) -> tuple[np.ndarray, list[tuple[int, str]]]:
    """Deals to replay from JSON Lines in the ``prefa solve`` format.

    Each line needs ``hands`` (three hands of ten cards) and may give ``widow`` (else the
    two cards left over) and ``dealer`` (default 2); other fields are ignored, but one
    that is nearly one of these is a bad line (``jsonl.misspelt_field``).  Reads at most
    ``limit`` good deals.  Returns the rows for ``replay_rows`` and the bad lines as
    ``(line number, error)``.
    """
    rows, errors = [], []
    for line in numbered_lines(lines):
        if limit is not None and len(rows) >= limit:
            break
        if line.error is not None:
            errors.append((line.number, line.error))
            continue
        try:
            rows.append(parse_replay_deal(decode(line.text)))
        except ValueError as exc:
            errors.append((line.number, str(exc)))
        except Exception as exc:  # noqa: BLE001 - report the line and read the rest
            errors.append((line.number, unexpected(exc)))
    return np.array(rows, dtype=np.int64).reshape(-1, 5), errors
