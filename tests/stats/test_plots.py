"""Figures draw the statistics they claim to: the heat map's cells, the bars and the lines
are the make-rates and shares computed from the dataset."""

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from prefa_sim.cli import main
from prefa_sim.sim.config import RunConfig
from prefa_sim.sim.simulate import simulate
from prefa_sim.stats.plots import features_figure, makerate_figure, save, tricks_figure


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    out = tmp_path_factory.mktemp("plots") / "run"
    simulate(RunConfig(deals=30, seed=8, chunk_size=10, declarers=(0,), strains=("S", "H", "NT"),
                       modes=("both",)), out)
    return out


def test_the_heat_map_shows_the_make_rates(dataset):
    data = pd.read_parquet(dataset)
    fig = makerate_figure(dataset, "test")
    (ax, _) = fig.axes
    shown = ax.images[0].get_array()
    for j, strain in enumerate(["S", "H", "NT"]):
        tricks = data.loc[data.strain == strain, "tricks_both"]
        for i, level in enumerate(range(6, 11)):
            assert shown[i, j] == pytest.approx(100 * (tricks >= level).mean())
    assert [t.get_text() for t in ax.get_xticklabels()] == ["S", "H", "NT"]
    assert "90 declarer-strain rows" in fig.texts[0].get_text()


def test_the_bars_are_the_shares_of_tricks(dataset):
    data = pd.read_parquet(dataset)
    ax = tricks_figure(dataset, "test").axes[0]
    for container, strain in zip(ax.containers, ["S", "H", "NT"], strict=True):
        tricks = data.loc[data.strain == strain, "tricks_both"].astype(int)
        heights = [bar.get_height() for bar in container]
        assert np.allclose(heights, 100 * np.bincount(tricks, minlength=11) / len(tricks))


def test_the_lines_are_the_make_rates_by_trump_length(dataset):
    from prefa_sim.core.cards import Strain

    ax = features_figure(dataset, "test", strain=Strain.H).axes[0]
    six = ax.lines[0]
    assert six.get_label() == "6 H"
    assert all(0 <= y <= 100 for y in six.get_ydata())


def test_the_command_writes_png_and_svg_and_refuses_other_files(dataset, tmp_path):
    for kind in ("makerate", "tricks", "features"):
        for suffix, magic in ((".png", b"\x89PNG"), (".svg", b"<?xml")):
            out = tmp_path / f"{kind}{suffix}"
            result = CliRunner().invoke(main, ["plot", kind, str(dataset), "-o", str(out)])
            assert result.exit_code == 0, result.output
            assert out.read_bytes().startswith(magic)
    result = CliRunner().invoke(main, ["plot", "tricks", str(dataset), "-o",
                                       str(tmp_path / "x.jpg")])
    assert result.exit_code == 2 and ".png or .svg" in result.output  # before any work
    missing = tmp_path / "no-such-folder" / "t.png"
    result = CliRunner().invoke(main, ["plot", "tricks", str(dataset), "-o", str(missing)])
    assert result.exit_code == 2 and "does not exist" in result.output
    assert "Errno" not in result.output and not missing.parent.exists()
    result = CliRunner().invoke(main, ["plot", "features", str(dataset), "-t", "NT", "-o",
                                       str(tmp_path / "f.png")])
    assert result.exit_code == 2 and "trump suit" in result.output
    with pytest.raises(ValueError):
        save(tricks_figure(dataset), tmp_path / "y.pdf")


def test_the_defence_figure_draws_quotas_and_money(tmp_path):
    from prefa_sim.core.contracts import LADDER
    from prefa_sim.stats.defence import OUTCOMES, defence_stats
    from prefa_sim.stats.plots import defence_figure

    from ..helpers import synthetic

    path = tmp_path / "run"
    synthetic(path, 40, seed=2, files=2)
    stats = defence_stats(path, "declarer == 0", replicates=200)
    fig = defence_figure(path, "test", "declarer == 0", replicates=200)
    top, bottom = fig.axes
    both = top.containers[0].lines[0].get_ydata()  # the quota with both defenders playing
    assert np.allclose(both, [100 * stats.quota(c, "both").value for c in LADDER])
    for k, seq in enumerate(OUTCOMES):
        drawn = bottom.containers[k].lines[0].get_ydata()
        assert np.allclose(drawn, [stats.money(c, seq, "declarer")[0].value for c in LADDER])
    assert [t.get_text() for t in bottom.get_xticklabels()] == [str(c) for c in LADDER]
    assert "200 declarer-strain rows with declarer == 0" in fig.texts[0].get_text()
    result = CliRunner().invoke(main, ["plot", "defence", str(path), "-o",
                                       str(tmp_path / "d.svg"), "--where", "declarer == 5"])
    assert result.exit_code == 1 and "no rows" in result.output


@pytest.mark.parametrize("args, message", [
    (["makerate", "--mode", "second"], "no rows of"),  # a mode the dataset does not hold
    (["features", "-t", "D"], "in D in defence mode both"),  # a strain it does not hold
    (["tricks", "--where", "declarer == 2"], "meet --where declarer == 2: nothing to draw"),
    (["defence", "--mode", "first"], "shows every defence mode"),
    (["makerate", "-t", "S"], "--trump is for the features figure"),
    (["features", "-t", "Q"], "unknown strain"),
])
def test_no_empty_figure_and_no_ignored_option(dataset, tmp_path, args, message):
    out = tmp_path / "x.png"
    result = CliRunner().invoke(main, ["plot", args[0], str(dataset), "-o", str(out),
                                       *args[1:]])
    assert result.exit_code != 0 and message in result.output, result.output
    assert not out.exists()


def test_where_filters_every_figure(dataset):
    data = pd.read_parquet(dataset)
    fig = makerate_figure(dataset, "test", where="strain == H")
    (ax, _) = fig.axes
    shown = ax.images[0].get_array()
    hearts = data.loc[data.strain == "H", "tricks_both"]
    assert shown.shape == (5, 1) and shown[0, 0] == pytest.approx(100 * (hearts >= 6).mean())
    assert "30 declarer-strain rows with strain == H" in fig.texts[0].get_text()


def _boxes_overlap(a, b) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def test_no_legend_covers_data_and_no_marker_sits_on_the_frame(tmp_path):
    from prefa_sim.analysis.prospects import hand_config, hand_prospects, prospect_records
    from prefa_sim.stats.plots import bidding_figure, defence_figure, prospects_figure

    out = tmp_path / "run"
    simulate(RunConfig(deals=20, seed=3, chunk_size=10), out)
    hand = tmp_path / "hand"
    simulate(hand_config("AKQJ9.A.-.KQ87", "first", deals=20, seed=1), hand)
    games = tmp_path / "games"
    assert CliRunner().invoke(main, ["games", "--players", "heuristic,random,random", "-n",
                                     "30", "-w", "1", "-o", str(games)]).exit_code == 0
    figures = {"features": features_figure(out), "tricks": tricks_figure(out),
               "defence": defence_figure(out, replicates=100),
               "makerate-hand": prospects_figure(prospect_records(hand_prospects(hand)),
                                                 "hand", "caption"),
               "bidding": bidding_figure(games)}
    for name, fig in figures.items():
        fig.canvas.draw()
        for ax in fig.axes:
            legend = ax.get_legend()
            if legend is not None:  # beside the axes, never over them
                assert not _boxes_overlap(legend.get_window_extent(), ax.get_window_extent()), \
                    name
            if "%" in ax.get_ylabel() and name != "tricks":  # markers at 0 and 100 (bars
                # of the tricks figure stand on 0) inside the frame
                low, high = ax.get_ylim()
                assert low < 0 and high > 100, (name, ax.get_ylabel())
        if name == "makerate-hand":  # the colour key of the strains
            labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
            assert labels == ["S", "C", "D", "H", "NT"]
