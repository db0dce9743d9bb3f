"""Confidence intervals for rates and means."""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal."""


MIN_BOOTSTRAP_UNITS = 20
"""Fewer independent units (deals) than this are too few for a percentile bootstrap: its
interval is then too narrow (over one deal it is the point itself)."""

_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201,
         2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093)
"""Student's t quantile 0.975 for 1 to 19 degrees of freedom."""


@dataclass(frozen=True)
class Estimate:
    """A figure with its interval: ``value`` in ``[low, high]`` at ``level``.

    ``few``: over too few units for the interval's method (``MIN_BOOTSTRAP_UNITS``); the
    interval is then widened as far as the method allows, and never counts as excluding
    zero."""

    value: float
    low: float
    high: float
    n: int
    level: float = 0.95
    few: bool = False

    @property
    def excludes_zero(self) -> bool:
        """Does the interval tell the figure apart from zero (and is it to be trusted)?"""
        return not self.few and (self.low > 0 or self.high < 0)


def wilson(successes: int, n: int, z: float = Z95) -> Estimate:
    """The rate ``successes / n`` with its Wilson score interval.

    Unlike the normal ("Wald") interval it stays inside [0, 1] and is not empty at 0 or
    ``n`` successes; with ``n = 0`` nothing is known and the interval is [0, 1].
    """
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be between 0 and n = {n}, got {successes}")
    if n == 0:
        return Estimate(math.nan, 0.0, 1.0, 0)
    low, high = _wilson_bounds(successes / n, n, z)
    return Estimate(successes / n, low, high, n)


def _wilson_bounds(p: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a rate ``p`` observed over ``n`` trials (``n > 0``;
    an effective number of trials need not be whole)."""
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    low = 0.0 if p == 0 else max(0.0, centre - half)
    high = 1.0 if p == 1 else min(1.0, centre + half)
    return low, high


def mean_interval(total: float, total_of_squares: float, n: int, z: float = Z95,
                  bounds: tuple[float, float] | None = None) -> Estimate:
    """The mean of ``n`` values from their sum and sum of squares, with a normal interval
    from the sample standard error (a single value gives no spread: the interval is the
    value itself, marked by ``n = 1``); ``bounds`` clip the interval to the values
    possible (tricks lie in 0-10)."""
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    mean = total / n
    if n == 1:
        return Estimate(mean, mean, mean, 1)
    variance = max(0.0, (total_of_squares - n * mean * mean) / (n - 1))
    half = z * math.sqrt(variance / n)
    low, high = mean - half, mean + half
    if bounds is not None:
        low, high = max(low, bounds[0]), min(high, bounds[1])
    return Estimate(mean, low, high, n)


def bootstrap_mean(values, replicates: int = 2000, seed: int = 0,
                   level: float = 0.95) -> Estimate:
    """The mean of ``values`` (one per independent unit, e.g. a deal) with its percentile
    bootstrap interval; for a paired comparison pass the per-unit differences."""
    import numpy as np

    values = np.asarray(values, dtype=float)
    n = len(values)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0, level)
    if n < MIN_BOOTSTRAP_UNITS:
        return _few_mean(values, level)
    rng = np.random.default_rng(seed)
    means = np.empty(replicates)
    step = max(1, min(256, 8_000_000 // n))  # resamples at a time: bounded memory
    for start in range(0, replicates, step):
        size = min(step, replicates - start)
        means[start:start + size] = values[rng.integers(0, n, (size, n))].mean(axis=1)
    low, high = np.quantile(means, [(1 - level) / 2, (1 + level) / 2])
    return Estimate(float(values.mean()), float(low), float(high), n, level)


def _few_mean(values, level: float) -> Estimate:
    """The mean of fewer values than a bootstrap needs, with Student's t interval (no
    interval at all from one value), marked ``few``."""
    n = len(values)
    mean = float(values.mean())
    if n == 1:
        return Estimate(mean, -math.inf, math.inf, 1, level, few=True)
    t = _T975[n - 2] if level == 0.95 else _normal_quantile((1 + level) / 2)
    half = t * float(values.std(ddof=1)) / math.sqrt(n)
    return Estimate(mean, mean - half, mean + half, n, level, few=True)


def ratio_bootstrap(successes, trials, replicates: int = 2000, seed: int = 0,
                    level: float = 0.95) -> Estimate:
    """A rate over units that each hold several correlated trials (the rows of one deal
    played in three seatings): ``successes[i]`` of ``trials[i]`` in unit ``i``, with a
    percentile bootstrap interval over units.

    Near 0 or 1, and over few units, the percentile bootstrap is too narrow (over units
    that all show one rate it is the point itself), so the interval is widened to at
    least the Wilson interval at the effective number of trials: the trials divided by
    the design effect the bootstrap measures (the spread of its replicates against that
    of independent trials, at least 1).  When no spread can be measured (every unit at 0
    or every unit at 1), or the units are fewer than ``MIN_BOOTSTRAP_UNITS``, a unit's
    trials are taken to agree completely: the Wilson interval over the units.
    """
    import numpy as np

    s = np.asarray(successes, dtype=float)
    t = np.asarray(trials, dtype=float)
    total = t.sum()
    if total == 0:
        return Estimate(math.nan, 0.0, 1.0, 0, level)
    rng = np.random.default_rng(seed)
    n = len(t)
    step = max(1, min(256, 8_000_000 // n))
    rates = np.empty(replicates)
    for start in range(0, replicates, step):
        size = min(step, replicates - start)
        pick = rng.integers(0, n, (size, n))
        with np.errstate(invalid="ignore", divide="ignore"):
            rates[start:start + size] = s[pick].sum(axis=1) / t[pick].sum(axis=1)
    low, high = np.nanquantile(rates, [(1 - level) / 2, (1 + level) / 2])
    rate = float(s.sum() / total)
    units = int((t > 0).sum())
    independent = rate * (1 - rate) / total  # the variance of independent trials' rate
    if independent == 0 or units < MIN_BOOTSTRAP_UNITS:
        effective = float(units)
    else:
        design_effect = max(1.0, float(np.nanvar(rates)) / independent)
        effective = max(float(units), total / design_effect)
    floor_low, floor_high = _wilson_bounds(rate, effective, _normal_quantile((1 + level) / 2))
    low, high = min(low, floor_low), max(high, floor_high)
    return Estimate(rate, float(low), float(high), int(total), level,
                    few=units < MIN_BOOTSTRAP_UNITS)


def _normal_quantile(q: float) -> float:
    """The standard normal quantile ``q`` (``Z95`` at 0.975)."""
    from statistics import NormalDist

    return NormalDist().inv_cdf(q)
