"""Scenarios and the deal sampler: fixed cards, constraints, seeds and errors."""

from pathlib import Path

import numpy as np
import pytest

from prefa_sim.core.cards import ALL_CARDS, parse_hand, popcount
from prefa_sim.dealing.scenario import (
    DealSampler,
    Scenario,
    ScenarioError,
    deal_rng,
    load_scenario,
    parse_scenario,
)

DATA = Path(__file__).parents[2] / "data" / "scenarios"


def draw(sampler, seed, n):
    """Deals 0..n-1 of a run with root ``seed``, each from its own stream, as runs draw them."""
    return np.array([sampler.deal(deal_rng(seed, i)) for i in range(n)])


def check_deals(rows):
    for row in rows:
        assert [popcount(int(m)) for m in row] == [10, 10, 10, 2]
        union = 0
        for m in row:
            assert not union & int(m)
            union |= int(m)
        assert union == ALL_CARDS


def test_random_deals_are_valid_and_repeat_with_the_seed():
    sampler = DealSampler(Scenario())
    a = draw(sampler, 5, 200)
    b = draw(DealSampler(Scenario()), 5, 200)
    check_deals(a)
    assert (a == b).all()
    # Deal i depends on the seed and i alone, not on the deals drawn before it.
    assert (DealSampler(Scenario()).deal(deal_rng(5, 137)) == a[137]).all()
    assert not (draw(sampler, 6, 200) == a).all()
    # Every card lands in each of the four places about as often as its share says.
    counts = np.array([[np.sum((a[:, k] >> c) & 1) for c in range(32)] for k in range(4)])
    assert counts[:3].min() > 200 * 10 / 32 * 0.5 and counts[3].max() < 200 * 2 / 32 * 3


def test_fixed_hand_is_completed_without_rejection():
    scenario, _ = load_scenario(DATA / "fixed_hand.toml")
    sampler = DealSampler(scenario)
    rows = draw(sampler, 1, 100)
    check_deals(rows)
    first = scenario.seat_of("first")
    assert first == 0  # no dealer given: seat 2 deals, seat 0 is first hand
    assert (rows[:, first] == parse_hand("AKQJ9.-.A7.K98")).all()
    assert sampler.stats.acceptance == 1.0


def test_constraints_by_rejection():
    scenario, text = load_scenario(DATA / "first_hand_hearts.toml")
    assert "first.hearts >= 5" in text
    sampler = DealSampler(scenario)
    rows = draw(sampler, 2, 50)
    check_deals(rows)
    first = scenario.seat_of("first")
    hearts = parse_hand("-.-.-.AKQJT987")
    assert all(popcount(int(r) & hearts) >= 5 for r in rows[:, first])
    assert all(int(r) & parse_hand("-.-.-.AKQ") == parse_hand("-.-.-.AKQ") for r in rows[:, first])
    assert 0 < sampler.stats.acceptance < 1


def test_every_shipped_scenario_samples():
    for path in sorted(DATA.glob("*.toml")):
        scenario, _ = load_scenario(path)
        check_deals(draw(DealSampler(scenario), 0, 5))


def test_impossible_scenario_stops_with_a_clear_message():
    scenario = parse_scenario({"constraints": ["first.aces == 5"]})
    with pytest.raises(ScenarioError, match="impossible or too rare"):
        draw(DealSampler(scenario, max_tries=2000), 0, 1)


@pytest.mark.parametrize("data, message", [
    ({"fixed": {"first": "AKX.-.-.-"}}, "fixed.first: unknown rank 'X'"),
    ({"fixed": {"north": "A.-.-.-"}}, "unknown hand 'north'"),
    ({"fixed": {"first": "A.-.-.-", "second": "A.-.-.-"}}, "AS in both first and second"),
    ({"fixed": {"widow": "AKQ.-.-.-"}}, "3 cards fixed for widow"),
    ({"constraints": ["first.aces >"]}, "constraint 1"),
    ({"dealer": 3}, "dealer must be seat 0, 1 or 2"),
    ({"colour": "red"}, "unknown key colour"),
])
def test_scenario_errors_name_the_key(data, message):
    with pytest.raises(ScenarioError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_scenario(data, "test.toml")


def test_bad_toml_file(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("name = \n")
    with pytest.raises(ScenarioError, match="not valid TOML"):
        load_scenario(path)
    with pytest.raises(ScenarioError, match="cannot read scenario"):
        load_scenario(tmp_path / "missing.toml")
