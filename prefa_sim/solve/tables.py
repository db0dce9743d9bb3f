"""Widow-aware double-dummy tables of a deal: what each declarer makes in each strain.

For a deal (three hands, the widow, the dealer), each declarer seat under study
and each strain: the declarer takes the widow and makes the best discard, and
the declarer's double-dummy tricks are found when both defenders play
(``both``), when only the first defender plays (``first``: the second passed,
their cards out of play) and when only the second plays (``second``).  The
opening lead follows docs/rules.md §5: the first active player counting from first hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["MODES", "TableRow", "active_seats", "deal_table", "opening_leader"]
from dataclasses import dataclass

from ..core.cards import Bitboard, Strain
from ..core.seats import opening_leader, seats_in_play
from .solver import Solver

MODES = ("both", "first", "second")
"""Defence modes: both defenders play, or one plays alone (named by role)."""


@dataclass(frozen=True)
class TableRow:
    """One declarer and strain of one deal, the tricks in each defence mode studied."""

    declarer: int
    strain: Strain
    tricks: dict[str, int]
    """Best tricks per mode (``both``, ``first``, ``second``)."""
    discard: dict[str, tuple[int, int]]
    """A best discard per mode (the lowest pair among the best)."""
    best_discards: dict[str, int]
    """How many of the 66 discards reach the best, per mode."""


def active_seats(declarer: int, mode: str) -> tuple[int, ...]:
    """The seats that play for a declarer and a defence mode."""
    return seats_in_play(declarer, ("first", "second") if mode == "both" else (mode,))


def deal_table(solver: Solver, hands: Sequence[Bitboard], widow: Bitboard, dealer: int,
               declarers: Iterable[int] = (0, 1, 2), strains: Iterable[Strain] = tuple(Strain),
               modes: Iterable[str] = MODES, *, overtrump: bool = False) -> list[TableRow]:
    """The widow-aware table of one deal, one row per (declarer, strain); ``overtrump``: no
    under-trumping (``Position.overtrump``)."""
    declarers, strains, modes = tuple(declarers), tuple(strains), tuple(modes)
    cells = []
    for declarer in declarers:
        for strain in strains:
            for mode in modes:
                active = active_seats(declarer, mode)
                cells.append((strain, opening_leader(dealer, active), declarer, active))
    results = iter(solver.widow_results(hands, widow, cells, overtrump=overtrump))
    rows = []
    for declarer in declarers:
        for strain in strains:
            tricks, discard, count = {}, {}, {}
            for mode in modes:
                result = next(results)
                tricks[mode] = result.best_tricks
                discard[mode] = result.best_discards[0]
                count[mode] = len(result.best_discards)
            rows.append(TableRow(declarer, Strain(strain), tricks, discard, count))
    return rows
