"""`prefa makerate`: one hand's contracts, from a run around it, checked against the
dataset it solved and against direct settlement."""

import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from prefa_sim.analysis.prospects import hand_config, hand_prospects
from prefa_sim.cli import main
from prefa_sim.core.cards import parse_hand
from prefa_sim.dealing.scenario import ScenarioError
from prefa_sim.rules.settlement import settle
from prefa_sim.sim.simulate import simulate
from prefa_sim.stats.intervals import wilson

HAND = "AKQJ9.A.-.KQ87"


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("prospects") / "run"
    config = hand_config(HAND, "second", deals=24, seed=4, chunk_size=5)
    simulate(config, out)
    return out


def test_the_hand_is_fixed_in_its_seat(run):
    data = pd.read_parquet(run)
    assert set(data.declarer) == {1} and set(data.position) == {1}  # second hand: seat 1
    assert set(data.hand1) == {parse_hand(HAND)}
    assert data.deal.nunique() == 24 and len(data) == 24 * 5
    config = hand_config(HAND, "dealer", widow="7S 8D", deals=3)
    assert config.declarers == (2,) and config.scenario["fixed"]["widow"] == "7.-.8.-"


@pytest.mark.parametrize("kwargs, message", [
    ({"position": "north"}, "position 'north'"),
    ({"widow": "AS 7D"}, "given to two hands: AS in both second and widow"),
    ({"fixed": ("second=A.-.-.-",)}, "the second cards are given already"),
    ({"constraints": ("first.hearts >",)}, "constraint"),
])
def test_hand_config_refuses(kwargs, message):
    args = {"position": "second", **kwargs}
    with pytest.raises(ScenarioError, match=message):
        hand_config(HAND, **args)


def declarer_value(contract, row) -> float:
    """The declarer's change of result when the defence declares what leaves the declarer
    least (results are zero-sum), settled directly."""
    t = {m: int(row[f"tricks_{m}"]) for m in ("both", "first", "second")}
    options = [settle(contract, ("pass", "pass")),
               settle(contract, ("play", "play"), {"declarer": t["both"],
                                                   "first": 10 - t["both"]}),
               settle(contract, ("play", "pass", "alone"),
                      {"declarer": t["first"], "first": 10 - t["first"]}),
               settle(contract, ("pass", "play", "pass"),
                      {"declarer": t["second"], "second": 10 - t["second"]})]
    return float(min(r.result["declarer"] for r in options))


def test_prospects_against_the_dataset(run):
    data = pd.read_parquet(run)
    prospects = hand_prospects(run, replicates=200)
    assert [str(p.contract) for p in prospects][:6] == ["6S", "6C", "6D", "6H", "6NT", "7S"]
    assert len(prospects) == 25
    for p in prospects:
        rows = data[data.strain == p.contract.strain.name]
        assert p.make == wilson(int((rows.tricks_both >= p.contract.level).sum()), len(rows))
        assert p.tricks.value == pytest.approx(rows.tricks_both.mean())
        values = [declarer_value(p.contract, r) for _, r in rows.iterrows()]
        assert p.value.value == pytest.approx(np.mean(values))
        assert p.value.low <= p.value.value <= p.value.high
    best = [p for p in prospects if p.best]
    assert len(best) == 1 and best[0].value.value == max(p.value.value for p in prospects)
    (best,) = best
    second = max((p for p in prospects if not p.best), key=lambda p: p.value.value)
    assert best.runner_up == second.contract
    assert best.margin.value == pytest.approx(best.value.value - second.value.value)
    assert best.margin.low <= best.margin.value <= best.margin.high


def test_command_json_matches_stats_of_the_kept_run(tmp_path):
    out = tmp_path / "kept"
    result = CliRunner().invoke(main, ["makerate", HAND, "--position", "dealer", "--widow",
                                       "7S", "8D", "-n", "12", "--seed", "3", "-w", "1",
                                       "-o", str(out), "--format", "json"])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(records) == 25 and sum(r["best"] for r in records) == 1
    data = pd.read_parquet(out)
    assert set(data.widow) == {parse_hand("7.-.8.-")} and set(data.declarer) == {2}
    assert set(data.hand2) == {parse_hand(HAND)}
    seven_hearts = next(r for r in records if r["contract"] == "7H")
    hearts = data[data.strain == "H"]
    assert seven_hearts["make"] == pytest.approx((hearts.tricks_both >= 7).mean())
    assert seven_hearts["deals"] == 12
    # The same figures through prefa stats defence on the kept run.
    stats = CliRunner().invoke(main, ["stats", "defence", str(out), "-c", "7H", "--table",
                                      "quota", "--format", "json"])
    quota = json.loads(stats.stdout)
    assert quota["quota_first"] == seven_hearts["quota_first"]
    assert quota["declarer_vs_best_defence"] == pytest.approx(seven_hearts["value"])


def test_command_csv_has_one_column_set(tmp_path):
    result = CliRunner().invoke(main, ["makerate", HAND, "-n", "4", "-w", "1", "--format",
                                       "csv"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 26 and lines[0].endswith("best,runner_up,margin,margin_low,margin_high")


def test_command_table_and_plot(tmp_path):
    figure = tmp_path / "hand.png"
    result = CliRunner().invoke(main, ["makerate", HAND, "-n", "6", "-w", "1", "--plot",
                                       str(figure)])
    assert result.exit_code == 0, result.output
    assert "seat 0 (first hand), widow unknown: 6 deals, seed 1" in result.stdout
    assert "* best contract:" in result.stdout and "passing is worth 0" in result.stdout
    assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("args, message", [
    (["AKQJ9.A.-.KQ8"], "has 9 cards, expected 10"),
    ([HAND, "--widow", "7S", "7S"], "7S is given twice"),
    (["AKQJ9.A.-.KQ8X"], "X"),
    ([HAND, "--widow", "AS", "7D"], "AS in both first and widow"),
    ([HAND, "--fixed", "widow=7S 8D"], "give the widow with --widow"),
    ([HAND, "--widow", "7S"], "--widow '7S': hand 7.-.-.- has 1 card, expected 2"),
    ([HAND, "--plot", "x.pdf"], ".png or .svg"),
    ([HAND, "--scheduler", "tcp://nowhere:1"], "--scheduler needs --out"),
    ([HAND, "--constraint", "second.spades >= 4"], "scenario"),
])
def test_command_refuses(args, message):
    result = CliRunner().invoke(main, ["makerate", "-n", "3", "-w", "1", *args])
    assert result.exit_code != 0 and message in result.output, result.output
    assert "Traceback" not in result.output


def test_a_kept_folder_is_reused_finished_or_resumed_never_mixed(tmp_path):
    out = tmp_path / "kept"
    args = ["makerate", HAND, "-n", "6", "--seed", "2", "-w", "1", "-o", str(out),
            "--format", "json"]
    first = CliRunner().invoke(main, args)
    assert first.exit_code == 0, first.output
    again = CliRunner().invoke(main, args)
    assert again.exit_code == 0 and "already holds this run" in again.stderr
    assert again.stdout == first.stdout
    parts = sorted(out.glob("part-*.parquet"))
    parts[-1].unlink()  # as if the run had been stopped
    resumed = CliRunner().invoke(main, args)
    assert resumed.exit_code == 0 and resumed.stdout == first.stdout
    other = CliRunner().invoke(main, [*args[:4], "-n", "7", *args[6:]])
    assert other.exit_code == 1 and "holds another run" in other.output


def test_few_deals_are_said_to_give_rough_intervals():
    result = CliRunner().invoke(main, ["makerate", HAND, "-n", "1", "-w", "1"])
    assert result.exit_code == 0, result.output
    assert ": 1 deal, seed 1" in result.stdout and "only 1 deal: the intervals are rough" \
        in result.stdout
