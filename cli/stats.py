"""``prefa stats``: statistics over a simulation dataset."""

from __future__ import annotations

import click

from prefa_sim.dataset import DatasetError
from prefa_sim.stats.groups import FEATURES, MODES, StatsError, group_make_rates
from prefa_sim.stats.output import FORMATS, makerate_rows, render

from .common import PrefaCommand


@click.group()
def stats() -> None:
    """Statistics over a dataset made by prefa simulate, every figure with its interval."""


@stats.command("makerate", cls=PrefaCommand)
@click.argument("dataset", type=click.Path(exists=True))
@click.option("--by", default="strain", show_default=True,
              help=f"Comma-separated features to group by: {', '.join(FEATURES)}.")
@click.option("--where", default=None, metavar="EXPR",
              help="Keep rows that meet comparisons joined by 'and', e.g. "
                   "'strain == H and trumps >= 5'.")
@click.option("--mode", type=click.Choice(MODES), default="both", show_default=True,
              help="Defence mode: both defenders, or the first or second alone.")
@click.option("--min-count", type=click.IntRange(min=1), default=30, show_default=True,
              help="Groups with fewer rows are flagged small (and still shown).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table",
              show_default=True, help="Output format.")
def makerate(dataset, by, where, mode, min_count, fmt):
    """How often the declarer makes each level (6-10), with 95% Wilson intervals, and the
    mean tricks, for each group of rows of DATASET.

    Rows are (deal, declarer, strain); group by `position` or `declarer` as well as
    the strain for rows that are independent deal by deal. Features ending in _after
    describe the declarer's ten cards after the widow and the best discard.
    """
    features = tuple(f.strip().lower() for f in by.split(",") if f.strip())
    try:
        groups = group_make_rates(dataset, features, where, mode)
    except (StatsError, DatasetError) as exc:
        raise click.ClickException(str(exc)) from None
    if not groups:
        raise click.ClickException(f"no rows of {dataset} meet the filter in mode {mode}")
    click.echo(render(makerate_rows(groups, features, min_count), features, fmt))
