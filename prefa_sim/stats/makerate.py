"""Make-rates: how often the declarer makes each level, from counts of tricks taken."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..core.cards import Strain
from ..core.contracts import MAX_LEVEL, MIN_LEVEL
from .intervals import Estimate, mean_interval, wilson


def make_rates(counts: Sequence[int]) -> dict[int, Estimate]:
    """For each level 6-10, the share of rows where the declarer took at least that many
    tricks; ``counts[t]`` is how many rows took ``t`` tricks (t = 0..10)."""
    counts = np.asarray(counts, dtype=np.int64)
    n = int(counts.sum())
    return {level: wilson(int(counts[level:].sum()), n)
            for level in range(MIN_LEVEL, MAX_LEVEL + 1)}


def mean_tricks(counts: Sequence[int]) -> Estimate:
    """The declarer's mean tricks with its interval, from the same counts."""
    counts = np.asarray(counts, dtype=np.int64)
    tricks = np.arange(len(counts))
    return mean_interval(float((counts * tricks).sum()), float((counts * tricks ** 2).sum()),
                         int(counts.sum()), bounds=(0, 10))


def percent(e: Estimate) -> str:
    """``21.6% (20.7-22.6)``."""
    return f"{100 * e.value:.1f}% ({100 * e.low:.1f}-{100 * e.high:.1f})"


def make_rate_table(counts: np.ndarray, title: str) -> str:
    """A text table, one column per strain with rows, one row per level, then the mean
    tricks and the number of rows; ``counts`` is ``[strain, tricks 0-10]``."""
    strains = [s for s in Strain if counts[int(s)].sum()]
    rates = {s: make_rates(counts[int(s)]) for s in strains}
    widest = max((len(percent(e)) for s in strains for e in rates[s].values()), default=0)
    width = max(19, widest + 2)  # a column's cells never touch the next one's
    lines = [f"{title}; 95% intervals",
             "level " + "".join(f"{s.name:<{width}}" for s in strains)]
    for level in range(MIN_LEVEL, MAX_LEVEL + 1):
        lines.append(f"{level:<6}" + "".join(f"{percent(rates[s][level]):<{width}}"
                                             for s in strains))
    means = {s: mean_tricks(counts[int(s)]) for s in strains}
    lines.append("mean  " + "".join(
        f"{f'{means[s].value:.2f} ({means[s].low:.2f}-{means[s].high:.2f})':<{width}}"
        for s in strains))
    lines.append("rows  " + "".join(f"{int(counts[int(s)].sum()):<{width}}" for s in strains))
    return "\n".join(line.rstrip() for line in lines)
