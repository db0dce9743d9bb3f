"""``prefa simulate`` and ``prefa show``: make a dataset of solved deals, and look into one."""

from __future__ import annotations

import json
import secrets
import sys
import tomllib
from pathlib import Path

import click

from prefa_sim.batch import default_workers
from prefa_sim.cards import Strain
from prefa_sim.dataset import first_deals, trick_counts
from prefa_sim.scenario import ScenarioError, load_scenario, parse_scenario
from prefa_sim.simulate import (
    MANIFEST,
    RunConfig,
    RunError,
    chunk_path,
    read_replay,
    replay_rows,
    simulate,
)
from prefa_sim.tables import MODES

from .common import SeatList, user_errors

DEFAULT_DEALS = 2500
DEFAULT_OUT = "prefa-run"


def _names(value: str, allowed: tuple[str, ...], what: str) -> tuple[str, ...]:
    items = tuple(v.strip().upper() if what == "strain" else v.strip().lower()
                  for v in value.split(",") if v.strip())
    bad = [v for v in items if v not in allowed]
    if bad or not items:
        raise click.BadParameter(f"{', '.join(bad) or value!r}: expected a comma-separated list "
                                 f"of {', '.join(allowed)}", param_hint=f"--{what}s")
    return tuple(v for v in allowed if v in items)


@click.command()
@click.argument("scenario", type=click.Path(dir_okay=False), required=False)
@click.option("--dealer", type=click.IntRange(0, 2), default=None,
              help="The dealing seat (overrides the scenario's).")
@click.option("--fixed", multiple=True, metavar="HAND=CARDS",
              help="Fixed cards, e.g. first=AKQ.-.J7.AT98 (first, second, dealer, widow); "
                   "repeatable, overrides the scenario's hand.")
@click.option("--constraint", multiple=True, metavar="EXPR",
              help="A constraint every deal must meet, e.g. 'first.hearts >= 5'; repeatable, "
                   "added to the scenario's.")
@click.option("-n", "--deals", type=click.IntRange(min=1), default=DEFAULT_DEALS,
              show_default=True, help="How many deals.")
@click.option("--seed", type=int, default=None,
              help="Root seed (default: 1 for the built-in run, else a fresh one, printed).")
@click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False), default=DEFAULT_OUT,
              show_default=True, help="Output folder for the Parquet dataset.")
@click.option("-w", "--workers", type=click.IntRange(min=1), default=None,
              help="Processes (default: all cores).")
@click.option("--declarers", type=SeatList(), default="0,1,2", show_default=True,
              help="Declaring seats to study.")
@click.option("--strains", default="S,C,D,H,NT", show_default=True, help="Strains to study.")
@click.option("--modes", default="both,first,second", show_default=True,
              help="Defence modes: both defenders, or the first or second alone.")
@click.option("--chunk-size", type=click.IntRange(min=1), default=25, show_default=True,
              help="Deals per Parquet file.")
@click.option("--replay", type=click.File("r"), default=None,
              help="Solve the deals of this JSON Lines file (prefa solve format) instead of "
                   "dealing; bad lines are reported and skipped.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Run the chunks on this Dask distributed scheduler (OUT must be on a file "
                   "system the workers share).")
@click.option("--resume", is_flag=True, help="Finish an interrupted run in OUT.")
@click.option("--force", is_flag=True, help="Start again even if OUT holds a run.")
def simulate_command(scenario, dealer, fixed, constraint, deals, seed, out_dir, workers,
                     declarers, strains, modes, chunk_size, replay, scheduler, resume, force):
    """Deal and solve DEALS deals double-dummy with the widow, for every declarer,
    strain and defence mode, into a Parquet dataset; then print make-rates.

    SCENARIO is a TOML file (fixed cards, dealer, constraints; see data/scenarios/).
    With no arguments: 2,500 random deals, seed 1, into ./prefa-run.
    """
    from_options = dealer is not None or fixed or constraint
    replayed = None
    if replay is not None:
        if scenario is not None or from_options:
            raise click.UsageError("--replay takes its deals from the file: no SCENARIO, "
                                   "--dealer, --fixed or --constraint")
        rows, errors = read_replay(replay)
        for number, message in errors:
            click.echo(f"{replay.name}, line {number}: {message}", err=True)
        if not len(rows):
            raise click.ClickException(f"no deal to replay in {replay.name}")
        replayed, digest = replay_rows(rows)
        deals = len(rows)
    builtin = scenario is None and seed is None and not from_options and replay is None
    manifest = Path(out_dir) / MANIFEST
    if seed is None and resume and manifest.exists():
        seed = json.loads(manifest.read_text()).get("seed")  # finish the run with its seed
    if seed is None:
        seed = 1 if builtin else 0 if replay else secrets.randbits(32)
    scenario_data, scenario_text = {}, ""
    try:
        if scenario is not None:
            _, scenario_text = load_scenario(scenario)  # checks the file, names what is wrong
            scenario_data = tomllib.loads(scenario_text)
        if from_options:
            scenario_data = _with_options(scenario_data, dealer, fixed, constraint)
            parse_scenario(scenario_data, "the command line")
    except ScenarioError as exc:
        raise click.ClickException(str(exc)) from None
    config = RunConfig(deals=deals, seed=seed, chunk_size=chunk_size,
                       declarers=tuple(declarers),
                       strains=_names(strains, tuple(s.name for s in Strain), "strain"),
                       modes=_names(modes, MODES, "mode"), scenario=scenario_data,
                       scenario_text=scenario_text, replay=digest if replay else "")
    out = Path(out_dir)
    workers = workers or default_workers()
    if builtin and _finished(out, config) and not force:
        click.echo(f"{out} already holds this finished run; its summary follows "
                   "(--force to run it again)", err=True)
    else:
        where = f"scheduler {scheduler}" if scheduler else f"{workers} worker(s)"
        source = f"replaying {replay.name}" if replay else f"seed {seed}"
        click.echo(f"{source}: {deals} deals in {config.chunks} chunks into {out}, {where}",
                   err=True)
        with user_errors():
            try:
                simulate(config, out, workers, resume, force, _progress(deals, config),
                         scheduler, replayed)
            except (RunError, OSError) as exc:
                raise click.ClickException(str(exc)) from None
        click.echo("", err=True)
    click.echo(make_rate_summary(out))


def _with_options(data: dict, dealer, fixed, constraints) -> dict:
    """The scenario with the command line's dealer, fixed cards and constraints applied."""
    data = dict(data)
    if dealer is not None:
        data["dealer"] = dealer
    if fixed:
        hands = dict(data.get("fixed", {}))
        for item in fixed:
            role, sep, cards = item.partition("=")
            if not sep:
                raise click.BadParameter(f"{item!r} is not HAND=CARDS", param_hint="--fixed")
            hands[role.strip().lower()] = cards.strip()
        data["fixed"] = hands
    if constraints:
        data["constraints"] = [*data.get("constraints", []), *constraints]
    data.setdefault("name", "command line")
    return data


def _finished(out: Path, config: RunConfig) -> bool:
    manifest = out / MANIFEST
    if not manifest.exists() or json.loads(manifest.read_text()) != config.to_json():
        return False
    return all(chunk_path(out, i).exists() for i in range(config.chunks))


def _progress(deals: int, config: RunConfig):
    constrained = bool(config.scenario.get("constraints"))

    def report(done: int, total: int, seconds: float, acceptance: float) -> None:
        done_deals = min(done * config.chunk_size, deals)
        rate = done_deals / seconds if seconds else 0.0
        eta = (deals - done_deals) / rate if rate else 0.0
        bar = "#" * int(30 * done / total)
        accepted = f", {100 * acceptance:.1f}% of sampled deals accepted" if constrained else ""
        click.echo(f"\r[{bar:<30}] {done}/{total} chunks, {rate:.1f} deals/s, ETA {eta:.0f} s"
                   f"{accepted}", err=True, nl=False)
        sys.stderr.flush()
    return report


def make_rate_summary(out: Path) -> str:
    """Per strain: mean tricks and how often each level makes against both defenders."""
    import numpy as np

    counts = trick_counts(out, "both")
    if not counts.any():
        return "no rows with both defenders playing (see --modes)"
    lines = ["make-rate against both defenders (declarer with the widow, best discard)",
             f"{'strain':<8}{'mean':>6}" + "".join(f"{level:>7}" for level in range(6, 11))]
    for strain in Strain:
        total = counts[int(strain)].sum()
        if not total:
            continue
        mean = (counts[int(strain)] * np.arange(11)).sum() / total
        rates = "".join(f"{100 * counts[int(strain)][level:].sum() / total:>6.1f}%"
                        for level in range(6, 11))
        lines.append(f"{strain.name:<8}{mean:>6.2f}{rates}")
    lines.append(f"({counts.sum()} declarer-strain rows from {out})")
    return "\n".join(lines)


@click.command()
@click.argument("dataset", type=click.Path(exists=True))
@click.option("-n", "--deals", type=click.IntRange(min=1), default=3, show_default=True,
              help="How many deals to show.")
def show(dataset, deals):
    """Print the first deals of a DATASET folder (or Parquet file) and their results."""
    import pandas as pd

    from prefa_sim.cards import format_hand

    with user_errors():
        try:
            data = first_deals(dataset, deals)
        except (OSError, ValueError, KeyError) as exc:
            raise click.ClickException(f"cannot read {dataset} as Parquet: {exc}") from None
    if data.empty:
        click.echo("the dataset has no rows")
        return
    for deal_index in sorted(data["deal"].unique())[:deals]:
        rows = data[data["deal"] == deal_index].copy()
        rows["order"] = rows["strain"].map({s.name: int(s) for s in Strain})
        rows = rows.sort_values(["declarer", "order"])
        first = rows.iloc[0]
        click.echo(f"deal {deal_index} (dealer seat {first.dealer})")
        for seat in range(3):
            click.echo(f"  seat {seat}  {format_hand(int(first[f'hand{seat}']))}")
        click.echo(f"  widow   {format_hand(int(first.widow))}")
        click.echo("  declarer strain  both first second  discard (both)")
        for _, row in rows.iterrows():
            def t(mode, row=row):
                value = row[f"tricks_{mode}"]
                return "-" if pd.isna(value) else str(int(value))
            discard = row["discard_both"]
            shown = "-" if pd.isna(discard) else format_hand(int(discard))
            click.echo(f"  {row.declarer:>8} {row.strain:<6} {t('both'):>5} {t('first'):>5} "
                       f"{t('second'):>6}  {shown}")
