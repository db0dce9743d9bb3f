"""`prefa simulate` and `prefa show` from the command line."""

from pathlib import Path

import pandas as pd
from click.testing import CliRunner

from prefa_sim.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_simulate_show_and_refuse_to_overwrite(tmp_path):
    out = tmp_path / "run"
    args = ["simulate", "-n", "4", "--seed", "3", "-o", str(out), "-w", "1", "--strains", "h,nt",
            "--declarers", "1", "--chunk-size", "2"]
    result = run(*args)
    assert result.exit_code == 0, result.output
    assert "seed 3: 4 deals in 2 chunks" in result.stderr
    data = pd.read_parquet(out)
    assert len(data) == 4 * 2 and set(data["strain"]) == {"H", "NT"}
    assert set(data["declarer"]) == {1}
    rate = (data.loc[data.strain == "H", "tricks_both"] >= 6).mean()
    assert f"{100 * rate:.1f}%" in result.stdout
    again = run(*args)
    assert again.exit_code == 1 and "finished run; use --force" in again.output
    shown = run("show", str(out), "-n", "1")
    assert shown.exit_code == 0 and shown.output.startswith("deal 0 (dealer seat 2)")
    assert len(shown.output.splitlines()) == 1 + 3 + 1 + 1 + 2


def test_simulate_scenario_and_errors(tmp_path):
    scenario = tmp_path / "s.toml"
    scenario.write_text('dealer = 1\nconstraints = ["first.aces >= 2"]\n')
    out = tmp_path / "run"
    result = run("simulate", str(scenario), "-n", "2", "-o", str(out), "-w", "1",
                 "--modes", "both", "--strains", "S", "--declarers", "2")
    assert result.exit_code == 0, result.output
    data = pd.read_parquet(out)
    first = (1 + 1) % 3
    assert all(bin(int(h) & 0x80808080).count("1") >= 2 for h in data[f"hand{first}"])
    bad = tmp_path / "bad.toml"
    bad.write_text('constraints = ["first.aces >>> 2"]\n')
    result = run("simulate", str(bad), "-n", "2", "-o", str(tmp_path / "x"))
    assert result.exit_code == 1 and "constraint 1" in result.output
    result = run("simulate", "-n", "2", "--strains", "X", "-o", str(tmp_path / "y"))
    assert result.exit_code == 2 and "--strains" in result.output
    assert run("show", str(tmp_path / "missing")).exit_code == 2


def test_simulate_on_a_dask_scheduler(tmp_path):
    from distributed import LocalCluster

    args = ["simulate", "-n", "2", "--seed", "9", "--strains", "S", "--declarers", "0",
            "--modes", "both", "--chunk-size", "1"]
    local = run(*args, "-o", str(tmp_path / "local"), "-w", "1")
    assert local.exit_code == 0, local.output
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster:
        result = run(*args, "-o", str(tmp_path / "dask"), "--scheduler",
                     cluster.scheduler_address)
    assert result.exit_code == 0, result.output
    assert "scheduler tcp://" in result.stderr
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "local").sort_values("deal"),
                                  pd.read_parquet(tmp_path / "dask").sort_values("deal"))


def test_a_killed_run_resumes_to_the_same_data(tmp_path):
    import signal
    import subprocess
    import sys
    import time

    args = ["-n", "40", "--seed", "11", "--strains", "H", "--declarers", "0",
            "--chunk-size", "1", "-w", "1"]
    command = [sys.executable, "-c", "from prefa_sim.cli import main; main()", "simulate", *args]
    out = tmp_path / "killed"
    proc = subprocess.Popen([*command, "-o", str(out)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while len(list(out.glob("part-*.parquet"))) < 3 and time.time() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    written = len(list(out.glob("part-*.parquet")))
    assert 3 <= written < 40
    # --resume takes every setting from the run it finishes.
    resumed = run("simulate", "-o", str(out), "--resume", "-w", "1")
    assert resumed.exit_code == 0, resumed.output
    whole = run("simulate", *args, "-o", str(tmp_path / "whole"))
    assert whole.exit_code == 0
    pd.testing.assert_frame_equal(pd.read_parquet(out).sort_values("deal").reset_index(drop=True),
                                  pd.read_parquet(tmp_path / "whole").sort_values("deal")
                                  .reset_index(drop=True))


def test_replay_solves_the_given_deals(tmp_path, solver):
    from prefa_sim.core.cards import Strain, parse_deal
    from prefa_sim.solve.tables import active_seats, opening_leader

    deal = "QJ7.T8.A.KQJT AKT.AKJ.QJ7.7 8.Q97.KT98.98 9.-.-.A"
    hands, widow = parse_deal(deal)
    text = "\n".join([
        '{"hands": ["QJ7.T8.A.KQJT", "AKT.AKJ.QJ7.7", "8.Q97.KT98.98"], "widow": ["9S", "AH"],'
        ' "dealer": 2, "trump": "H"}',
        '{"hands": ["QJ7.T8.A.KQJT"]}',
        '{"hands": ["QJ7.T8.A.KQJT", "AKT.AKJ.QJ7.7", "8.Q97.KT98.98"], "dealer": 1}',
    ])
    replay = tmp_path / "deals.jsonl"
    replay.write_text(text)
    result = run("simulate", "--replay", str(replay), "-o", str(tmp_path / "run"), "-w", "1",
                 "--strains", "H,NT", "--declarers", "0")
    assert result.exit_code == 1, result.output  # a bad line, reported and skipped
    assert "deals.jsonl, line 2: a line needs 'hands'" in result.stderr
    data = pd.read_parquet(tmp_path / "run")
    assert sorted(data["deal"].unique()) == [0, 1]
    for _, row in data.iterrows():
        assert row.dealer == (2 if row.deal == 0 else 1)
        assert int(row.widow) == widow
        active = active_seats(0, "both")
        best = solver.solve_widow(hands, widow, Strain[row.strain],
                                  opening_leader(row.dealer, active), 0, active)
        assert row.tricks_both == best.best_tricks


def test_roles_notation_and_a_log_friendly_progress(tmp_path):
    from prefa_sim.core.cards import format_discard, parse_hand

    out = tmp_path / "run"
    scenario = Path(__file__).parents[2] / "data" / "scenarios" / "fixed_hand.toml"
    result = run("simulate", str(scenario), "--fixed", "widow=-.-.8.7", "-n", "3", "--seed",
                 "2", "-o", str(out), "-w", "1", "--declarers", "first", "--strains", "S",
                 "--modes", "both", "--chunk-size", "1")
    assert result.exit_code == 0, result.output
    data = pd.read_parquet(out)
    # No dealer named: seat 0 is first hand, holds the fixed hand and declares.
    assert (data["declarer"] == 0).all() and (data["position"] == 0).all()
    assert (data["hand0"] == parse_hand("AKQJ9.-.A7.K98")).all()
    assert (data["widow"] == parse_hand("-.-.8.7")).all()
    assert "declarer seat 0 (first hand))" in result.stdout
    # Off a terminal the progress comes as whole lines, never carriage returns.
    assert "\r" not in result.stderr and "3/3 chunks" in result.stderr
    shown = run("show", str(out), "-n", "1").output
    discard = format_discard(int(data.loc[data.deal == 0, "discard_both"].iloc[0]))
    assert f"  {discard}\n" in shown and "seat 0 (first hand)" in shown


def test_a_scenario_that_fixes_a_hand_studies_that_hand(tmp_path):
    """"Is 7 hearts on?" for the fixed hand: its seat declares unless --declarers says
    otherwise, and a summary over more than one declarer says that it pools them."""
    scenario = Path(__file__).parents[2] / "data" / "scenarios" / "first_hand_hearts.toml"
    common = ["-n", "8", "--seed", "2", "--strains", "H", "--modes", "both", "-w", "1"]
    result = run("simulate", str(scenario), *common, "-o", str(tmp_path / "fixed"))
    assert result.exit_code == 0, result.output
    assert set(pd.read_parquet(tmp_path / "fixed")["declarer"]) == {0}
    assert "rows from" in result.stdout and "; declarer seat 0 (first hand))" in result.stdout
    result = run("simulate", *common, "--fixed", "second=AK.-.-.-", "-o",
                 str(tmp_path / "second"))
    assert set(pd.read_parquet(tmp_path / "second")["declarer"]) == {1}
    result = run("simulate", str(scenario), *common, "--declarers", "0,1,2", "-o",
                 str(tmp_path / "all"))
    assert set(pd.read_parquet(tmp_path / "all")["declarer"]) == {0, 1, 2}
    assert "pooled over the declarers seat 0 (first hand), seat 1" in result.stdout
