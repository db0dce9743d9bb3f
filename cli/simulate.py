"""``prefa simulate`` and ``prefa show``: make a dataset of solved deals, and look into one."""

from __future__ import annotations

import secrets
import sys
import tomllib
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import click
from click.core import ParameterSource

from prefa_sim.bots.base import PlayerError
from prefa_sim.core.cards import Strain, format_discard, format_hand
from prefa_sim.core.seats import DEFAULT_DEALER, SeatError, seat_label, seats_of
from prefa_sim.dealing.scenario import ScenarioError, load_scenario, parse_scenario, with_overrides
from prefa_sim.sim.about import is_finished
from prefa_sim.sim.config import RunConfig, RunError, read_manifest
from prefa_sim.sim.dataset import DatasetError, first_deals
from prefa_sim.sim.plan import Plan
from prefa_sim.sim.replay import read_replay, replay_rows
from prefa_sim.sim.run_folder import REPLACED, recover
from prefa_sim.sim.simulate import Progress, simulate
from prefa_sim.solve.tables import MODES
from prefa_sim.stats.groups import strain_counts
from prefa_sim.stats.makerate import make_rate_table
from prefa_sim.util.words import counted
from prefa_sim.util.workers import DEFAULT_SCHEDULER_TIMEOUT, default_workers

from .common import (
    OutFolder,
    PrefaCommand,
    SeatList,
    deal_count,
    dealer_option,
    died,
    failure,
    say_if_compiling,
    scheduler_options,
    solving_players,
    user_errors,
)

DEFAULT_DEALS = 2500
DEFAULT_OUT = "prefa-run"
RUN_OPTIONS = ("dealer", "fixed", "constraint", "deals", "seed", "declarers", "strains",
               "modes", "chunk_size", "replay")
"""Options that define a run's data: --resume takes them from the folder instead."""


def _names(value: str, allowed: tuple[str, ...], what: str) -> tuple[str, ...]:
    items = tuple(v.strip().upper() if what == "strain" else v.strip().lower()
                  for v in value.split(",") if v.strip())
    bad = [v for v in items if v not in allowed]
    if len(set(items)) != len(items):
        raise click.BadParameter(f"{value!r} names a {what} twice", param_hint=f"--{what}s")
    if bad or not items:
        raise click.BadParameter(f"{', '.join(bad) or value!r}: expected a comma-separated list "
                                 f"of {', '.join(allowed)}", param_hint=f"--{what}s")
    return tuple(v for v in allowed if v in items)


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
@scheduler_options("Run the chunks")
@click.option("--resume", is_flag=True,
              help="Finish the interrupted run in OUT, with the settings recorded there.")
@click.option("--force", is_flag=True, help="Start again even if OUT holds a run.")
def simulate_command(scenario, dealer, fixed, constraint, deals, seed, out_dir, workers,
                     declarers, strains, modes, chunk_size, replay, scheduler, scheduler_timeout,
                     resume, force):
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
        builtin = False
    else:
        config, replayed, bad_lines = _new_config(scenario, dealer, fixed, constraint, deals, seed,
                                       declarers, strains, modes, chunk_size, replay,
                                       "deals" in given, "declarers" in given)
        builtin = scenario is None and not given
    if builtin and is_finished(out, config) and not force:
        click.echo(f"{out} already holds this finished run; its summary follows "
                   "(--force to run it again)", err=True)
    else:
        source = (f"replaying {_name(replay)}" if replay else
                  f"resuming seed {config.seed}" if resume else f"seed {config.seed}")
        header = (f"{source}: {counted(config.deals, 'deal')} in "
                  f"{counted(config.chunks, 'chunk')} into {out}")
        run_with_progress(config, out, header, workers, scheduler, resume, force,
                          replayed, scheduler_timeout=scheduler_timeout)
    click.echo(make_rate_summary(out, config))
    if bad_lines:
        click.echo(f"prefa simulate: {counted(bad_lines, 'bad line')} of {_name(replay)} skipped",
                   err=True)
        sys.exit(1)


def run_with_progress(config: RunConfig, out: Path, header: str, workers: int,
                      scheduler=None, resume: bool = False, force: bool = False,
                      replayed=None, finish: str | None = None,
                      scheduler_timeout: float = DEFAULT_SCHEDULER_TIMEOUT) -> None:
    """Run ``config`` into ``out`` with a progress report on stderr; Ctrl-C exits 130 and
    every failure is a clean message saying what the folder holds and how to ``finish``
    the run (default: ``prefa simulate -o OUT --resume``; empty: the folder is not kept)."""
    progress = ProgressReport(config, header, workers, scheduler)
    if scheduler is None and (not config.players or solving_players(config.players)):
        say_if_compiling()

    def state() -> str:
        if finish == "":
            return "nothing was kept"
        return _folder_state(out, progress.plan, finish)

    try:
        simulate(config, out, workers, resume, force, progress.update, scheduler,
                 replayed, on_plan=progress.start, scheduler_timeout=scheduler_timeout,
                 on_stop=progress.stopping)
    except KeyboardInterrupt:
        progress.close()
        click.echo(f"\ninterrupted: {state()}", err=True)
        sys.exit(130)
    except (ScenarioError, PlayerError) as exc:
        progress.close()
        raise failure(exc, f"{exc}\n{state()}") from None
    except (ValueError, OSError) as exc:
        progress.close()
        raise failure(exc, str(exc)) from None
    except BrokenProcessPool as exc:
        progress.close()
        raise failure(exc, f"{died(exc)}\n{state()}") from None
    progress.close()


def _new_config(scenario, dealer, fixed, constraint, deals, seed, declarers, strains, modes,
                chunk_size, replay, deals_given, declarers_given=True):
    """The configuration of a new run from the command line, the deals to replay and how
    many lines of the replay file were bad.  A scenario that fixes cards of a hand
    studies that hand: unless ``--declarers`` is given, its declarers are the seats of
    the fixed hands."""
    from_options = dealer is not None or fixed or constraint
    replayed, digest, errors = None, "", []
    if replay is not None:
        if scenario is not None or from_options or seed is not None:
            raise click.UsageError("--replay takes its deals from the file: no SCENARIO, "
                                   "--seed, --dealer, --fixed or --constraint")
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
        replayed, digest = replay_rows(rows)
        deals = len(rows)
        dealers = set(int(d) for d in rows[:, 4])
    builtin = scenario is None and seed is None and not from_options and replay is None
    if seed is None:
        seed = 1 if builtin else 0 if replay else secrets.randbits(32)
    scenario_data, scenario_text = {}, ""
    try:
        if scenario is not None:
            _, scenario_text = load_scenario(scenario)  # checks the file, names what is wrong
            scenario_data = tomllib.loads(scenario_text)
        if from_options:
            scenario_data = with_overrides(scenario_data, dealer, fixed, constraint)
            parse_scenario(scenario_data, "the command line")
    except ScenarioError as exc:
        raise click.ClickException(str(exc)) from None
    if replay is None:
        dealers = {scenario_data.get("dealer", DEFAULT_DEALER)}
        studied = parse_scenario(scenario_data).fixed_seats() if scenario_data else ()
        if studied and not declarers_given:
            declarers = studied
    try:
        seats = _declaring_seats(declarers, dealers)
    except SeatError as exc:
        raise click.BadParameter(str(exc), param_hint="--declarers") from None
    try:
        config = RunConfig(deals=deals, seed=seed, chunk_size=chunk_size, declarers=seats,
                           strains=_names(strains, tuple(s.name for s in Strain), "strain"),
                           modes=_names(modes, MODES, "mode"), scenario=scenario_data,
                           scenario_text=scenario_text, replay=digest)
    except RunError as exc:
        raise click.ClickException(str(exc)) from None
    return config, replayed, len(errors)


def _name(stream) -> str:
    return getattr(stream, "name", "<stdin>")


def _declaring_seats(declarers, dealers: set[int]) -> tuple[int, ...]:
    """Seats from --declarers; roles need one dealer for the whole run."""
    if any(isinstance(d, str) for d in declarers) and len(dealers) != 1:
        raise SeatError("the replayed deals have different dealers, so roles (first, second, "
                        "dealer) name no fixed seat: give seat numbers")
    seats = seats_of(declarers, next(iter(dealers)))
    if len(seats) != len(declarers):
        raise SeatError(f"{','.join(map(str, declarers))} names a seat twice")
    return seats


def _folder_state(out: Path, plan: Plan | None, finish: str | None = None) -> str:
    """What an interrupted or failed run left behind, and how to go on."""
    if plan is None or plan.undone:
        return f"nothing was written; {out} is left as it was"
    if plan.replaced and (out / REPLACED).exists():
        return (f"no part was written; the replaced run is kept in {out / REPLACED}, and "
                f"the next prefa command on {out} puts it back")
    return (f"the chunks written so far are kept; finish the run with: "
            f"{finish or f'prefa simulate -o {out} --resume'}")


class ProgressReport:
    """Click's progress bar on a terminal; off one (a log file, CI), a line every tenth."""

    def __init__(self, config: RunConfig, header: str, workers: int, scheduler) -> None:
        self.config = config
        self.header = header
        self.workers = workers
        self.scheduler = scheduler
        self.constrained = bool(config.scenario.get("constraints"))
        self.bar = None
        self.terminal = sys.stderr.isatty()
        self.next_tenth = 1
        self.warm: tuple[int, float] | None = None
        """(chunks run, seconds) once every worker has finished a chunk."""
        self.plan: Plan | None = None

    def start(self, plan: Plan) -> None:
        """The folder is checked: say what the run does, then show its progress."""
        self.plan = plan
        where = (f"scheduler {self.scheduler}" if self.scheduler
                 else counted(max(1, min(self.workers, plan.remaining)), "worker"))
        click.echo(f"{self.header}, {where}", err=True)
        for index, problem in plan.redone:
            click.echo(f"part {index}: {problem}; running it again", err=True)
        if plan.remaining < self.config.chunks:
            click.echo(f"{self.config.chunks - plan.remaining} of "
                       f"{counted(self.config.chunks, 'chunk')} already written", err=True)
        self.total = plan.remaining
        if self.terminal:
            self.bar = click.progressbar(length=plan.remaining, label="chunks", file=sys.stderr,
                                         show_pos=True, item_show_func=lambda text: text)
            self.bar.__enter__()

    def _info(self, p: Progress) -> str:
        rate = p.deals_done / p.seconds if p.seconds else 0.0
        accepted = (f", {100 * p.acceptance:.1f}% of sampled deals accepted"
                    if self.constrained else "")
        unit = "games" if self.config.full_games else "deals"
        return f"{rate:.1f} {unit}/s{accepted}"

    def _eta(self, p: Progress) -> str:
        """The time to go, from the pace since every worker finished its first chunk:
        start-up and the engine's compiling are left out."""
        run = p.done - (self.config.chunks - self.total)
        if self.warm is None or run <= self.warm[0] or p.done == p.total:
            return ""
        pace = (p.seconds - self.warm[1]) / (run - self.warm[0])
        seconds = round(pace * (p.total - p.done))
        return f", about {seconds // 60}:{seconds % 60:02d} to go"

    def update(self, p: Progress) -> None:
        run = p.done - (self.config.chunks - self.total)
        if self.warm is None and run >= min(self.workers, self.total):
            self.warm = (run, p.seconds)  # every worker has finished a chunk
        if self.bar is not None:
            self.bar.update(1, self._info(p))
            return
        if run * 10 >= self.next_tenth * self.total:
            self.next_tenth = run * 10 // self.total + 1
            click.echo(f"{p.done}/{counted(p.total, 'chunk')}, {self._info(p)}{self._eta(p)}",
                       err=True)

    def stopping(self, running: int) -> None:
        """A Ctrl-C (or an error) stops the run once its running chunks are written."""
        self.close()
        click.echo(f"\nwaiting for {counted(running, 'job')} (Ctrl-C again to stop now)",
                   err=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


def make_rate_summary(out: Path, config: RunConfig | None = None) -> str:
    """Per strain: how often each level makes against both defenders, and mean tricks."""
    with user_errors():
        counts = strain_counts(out, "both")
    if not counts.any():
        return "no rows with both defenders playing (see --modes)"
    table = make_rate_table(counts, "make-rate against both defenders (declarer with the "
                                    "widow, best discard)")
    note = ""
    if config is None or len(config.declarers) > 1:
        note = ("\n(the declarers of one deal share its cards, so intervals that treat "
                "their rows as independent are somewhat too narrow)")
    return f"{table}\n({counts.sum()} declarer-strain rows from {out}; " \
           f"{_declarers_text(config)}){note}"


def _declarers_text(config: RunConfig | None) -> str:
    if config is None:
        return "declarers as in the run"
    pooled = "pooled over the declarers " if len(config.declarers) > 1 else "declarer "
    if config.replay:
        return f"{pooled}in seats {','.join(map(str, config.declarers))}, their positions " \
               "set by each replayed deal's dealer"
    dealer = config.dealer
    return pooled + ", ".join(seat_label(d, dealer) for d in config.declarers)


@click.command(cls=PrefaCommand)
@click.argument("dataset", type=click.Path(exists=True))
@click.option("-n", "--deals", type=click.IntRange(min=1), default=3, show_default=True,
              help="How many deals to show.")
def show(dataset, deals):
    """Print the first deals of a DATASET folder (or Parquet file) and their results."""

    try:
        data = first_deals(dataset, deals)
    except DatasetError as exc:
        raise click.ClickException(str(exc)) from None
    if data.empty:
        click.echo(f"{dataset}: the dataset has no rows")
        return
    try:
        _show_deals(data, deals)
    except (TypeError, ValueError) as exc:  # a missing value where the dataset has none
        raise click.ClickException(f"{dataset} holds values a prefa-sim dataset does not "
                                   f"have ({exc})") from None


def _show_deals(data, deals: int) -> None:
    import pandas as pd

    for deal_index in sorted(data["deal"].unique())[:deals]:
        rows = data[data["deal"] == deal_index].copy()
        rows["order"] = rows["strain"].map({s.name: int(s) for s in Strain})
        rows = rows.sort_values(["declarer", "order"])
        first = rows.iloc[0]
        dealer = int(first.dealer)
        click.echo(f"deal {deal_index} (dealer seat {dealer})")
        for seat in range(3):
            click.echo(f"  {seat_label(seat, dealer):<22}{format_hand(int(first[f'hand{seat}']))}")
        click.echo(f"  {'widow':<22}{format_hand(int(first.widow))}")
        click.echo("  declarer strain  both first second  discard (both)")
        for _, row in rows.iterrows():
            def t(mode, row=row):
                value = row[f"tricks_{mode}"]
                return "-" if pd.isna(value) else str(int(value))
            discard = row["discard_both"]
            shown = "-" if pd.isna(discard) else format_discard(int(discard))
            click.echo(f"  {row.declarer:>8} {row.strain:<6} {t('both'):>5} {t('first'):>5} "
                       f"{t('second'):>6}  {shown}")
