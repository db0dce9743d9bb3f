"""The defence: quotas, the money of each declaration sequence, and paired comparisons.

Every row of a dataset (one deal, declarer and strain) is read as if its declarer had
named each contract of that strain, levels 6 to 10, and the defenders had made each of
the seven declaration sequences of docs/rules.md §4.3; the money is settled by the
project's own settlement (docs/rules.md §6) at a full pot, without the aces.

Conventions (said wherever the figures are shown):

- Kapíkia are each player's change of result (docs/rules.md §6.12) were the game to end
  after the deal: the payments between players, and the pot's movement shared in thirds
  (what the declarer takes from the pot is two thirds a gain for the declarer and a third
  a loss for each defender).  The three sum to zero, so the defence's loss is the
  declarer's gain.
- The double-dummy table fixes the declarer's tricks, not how two defenders share
  theirs.  The declarer's money never depends on that share (a defence that falls short
  pays the same total however its tricks fell), nor does the money of a defender who
  said "together" and bears the partner's result.  Only after "play, play" does each
  defender's own money depend on it: that figure is given as the range between the
  share worst and best for that defender.
- Each defence mode's tricks come with the declarer's best discard for that mode; the
  declarer discards before the defenders speak, so comparing modes favours the declarer
  slightly.
- "The defence's best" is chosen deal by deal seeing all cards (double-dummy): the
  sequence that leaves the declarer least, and so the defence most.

Intervals: rates have Wilson intervals; money and differences have percentile bootstrap
intervals over deals (the rows of one deal, its declarers and strains, are resampled
together, in ``BLOCKS`` blocks of whole deals), and every difference between two choices
is computed on the same deals (paired).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, partial
from pathlib import Path

import numpy as np

from ..core.cards import Strain
from ..core.contracts import LADDER, MAX_LEVEL, MIN_LEVEL, Contract
from ..rules.settlement import DEFENCES, settle
from ..rules.variants import DEFAULT_RULES, Rules
from ..sim.dataset import rules_for
from .groups import check_range, filtered_rows, group_make_rates, parse_where
from .intervals import Estimate, wilson
from .scan import scan

SEQUENCES: tuple[tuple[str, ...], ...] = tuple(DEFENCES)
"""The seven legal declaration sequences, in the order of docs/rules.md §4.3."""
OUTCOMES = (("play", "play"), ("play", "pass", "alone"), ("pass", "play", "pass"),
            ("pass", "pass"))
"""Who defends: both, the first alone, the second alone, nobody (one sequence each)."""
OUTCOME_NAMES = ("both play", "first alone", "second alone", "both pass")
BLOCKS = 500
"""Deals are bootstrapped in this many blocks (deal index modulo BLOCKS)."""
BOOTSTRAP = 1000
"""Bootstrap replicates by default."""

# Columns of the per-contract sums.
_N, _MAKE, _QUOTA_BOTH, _QUOTA_FIRST, _QUOTA_SECOND, _BEST = range(6)
_SEQ0 = 6
"""Per sequence, five columns from here: declarer, first low, first high, second low,
second high."""
_K = _SEQ0 + 5 * len(SEQUENCES)
_TRICKS = 11 ** 3
"""Codes of (tricks both, tricks first alone, tricks second alone)."""


def sequence_text(sequence: Sequence[str]) -> str:
    """``play, pass, together``."""
    return ", ".join(sequence)


def sequence_money(contract: Contract, sequence: tuple[str, ...], tricks: int,
                   rules: Rules = DEFAULT_RULES
                   ) -> tuple[Fraction, Fraction, Fraction, Fraction, Fraction]:
    """How the declarer's, the first and the second defender's results change when the
    declarer takes ``tricks`` against the defence of ``sequence`` (``Settlement.result``):
    ``(declarer, first low, first high, second low, second high)``, the lows and highs
    over every share of the defence's tricks (equal where the share does not matter)."""
    players = DEFENCES[sequence].players
    if not players:
        shares = [{}]
    elif len(players) == 1:
        shares = [{"declarer": tricks, players[0]: 10 - tricks}]
    else:
        shares = [{"declarer": tricks, "first": b, "second": 10 - tricks - b}
                  for b in range(10 - tricks + 1)]
    nets = [settle(contract, sequence, share or None, rules=rules).result for share in shares]
    declarer = {n["declarer"] for n in nets}
    if len(declarer) != 1:  # the rules guarantee it; a change to them must not pass unseen
        raise AssertionError(f"{contract} {sequence}: the declarer's money depends on the "
                             "defenders' share")
    first = [n["first"] for n in nets]
    second = [n["second"] for n in nets]
    return declarer.pop(), min(first), max(first), min(second), max(second)


def quota_reached(contract: Contract, tricks: int, lone: bool,
                  rules: Rules = DEFAULT_RULES) -> bool:
    """The defence takes its quota (docs/rules.md §4.4, under ``rules``) when the declarer
    takes ``tricks``."""
    first, second, alone = rules.quotas(contract.level)
    return 10 - tricks >= (alone if lone else first + second)


@cache
def _values(rules: Rules = DEFAULT_RULES) -> np.ndarray:
    """Per strain, trick code and level, the columns a row adds under ``rules``: ``[5, 1331,
    5, _K]`` (a contract the rules do not allow adds nothing)."""
    values = np.zeros((len(Strain), _TRICKS, MAX_LEVEL - MIN_LEVEL + 1, _K))
    code = np.arange(_TRICKS)
    tricks = {"both": code // 121, "first": code // 11 % 11, "second": code % 11,
              None: np.full(_TRICKS, 10)}  # both pass: no card is played
    mode_of = {seq: ("both" if len(DEFENCES[seq].players) == 2 else
                     DEFENCES[seq].players[0] if DEFENCES[seq].players else None)
               for seq in SEQUENCES}
    for c in rules.ladder:
        rows = values[int(c.strain), :, c.level - MIN_LEVEL]
        rows[:, _N] = 1
        rows[:, _MAKE] = tricks["both"] >= c.level
        for column, mode, lone in ((_QUOTA_BOTH, "both", False), (_QUOTA_FIRST, "first", True),
                                   (_QUOTA_SECOND, "second", True)):
            reached = np.array([quota_reached(c, t, lone, rules) for t in range(11)])
            rows[:, column] = reached[tricks[mode]]
        for i, seq in enumerate(SEQUENCES):
            by_tricks = np.array([[float(x) for x in sequence_money(c, seq, t, rules)]
                                  for t in range(11)])
            rows[:, _SEQ0 + 5 * i:_SEQ0 + 5 * i + 5] = by_tricks[tricks[mode_of[seq]]]
        # Results are zero-sum: the defence's best is the declarer's worst.
        rows[:, _BEST] = rows[:, _SEQ0:_K:5].min(axis=1)
    return values


def best_defence_money(rules: Rules = DEFAULT_RULES) -> np.ndarray:
    """The declarer's kapíkia against the best defence (``Settlement.result``, the defence
    declaring what leaves the declarer least) under ``rules``, by strain, trick code
    (``trick_code``) and level 6-10: ``[5, 1331, 5]`` (0 for a contract the rules do not
    allow)."""
    return _values(rules)[..., _BEST]


def trick_code(both, first, second):
    """The code of a row's tricks in the three defence modes (arrays or ints)."""
    return both * 121 + first * 11 + second


def _file_counts(file: str, where: str | None) -> np.ndarray:
    """Rows of one file counted by block of deals, strain and trick code:
    ``[BLOCKS, 5, 1331]``."""
    counts = np.zeros(BLOCKS * len(Strain) * _TRICKS, dtype=np.int64)
    for columns in filtered_rows(file, {"strain", "deal"}, where, ("both", "first", "second")):
        for name in ("tricks_both", "tricks_first", "tricks_second"):
            check_range(file, name, columns[name], 10)
        check_range(file, "strain", columns["strain"], 4)
        code = ((columns["deal"] % BLOCKS) * len(Strain) + columns["strain"]) * _TRICKS \
            + trick_code(columns["tricks_both"], columns["tricks_first"],
                         columns["tricks_second"])
        counts += np.bincount(code, minlength=len(counts))
    return counts.reshape(BLOCKS, len(Strain), _TRICKS)


@dataclass(frozen=True)
class Decision:
    """A paired comparison: ``role``'s money with ``choice`` minus with ``other``, after
    ``after`` was said; a range (``low``/``high`` over the defenders' share) where it
    depends on it."""

    role: str
    after: str
    choice: str
    other: str
    difference: Estimate
    difference_high: Estimate | None = None


class DefenceStats:
    """Sums per block of deals and contract, and bootstrap replicates of their means."""

    def __init__(self, counts: np.ndarray, replicates: int = BOOTSTRAP, seed: int = 0,
                 rules: Rules = DEFAULT_RULES) -> None:
        self.counts = counts
        """Rows by block, strain and trick code, ``[BLOCKS, 5, 1331]``."""
        self.seed = seed
        self.replicates = replicates
        self.rules = rules
        """The rules the money and quotas are counted under (the dataset's)."""
        values = _values(rules)
        sums = np.zeros((BLOCKS, len(LADDER), _K))
        for strain in Strain:
            per_level = counts[:, int(strain)].astype(float) @ values[int(strain)].reshape(
                _TRICKS, -1)
            for level in range(MIN_LEVEL, MAX_LEVEL + 1):
                step = Contract(level, strain).step
                sums[:, step] = per_level.reshape(BLOCKS, -1, _K)[:, level - MIN_LEVEL]
        self.sums = sums
        totals = sums.sum(axis=0)
        self.n = totals[:, _N].astype(np.int64)
        with np.errstate(invalid="ignore", divide="ignore"):
            self.means = totals / totals[:, _N:_N + 1]
        used = counts.reshape(BLOCKS, -1).sum(axis=1) > 0
        blocks = sums[used]
        rng = np.random.default_rng(seed)
        if len(blocks):
            weights = rng.multinomial(len(blocks), np.full(len(blocks), 1 / len(blocks)),
                                      size=replicates)
            resampled = (weights @ blocks.reshape(len(blocks), -1)).reshape(
                replicates, len(LADDER), _K)
        else:
            resampled = np.zeros((replicates, len(LADDER), _K))
        with np.errstate(invalid="ignore", divide="ignore"):
            self.boot = resampled / resampled[:, :, _N:_N + 1]
        self.blocks = int(used.sum())

    def no_rows_reason(self, path: str | Path, where: str | None) -> str:
        """Why the contracts asked for have no rows: the filter, the modes or the strains."""
        if not self.counts.any():
            if group_make_rates(path, (), where, "both"):
                return (f"{path} has no rows with all three defence modes studied"
                        f"{f' that meet --where {where}' if where else ''} (it was made with "
                        "fewer --modes)")
            return f"no rows of {path} meet --where {where}" if where else f"{path} has no rows"
        strains = [s.name for s in Strain if self.counts[:, int(s)].any()]
        return (f"no rows for the contracts asked: the rows{f' with {where}' if where else ''} "
                f"are in {', '.join(strains)} only")

    @property
    def contracts(self) -> list[Contract]:
        """The contracts with rows, in ladder order (those the rules allow)."""
        return [c for c in self.rules.ladder if self.n[c.step]]

    def _estimate(self, contract: Contract, point: float, replicates: np.ndarray) -> Estimate:
        low, high = np.nanquantile(replicates, [0.025, 0.975]) if np.isfinite(
            replicates).any() else (np.nan, np.nan)
        # Thirds of a kapíki summed in another order differ in the last bits: a figure
        # with no spread keeps an interval that is exactly its value.
        tolerance = 1e-9 * max(1.0, abs(point))
        if abs(low - point) < tolerance:
            low = point
        if abs(high - point) < tolerance:
            high = point
        return Estimate(float(point), float(low), float(high), int(self.n[contract.step]))

    def _mean(self, contract: Contract, column: int) -> Estimate:
        return self._estimate(contract, self.means[contract.step, column],
                              self.boot[:, contract.step, column])

    def _difference(self, contract: Contract, a: int, b: int, sign: int = 1) -> Estimate:
        s = contract.step
        return self._estimate(contract, sign * (self.means[s, a] - self.means[s, b]),
                              sign * (self.boot[:, s, a] - self.boot[:, s, b]))

    def make_rate(self, contract: Contract) -> Estimate:
        """How often the declarer takes at least the level against both defenders."""
        return self._rate(contract, _MAKE)

    def quota(self, contract: Contract, mode: str) -> Estimate:
        """How often the defence reaches its quota: ``both`` playing, or ``first`` or
        ``second`` alone (Wilson interval)."""
        return self._rate(contract, {"both": _QUOTA_BOTH, "first": _QUOTA_FIRST,
                                     "second": _QUOTA_SECOND}[mode])

    def _rate(self, contract: Contract, column: int) -> Estimate:
        total = self.sums[:, contract.step].sum(axis=0)
        return wilson(int(round(total[column])), int(total[_N]))

    def money(self, contract: Contract, sequence: tuple[str, ...], role: str
              ) -> tuple[Estimate, Estimate]:
        """Expected kapíkia of ``role`` (declarer, first, second) under ``sequence``, as
        (low, high) over the defenders' share: the two are the same unless the share
        matters (a defender's own money after "play, play")."""
        base = _SEQ0 + 5 * SEQUENCES.index(sequence)
        if role == "declarer":
            e = self._mean(contract, base)
            return e, e
        offset = {"first": 1, "second": 3}[role]
        return self._mean(contract, base + offset), self._mean(contract, base + offset + 1)

    def best_defence(self, contract: Contract) -> Estimate:
        """The declarer's expected kapíkia when the defence, deal by deal, declares what
        leaves the declarer least (results are zero-sum: what pays the defence most)."""
        return self._mean(contract, _BEST)

    def best_defence_difference(self, a: Contract, b: Contract) -> Estimate:
        """What naming ``a`` rather than ``b`` gains the declarer against the best defence,
        paired over the same deals (both contracts' rows come from the same resampled
        deals)."""
        point = self.means[a.step, _BEST] - self.means[b.step, _BEST]
        replicates = self.boot[:, a.step, _BEST] - self.boot[:, b.step, _BEST]
        low, high = np.nanquantile(replicates, [0.025, 0.975])
        return Estimate(float(point), float(low), float(high),
                        int(min(self.n[a.step], self.n[b.step])))

    def matrix(self, contract: Contract) -> list[list[Estimate]]:
        """Paired differences of the defence's money (what the declarer loses) between the
        four ways to defend (``OUTCOMES``): entry ``[i][j]`` is outcome i minus outcome j."""
        columns = [_SEQ0 + 5 * SEQUENCES.index(seq) for seq in OUTCOMES]
        return [[self._difference(contract, a, b, sign=-1) for b in columns] for a in columns]

    def decisions(self, contract: Contract) -> list[Decision]:
        """The defenders' choices compared deal by deal, each in the money of the one who
        chooses (the defence as a whole for play against pass)."""
        def col(seq, offset=0):
            return _SEQ0 + 5 * SEQUENCES.index(seq) + offset

        both, none = col(("play", "play")), col(("pass", "pass"))
        first_alone, second_alone = col(("play", "pass", "alone")), col(("pass", "play", "pass"))
        out = [
            Decision("defence", "-", "both play", "both pass",
                     self._difference(contract, both, none, sign=-1)),
            Decision("defence", "-", "both play", "first alone",
                     self._difference(contract, both, first_alone, sign=-1)),
            Decision("defence", "-", "both play", "second alone",
                     self._difference(contract, both, second_alone, sign=-1)),
            Decision("first", "play, pass", "together", "alone",
                     self._difference(contract, col(("play", "pass", "together"), 1),
                                      col(("play", "pass", "alone"), 1))),
            Decision("first", "pass, play", "together", "pass",
                     self._difference(contract, col(("pass", "play", "together"), 1),
                                      col(("pass", "play", "pass"), 1))),
            Decision("second", "pass", "together", "play (then alone)",
                     self._difference(contract, col(("pass", "together"), 3),
                                      col(("pass", "play", "pass"), 3))),
            Decision("first", "- (second plays)", "play", "pass",
                     self._difference(contract, col(("play", "play"), 1),
                                      col(("pass", "play", "pass"), 1)),
                     self._difference(contract, col(("play", "play"), 2),
                                      col(("pass", "play", "pass"), 1))),
        ]
        return out


def defence_stats(path: str | Path, where: str | None = None, replicates: int = BOOTSTRAP,
                  seed: int = 0, scheduler=None, rules: Rules | None = None) -> DefenceStats:
    """The defence statistics of the rows of a dataset that meet ``where`` (every defence
    mode must have been studied), with ``replicates`` bootstrap replicates drawn from
    ``seed``, under the dataset's rules (``rules``, when given, must be the same:
    ``dataset.rules_for``); with ``scheduler`` the files are read on a Dask cluster."""
    if where:
        parse_where(where)
    rules = rules_for(path, rules)
    counts = scan(path, partial(_file_counts, where=where), np.add,
                  np.zeros((BLOCKS, len(Strain), _TRICKS), dtype=np.int64), scheduler)
    return DefenceStats(counts, replicates, seed, rules)
