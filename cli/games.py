"""``prefa games``: deals played by players, at scale, into a Parquet dataset."""

from __future__ import annotations

from pathlib import Path

import click
from click.core import ParameterSource

from prefa_sim.bots.base import PlayerError
from prefa_sim.bots.files import pinned_specs
from prefa_sim.bots.registry import player_specs
from prefa_sim.bots.specs import player_label
from prefa_sim.rules.variants import DEFAULT_RULES
from prefa_sim.sim.config import RunConfig, RunError, read_manifest
from prefa_sim.sim.run_folder import recover
from prefa_sim.stats.bidding import bidding_stats, bidding_text, read_games
from prefa_sim.util.words import counted
from prefa_sim.util.workers import default_workers

from .common import PrefaCommand, user_errors
from .params import OutFolder, deal_count, rules_option, scheduler_options
from .progress import run_with_progress

RUN_OPTIONS = ("players", "deals", "seed", "duplicate", "full_games", "chunk_size", "rules")


@click.command(cls=PrefaCommand)
@click.option("--players", default=None, metavar="A,B,C",
              help="Players for seats 0, 1, 2 (one name for all): random, heuristic, "
                   "sampling, oracle (sees every card) or path/to/file.py:ClassName "
                   "(sees-all:path/to/file.py:ClassName to show it every card); settings in "
                   "parentheses: sampling(play=40,defence=40).")
@click.option("-n", "--deals", type=deal_count(), default=1000, show_default=True,
              help="How many deals.")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True,
              help="Root seed: the cards of deal i are prefa simulate's deal i.")
@click.option("-o", "--out", "out_dir", type=OutFolder(), default="prefa-games",
              show_default=True, help="Output folder for the Parquet dataset.")
@click.option("--duplicate", is_flag=True,
              help="Play every deal (or game) in the three seatings of the players.")
@click.option("--full-games", is_flag=True,
              help="DEALS whole games, each to the empty pot with the last contract (at most "
                   "1,000 deals a game), instead of single deals from a full pot.")
@rules_option()
@click.option("-w", "--workers", type=click.IntRange(1, 1024), default=None,
              help="Processes (default: all cores).")
@scheduler_options("Play the chunks")
@click.option("--chunk-size", type=click.IntRange(min=1), default=50, show_default=True,
              help="Deals per Parquet file (the data do not depend on it).")
@click.option("--resume", is_flag=True, help="Finish the interrupted run in OUT.")
@click.option("--force", is_flag=True, help="Start again even if OUT holds a run.")
def games(players, deals, seed, out_dir, duplicate, full_games, rules, workers, scheduler,
          scheduler_timeout, chunk_size, resume, force):
    """Play DEALS deals with PLAYERS, settle them, and write one row per deal (and
    seating) to Parquet: every action (a prefa game script), the declarer, contract,
    discard, declarations, tricks and money by seat; then the bidding statistics.

    Deals are independent, each from a full pot; the same seed gives the same rows
    whatever the chunk size, workers or machines.
    """
    ctx = click.get_current_context()
    given = [n for n in RUN_OPTIONS if ctx.get_parameter_source(n) == ParameterSource.COMMANDLINE]
    out = Path(out_dir)
    if resume and not force:
        if given:
            raise click.UsageError(f"--resume takes the run's settings from {out}: leave out "
                                   + ", ".join("--" + n.replace("_", "-") for n in given))
        with user_errors():
            recover(out)  # an interrupted --force first: the record read must be the run's
            config = read_manifest(out)
        if config is None or not config.players:
            raise click.ClickException(f"{out} holds no games to resume")
    else:
        if not players:
            raise click.UsageError("--players is needed, e.g. --players heuristic,random,random")
        try:
            specs, files = pinned_specs(player_specs(players))
        except PlayerError as exc:
            raise click.BadParameter(str(exc), param_hint="--players") from None
        if rules is not None and rules.first_deal != "dealer" and not full_games:
            raise click.UsageError(f"first_deal={rules.first_deal} chooses the dealer of a "
                                   "game's first deal: it needs --full-games (single deals "
                                   "have the dealer of their number)")
        try:
            config = RunConfig(deals=deals, seed=seed, chunk_size=chunk_size,
                               players=tuple(specs), duplicate=duplicate,
                               full_games=full_games, player_files=files,
                               rules=str(rules or DEFAULT_RULES))
        except RunError as exc:
            raise click.ClickException(str(exc)) from None
    seating = "three seatings" if config.duplicate else "one seating"
    unit = "whole game" if config.full_games else "deal"
    header = (f"seed {config.seed}: {counted(config.deals, unit)} ({seating}) by "
              f"{', '.join(map(player_label, config.players))} in "
              f"{counted(config.chunks, 'chunk')} into {out}"
              + ("" if config.rules == "default" else f", rules {config.rules}"))
    run_with_progress(config, out, header, workers or default_workers(), scheduler, resume,
                      force, finish=f"prefa games -o {out} --resume",
                      scheduler_timeout=scheduler_timeout)
    with user_errors():
        click.echo(bidding_text(bidding_stats(read_games(out))))
