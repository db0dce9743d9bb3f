"""``prefa simulate`` and ``prefa show``: make a dataset of solved deals, and look into one."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from click.core import ParameterSource

from prefa_sim.dealing.scenario import ScenarioError
from prefa_sim.sim.about import is_finished
from prefa_sim.sim.config import RunError, read_manifest
from prefa_sim.sim.dataset import DatasetError, dataset_rules, first_deals
from prefa_sim.sim.options import OptionError, check_replay_alone, new_run_config
from prefa_sim.sim.replay import read_replay, replay_rows
from prefa_sim.sim.run_folder import recover
from prefa_sim.sim.show import deals_text
from prefa_sim.stats.summary import make_rate_summary
from prefa_sim.util.words import counted
from prefa_sim.util.workers import default_workers

from .common import PrefaCommand, user_errors
from .params import (
    RULES_HELP,
    OutFolder,
    SeatList,
    deal_count,
    dealer_option,
    rules_option,
    scheduler_options,
)
from .progress import run_with_progress

DEFAULT_DEALS = 2500
DEFAULT_OUT = "prefa-run"
RUN_OPTIONS = ("dealer", "fixed", "constraint", "deals", "seed", "declarers", "strains",
               "modes", "chunk_size", "replay", "rules")
"""Options that define a run's data: --resume takes them from the folder instead."""


@click.command(cls=PrefaCommand)
@click.argument("scenario", type=click.Path(dir_okay=False), required=False)
@dealer_option(default=None, help="The dealing seat, 0-2 (overrides the scenario's; default 2, "
                                  "so that seat 0 is first hand).")
@click.option("--fixed", multiple=True, metavar="HAND=CARDS",
              help="Fixed cards, e.g. first=AKQ.-.J7.AT98 (first, second, dealer, widow); "
                   "repeatable, overrides the scenario's hand.")
@click.option("--constraint", multiple=True, metavar="EXPR",
              help="A constraint every deal must meet, e.g. 'first.hearts >= 5'; repeatable, "
                   "added to the scenario's.")
@click.option("-n", "--deals", type=deal_count(), default=DEFAULT_DEALS,
              show_default=True, help="How many deals (with --replay: the first N of the file).")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Root seed, 0 or more (default: 1 for random deals, a fresh one, printed, "
                   "for a scenario or --dealer/--fixed/--constraint).")
@click.option("-o", "--out", "out_dir", type=OutFolder(), default=DEFAULT_OUT,
              show_default=True, help="Output folder for the Parquet dataset.")
@click.option("-w", "--workers", type=click.IntRange(1, 1024), default=None,
              help="Processes (default: all cores; never more than the chunks to run).")
@click.option("--declarers", type=SeatList(), default="0,1,2", show_default=True,
              help="Declaring seats to study: seats or first, second, dealer (default for a "
                   "scenario that fixes a hand's cards: the seats of the fixed hands).")
@click.option("--strains", default="S,C,D,H,NT", show_default=True, help="Strains to study.")
@click.option("--modes", default="both,first,second", show_default=True,
              help="Defence modes: both defenders, or the first or second alone.")
@click.option("--chunk-size", type=click.IntRange(min=1), default=25, show_default=True,
              help="Deals per Parquet file (the data do not depend on it).")
@click.option("--replay", type=click.File("rb"), default=None,
              help="Solve the deals of this JSON Lines file (prefa solve format) instead of "
                   "dealing; bad lines are reported and skipped.")
@rules_option(RULES_HELP + " A scenario's [rules] table says the same.")
@scheduler_options("Run the chunks")
@click.option("--resume", is_flag=True,
              help="Finish the interrupted run in OUT, with the settings recorded there.")
@click.option("--force", is_flag=True, help="Start again even if OUT holds a run.")
def simulate_command(scenario, dealer, fixed, constraint, deals, seed, out_dir, workers,
                     declarers, strains, modes, chunk_size, replay, rules, scheduler,
                     scheduler_timeout, resume, force):
    """Deal and solve DEALS deals double-dummy with the widow, for every declarer,
    strain and defence mode, into a Parquet dataset; then print make-rates.

    SCENARIO is a TOML file (fixed cards, dealer, constraints; see data/scenarios/).
    With no arguments: 2,500 random deals, seed 1, into ./prefa-run. The same
    seed gives the same deals whatever the chunk size, workers or machines.
    """
    ctx = click.get_current_context()
    given = [n for n in RUN_OPTIONS if ctx.get_parameter_source(n) == ParameterSource.COMMANDLINE]
    out = Path(out_dir)
    workers = workers or default_workers()
    replayed, bad_lines = None, 0
    if resume and not force:
        if scenario is not None or given:
            names = ", ".join(["SCENARIO"] * (scenario is not None)
                              + ["--" + n.replace("_", "-") for n in given])
            raise click.UsageError(f"--resume takes the run's settings from {out}: leave out "
                                   f"{names}")
        with user_errors():
            recover(out)  # an interrupted --force first: the record read must be the run's
            config = read_manifest(out)
        if config is None:
            raise click.ClickException(f"{out} holds no run to resume")
        if config.players:
            raise click.ClickException(f"{out} holds games: finish them with prefa games -o "
                                       f"{out} --resume")
        builtin = False
    else:
        config, replayed, bad_lines = _new_config(
            scenario, dealer, fixed, constraint, deals, seed,
            declarers if "declarers" in given else None, strains, modes, chunk_size, replay,
            "deals" in given, rules)
        builtin = scenario is None and not given
    if builtin and is_finished(out, config) and not force:
        click.echo(f"{out} already holds this finished run; its summary follows "
                   "(--force to run it again)", err=True)
    else:
        source = (f"replaying {_name(replay)}" if replay else
                  f"resuming seed {config.seed}" if resume else f"seed {config.seed}")
        header = (f"{source}: {counted(config.deals, 'deal')} in "
                  f"{counted(config.chunks, 'chunk')} into {out}{_under(config)}")
        run_with_progress(config, out, header, workers, scheduler, resume, force,
                          replayed, scheduler_timeout=scheduler_timeout)
    with user_errors():
        click.echo(make_rate_summary(out, config))
    if bad_lines:
        click.echo(f"prefa simulate: {counted(bad_lines, 'bad line')} of {_name(replay)} skipped",
                   err=True)
        sys.exit(1)


def _under(config) -> str:
    """``, rules ...`` for a run under other rules than the default, else nothing."""
    return "" if config.rules == "default" else f", rules {config.rules}"


def _new_config(scenario, dealer, fixed, constraint, deals, seed, declarers, strains, modes,
                chunk_size, replay, deals_given, rules):
    """The configuration of a new run from the command line, the deals to replay and how
    many lines of the replay file were bad (each said on standard error)."""
    rows, errors = None, []
    if replay is not None:
        try:
            check_replay_alone(scenario, dealer is not None or bool(fixed or constraint), seed)
        except OptionError as exc:
            raise click.UsageError(str(exc)) from None
        with user_errors():
            rows, errors = read_replay(replay, deals if deals_given else None)
        for number, message in errors:
            click.echo(f"{_name(replay)}, line {number}: {message}", err=True)
        if not len(rows):
            raise click.ClickException(f"no deal to replay in {_name(replay)}")
        if deals_given and len(rows) < deals:
            good = counted(len(rows), "good deal")
            raise click.BadParameter(f"{_name(replay)} holds only {good}, fewer than {deals}",
                                     param_hint="-n")
    try:
        config = new_run_config(scenario, dealer, fixed, constraint, deals, seed, declarers,
                                strains, modes, chunk_size, rows, rules)
    except OptionError as exc:
        raise click.BadParameter(str(exc), param_hint=exc.option) from None
    except (ScenarioError, RunError) as exc:
        raise click.ClickException(str(exc)) from None
    return config, None if rows is None else replay_rows(rows)[0], len(errors)


def _name(stream) -> str:
    return getattr(stream, "name", "<stdin>")


@click.command(cls=PrefaCommand)
@click.argument("dataset", type=click.Path(exists=True))
@click.option("-n", "--deals", type=click.IntRange(min=1), default=3, show_default=True,
              help="How many deals to show.")
def show(dataset, deals):
    """Print the first deals of a DATASET folder (or Parquet file) and their results."""

    try:
        data = first_deals(dataset, deals)
        rules = dataset_rules(dataset)
    except DatasetError as exc:
        raise click.ClickException(str(exc)) from None
    if data.empty:
        click.echo(f"{dataset}: the dataset has no rows")
        return
    if not rules.is_default:
        click.echo(f"rules: {rules}")
    try:
        click.echo(deals_text(data, deals))
    except (TypeError, ValueError) as exc:  # a missing value where the dataset has none
        raise click.ClickException(f"{dataset} holds values a prefa-sim dataset does not "
                                   f"have ({exc})") from None
