"""Scenarios: which deals to simulate (fixed cards, the dealer, constraints) and a sampler.

A scenario file is TOML::

    name = "strong hearts"
    description = "First hand holds AKQ of hearts and five hearts or more"
    dealer = 2
    constraints = ["first.hearts >= 5"]

    [fixed]
    first = "-.-.-.AKQ"

``fixed`` may name ``first``, ``second``, ``dealer`` and ``widow`` (suit-grouped
or card tokens, any number of cards up to the hand's size).  The cards not
fixed are dealt uniformly to complete the hands, so a fixed hand needs no
rejection; ``constraints`` (see ``prefa_sim.constraints``) are met by
rejection sampling, which reports its acceptance rate and gives up with a
clear message on a scenario that is impossible or too rare.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .cards import ALL_CARDS, Bitboard, CardError, format_hand, iter_cards, parse_hand, popcount
from .constraints import Constraint, ConstraintError

SIZES = {"first": 10, "second": 10, "dealer": 10, "widow": 2}


class ScenarioError(ValueError):
    """A scenario that is malformed, contradictory or impossible to sample."""


@dataclass(frozen=True)
class Scenario:
    """Fixed cards by hand, the dealer and constraints that every deal must meet."""

    name: str = "random"
    description: str = "uniformly random deals"
    dealer: int = 0
    fixed: Mapping[str, Bitboard] = field(default_factory=dict)
    constraints: tuple[Constraint, ...] = ()

    def __post_init__(self) -> None:
        if self.dealer not in (0, 1, 2):
            raise ScenarioError(f"dealer must be seat 0, 1 or 2, got {self.dealer!r}")
        seen = 0
        for role, mask in self.fixed.items():
            if role not in SIZES:
                raise ScenarioError(f"unknown hand {role!r} in fixed cards "
                                    f"(known: {', '.join(SIZES)})")
            if popcount(mask) > SIZES[role]:
                raise ScenarioError(f"{popcount(mask)} cards fixed for {role}, at most "
                                    f"{SIZES[role]}")
            if seen & mask:
                card = format_hand(seen & mask)
                raise ScenarioError(f"fixed cards {card} given to two hands")
            seen |= mask

    def seat_of(self, role: str) -> int:
        """The absolute seat of ``first``, ``second`` or ``dealer``."""
        return (self.dealer + {"first": 1, "second": 2, "dealer": 0}[role]) % 3

    def describe(self) -> str:
        """A one-line summary: name, dealer, fixed cards, constraints."""
        parts = [f"{self.name}: dealer seat {self.dealer}"]
        parts += [f"{role} holds {format_hand(m)}" for role, m in self.fixed.items() if m]
        parts += [c.text for c in self.constraints]
        return "; ".join(parts)


def parse_scenario(data: Mapping, source: str = "scenario") -> Scenario:
    """Build a scenario from decoded TOML (or any mapping), naming the bad key."""
    known = {"name", "description", "dealer", "fixed", "constraints"}
    unknown = set(data) - known
    if unknown:
        raise ScenarioError(f"{source}: unknown key(s) {', '.join(sorted(unknown))} "
                            f"(known: {', '.join(sorted(known))})")
    fixed = {}
    raw_fixed = data.get("fixed", {})
    if not isinstance(raw_fixed, Mapping):
        raise ScenarioError(f"{source}: [fixed] must be a table of hands")
    for role, cards in raw_fixed.items():
        if not isinstance(cards, str | list):
            raise ScenarioError(f"{source}: fixed.{role} must be cards, e.g. \"AKQ.-.J7.AT98\"")
        try:
            fixed[role] = parse_hand(cards)
        except CardError as exc:
            raise ScenarioError(f"{source}: fixed.{role}: {exc}") from None
    raw_constraints = data.get("constraints", [])
    if isinstance(raw_constraints, str):
        raw_constraints = [raw_constraints]
    if not isinstance(raw_constraints, list) or not all(isinstance(c, str)
                                                          for c in raw_constraints):
        raise ScenarioError(f"{source}: constraints must be a list of expressions")
    constraints = []
    for k, text in enumerate(raw_constraints):
        try:
            constraints.append(Constraint(text))
        except ConstraintError as exc:
            raise ScenarioError(f"{source}: constraint {k + 1}: {exc}") from None
    dealer = data.get("dealer", 0)
    if not isinstance(dealer, int) or isinstance(dealer, bool):
        raise ScenarioError(f"{source}: dealer must be a seat number 0-2")
    try:
        return Scenario(str(data.get("name", "scenario")), str(data.get("description", "")),
                        dealer, fixed, tuple(constraints))
    except ScenarioError as exc:
        raise ScenarioError(f"{source}: {exc}") from None


def load_scenario(path: str | Path) -> tuple[Scenario, str]:
    """Read a scenario TOML file; returns the scenario and the file's text."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioError(f"cannot read scenario {path}: {exc.strerror}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{path}: not valid TOML: {exc}") from None
    return parse_scenario(data, str(path)), text


@dataclass
class SamplerStats:
    """How rejection sampling went."""

    tried: int = 0
    accepted: int = 0

    @property
    def acceptance(self) -> float:
        return self.accepted / self.tried if self.tried else 1.0


class DealSampler:
    """Draws deals of a scenario: rows ``[seat0, seat1, seat2, widow]`` of card masks.

    The free cards are dealt uniformly; constraints are met by rejection.
    ``max_tries`` bounds the draws per accepted deal before giving up.
    """

    def __init__(self, scenario: Scenario, max_tries: int = 100_000) -> None:
        self.scenario = scenario
        self.max_tries = max_tries
        self.stats = SamplerStats()
        fixed_all = 0
        for mask in scenario.fixed.values():
            fixed_all |= mask
        self._free = np.array(list(iter_cards(ALL_CARDS & ~fixed_all)), dtype=np.int64)
        self._slots: list[tuple[int, int, int]] = []  # (column, fixed mask, cards to add)
        for role in ("first", "second", "dealer", "widow"):
            column = 3 if role == "widow" else scenario.seat_of(role)
            fixed = scenario.fixed.get(role, 0)
            self._slots.append((column, fixed, SIZES[role] - popcount(fixed)))

    def sample(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """``n`` deals meeting the scenario, as an ``(n, 4)`` int64 array."""
        out = np.zeros((n, 4), dtype=np.int64)
        done = 0
        since_last = 0
        while done < n:
            batch = max(16, min(4096, 2 * (n - done)))
            rows = self._draw(rng, batch)
            for row in rows:
                self.stats.tried += 1
                since_last += 1
                if self._accept(row):
                    self.stats.accepted += 1
                    out[done] = row
                    done += 1
                    since_last = 0
                    if done == n:
                        break
            if since_last >= self.max_tries:
                raise ScenarioError(
                    f"no deal met the constraints of {self.scenario.name!r} in "
                    f"{since_last:,} tries ({self.stats.accepted:,} of {self.stats.tried:,} "
                    "accepted so far): the scenario is impossible or too rare to sample")
        return out

    def _draw(self, rng: np.random.Generator, count: int) -> np.ndarray:
        keys = rng.random((count, len(self._free)))
        order = self._free[np.argsort(keys, axis=1)]
        bits = np.left_shift(np.int64(1), order)
        rows = np.zeros((count, 4), dtype=np.int64)
        start = 0
        for column, fixed, size in self._slots:
            rows[:, column] = fixed + bits[:, start:start + size].sum(axis=1)
            start += size
        return rows

    def _accept(self, row: Sequence[int]) -> bool:
        if not self.scenario.constraints:
            return True
        s = self.scenario
        hands = {"first": int(row[s.seat_of("first")]), "second": int(row[s.seat_of("second")]),
                 "dealer": int(row[s.seat_of("dealer")]), "widow": int(row[3])}
        return all(c.holds(hands) for c in s.constraints)

