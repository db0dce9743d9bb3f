"""Two datasets of the same deals compared deal by deal (stats/compare.py, prefa stats
compare), and the rules listed (prefa rules)."""

import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from prefa_sim.cli import main
from prefa_sim.core.contracts import parse_contract
from prefa_sim.rules.settlement import DEFENCES
from prefa_sim.rules.variants import Rules
from prefa_sim.sim.config import RunConfig
from prefa_sim.sim.dataset import DatasetError
from prefa_sim.sim.simulate import simulate
from prefa_sim.stats.compare import compare_datasets
from prefa_sim.stats.defence import SEQUENCES, sequence_money
from prefa_sim.stats.groups import StatsError

BASE = dict(deals=40, seed=5, chunk_size=20, declarers=(0,), strains=("S", "NT"))


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("compare")
    return {name: simulate(RunConfig(**BASE, rules=rules), folder / name, workers=1)
            for name, rules in (("plain", "default"), ("over", "overtrump=yes"),
                                ("eleven", "ten_nt=11"), ("off", "ten_nt=off"))}


def best_defence(contract, tricks, rules):
    """The declarer's money against the best defence, from the settlement itself: the
    least over the seven declaration sequences, each with the tricks of its mode."""
    both, first, second = (int(t) for t in tricks)
    tricks_of = {("first", "second"): both, ("first",): first, ("second",): second, (): 10}
    return min(float(sequence_money(contract, sequence,
                                    tricks_of[DEFENCES[sequence].players], rules)[0])
               for sequence in SEQUENCES)


def test_the_rule_against_under_trumping_compared_deal_by_deal(runs):
    result = compare_datasets(runs["plain"], runs["over"], replicates=200)
    assert result.rules == (Rules(), Rules(overtrump=True)) and result.deals == 40
    a = pd.read_parquet(runs["plain"]).sort_values(["deal", "strain"]).reset_index(drop=True)
    b = pd.read_parquet(runs["over"]).sort_values(["deal", "strain"]).reset_index(drop=True)
    by_contract = {c.contract: c for c in result.contracts}
    for contract in (parse_contract("6S"), parse_contract("7NT")):
        c = by_contract[contract]
        rows_a = a[a["strain"] == contract.strain.name]
        rows_b = b[b["strain"] == contract.strain.name]
        made_a = rows_a["tricks_both"].to_numpy() >= contract.level
        made_b = rows_b["tricks_both"].to_numpy() >= contract.level
        assert c.rows == len(rows_a) == 40
        assert c.make_a.value == made_a.mean() and c.make_b.value == made_b.mean()
        assert c.make_difference.value == pytest.approx((made_b.astype(float)
                                                         - made_a).mean())
        assert c.changed == int((made_a != made_b).sum())
        money_a = [best_defence(contract, t, Rules()) for t in
                   rows_a[["tricks_both", "tricks_first", "tricks_second"]].to_numpy()]
        money_b = [best_defence(contract, t, Rules(overtrump=True)) for t in
                   rows_b[["tricks_both", "tricks_first", "tricks_second"]].to_numpy()]
        assert c.money_a.value == pytest.approx(np.mean(money_a))
        assert c.money_difference.value == pytest.approx(np.mean(money_b) - np.mean(money_a))
    # Deal 39 is the one where the rule gives seat 0 a fifth trick in spades, which makes
    # no contract: no row's outcome changes, but the money of every spade contract does.
    assert sum(c.changed for c in result.contracts) == 0
    assert all(c.money_difference.value > 0 for c in result.contracts
               if c.contract.strain.name == "S")


def test_the_value_of_10nt_under_each_rule(runs):
    eleven = compare_datasets(runs["plain"], runs["eleven"], replicates=200)
    ten_nt = {c.contract: c for c in eleven.contracts}[parse_contract("10NT")]
    assert ten_nt.changed == 0 and ten_nt.make_difference.value == 0
    frame = pd.read_parquet(runs["plain"])
    rows = frame[frame["strain"] == "NT"][["tricks_both", "tricks_first", "tricks_second"]]
    expected = np.mean([best_defence(parse_contract("10NT"), t, Rules(ten_nt="11"))
                        - best_defence(parse_contract("10NT"), t, Rules())
                        for t in rows.to_numpy()])
    assert ten_nt.money_difference.value == pytest.approx(expected) and expected != 0
    off = compare_datasets(runs["plain"], runs["off"], replicates=200)
    ten_nt = {c.contract: c for c in off.contracts}[parse_contract("10NT")]
    assert ten_nt.money_a is not None and ten_nt.money_b is None
    assert ten_nt.money_difference is None


def test_only_the_same_deals_are_compared(runs, tmp_path):
    other = simulate(RunConfig(**{**BASE, "seed": 6}), tmp_path / "other", workers=1)
    with pytest.raises(DatasetError, match="hold other cards under the same deal numbers"):
        compare_datasets(runs["plain"], other)
    fewer = simulate(RunConfig(**{**BASE, "deals": 20}), tmp_path / "fewer", workers=1)
    with pytest.raises(DatasetError, match="do not hold the same deals, declarers and strains"):
        compare_datasets(runs["plain"], fewer)
    with pytest.raises(StatsError, match="trumps_after: compare keeps the same rows"):
        compare_datasets(runs["plain"], runs["over"], where="trumps_after >= 5")
    kept = compare_datasets(runs["plain"], runs["over"], where="aces >= 2", replicates=200)
    assert 0 < kept.rows < 80


def test_prefa_stats_compare(runs):
    result = CliRunner().invoke(main, ["stats", "compare", str(runs["plain"]),
                                       str(runs["off"]), "-c", "10S,10NT"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == (f"A: {runs['plain']} (rules default); B: {runs['off']} (rules "
                        "ten_nt=off); 40 deals, 80 rows paired on (deal, declarer, strain)")
    assert lines[2].startswith("10S ") and lines[3].startswith("10NT ")
    assert "not allowed" in lines[3] and "not allowed" not in lines[2]
    as_json = CliRunner().invoke(main, ["stats", "compare", str(runs["plain"]),
                                        str(runs["eleven"]), "-c", "10NT", "--json"])
    record = json.loads(as_json.output)
    assert record["contract"] == "10NT" and record["kapikia_difference"] < 0


def test_prefa_rules_lists_the_options_and_reads_a_text():
    listed = CliRunner().invoke(main, ["rules"])
    assert listed.output.splitlines()[0] == "rules: default"
    assert "presets: default, playelephant, guide (kasa=40,aces=each:40), pagat (kasa=31)" \
        in listed.output
    read = CliRunner().invoke(main, ["rules", "pagat,overtrump=yes"])
    assert read.output.splitlines()[0] == "rules: kasa=31,overtrump=yes"
    assert [line.split()[1] for line in read.output.splitlines()[2:8]] == \
        ["normal", "31", "10", "no", "bonus", "yes"]
    assert sum("(not the default)" in line for line in read.output.splitlines()) == 2
    bad = CliRunner().invoke(main, ["rules", "kasa=31,last_contract=fair"])
    assert bad.exit_code == 2 and "last_contract=fair contradicts kasa=31" in bad.output
