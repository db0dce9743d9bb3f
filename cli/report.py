"""``prefa report``: a dataset's statistics and figures as one HTML page."""

from __future__ import annotations

from pathlib import Path

import click

from prefa_sim.core.cards import CardError, parse_strain
from prefa_sim.sim.about import describe_run
from prefa_sim.stats.groups import parse_where
from prefa_sim.stats.html import report_html, report_path_problem, write_report

from .common import PrefaCommand
from .params import DATASET_RULES_HELP, check_where, rules_option


@click.command(cls=PrefaCommand)
@click.argument("dataset", type=click.Path(exists=True))
@click.option("-o", "--out", default="report.html", show_default=True,
              type=click.Path(dir_okay=False), help="The page to write.")
@click.option("--title", default=None, help="The page's title (default: from the dataset).")
@click.option("--where", default=None, metavar="EXPR", callback=check_where,
              help="Rows for the defence section, e.g. 'trumps_after >= 5' (comparisons "
                   "joined by 'and').")
@click.option("-t", "--trump", default="H", show_default=True,
              help="The trump suit of the trump-length figure.")
@click.option("--bootstrap", type=click.IntRange(100, 100_000), default=1000,
              show_default=True, help="Bootstrap replicates for the money intervals.")
@rules_option(DATASET_RULES_HELP)
def report(dataset, out, title, where, trump, bootstrap, rules):
    """Write one self-contained HTML page about DATASET: what made it, make-rate tables,
    the defence tables and the figures, every figure with its interval."""
    if problem := report_path_problem(out):
        raise click.BadParameter(problem, param_hint="-o")
    try:
        strain = parse_strain(trump)
        if strain.name == "NT":
            raise CardError("the trump-length figure needs a trump suit, not NT")
        if where:
            parse_where(where)
        about = describe_run(dataset)
        name = title or f"prefa-sim report: {Path(dataset).resolve().name}"
        page = report_html(dataset, about, name, where, bootstrap, strain, rules)
        click.echo(f"wrote {write_report(page, out)}")
    except (ValueError, OSError) as exc:  # StatsError, DatasetError, CardError
        raise click.ClickException(str(exc)) from None
