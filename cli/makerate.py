"""``prefa makerate``: what each contract is worth to one hand."""

from __future__ import annotations

import tempfile
from pathlib import Path

import click

from prefa_sim.analysis.prospects import (
    POSITIONS,
    hand_config,
    hand_prospects,
    prospect_records,
    prospects_text,
)
from prefa_sim.core.cards import CardError, format_hand, parse_hand
from prefa_sim.core.seats import DEFAULT_DEALER, seat_label, seat_of
from prefa_sim.dealing.scenario import ScenarioError
from prefa_sim.rules.variants import DEFAULT_RULES
from prefa_sim.sim.about import is_finished
from prefa_sim.sim.config import RunError, read_manifest
from prefa_sim.stats.output import records
from prefa_sim.util.workers import default_workers

from .common import PrefaCommand, user_errors
from .params import OutFolder, deal_count, format_options, rules_option
from .progress import run_with_progress


@click.command(cls=PrefaCommand)
@click.argument("hand")
@click.option("-p", "--position", type=click.Choice(POSITIONS), default="first",
              show_default=True, help="Where the hand sits: first hand, second hand or dealer.")
@click.option("--widow", default=None, metavar="CARDS",
              help="The widow's two cards as one word, when known (e.g. --widow 7S,8D); "
                   "unknown by default.")
@click.option("-n", "--deals", type=deal_count(), default=2000, show_default=True,
              help="How many deals to complete the hand with.")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True,
              help="Root seed of the deals.")
@click.option("--fixed", multiple=True, metavar="HAND=CARDS",
              help="Cards known in another hand, e.g. second=A.-.-.-; repeatable.")
@click.option("--constraint", multiple=True, metavar="EXPR",
              help="A constraint every deal must meet, e.g. 'second.hearts <= 2'; repeatable.")
@click.option("-w", "--workers", type=click.IntRange(1, 1024), default=None,
              help="Processes (default: all cores).")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Solve on this Dask distributed scheduler (needs --out on a file system "
                   "the workers share).")
@click.option("-o", "--out", "out_dir", type=OutFolder(), default=None,
              help="Keep the solved deals in this folder (a dataset for prefa stats); "
                   "by default they go to a temporary folder.")
@rules_option()
@format_options()
@click.option("--plot", "plot_file", type=click.Path(dir_okay=False), default=None,
              help="Also draw the contracts' figures into this .png or .svg file.")
def makerate(hand, position, widow, deals, seed, fixed, constraint, workers, scheduler,
             out_dir, rules, fmt, plot_file):
    """For every contract 6S-10NT: how often HAND makes it with the widow and the best
    discard, its expected tricks, how often the defence reaches its quota (both
    playing, each defender alone), and the declarer's expected kapíkia when the
    defenders declare their best, with the best contract marked and passing at 0.

    The other cards (and the widow, unless given) are dealt at random DEALS times and
    solved double-dummy. Rates have 95% Wilson intervals, kapíkia bootstrap intervals.
    """
    if scheduler and not out_dir:
        raise click.UsageError("--scheduler needs --out: a folder the Dask workers share")
    if plot_file is not None:
        from prefa_sim.stats.plots import figure_path_problem

        if problem := figure_path_problem(plot_file):
            raise click.BadParameter(problem, param_hint="--plot")
    try:
        mask = parse_hand(hand)
        widow_text = widow or None
        rules = rules or DEFAULT_RULES
        config = hand_config(hand, position, widow_text, deals, seed, constraint, fixed,
                             rules=rules)
    except (CardError, ScenarioError, RunError) as exc:
        raise click.ClickException(str(exc)) from None
    seat = seat_of(position, DEFAULT_DEALER)
    known = f"widow {format_hand(parse_hand(widow_text))}" if widow else "widow unknown"
    title = f"{format_hand(mask)}, {seat_label(seat, DEFAULT_DEALER)}, {known}"
    header = (f"{title}: {deals} deal{'' if deals == 1 else 's'}, seed {seed}"
              + ("" if rules.is_default else f", rules {rules}"))
    workers = workers or default_workers()
    if out_dir:
        out = Path(out_dir)
        resume = _kept_run(out, config)
        if resume is not None:
            run_with_progress(config, out, f"{header}, into {out}", workers, scheduler, resume,
                              finish="the same prefa makerate command again")
        _report(out, title, header, fmt, plot_file)
        return
    with tempfile.TemporaryDirectory(prefix="prefa-makerate-") as folder:
        out = Path(folder) / "run"
        run_with_progress(config, out, header, workers, finish="")
        _report(out, title, header, fmt, plot_file)


def _kept_run(out: Path, config) -> bool | None:
    """How to run into a kept folder: afresh (False), finishing the same run left
    unfinished (True), or not at all (None) when it holds this run finished."""
    if out.exists() and not out.is_dir():
        raise click.BadParameter(f"{out} is a file, not a folder", param_hint="--out")
    try:
        recorded = read_manifest(out) if out.is_dir() else None
    except RunError:
        raise click.ClickException(f"{out} holds a run record that cannot be read; give "
                                   "--out a new folder") from None
    if recorded is None:
        return False
    if recorded != config:
        raise click.ClickException(f"{out} holds another run (other hand, deals or seed); "
                                   "give --out a new folder")
    if is_finished(out, config):
        click.echo(f"{out} already holds this run; its figures follow", err=True)
        return None
    return True


def _report(out: Path, title: str, header: str, fmt: str, plot_file: str | None) -> None:
    with user_errors():
        prospects = hand_prospects(out)
    rows = prospect_records(prospects)
    if fmt in ("csv", "json"):
        click.echo(records(rows, fmt))
    else:
        click.echo(f"{header}\n(double dummy: every player sees every card; kapíkia: the change of "
                   "the declarer's result, the pot shared in thirds, full pot, no aces; 95% "
                   "intervals)\n")
        click.echo(prospects_text(prospects, markdown=fmt == "markdown"))
    if plot_file:
        from prefa_sim.stats.plots import prospects_figure, save

        with user_errors():
            fig = prospects_figure(rows, title, f"{header}; double dummy with the widow and the "
                                                "best discard; 95% Wilson (rates) and bootstrap "
                                                "(kapíkia) intervals; passing is worth 0")
            click.echo(f"wrote {save(fig, plot_file)}", err=True)
