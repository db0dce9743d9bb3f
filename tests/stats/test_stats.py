"""Statistics: Wilson intervals at the edges and by their definition, means against numpy,
make-rates against a direct pandas computation on a real dataset."""

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from prefa_sim.core.cards import Strain
from prefa_sim.sim.config import RunConfig
from prefa_sim.sim.simulate import simulate
from prefa_sim.stats.groups import strain_counts
from prefa_sim.stats.intervals import Z95, mean_interval, wilson
from prefa_sim.stats.makerate import make_rate_table, make_rates, mean_tricks, percent


@pytest.mark.parametrize("k, n", [(0, 1), (1, 1), (0, 10), (10, 10), (0, 1000), (1000, 1000)])
def test_wilson_at_the_edges(k, n):
    e = wilson(k, n)
    assert e.value == k / n and 0 <= e.low <= e.value <= e.high <= 1
    assert (e.low == 0) == (k == 0) and (e.high == 1) == (k == n)
    assert e.high - e.low > 0  # never an empty interval, even at 0 or n successes


def test_wilson_with_nothing_known_and_bad_counts():
    e = wilson(0, 0)
    assert math.isnan(e.value) and (e.low, e.high) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(3, 2)


@given(st.integers(1, 5000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_endpoints_solve_the_score_equation(case):
    # The Wilson interval is the set of p with |p_hat - p| <= z sqrt(p (1 - p) / n):
    # its inner endpoints satisfy the equality.
    k, n = case
    e = wilson(k, n)
    for p in (e.low, e.high):
        if p in (0.0, 1.0) and k in (0, n):
            continue
        assert (k / n - p) ** 2 == pytest.approx(Z95 ** 2 * p * (1 - p) / n, rel=1e-9,
                                                 abs=1e-12)


@given(st.lists(st.integers(0, 10), min_size=2, max_size=300))
def test_mean_interval_matches_numpy(values):
    x = np.array(values, dtype=float)
    e = mean_interval(x.sum(), (x ** 2).sum(), len(x))
    half = Z95 * x.std(ddof=1) / math.sqrt(len(x))
    assert e.value == pytest.approx(x.mean())
    assert e.low == pytest.approx(x.mean() - half, abs=1e-9)
    assert e.high == pytest.approx(x.mean() + half, abs=1e-9)


def test_a_single_value_has_no_spread():
    e = mean_interval(7.0, 49.0, 1)
    assert (e.value, e.low, e.high, e.n) == (7.0, 7.0, 7.0, 1)


def test_make_rates_and_the_summary_table_match_pandas(tmp_path):
    config = RunConfig(deals=30, seed=12, chunk_size=10, declarers=(0, 2), strains=("S", "NT"),
                       modes=("both",))
    out = simulate(config, tmp_path / "run")
    data = pd.read_parquet(out)
    counts = strain_counts(out, "both")
    table = make_rate_table(counts, "title")
    for strain in (Strain.S, Strain.NT):
        tricks = data.loc[data.strain == strain.name, "tricks_both"].astype(int)
        rates = make_rates(counts[int(strain)])
        for level in range(6, 11):
            made = int((tricks >= level).sum())
            assert rates[level].value == made / len(tricks)
            assert rates[level] == wilson(made, len(tricks))
            assert percent(rates[level]) in table
        mean = mean_tricks(counts[int(strain)])
        assert mean.value == pytest.approx(tricks.mean())
        assert mean.high - mean.value == pytest.approx(
            Z95 * tricks.std(ddof=1) / math.sqrt(len(tricks)))
    assert table.splitlines()[1].split() == ["level", "S", "NT"]
    assert table.splitlines()[-1].split() == ["rows", "60", "60"]


def test_mean_tricks_interval_stays_within_the_possible_tricks():
    from prefa_sim.stats.makerate import mean_tricks

    counts = np.zeros(11, dtype=int)
    counts[[0, 1]] = 1  # two rows: 0 and 1 tricks, a wide normal interval
    e = mean_tricks(counts)
    assert e.value == 0.5 and e.low == 0 and 1 < e.high <= 10
    counts = np.zeros(11, dtype=int)
    counts[[9, 10]] = 1
    assert mean_tricks(counts).high == 10


def test_bootstrap_mean():
    from prefa_sim.stats.intervals import bootstrap_mean

    values = np.random.default_rng(1).normal(5, 2, 400)
    e = bootstrap_mean(values, 2000, seed=3)
    assert e.value == pytest.approx(values.mean()) and e.low < e.value < e.high
    half = 1.96 * values.std(ddof=1) / math.sqrt(len(values))
    assert (e.high - e.low) / 2 == pytest.approx(half, rel=0.15)  # close to the normal one
    assert bootstrap_mean(values, 500, seed=3) == bootstrap_mean(values, 500, seed=3)
    one = bootstrap_mean([7.0])
    assert (one.value, one.low, one.high, one.n) == (7.0, -math.inf, math.inf, 1)  # unknown
    assert one.few and not e.few
    assert math.isnan(bootstrap_mean([]).value)


def test_ratio_bootstrap_over_clustered_rows():
    from prefa_sim.stats.intervals import ratio_bootstrap, wilson

    rng = np.random.default_rng(2)
    deals = rng.random(300) < 0.4  # each deal's three rows share one outcome
    e = ratio_bootstrap(3 * deals, np.full(300, 3), 2000, seed=1)
    assert e.value == pytest.approx(deals.mean()) and e.low < e.value < e.high and e.n == 900
    naive = wilson(int(3 * deals.sum()), 900)  # as if the 900 rows were independent
    assert (e.high - e.low) > 1.4 * (naive.high - naive.low)
    assert math.isnan(ratio_bootstrap([], []).value)


@pytest.mark.parametrize("successes, trials, units", [
    ([3, 3, 3], [3, 3, 3], 3),  # every seating of three deals made
    ([0, 0], [3, 3], 2),
    ([3, 3, 0], [3, 3, 0], 2),  # a unit without trials counts for nothing
])
def test_a_rate_at_0_or_1_gets_the_wilson_interval_over_its_units(successes, trials, units):
    from prefa_sim.stats.intervals import ratio_bootstrap, wilson

    e = ratio_bootstrap(successes, trials, 500, seed=1)
    rate = sum(successes) / sum(trials)
    floor = wilson(round(rate * units), units)
    assert e.value == rate and e.n == sum(trials) and e.low < e.high
    assert (e.low, e.high) == (pytest.approx(floor.low), pytest.approx(floor.high))


def test_rates_are_never_narrower_than_wilson_at_the_effective_trials():
    from prefa_sim.stats.intervals import _wilson_bounds, ratio_bootstrap, wilson

    # Twenty deals alike at two of three: the bootstrap is a point, the trials independent.
    e = ratio_bootstrap([2] * 20, [3] * 20, 500, seed=1)
    assert (e.low, e.high) == (pytest.approx(wilson(40, 60).low),
                               pytest.approx(wilson(40, 60).high))
    # One seating of twenty deals failed: the percentile bootstrap's low end is too high
    # for 59 of 60; the spread it measures is no more than independent trials', so the
    # interval reaches Wilson's over the 60 trials.
    e = ratio_bootstrap([2] + [3] * 19, [3] * 20, 2000, seed=1)
    assert e.high == 1.0 and e.low == pytest.approx(wilson(59, 60).low)
    assert not e.few
    # Fewer deals than a bootstrap needs: Wilson over the deals, not over their rows.
    e = ratio_bootstrap([2, 2, 2, 2], [3, 3, 3, 3], 500, seed=1)
    low, high = _wilson_bounds(2 / 3, 4)
    assert (e.low, e.high) == (pytest.approx(low), pytest.approx(high)) and e.few
    e = ratio_bootstrap([3, 2, 3, 3], [3, 3, 3, 3], 2000, seed=1)
    assert e.high == 1.0 and e.low == pytest.approx(_wilson_bounds(11 / 12, 4)[0])
