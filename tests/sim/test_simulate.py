"""Simulation runs: deterministic whatever the workers, resumable, spot-checked."""

import json

import pandas as pd
import pyarrow.parquet as pq
import pytest

from prefa_sim.core.cards import Strain, format_discard, format_hand, parse_hand
from prefa_sim.dealing.scenario import parse_scenario
from prefa_sim.sim.chunks import chunk_path
from prefa_sim.sim.config import RunConfig, RunError
from prefa_sim.sim.dataset import cards_as_text, dataset_files, first_deals, read_frame
from prefa_sim.sim.run_folder import MANIFEST
from prefa_sim.sim.simulate import simulate
from prefa_sim.solve.tables import active_seats, opening_leader
from prefa_sim.stats.groups import strain_counts

CONFIG = RunConfig(deals=6, seed=42, chunk_size=2, declarers=(0, 2), strains=("H", "NT"))


def read(out_dir):
    return pd.read_parquet(out_dir).sort_values(["deal", "declarer", "strain"]).reset_index(
        drop=True)


def test_same_seed_same_data_with_one_or_two_workers(tmp_path):
    one = read(simulate(CONFIG, tmp_path / "one", workers=1))
    two = read(simulate(CONFIG, tmp_path / "two", workers=2))
    pd.testing.assert_frame_equal(one, two)
    assert len(one) == 6 * 2 * 2
    assert sorted(one["deal"].unique()) == list(range(6))
    other = read(simulate(RunConfig(**{**CONFIG.to_json(), "seed": 43}), tmp_path / "other"))
    assert not one[["hand0", "hand1"]].equals(other[["hand0", "hand1"]])


def test_same_seed_same_deals_whatever_the_chunk_size(tmp_path):
    small = read(simulate(RunConfig(**{**CONFIG.to_json(), "chunk_size": 1}), tmp_path / "one"))
    large = read(simulate(RunConfig(**{**CONFIG.to_json(), "chunk_size": 4}), tmp_path / "four"))
    pd.testing.assert_frame_equal(small, large)
    # Deal i comes from its own stream: a longer run starts with the same deals.
    longer = read(simulate(RunConfig(**{**CONFIG.to_json(), "deals": 9}), tmp_path / "nine"))
    pd.testing.assert_frame_equal(longer[longer.deal < 6].reset_index(drop=True), small)


def test_resume_after_a_lost_chunk_and_no_silent_overwrite(tmp_path):
    out = tmp_path / "run"
    full = read(simulate(CONFIG, out))
    chunk_path(out, 1).unlink()
    (out / ".part-00002.parquet.tmp99").write_bytes(b"half a file")
    with pytest.raises(RunError, match="unfinished run"):
        simulate(CONFIG, out)
    pd.testing.assert_frame_equal(read(simulate(CONFIG, out, resume=True)), full)
    assert not list(out.glob(".*.tmp*"))
    with pytest.raises(RunError, match="finished run; use --force to replace it, or -o"):
        simulate(CONFIG, out)
    with pytest.raises(RunError, match="other settings"):
        simulate(RunConfig(**{**CONFIG.to_json(), "deals": 8}), out, resume=True)
    assert json.loads((out / MANIFEST).read_text()) == CONFIG.to_json()
    simulate(CONFIG, out, force=True)
    # Parts that are not of a prefa-sim run are never deleted silently.
    (out / MANIFEST).unlink()
    with pytest.raises(RunError, match="no run of prefa-sim"):
        simulate(CONFIG, out)
    assert chunk_path(out, 0).exists()


def test_stored_tricks_match_direct_solving(tmp_path, solver):
    data = read(simulate(CONFIG, tmp_path / "run"))
    for _, row in data.sample(4, random_state=1).iterrows():
        hands = [int(row.hand0), int(row.hand1), int(row.hand2)]
        for mode in ("both", "first", "second"):
            active = active_seats(row.declarer, mode)
            result = solver.solve_widow(hands, int(row.widow), Strain[row.strain],
                                        opening_leader(row.dealer, active), row.declarer, active)
            assert row[f"tricks_{mode}"] == result.best_tricks
            assert int(row[f"discard_{mode}"]) in [(1 << a) | (1 << b)
                                                   for a, b in result.best_discards]


def test_scenario_runs_keep_fixed_cards_and_metadata(tmp_path):
    scenario = {"dealer": 2, "fixed": {"first": "AKQJ9.-.A7.K98"}}
    parse_scenario(scenario)
    config = RunConfig(deals=2, seed=7, chunk_size=2, declarers=(0,), strains=("S",),
                       modes=("both",), scenario=scenario, scenario_text="dealer = 2")
    out = simulate(config, tmp_path / "run")
    data = read(out)
    assert (data["hand0"] == parse_hand("AKQJ9.-.A7.K98")).all()  # dealer 2: seat 0 is first
    assert data["tricks_first"].isna().all() and data["tricks_both"].notna().all()
    meta = json.loads(pq.read_schema(chunk_path(out, 0)).metadata[b"prefa_sim"])
    assert meta["root_seed"] == 7 and meta["config"]["scenario_text"] == "dealer = 2"
    assert set(meta["versions"]) == {"prefa-sim", "numpy", "numba", "pyarrow"}


def test_dask_cluster_gives_the_same_data_as_a_local_run(tmp_path):
    from distributed import Client, LocalCluster

    local = read(simulate(CONFIG, tmp_path / "local", workers=1))
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        on_dask = read(simulate(CONFIG, tmp_path / "dask", scheduler=client))
    pd.testing.assert_frame_equal(local, on_dask)


def test_file_by_file_readers_agree_with_pandas(tmp_path):
    config = RunConfig(**{**CONFIG.to_json(), "modes": ("both", "first")})
    out = simulate(config, tmp_path / "run")
    data = read(out)
    counts = strain_counts(out, "both")
    for strain in Strain:
        expected = data.loc[data.strain == strain.name, "tricks_both"].value_counts()
        assert {t: n for t, n in enumerate(counts[int(strain)]) if n} == expected.to_dict()
    assert not strain_counts(out, "second").any()  # a mode not studied has no rows
    first = first_deals(out, 3).sort_values(["deal", "declarer", "strain"]).reset_index(drop=True)
    whole = read_frame(out).sort_values(["deal", "declarer", "strain"]).reset_index(drop=True)
    pd.testing.assert_frame_equal(first, whole[whole.deal < 3].reset_index(drop=True))
    # A mode left out keeps its integer type, nullable, not float.
    assert str(whole["tricks_second"].dtype) == "Int8" and whole["tricks_second"].isna().all()
    assert str(whole["discard_second"].dtype) == "UInt32"
    assert str(whole["tricks_first"].dtype) == "Int8" and whole["tricks_first"].notna().all()
    assert (whole[["deal", "tricks_both"]].astype("int64") == data[["deal", "tricks_both"]]
            .astype("int64")).all().all()
    assert [p.name for p in dataset_files(out)] == [f"part-0000{i}.parquet" for i in range(3)]
    text = cards_as_text(whole)
    row = whole.iloc[0]
    assert text["hand1"].iloc[0] == format_hand(int(row.hand1))
    assert text["discard_both"].iloc[0] == format_discard(int(row.discard_both))
    assert len(text["discard_both"].iloc[0].split()) == 2 and text["discard_second"].isna().all()


def test_parts_are_read_in_chunk_order_past_five_digits(tmp_path):
    for index in (3, 99_999, 100_000, 1_234_567):
        chunk_path(tmp_path, index).touch()
    assert [p.name for p in dataset_files(tmp_path)] == [
        "part-00003.parquet", "part-99999.parquet", "part-100000.parquet",
        "part-1234567.parquet"]
