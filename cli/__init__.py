"""The ``prefa`` command line: thin Click commands over the prefa_sim library.

Each command's module is imported when that command runs (or when the help lists it),
so a command pays only for the libraries it uses: ``prefa solve`` does not load pandas
or matplotlib, and neither does a worker process of ``prefa solve --batch``, which
imports this module again when it starts.
"""

from __future__ import annotations

import importlib
import logging

import click

from prefa_sim import __version__
from prefa_sim.util.shutdown import quick_exit

from .common import PrefaGroup

COMMANDS = {
    "auction": ("auction", "auction"),
    "game": ("game", "game"),
    "games": ("games", "games"),
    "makerate": ("makerate", "makerate"),
    "match": ("match", "match"),
    "odds": ("odds", "odds"),
    "plot": ("plot", "plot"),
    "report": ("report", "report"),
    "rules": ("rules", "rules"),
    "score": ("score", "score"),
    "show": ("simulate", "show"),
    "simulate": ("simulate", "simulate_command"),
    "solve": ("solve", "solve"),
    "stats": ("stats", "stats"),
}
"""Command name: (module of this package, attribute)."""


class LazyGroup(PrefaGroup):
    """The command group, importing a command's module on first use (``COMMANDS``)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module, attribute = COMMANDS[name]
        return getattr(importlib.import_module(f"{__name__}.{module}"), attribute)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="prefa")
@click.option("--debug", is_flag=True,
              help="With an error, also print the traceback behind it (a player's own code).")
def main(debug: bool) -> None:
    """prefa-sim: double-dummy analysis and simulation for Greek prefa.

    Seats are numbered in play order, seat 0 first hand unless a dealer is
    named; wherever a seat is asked, first, second or dealer will do. The rules
    are in docs/rules.md.
    """
    quick_exit()
    _say_library_notes()


class _EchoHandler(logging.Handler):
    """The library's notes (``logging.getLogger("prefa_sim")``) as lines on standard
    error, through Click (which tests capture)."""

    def emit(self, record: logging.LogRecord) -> None:
        click.echo(f"prefa: {record.getMessage()}", err=True)


def _say_library_notes() -> None:
    logger = logging.getLogger("prefa_sim")
    if not any(isinstance(h, _EchoHandler) for h in logger.handlers):
        logger.addHandler(_EchoHandler(logging.INFO))
        logger.propagate = False
