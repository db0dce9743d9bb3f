"""Contracts: the 25-step ladder (docs/rules.md §2) and the value of a trick (docs/rules.md §6)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

from .cards import CardError, Strain, parse_strain

MIN_LEVEL = 6
MAX_LEVEL = 10

# Value v of one trick, by level then strain S C D H NT; a contract is worth 10 v.
TRICK_VALUES: dict[int, tuple[int, int, int, int, int]] = {
    6: (2, 3, 4, 5, 6),
    7: (7, 7, 7, 7, 8),
    8: (8, 8, 8, 8, 9),
    9: (9, 9, 9, 9, 10),
    10: (10, 10, 10, 10, 10),
}


class ContractError(CardError):
    """A contract or step name that does not exist."""


class Contract(NamedTuple):
    """A level (6-10) and a strain; ordered like the bidding ladder."""

    level: int
    strain: Strain

    @property
    def step(self) -> int:
        """Position on the ladder: 0 for 6S up to 24 for 10NT."""
        return (self.level - MIN_LEVEL) * 5 + int(self.strain)

    @property
    def trick_value(self) -> int:
        """``v``: the kapíkia one trick is worth."""
        return TRICK_VALUES[self.level][int(self.strain)]

    def __str__(self) -> str:
        return f"{self.level}{self.strain.name}"

    @classmethod
    def from_step(cls, step: int) -> Contract:
        """The contract at ladder position ``step`` (0..24)."""
        if not 0 <= step < 25:
            raise ContractError(f"step {step} is outside the ladder 0..24")
        return cls(MIN_LEVEL + step // 5, Strain(step % 5))


LADDER: tuple[Contract, ...] = tuple(Contract.from_step(i) for i in range(25))


def parse_contract(text: str) -> Contract:
    """Parse a contract such as ``6S``, ``7h``, ``10NT`` or ``8♦``."""
    t = text.strip()
    digits = t[:2] if t[:2] == "10" else t[:1]
    message = f"unknown contract {text!r} (expected a level 6-10 and S, C, D, H or NT)"
    if not digits.isdigit() or not MIN_LEVEL <= int(digits) <= MAX_LEVEL:
        raise ContractError(message)
    try:
        strain = parse_strain(t[len(digits):])
    except CardError:
        raise ContractError(message) from None
    return Contract(int(digits), strain)


def best_contract(tricks: Mapping[Strain, int], minimum: Contract = LADDER[0],
                  ladder: Sequence[Contract] = LADDER,
                  value: Callable[[Contract], int] | None = None) -> Contract | None:
    """The most valuable contract the declarer can make, not below ``minimum``.

    ``tricks`` maps each strain to the declarer's tricks in it.  A strain with
    ``t`` tricks makes every contract up to level ``t``; among the makeable
    contracts of ``ladder`` the one with the largest trick value (``value``, by
    default ``Contract.trick_value``) wins, the higher step on a tie.  None when no
    contract at or above ``minimum`` makes.
    """
    best, best_key = None, None
    for contract in ladder[minimum.step:]:
        if tricks.get(contract.strain, 0) < contract.level:
            continue
        key = (contract.trick_value if value is None else value(contract), contract.step)
        if best_key is None or key > best_key:
            best, best_key = contract, key
    return best
