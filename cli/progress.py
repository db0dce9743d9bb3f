"""The progress of a run on standard error, and what a stopped or failed run says of its
folder: shared by ``prefa simulate``, ``prefa games`` and ``prefa makerate``."""

from __future__ import annotations

import sys
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import click

from prefa_sim.bots.base import PlayerError
from prefa_sim.dealing.scenario import ScenarioError
from prefa_sim.sim.config import RunConfig
from prefa_sim.sim.plan import Plan
from prefa_sim.sim.run_folder import REPLACED
from prefa_sim.sim.simulate import Progress, simulate
from prefa_sim.util.words import counted
from prefa_sim.util.workers import DEFAULT_SCHEDULER_TIMEOUT

from .common import died, failure, say_if_compiling, say_waiting, solving_players


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
        say_waiting(running)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None
