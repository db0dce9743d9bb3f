"""``prefa plot``: figures of a dataset's statistics."""

from __future__ import annotations

import click
from click.core import ParameterSource

from prefa_sim.core.cards import CardError, Strain, parse_strain
from prefa_sim.sim.about import dataset_caption, dataset_notes
from prefa_sim.sim.dataset import rules_for
from prefa_sim.stats.groups import MODES, parse_where
from prefa_sim.stats.plots import (
    KINDS,
    bidding_figure,
    defence_figure,
    features_figure,
    figure_path_problem,
    makerate_figure,
    save,
    tricks_figure,
)

from .common import PrefaCommand
from .params import DATASET_RULES_HELP, check_where, rules_option


@click.command(cls=PrefaCommand)
@click.argument("kind", type=click.Choice(KINDS))
@click.argument("dataset", type=click.Path(exists=True))
@click.option("-o", "--out", required=True, type=click.Path(dir_okay=False),
              help="The figure's file: .png or .svg.")
@click.option("--mode", type=click.Choice(MODES), default="both", show_default=True,
              help="Defence mode (the defence figure shows every mode).")
@click.option("-t", "--trump", default="H", show_default=True,
              help="The trump suit of the features figure.")
@click.option("--where", default=None, metavar="EXPR", callback=check_where,
              help="Keep rows that meet comparisons joined by 'and', e.g. 'trumps_after >= 5'.")
@rules_option(DATASET_RULES_HELP)
def plot(kind, dataset, out, mode, trump, where, rules):
    """Draw a figure of DATASET: makerate (a heat map of make-rates by level and strain),
    tricks (the declarer's tricks by strain), defence (the defence's quota rates and the
    declarer's money against each way to defend, by contract), features (make-rate
    against trump length after the widow, with interval bands) or, for a dataset of
    prefa games, bidding (each player's money and the contracts made by level)."""
    ctx = click.get_current_context()
    given = {name for name in ("mode", "trump")
             if ctx.get_parameter_source(name) == ParameterSource.COMMANDLINE}
    if kind in ("defence", "bidding") and "mode" in given:
        raise click.UsageError("the defence figure shows every defence mode: leave out --mode")
    if kind != "features" and "trump" in given:
        raise click.UsageError("--trump is for the features figure")
    if problem := figure_path_problem(out):  # before the work, not after it
        raise click.BadParameter(problem, param_hint="-o")
    try:
        strain = parse_strain(trump)
    except CardError as exc:
        raise click.BadParameter(str(exc), param_hint="--trump") from None
    if kind == "features" and strain == Strain.NT:
        raise click.BadParameter("the features figure needs a trump suit, not NT",
                                 param_hint="--trump")
    try:
        if where:
            parse_where(where)
        rules_for(dataset, rules)
        scenario = dataset_caption(dataset)
        if kind == "makerate":
            fig = makerate_figure(dataset, scenario, mode, where)
        elif kind == "tricks":
            fig = tricks_figure(dataset, scenario, mode, where)
        elif kind == "defence":
            fig = defence_figure(dataset, scenario, where)
        elif kind == "bidding":
            if where:
                raise click.UsageError("the bidding figure takes no --where")
            fig = bidding_figure(dataset, "; ".join(["games of prefa games",
                                                      *dataset_notes(dataset)]))
        else:
            fig = features_figure(dataset, scenario, mode, strain, where)
        click.echo(f"wrote {save(fig, out)}")
    except (ValueError, OSError) as exc:  # StatsError, DatasetError, a file not written
        raise click.ClickException(str(exc)) from None
