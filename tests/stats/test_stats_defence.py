"""`prefa stats defence`: quotas, the money of the seven declaration sequences and the
paired comparisons, checked against hand-worked cases and a direct pandas computation."""

import json
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from prefa_sim.cli import main
from prefa_sim.core.contracts import LADDER, parse_contract
from prefa_sim.rules.settlement import DEFENCES, settle
from prefa_sim.rules.variants import QUOTAS
from prefa_sim.stats.defence import (
    OUTCOMES,
    SEQUENCES,
    defence_stats,
    quota_reached,
    sequence_money,
)
from prefa_sim.stats.intervals import wilson

from ..helpers import synthetic


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    path = tmp_path_factory.mktemp("defence") / "run"
    return path, synthetic(path, 120, seed=5)


# -- the money of one deal ----------------------------------------------------------------

@pytest.mark.parametrize("contract, sequence, tricks, net, pot_delta", [
    # docs/rules.md §6.13 netted (a pot withdrawal counted as the declarer's), with what
    # goes into the pot: (declarer, first low, first high, second low, second high).
    ("7H", ("play", "play"), 7, (70 - 21, 0, 21, 0, 21), -70),
    ("6S", ("play", "pass", "alone"), 8, (20 - 4, 4, 4, 0, 0), -20),
    ("8D", ("play", "pass", "alone"), 7, (-80 - 24, 24, 24, 0, 0), 80),
    ("7H", ("pass", "play", "pass"), 9, (63, 0, 0, -63, -63), 0),
    ("7H", ("pass", "together"), 7, (70 - 21, 0, 0, 21, 21), -70),
    ("7H", ("pass", "play", "together"), 6, (-70 - 28, 28, 28, 0, 0), 70),
    ("6H", ("pass", "pass"), 3, (50, 0, 0, 0, 0), -50),  # no play: the tricks do not count
    ("10S", ("play", "play"), 9, (-100 - 10, 0, 10, 0, 10), 100),
    # 7H, declarer 8: the defence is one short; who pays depends on the share.
    ("7H", ("play", "play"), 8, (56, -70, 14, -70, 14), 0),  # 8/2/0: C pays 56 + 14
])
def test_sequence_money_worked_cases(contract, sequence, tricks, net, pot_delta):
    """The change of result is the netted money plus a third of the pot's change, each."""
    expected = tuple(Fraction(n) + Fraction(pot_delta, 3) for n in net)
    assert sequence_money(parse_contract(contract), sequence, tricks) == expected


@given(step=st.integers(0, 24), sequence=st.sampled_from(SEQUENCES),
       tricks=st.integers(0, 10), data=st.data())
def test_money_bounds_every_share(step, sequence, tricks, data):
    contract = LADDER[step]
    declarer, first_low, first_high, second_low, second_high = sequence_money(
        contract, sequence, tricks)
    players = DEFENCES[sequence].players
    if len(players) == 2:
        first = data.draw(st.integers(0, 10 - tricks))
        share = {"declarer": tricks, "first": first, "second": 10 - tricks - first}
    elif players:
        share = {"declarer": tricks, players[0]: 10 - tricks}
    else:
        share = None
    net = settle(contract, sequence, share).result
    assert net["declarer"] == declarer  # whatever the share
    assert first_low <= net["first"] <= first_high
    assert second_low <= net["second"] <= second_high
    if DEFENCES[sequence].caller or len(players) < 2:
        assert first_low == first_high and second_low == second_high


def test_quota_reached_by_the_table():
    for contract in LADDER:
        first, second, lone = QUOTAS[contract.level]
        both = [t for t in range(11) if quota_reached(contract, t, False)]
        alone = [t for t in range(11) if quota_reached(contract, t, True)]
        assert both == list(range(11 - first - second))
        assert alone == list(range(11 - lone))


# -- statistics over a dataset ----------------------------------------------------------

def settled(contract, sequence, row):
    """One row's settlement, directly (all defence tricks to the first defender when two
    play: neither side's total depends on the share)."""
    players = DEFENCES[sequence].players
    if not players:
        return settle(contract, sequence)
    mode = "both" if len(players) == 2 else players[0]
    t = int(row[f"tricks_{mode}"])
    return settle(contract, sequence, {"declarer": t, players[0]: 10 - t})


def declarer_net(contract, sequence, row) -> float:
    return float(settled(contract, sequence, row).result["declarer"])


def against_best_defence(contract, row) -> float:
    """The declarer's money when the defence declares what leaves the declarer least."""
    return min(declarer_net(contract, seq, row) for seq in OUTCOMES)


def test_against_pandas(data):
    path, frame = data
    where = "declarer != 1"
    stats = defence_stats(path, where, replicates=200, seed=3)
    rows = frame[frame.declarer != 1]
    for text in ("6S", "7H", "9NT", "10C"):
        contract = parse_contract(text)
        sub = rows[rows.strain == contract.strain.name]
        assert stats.n[contract.step] == len(sub)
        assert stats.make_rate(contract) == wilson(int((sub.tricks_both >= contract.level)
                                                       .sum()), len(sub))
        first, second, lone = QUOTAS[contract.level]
        assert stats.quota(contract, "both") == wilson(
            int((10 - sub.tricks_both >= first + second).sum()), len(sub))
        assert stats.quota(contract, "second") == wilson(
            int((10 - sub.tricks_second >= lone).sum()), len(sub))
        money = {seq: np.array([declarer_net(contract, seq, r) for _, r in sub.iterrows()])
                 for seq in SEQUENCES}
        for seq in SEQUENCES:
            e, same = stats.money(contract, seq, "declarer")
            assert e is same and e.value == pytest.approx(money[seq].mean())
            assert e.low <= e.value <= e.high
        best = [against_best_defence(contract, r) for _, r in sub.iterrows()]
        assert stats.best_defence(contract).value == pytest.approx(np.mean(best))
        matrix = stats.matrix(contract)
        for i, a in enumerate(OUTCOMES):
            for j, b in enumerate(OUTCOMES):
                diff = -(money[a] - money[b])  # the defence's money
                assert matrix[i][j].value == pytest.approx(diff.mean())
                if i == j:
                    assert matrix[i][j].low == matrix[i][j].high == 0


def test_decisions_against_pandas(data):
    path, frame = data
    stats = defence_stats(path, replicates=200)
    contract = parse_contract("7D")
    sub = frame[frame.strain == "D"]
    by_name = {(d.role, d.after, d.choice, d.other): d for d in stats.decisions(contract)}
    lone = [float(settle(contract, ("play", "pass", "alone"),
                         {"declarer": int(t), "first": 10 - int(t)}).result["first"])
            for t in sub.tricks_first]
    together = [float(settle(contract, ("play", "pass", "together"),
                             {"declarer": int(t), "first": 10 - int(t)}).result["first"])
                for t in sub.tricks_both]
    d = by_name["first", "play, pass", "together", "alone"]
    assert d.difference.value == pytest.approx(np.mean(together) - np.mean(lone))
    assert d.difference_high is None
    ranged = by_name["first", "- (second plays)", "play", "pass"]
    assert ranged.difference.value <= ranged.difference_high.value


def test_bootstrap_is_seeded_paired_and_reads_blocks_of_deals(data):
    path, _ = data
    a = defence_stats(path, replicates=300, seed=9)
    b = defence_stats(path, replicates=300, seed=9)
    c = defence_stats(path, replicates=300, seed=10)
    contract = parse_contract("8H")
    assert a.best_defence(contract) == b.best_defence(contract)
    assert a.best_defence(contract) != c.best_defence(contract)
    assert a.blocks == 120  # fewer deals than blocks: every deal is its own block
    # Paired: the interval of a difference is narrower than the two intervals side by side.
    both, _ = a.money(contract, ("play", "play"), "declarer")
    alone, _ = a.money(contract, ("play", "pass", "alone"), "declarer")
    diff = a.matrix(contract)[0][1]
    assert diff.high - diff.low < (both.high - both.low) + (alone.high - alone.low)


def test_dask_gives_the_same_answer(data):
    from distributed import Client, LocalCluster

    path, _ = data
    local = defence_stats(path, replicates=200)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        remote = defence_stats(path, replicates=200, scheduler=client)
    assert np.array_equal(local.counts, remote.counts)
    assert local.best_defence(LADDER[3]) == remote.best_defence(LADDER[3])


# -- the command ------------------------------------------------------------------------

def test_command_formats(data):
    path, frame = data
    runner = CliRunner()
    result = runner.invoke(main, ["stats", "defence", str(path), "-c", "7H,6S",
                                  "--bootstrap", "200"])
    assert result.exit_code == 0, result.output
    text = result.output
    assert text.index("6S ") < text.index("7H ") and "by share" in text
    assert f"{len(frame)} declarer-strain rows" in text
    result = runner.invoke(main, ["stats", "defence", str(path), "-c", "7H", "--format",
                                  "json", "--table", "all", "--bootstrap", "200"])
    records = [json.loads(line) for line in result.output.splitlines()]
    assert {r["table"] for r in records} == {"quota", "money", "decisions", "matrix"}
    assert sum(r["table"] == "money" for r in records) == 7
    assert sum(r["table"] == "matrix" for r in records) == 16
    quota = next(r for r in records if r["table"] == "quota")
    hearts = frame[frame.strain == "H"]
    assert quota["rows"] == len(hearts)
    assert quota["make"] == pytest.approx((hearts.tricks_both >= 7).mean())
    result = runner.invoke(main, ["stats", "defence", str(path), "--format", "csv",
                                  "--table", "quota"])
    assert result.exit_code == 0 and len(result.output.splitlines()) == 26


@pytest.mark.parametrize("args, message", [
    (["-c", "11H"], "unknown contract"),
    (["--table", "odds"], "expected all or a comma-separated list"),
    (["--format", "csv"], "CSV holds one table"),
    (["--where", "trumps >> 3"], "is not a comparison"),
    (["--where", "declarer > 5"], "no rows of"),
    (["--scheduler", "notanaddress"], "cannot use the Dask scheduler 'notanaddress'"),
])
def test_command_refuses(data, args, message):
    path, _ = data
    result = CliRunner().invoke(main, ["stats", "defence", str(path), *args])
    assert result.exit_code != 0 and message in result.output
    assert "Traceback" not in result.output


def test_no_rows_says_why(tmp_path):
    path = tmp_path / "run"
    frame = synthetic(path, 10, seed=1, files=1)
    hearts = tmp_path / "hearts"
    hearts.mkdir()
    import pyarrow as pa
    import pyarrow.parquet as pq

    from prefa_sim.sim.dataset import SCHEMA

    only_h = frame[frame.strain == "H"].copy()
    pq.write_table(pa.Table.from_pandas(only_h, schema=SCHEMA, preserve_index=False),
                   hearts / "part-00000.parquet")
    one_mode = frame.copy()
    one_mode["tricks_first"] = None
    single = tmp_path / "single.parquet"
    pq.write_table(pa.Table.from_pandas(one_mode, schema=SCHEMA, preserve_index=False), single)
    for args, message in (([str(hearts), "-c", "7S"], "are in H only"),
                          ([str(single)], "no rows with all three defence modes studied"),
                          ([str(path), "--where", "declarer == 4"],
                           "no rows of " + str(path) + " meet --where declarer == 4")):
        result = CliRunner().invoke(main, ["stats", "defence", *args])
        assert result.exit_code == 1 and message in result.output, result.output


def test_json_and_csv_shorthands(data):
    path, _ = data
    runner = CliRunner()
    for flag, fmt in (("--json", "json"), ("--csv", "csv")):
        short = runner.invoke(main, ["stats", "defence", str(path), "--table", "quota", flag])
        long = runner.invoke(main, ["stats", "defence", str(path), "--table", "quota",
                                    "--format", fmt])
        assert short.exit_code == 0 and short.output == long.output
