"""The traditional personal kása (docs/rules.md §7), a scoring system beside the common pot.

Each player starts with an agreed kása in units (31 or 40, say; a unit is 10
kapíkia).  Only the declarer's kása moves: down by the contract's value when
made (or when both defenders pass), up by it (twice when two or more down)
when the declarer goes down.  All other payments are kapíkia between players,
exactly as with the common pot.  A kása never goes below zero: the declarer's
excess is struck from the fullest other kása (on a tie, the declarer's right-hand
neighbour's), whose owner pays the declarer 10 kapíkia per unit; when both
other kásas are empty the declarer gets half the remaining units' kapíkia from
each.  The game ends when all three kásas are empty; the kapíkia are the result.

A game ended by agreement while units remain is settled as docs/rules.md §7.5
says: every player pays each of the two others a third of their own remaining
units' kapíkia (the rule for two empty kásas, applied to every kása), so the
results are exact thirds and still sum to zero.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from .settlement import Settlement

UNIT = 10


@dataclass
class KasaGame:
    """Kásas (units) and kapíkia of the three seats."""

    kasa: list[int] = field(default_factory=lambda: [31, 31, 31])
    kapikia: list[int] = field(default_factory=lambda: [0, 0, 0])

    @property
    def over(self) -> bool:
        """All three kásas are empty."""
        return not any(self.kasa)

    def results(self) -> list[Fraction]:
        """Each seat's result in kapíkia, units left in the kásas settled (docs/rules.md §7.5)."""
        total = sum(self.kasa)
        return [self.kapikia[s] + Fraction(UNIT * (total - 3 * self.kasa[s]), 3)
                for s in range(3)]

    def record(self, declarer: int, settlement: Settlement) -> None:
        """Book one deal settled with full trick values (``last_contract="fair"``).

        The settlement's pot movement becomes the declarer's kása movement
        (``pot_delta / 10`` units); its transfers are paid in kapíkia.
        """
        for offset, role in enumerate(("declarer", "first", "second")):
            self.kapikia[(declarer + offset) % 3] += settlement.transfers[role]
        units = settlement.pot_delta // UNIT
        if units >= 0:
            self.kasa[declarer] += units
        else:
            self.strike(declarer, -units)

    def strike(self, declarer: int, units: int) -> None:
        """Take ``units`` off the declarer's kása, the excess off the others' (paid for)."""
        own = min(units, self.kasa[declarer])
        self.kasa[declarer] -= own
        units -= own
        others = [(declarer + 1) % 3, (declarer + 2) % 3]
        while units:
            fullest = max(others, key=lambda s: (self.kasa[s], s == others[0]))
            if not self.kasa[fullest]:
                for seat in others:
                    self._pay(seat, declarer, units * UNIT // 2)
                return
            taken = min(units, self.kasa[fullest])
            self.kasa[fullest] -= taken
            self._pay(fullest, declarer, taken * UNIT)
            units -= taken

    def _pay(self, payer: int, payee: int, amount: int) -> None:
        self.kapikia[payer] -= amount
        self.kapikia[payee] += amount
