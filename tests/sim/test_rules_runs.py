"""Runs under other rules (docs/rules.md §7.6): solved and played under them, recorded in the
dataset, read back by the statistics, and never pooled or read under other rules."""

import json
import shutil
from fractions import Fraction

import pandas as pd
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from prefa_sim.cli import main
from prefa_sim.core.cards import Strain
from prefa_sim.core.contracts import parse_contract
from prefa_sim.rules.settlement import settle
from prefa_sim.rules.variants import DEFAULT_RULES, Rules
from prefa_sim.sim.chunks import chunk_path
from prefa_sim.sim.config import RunConfig, RunError, read_manifest
from prefa_sim.sim.dataset import DatasetError, dataset_rules, rules_for
from prefa_sim.sim.simulate import simulate
from prefa_sim.solve.solver import Solver
from prefa_sim.solve.tables import active_seats, opening_leader
from prefa_sim.stats.defence import defence_stats

OVERTRUMP = RunConfig(deals=40, seed=5, chunk_size=20, declarers=(0,), strains=("S",),
                      modes=("both",), rules="overtrump=yes")
"""Deal 39 of seed 5 is one where the rule gives seat 0 a fifth trick in spades."""


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def read(out):
    return pd.read_parquet(out).sort_values(["deal", "declarer", "strain"]).reset_index(
        drop=True)


def test_a_run_is_solved_under_its_rules_and_records_them(tmp_path):
    out = simulate(OVERTRUMP, tmp_path / "run", workers=1)
    assert dataset_rules(out) == Rules(overtrump=True)
    assert json.loads((out / "_run.json").read_text())["rules"] == "overtrump=yes"
    info = json.loads(pq.read_metadata(chunk_path(out, 0)).metadata[b"prefa_sim"])
    assert info["config"]["rules"] == "overtrump=yes"
    frame = read(out)
    solver = Solver()
    for _, row in frame.iterrows():
        hands = [int(row[f"hand{s}"]) for s in range(3)]
        active = active_seats(0, "both")
        best = solver.solve_widow(hands, int(row["widow"]), Strain[row["strain"]],
                                  opening_leader(int(row["dealer"]), active), 0, active,
                                  overtrump=True)
        assert row["tricks_both"] == best.best_tricks
    # Paired with the same deals under the default rules: the rule changes deal 39 only.
    plain = read(simulate(RunConfig(**{**OVERTRUMP.to_json(), "rules": "default"}),
                          tmp_path / "plain", workers=1))
    changed = frame[frame["tricks_both"] != plain["tricks_both"]]
    assert changed["deal"].tolist() == [39]
    assert (changed["tricks_both"] - plain.loc[changed.index, "tricks_both"]).tolist() == [1]
    assert run("show", out, "-n", 1).output.startswith("rules: overtrump=yes\ndeal 0 ")
    assert not run("show", tmp_path / "plain", "-n", 1).output.startswith("rules:")
    # The same seed under the same rules gives the same rows whatever the workers.
    two = read(simulate(OVERTRUMP, tmp_path / "two", workers=2))
    pd.testing.assert_frame_equal(frame, two)


def test_a_default_run_records_no_rules():
    """Records of the default rules are what they were before rules were a setting, so
    that older runs resume and their parts still belong to them."""
    config = RunConfig(deals=2, seed=1)
    assert "rules" not in config.to_json() and config.rules == "default"
    assert RunConfig.from_json(config.to_json()) == config
    assert RunConfig(deals=2, seed=1, rules=" Ten_NT = 11").rules == "ten_nt=11"
    with pytest.raises(RunError, match="rules: unknown rule 'tenn'"):
        RunConfig(deals=2, seed=1, rules="tenn=11")


def test_statistics_read_the_rules_and_refuse_others(tmp_path):
    config = RunConfig(deals=6, seed=2, chunk_size=3, declarers=(0,), strains=("NT",),
                       rules="ten_nt=11")
    out = simulate(config, tmp_path / "eleven", workers=1)
    stats = defence_stats(out, replicates=100)
    ten_nt = parse_contract("10NT")
    assert stats.rules == Rules(ten_nt="11")
    # Both defenders passing: the declarer takes 10 v from the pot, a third of it shared.
    both_pass = stats.money(ten_nt, ("pass", "pass"), "declarer")[0].value
    assert both_pass == pytest.approx(float(settle(ten_nt, ["pass", "pass"],
                                                   rules=Rules(ten_nt="11")).result["declarer"]))
    assert both_pass == pytest.approx(110 - Fraction(110, 3))
    assert rules_for(out, Rules(ten_nt="11")) == Rules(ten_nt="11")
    with pytest.raises(DatasetError, match=r"made under the rules ten_nt=11, not default "
                                           r"\(ten_nt=11 against 10\)"):
        defence_stats(out, replicates=100, rules=DEFAULT_RULES)
    result = run("stats", "defence", out, "--rules", "ten_nt=off", "-c", "10NT")
    assert result.exit_code == 1
    assert "made under the rules ten_nt=11, not ten_nt=off (ten_nt=11 against off)" \
        in result.output
    shown = run("stats", "makerate", out)
    assert "(played under the rules ten_nt=11 (docs/rules.md §7.6))" in shown.output
    # Parts of another run under other rules are not pooled, and the message says why.
    other = simulate(RunConfig(**{**config.to_json(), "rules": "default"}),
                     tmp_path / "default", workers=1)
    shutil.copy(chunk_path(other, 1), chunk_path(out, 1))
    with pytest.raises(DatasetError, match="was played under other rules than .* "
                                           r"\(ten_nt=11 against 10\): statistics never pool"):
        defence_stats(out, replicates=100)


def test_a_scenario_names_its_rules_and_the_command_line_must_agree(tmp_path):
    scenario = tmp_path / "s.toml"
    scenario.write_text('name = "ruled"\n[rules]\nten_nt = "off"\novertrump = true\n')
    result = run("simulate", scenario, "-n", 4, "--seed", 1, "-o", tmp_path / "a",
                 "--strains", "NT", "--declarers", "0", "-w", 1)
    assert result.exit_code == 0, result.output
    assert read_manifest(tmp_path / "a").rules_value == Rules(ten_nt="off", overtrump=True)
    assert "rules ten_nt=off,overtrump=yes" in result.stderr
    clash = run("simulate", scenario, "-n", 4, "--seed", 1, "-o", tmp_path / "b",
                "--rules", "ten_nt=11")
    assert clash.exit_code == 2
    assert "--rules ten_nt=11 contradicts the scenario's [rules] (ten_nt=off,overtrump=yes): " \
           "ten_nt=off against 11; overtrump=yes against no" in clash.output
    bad = tmp_path / "bad.toml"
    bad.write_text('[rules]\nten_nt = "twelve"\n')
    result = run("simulate", bad, "-n", 4, "-o", tmp_path / "c")
    assert result.exit_code == 1
    assert "[rules]: rule ten_nt cannot be 'twelve' (valid: 10, 11, off)" in result.output
    # A resume takes the rules from the run; --rules beside it is refused.
    resumed = run("simulate", "-o", tmp_path / "a", "--resume", "--rules", "ten_nt=off")
    assert resumed.exit_code == 2 and "leave out --rules" in resumed.output


def test_games_and_matches_under_rules(tmp_path):
    out = tmp_path / "games"
    result = run("games", "--players", "heuristic,random,random", "-n", 40, "--seed", 3,
                 "-o", out, "--rules", "ten_nt=off,aces=each:30", "-w", 1)
    assert result.exit_code == 0, result.output
    frame = pd.read_parquet(out)
    assert "10NT" not in set(frame["contract"].dropna())
    rules = Rules.parse("ten_nt=off,aces=each:30")
    assert dataset_rules(out) == rules
    for _, row in frame[~frame["void"] & frame["aces"]].iterrows():
        declarer = int(row["declarer"])
        assert abs(row[f"net{declarer}"]) >= 60  # 30 from (or to) each of the others
    played = frame[~frame["void"]]
    assert (played[[f"result{s}" for s in range(3)]].sum(axis=1).abs() < 1e-9).all()
    regret = run("stats", "bidding", out, "--regret", 3)
    assert regret.exit_code == 0 and "played under the rules ten_nt=off,aces=each:30" \
        in regret.output
    match = run("match", "heuristic", "random", "random", "-n", 4, "--rules", "overtrump=yes",
                "-w", 1, "--json")
    assert json.loads(match.stdout)["rules"] == "overtrump=yes"


def test_the_report_names_the_rules_and_their_tables(tmp_path):
    config = RunConfig(deals=4, seed=2, chunk_size=4, rules="ten_as_nine=yes,ten_nt=11")
    out = simulate(config, tmp_path / "run", workers=1)
    page = tmp_path / "r.html"
    assert run("report", out, "-o", page).exit_code == 0
    text = page.read_text()
    assert "<code>ten_nt=11,ten_as_nine=yes</code>" in text
    # The quotas of a 10 are a 9's, and 10NT is worth 11.
    assert '<tr><td class="text">10</td><td>10</td><td>1</td><td>0</td><td>1</td></tr>' in text
    assert ('<tr><td class="text">10</td><td>10</td><td>10</td><td>10</td><td>10</td>'
            "<td>11</td></tr>") in text
