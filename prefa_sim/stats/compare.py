"""Two datasets of the same deals compared deal by deal: what a change of rules (or of
anything else the runs differ in) does to every contract.

Both datasets must hold the same deals, declarers and strains (two runs of one seed and
scenario, under different ``--rules``).  Their rows are paired on (deal, declarer,
strain), and the cards are checked to be the same.  For every contract: the make-rate in
each (Wilson intervals over rows) and the paired difference, and, when all three defence
modes were studied, the declarer's kapíkia against the best defence under each dataset's
own rules and their paired difference.  Differences are taken deal by deal and bootstrapped
over deals.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..core.cards import Strain
from ..core.contracts import LADDER, MIN_LEVEL, Contract
from ..rules.variants import Rules
from ..sim.dataset import DatasetError, dataset_rules
from .defence import best_defence_money, trick_code
from .groups import STORED, StatsError, filtered_rows, parse_where
from .intervals import Estimate, bootstrap_mean, wilson
from .output import money_text, text_table

KEY = ("deal", "declarer", "strain")
CARDS = ("hand0", "hand1", "hand2", "widow")
MODES = ("both", "first", "second")


@dataclass(frozen=True)
class ContractComparison:
    """One contract in both datasets: ``a`` and ``b`` and the paired ``b - a``."""

    contract: Contract
    rows: int
    make_a: Estimate
    make_b: Estimate
    make_difference: Estimate
    changed: int
    """Rows made in one dataset and not in the other."""
    money_a: Estimate | None = None
    money_b: Estimate | None = None
    money_difference: Estimate | None = None
    """The declarer's kapíkia against the best defence, each under its dataset's rules
    (None without the three defence modes, or where the rules do not allow the contract)."""


@dataclass(frozen=True)
class Comparison:
    """Every contract with rows in both datasets, and what the datasets are."""

    paths: tuple[str, str]
    rules: tuple[Rules, Rules]
    deals: int
    rows: int
    contracts: tuple[ContractComparison, ...]


def compare_datasets(a: str | Path, b: str | Path, replicates: int = 1000,
                     seed: int = 0, where: str | None = None) -> Comparison:
    """Pair the rows of datasets ``a`` and ``b`` that meet ``where`` and compare every
    contract (module docstring); a ``DatasetError`` says when they are not the same deals.
    ``where`` may name only features of the cards as dealt (``groups.STORED``): those
    after the widow depend on a discard, which other rules may change."""
    if where:
        after = sorted({c.feature for c in parse_where(where)} - set(STORED))
        if after:
            raise StatsError(f"{', '.join(after)}: compare keeps the same rows of both "
                             f"datasets, so --where takes features of the cards as dealt "
                             f"({', '.join(STORED)})")
    rules = (dataset_rules(a), dataset_rules(b))
    left, right = _rows(a, where), _rows(b, where)
    if not len(left["deal"]) or not len(right["deal"]):
        raise DatasetError(f"{a if not len(left['deal']) else b} has no rows to compare")
    order_a, order_b = _pairing(left, right, a, b)
    left = {k: v[order_a] for k, v in left.items()}
    right = {k: v[order_b] for k, v in right.items()}
    money = "tricks_first" in left and "tricks_first" in right
    deals, per_deal = np.unique(left["deal"], return_inverse=True)
    out = []
    for contract in LADDER:
        rows = left["strain"] == int(contract.strain)
        if not rows.any() or not (rules[0].allows(contract) or rules[1].allows(contract)):
            continue
        made_a = (left["tricks_both"][rows] >= contract.level).astype(float)
        made_b = (right["tricks_both"][rows] >= contract.level).astype(float)
        n = int(rows.sum())
        item = dict(contract=contract, rows=n, make_a=wilson(int(made_a.sum()), n),
                    make_b=wilson(int(made_b.sum()), n),
                    make_difference=_paired(made_b - made_a, per_deal[rows], len(deals),
                                            replicates, seed),
                    changed=int((made_a != made_b).sum()))
        if money:
            values = [_money(side, rows, contract, r) if r.allows(contract) else None
                      for side, r in ((left, rules[0]), (right, rules[1]))]
            means = [None if v is None else bootstrap_mean(
                _per_deal(v, per_deal[rows], len(deals)), replicates, seed) for v in values]
            item.update(money_a=means[0], money_b=means[1])
            if values[0] is not None and values[1] is not None:
                item["money_difference"] = _paired(values[1] - values[0], per_deal[rows],
                                                   len(deals), replicates, seed)
        out.append(ContractComparison(**item))
    return Comparison((str(a), str(b)), rules, len(deals), len(left["deal"]), tuple(out))


def _rows(path: str | Path, where: str | None) -> dict[str, np.ndarray]:
    """The rows of a dataset that meet ``where``, with both defenders studied: key, cards
    and the tricks of each mode studied in every row."""
    batches = list(filtered_rows(path, {*KEY, *CARDS}, where, ("both",)))
    if not batches:
        return {name: np.zeros(0, dtype=np.int64) for name in (*KEY, *CARDS, "tricks_both")}
    rows = {name: np.concatenate([b[name] for b in batches]) for name in batches[0]}
    three = list(filtered_rows(path, set(KEY), where, MODES))
    if three and sum(len(b["deal"]) for b in three) == len(rows["deal"]):
        for name in ("tricks_first", "tricks_second"):
            rows[name] = np.concatenate([b[name] for b in three])
    return rows


def _pairing(left: dict, right: dict, a, b) -> tuple[np.ndarray, np.ndarray]:
    """The orders that line the rows of both datasets up by (deal, declarer, strain); a
    ``DatasetError`` when the keys or the cards differ."""
    def keys(rows):
        return (rows["deal"] * 3 + rows["declarer"]) * len(Strain) + rows["strain"]

    key_a, key_b = keys(left), keys(right)
    order_a, order_b = np.argsort(key_a, kind="stable"), np.argsort(key_b, kind="stable")
    if len(key_a) != len(key_b) or not np.array_equal(key_a[order_a], key_b[order_b]):
        raise DatasetError(f"{a} and {b} do not hold the same deals, declarers and strains: "
                           "compare two runs of the same seed and scenario")
    for name in CARDS:
        if not np.array_equal(left[name][order_a], right[name][order_b]):
            raise DatasetError(f"{a} and {b} hold other cards under the same deal numbers "
                               f"({name} differs): compare two runs of the same seed and "
                               "scenario")
    return order_a, order_b


def _money(rows: dict, keep: np.ndarray, contract: Contract, rules: Rules) -> np.ndarray:
    code = trick_code(rows["tricks_both"][keep], rows["tricks_first"][keep],
                      rows["tricks_second"][keep])
    return best_defence_money(rules)[int(contract.strain), code, contract.level - MIN_LEVEL]


def _per_deal(values: np.ndarray, deal: np.ndarray, deals: int) -> np.ndarray:
    """The mean of each deal's rows (the unit the bootstrap resamples)."""
    sums = np.bincount(deal, weights=values, minlength=deals)
    counts = np.bincount(deal, minlength=deals)
    return sums[counts > 0] / counts[counts > 0]


def _paired(differences: np.ndarray, deal: np.ndarray, deals: int, replicates: int,
            seed: int) -> Estimate:
    return bootstrap_mean(_per_deal(differences, deal, deals), replicates, seed)


def comparison_records(result: Comparison) -> list[dict]:
    """One flat record per contract (rates as fractions, kapíkia, each with ``_low`` and
    ``_high``; a figure that does not exist is None)."""
    def put(record: dict, name: str, e: Estimate | None) -> None:
        record[name] = None if e is None else e.value
        record[f"{name}_low"] = None if e is None else e.low
        record[f"{name}_high"] = None if e is None else e.high

    out = []
    for c in result.contracts:
        record: dict = {"contract": str(c.contract), "rows": c.rows}
        put(record, "make_a", c.make_a)
        put(record, "make_b", c.make_b)
        put(record, "make_difference", c.make_difference)
        record["rows_changed"] = c.changed
        put(record, "kapikia_a", c.money_a)
        put(record, "kapikia_b", c.money_b)
        put(record, "kapikia_difference", c.money_difference)
        out.append(record)
    return out


def comparison_text(result: Comparison, markdown: bool = False) -> str:
    """The comparison as a table, under a line naming both datasets and their rules."""
    def rate(e: Estimate) -> str:
        return f"{100 * e.value:.1f}% ({100 * e.low:.1f}-{100 * e.high:.1f})"

    def points(e: Estimate) -> str:
        return money_text(100 * e.value, 100 * e.low, 100 * e.high, e.few)

    def money(e: Estimate | None) -> str:
        return "not allowed" if e is None else money_text(e.value, e.low, e.high, e.few)

    (a, b), (rules_a, rules_b) = result.paths, result.rules
    lines = [f"A: {a} (rules {rules_a}); B: {b} (rules {rules_b}); {result.deals} deals, "
             f"{result.rows} rows paired on (deal, declarer, strain)"]
    header = ["contract", "rows", "make A", "make B", "B - A, points", "rows changed"]
    has_money = any(c.money_a is not None or c.money_b is not None for c in result.contracts)
    if has_money:
        header += ["kapíkia A", "kapíkia B", "B - A, kapíkia"]
    body = []
    for c in result.contracts:
        cells = [str(c.contract), str(c.rows), rate(c.make_a), rate(c.make_b),
                 points(c.make_difference), str(c.changed)]
        if has_money:
            cells += [money(c.money_a), money(c.money_b),
                      "-" if c.money_difference is None else money(c.money_difference)]
        body.append(cells)
    lines.append(text_table(header, body, markdown))
    lines.append("(make-rates: Wilson intervals over rows; differences and kapíkia: bootstrap "
                 "over deals, paired deal by deal; kapíkia: the declarer's change of result "
                 "against the best defence, full pot, no aces)")
    return "\n".join(lines)
