"""Scenarios: which deals to simulate (fixed cards, the dealer, constraints) and a sampler.

A scenario file is TOML::

    name = "strong hearts"
    description = "First hand holds AKQ of hearts and five hearts or more"
    dealer = 2
    constraints = ["first.hearts >= 5"]

    [fixed]
    first = "-.-.-.AKQ"

``dealer`` is a seat number, 2 when left out (seat 0 is then first hand).
``fixed`` may name ``first``, ``second``, ``dealer`` and ``widow`` (suit-grouped
or card tokens, any number of cards up to the hand's size).  The cards not
fixed are dealt uniformly to complete the hands, so a fixed hand needs no
rejection; ``constraints`` (see ``prefa_sim.dealing.constraints``) are met by
rejection sampling, which reports its acceptance rate and gives up with a
clear message on a scenario that is impossible or too rare.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..core.cards import (
    ALL_CARDS,
    Bitboard,
    CardError,
    card_count,
    format_cards,
    iter_cards,
    parse_hand,
    popcount,
)
from ..core.seats import DEFAULT_DEALER, SeatError, check_dealer, seat_of
from ..rules.variants import DEFAULT_RULES, Rules, RulesError
from ..util.jsonl import utf8_error
from ..util.words import plural
from .constraints import Constraint, ConstraintError

SIZES = {"first": 10, "second": 10, "dealer": 10, "widow": 2}


class ScenarioError(ValueError):
    """A scenario that is malformed, contradictory or impossible to sample."""


@dataclass(frozen=True)
class Scenario:
    """Fixed cards by hand, the dealer and constraints that every deal must meet."""

    name: str = "random"
    description: str = "uniformly random deals"
    dealer: int = DEFAULT_DEALER
    fixed: Mapping[str, Bitboard] = field(default_factory=dict)
    constraints: tuple[Constraint, ...] = ()
    rules: Rules = DEFAULT_RULES
    """The ``[rules]`` table: the rules the deals are played under (docs/rules.md §7.6)."""

    def __post_init__(self) -> None:
        try:
            check_dealer(self.dealer)
        except SeatError as exc:
            raise ScenarioError(str(exc)) from None
        seen = 0
        for role, mask in self.fixed.items():
            if role not in SIZES:
                raise ScenarioError(f"unknown hand {role!r} in fixed cards "
                                    f"(known: {', '.join(SIZES)})")
            if popcount(mask) > SIZES[role]:
                raise ScenarioError(f"{card_count(popcount(mask))} fixed for {role}, at most "
                                    f"{SIZES[role]}")
            if seen & mask:
                other = next(r for r, m in self.fixed.items() if m & mask & seen)
                cards = " ".join(format_cards(seen & mask))
                raise ScenarioError(f"fixed cards given to two hands: {cards} in both "
                                    f"{other} and {role}")
            seen |= mask

    def seat_of(self, role: str) -> int:
        """The absolute seat of ``first``, ``second`` or ``dealer``."""
        return seat_of(role, self.dealer)

    def fixed_seats(self) -> tuple[int, ...]:
        """The seats whose hands the scenario fixes cards of, in seat order: the hands
        it studies."""
        return tuple(sorted(self.seat_of(role) for role, mask in self.fixed.items()
                            if mask and role != "widow"))


def parse_scenario(data: Mapping, source: str = "scenario") -> Scenario:
    """Build a scenario from decoded TOML (or any mapping), naming the bad key."""
    known = {"name", "description", "dealer", "fixed", "constraints", "rules"}
    unknown = set(data) - known
    if unknown:
        word = plural(len(unknown), "key")
        raise ScenarioError(f"{source}: unknown {word} {', '.join(sorted(unknown))} "
                            f"(known: {', '.join(sorted(known))})")
    fixed = {}
    raw_fixed = data.get("fixed", {})
    if not isinstance(raw_fixed, Mapping):
        raise ScenarioError(f"{source}: [fixed] must be a table of hands")
    for role, cards in raw_fixed.items():
        role = str(role).strip().lower()
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
    dealer = data.get("dealer", DEFAULT_DEALER)
    if not isinstance(dealer, int) or isinstance(dealer, bool):
        raise ScenarioError(f"{source}: the dealer must be seat 0, 1 or 2, got {dealer!r}")
    raw_rules = data.get("rules", {})
    if not isinstance(raw_rules, Mapping):
        raise ScenarioError(f"{source}: [rules] must be a table such as ten_nt = \"11\"")
    try:
        rules = Rules.from_mapping(raw_rules)
    except RulesError as exc:
        raise ScenarioError(f"{source}: [rules]: {exc}") from None
    try:
        return Scenario(str(data.get("name", "scenario")), str(data.get("description", "")),
                        dealer, fixed, tuple(constraints), rules)
    except ScenarioError as exc:
        raise ScenarioError(f"{source}: {exc}") from None


def with_overrides(data: Mapping, dealer: int | None = None, fixed: Sequence[str] = (),
                   constraints: Sequence[str] = ()) -> dict:
    """A scenario (decoded TOML) with a dealer, fixed cards (``HAND=CARDS``, replacing that
    hand's) and more constraints applied, as the command line gives them."""
    data = dict(data)
    if dealer is not None:
        data["dealer"] = dealer
    if fixed:
        raw = data.get("fixed", {})
        hands = {str(k).strip().lower(): v for k, v in raw.items()} \
            if isinstance(raw, Mapping) else {}
        for item in fixed:
            role, sep, cards = item.partition("=")
            if not sep:
                raise ScenarioError(f"--fixed {item!r} is not HAND=CARDS, e.g. "
                                    "first=AKQ.-.J7.AT98")
            hands[role.strip().lower()] = cards.strip()
        data["fixed"] = hands
    if constraints:
        before = data.get("constraints", [])
        data["constraints"] = [*(before if isinstance(before, list) else [before]),
                               *constraints]
    data.setdefault("name", "command line")
    return data


def load_scenario(path: str | Path) -> tuple[Scenario, str]:
    """Read a scenario TOML file; returns the scenario and the file's text."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ScenarioError(f"cannot read scenario {path}: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise ScenarioError(f"{path}, line {line}: {utf8_error(exc)}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{path}: not valid TOML: {exc}") from None
    except RecursionError:
        raise ScenarioError(f"{path}: TOML nested too deeply to read") from None
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
        self._batch = 64 if scenario.constraints else 1

    def deal(self, rng: np.random.Generator) -> np.ndarray:
        """One deal meeting the scenario, drawn from ``rng`` alone, as four int64 masks.

        Candidates are drawn in batches and the first that meets the constraints is
        taken, so the deal depends only on the state of ``rng``.
        """
        tried = 0
        while tried < self.max_tries:
            for row in self._draw(rng, self._batch):
                tried += 1
                if self._accept(row):
                    self.stats.tried += tried
                    self.stats.accepted += 1
                    return row
        self.stats.tried += tried
        raise ScenarioError(
            f"no deal met the constraints of {self.scenario.name!r} in {tried:,} tries "
            f"({self.stats.accepted:,} of {self.stats.tried:,} accepted so far): the scenario "
            "is impossible or too rare to sample")

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


def deal_rng(seed: int, index: int) -> np.random.Generator:
    """The random stream of deal ``index`` of a run with root ``seed``: the same deal
    whatever the chunking, the workers or the machines."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))
