"""``prefa plot``: figures of a dataset's statistics."""

from __future__ import annotations

import click

from prefa_sim.cards import parse_strain
from prefa_sim.dataset import DatasetError
from prefa_sim.simulate import scenario_name
from prefa_sim.stats.groups import MODES, StatsError
from prefa_sim.stats.plots import (
    KINDS,
    defence_figure,
    features_figure,
    makerate_figure,
    save,
    tricks_figure,
)

from .common import PrefaCommand


@click.command(cls=PrefaCommand)
@click.argument("kind", type=click.Choice(KINDS))
@click.argument("dataset", type=click.Path(exists=True))
@click.option("-o", "--out", required=True, type=click.Path(dir_okay=False),
              help="The figure's file: .png or .svg.")
@click.option("--mode", type=click.Choice(MODES), default="both", show_default=True,
              help="Defence mode.")
@click.option("-t", "--trump", default="H", show_default=True,
              help="The trump suit of the features figure.")
@click.option("--where", default=None, metavar="EXPR",
              help="The defence figure: keep rows that meet comparisons joined by 'and', "
                   "e.g. 'trumps_after >= 5'.")
def plot(kind, dataset, out, mode, trump, where):
    """Draw a figure of DATASET: makerate (a heat map of make-rates by level and strain),
    tricks (the declarer's tricks by strain), defence (the defence's quota rates and the
    declarer's money against each way to defend, by contract) or features (make-rate
    against trump length after the widow, with interval bands)."""
    try:
        scenario = scenario_name(dataset)
        if kind == "makerate":
            fig = makerate_figure(dataset, scenario, mode)
        elif kind == "tricks":
            fig = tricks_figure(dataset, scenario, mode)
        elif kind == "defence":
            fig = defence_figure(dataset, scenario, where)
        else:
            strain = parse_strain(trump)
            if strain.name == "NT":
                raise StatsError("the features figure needs a trump suit, not NT")
            fig = features_figure(dataset, scenario, mode, strain)
        click.echo(f"wrote {save(fig, out)}")
    except (StatsError, DatasetError, ValueError, OSError) as exc:
        raise click.ClickException(str(exc)) from None
