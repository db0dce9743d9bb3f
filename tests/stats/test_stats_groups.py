"""`prefa stats makerate`: grouped make-rates streamed over a dataset, checked against a
direct pandas computation, in every output format."""

import csv
import io
import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from prefa_sim.cli import main
from prefa_sim.core.cards import parse_hand, popcount
from prefa_sim.sim.config import RunConfig
from prefa_sim.sim.simulate import simulate
from prefa_sim.stats.groups import StatsError, group_make_rates, parse_where
from prefa_sim.stats.intervals import wilson


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    out = tmp_path_factory.mktemp("stats") / "run"
    simulate(RunConfig(deals=40, seed=21, chunk_size=7, declarers=(0, 1), strains=("S", "H"),
                       modes=("both", "first")), out)
    return out


def after_widow(row, mode="both"):
    """The declarer's ten cards after the widow and the mode's discard, by hand."""
    ten = (int(row[f"hand{row.declarer}"]) | int(row.widow)) & ~int(row[f"discard_{mode}"])
    suit = "SCDH".index(row.strain)
    assert popcount(ten) == 10
    return popcount((ten >> (8 * suit)) & 0xFF), popcount(ten & parse_hand("A.A.A.A"))


def test_groups_match_pandas(dataset):
    data = pd.read_parquet(dataset)
    data["trumps_after"], data["aces_after"] = zip(*(after_widow(r) for _, r in
                                                     data.iterrows()), strict=True)
    where = data[(data.strain == "H") & (data.trumps >= 3)]
    groups = group_make_rates(dataset, ("position", "trumps_after"),
                              "strain == H and trumps >= 3")
    expected = where.groupby(["position", "trumps_after"])["tricks_both"]
    assert [g.key for g in groups] == [tuple(int(v) for v in k) for k in expected.groups]
    for g in groups:
        tricks = expected.get_group(g.key).astype(int)
        assert g.n == len(tricks)
        assert g.mean.value == pytest.approx(tricks.mean())
        for level, e in g.rates.items():
            assert e == wilson(int((tricks >= level).sum()), len(tricks))
    aces = group_make_rates(dataset, ("aces_after",), mode="both")
    assert {g.key[0]: g.n for g in aces} == data.groupby("aces_after").size().to_dict()


def test_a_position_is_named_or_numbered(dataset):
    data = pd.read_parquet(dataset)
    for name, number in (("first", 0), ("second", 1), ("Dealer", 2)):
        assert parse_where(f"position == {name}") == parse_where(f"position == {number}")
        groups = group_make_rates(dataset, (), f"position != {name}")
        assert sum(g.n for g in groups) == int((data.position != number).sum())


def test_a_mode_with_one_defender_and_no_grouping(dataset):
    data = pd.read_parquet(dataset)
    (whole,) = group_make_rates(dataset, (), None, mode="first")
    assert whole.n == len(data) and whole.counts.tolist() == np.bincount(
        data.tricks_first.astype(int), minlength=11).tolist()
    assert group_make_rates(dataset, ("strain",), mode="second") == []  # not studied


@pytest.mark.parametrize("where, message", [
    ("trumps >> 3", "not a comparison"), ("colour == 3", "unknown feature"),
    ("strain == X", "not S, C, D, H or NT"), ("trumps >= many", "whole number"),
    ("trumps >= 3 or aces >= 1", "not a comparison"),
    ("position == last", "not first, second or dealer"),
])
def test_bad_filters_are_named(where, message):
    with pytest.raises(StatsError, match=message):
        parse_where(where)


def test_the_command_in_every_format(dataset):
    def run(*args):
        return CliRunner().invoke(main, ["stats", "makerate", str(dataset), *args])

    data = pd.read_parquet(dataset)
    as_json = [json.loads(line) for line in run("--by", "strain,position", "--format",
                                                 "json").output.splitlines()]
    for record in as_json:
        rows = data[(data.strain == record["strain"]) & (data.position == record["position"])]
        assert record["rows"] == len(rows) and record["small"] == (len(rows) < 30)
        assert record["make_6"] == (rows.tricks_both >= 6).mean()
    as_csv = list(csv.DictReader(io.StringIO(run("--by", "strain,position", "--format",
                                                 "csv").output)))
    assert [int(r["rows"]) for r in as_csv] == [r["rows"] for r in as_json]
    table = run("--by", "strain").output.splitlines()
    assert table[0].split()[:3] == ["strain", "rows", "mean"] and len(table) == 4
    assert table[-1] == ("(rows pooled over the declaring seats 0, 1: declarer or position "
                         "in --by or --where tells them apart)")
    markdown = run("--format", "markdown").output.splitlines()
    assert markdown[0].startswith("| strain | rows |") and len(markdown) == 5
    assert run("--by", "strain,declarer").output.splitlines()[-1].startswith("H ")
    for args, message in ((["--by", "colour"], "unknown feature"),
                          (["--where", "trumps >= 11"], "no rows"),
                          (["--by", "strain,strain"], "named twice"),
                          (["--by", "len_s,len_c,len_d,len_h,aces,kings,queens,jacks,trumps"],
                           "at most 8 features")):
        result = run(*args)
        assert result.exit_code == 1 and message in result.output


def test_dask_counts_the_same_groups(dataset):
    from distributed import Client, LocalCluster

    local = group_make_rates(dataset, ("position", "trumps_after"), "strain == H")
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        remote = group_make_rates(dataset, ("position", "trumps_after"), "strain == H",
                                  scheduler=client)
        result = CliRunner().invoke(main, ["stats", "makerate", str(dataset), "--scheduler",
                                           cluster.scheduler_address, "--format", "json"])
    assert [(g.key, g.counts.tolist()) for g in remote] == \
        [(g.key, g.counts.tolist()) for g in local]
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith("(rows pooled over the declaring seats")
    assert [json.loads(line)["rows"] for line in result.stdout.splitlines()] == \
        [g.n for g in group_make_rates(dataset, ("strain",))]


def test_a_folder_mixing_runs_or_repeating_a_chunk_is_refused(dataset, tmp_path):
    import shutil

    parts = sorted(dataset.glob("part-*.parquet"))
    twice = tmp_path / "twice"
    twice.mkdir()
    shutil.copy(parts[0], twice / "part-00000.parquet")
    shutil.copy(parts[0], twice / "part-00001.parquet")
    other = tmp_path / "other"
    simulate(RunConfig(deals=3, seed=99, chunk_size=3, declarers=(0,), strains=("H",),
                       modes=("both",)), other)
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    shutil.copy(parts[0], mixed / "part-00000.parquet")
    shutil.copy(other / "part-00000.parquet", mixed / "part-00001.parquet")
    for folder, message in ((twice, "holds chunk 0 again"), (mixed, "comes from another run")):
        result = CliRunner().invoke(main, ["stats", "makerate", str(folder)])
        assert result.exit_code == 1 and message in result.output, result.output


def test_many_features_count_as_few(dataset):
    """Up to four features are counted directly, more through sorting: the same groups."""
    data = pd.read_parquet(dataset)
    by = ("len_s", "len_c", "len_d", "len_h", "aces", "kings")
    groups = group_make_rates(dataset, by)
    expected = data.groupby(list(by))["tricks_both"]
    assert [g.key for g in groups] == [tuple(int(v) for v in k) for k in expected.groups]
    assert [g.n for g in groups] == expected.size().tolist()
    four = group_make_rates(dataset, by[:4])
    assert [g.n for g in four] == data.groupby(list(by[:4])).size().tolist()
