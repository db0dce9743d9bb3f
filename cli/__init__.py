"""The ``prefa`` command line: thin Click commands over the prefa_sim library."""

import click

from prefa_sim import __version__

from .auction import auction
from .common import PrefaGroup
from .game import game
from .games import games
from .makerate import makerate
from .match import match
from .odds import odds
from .plot import plot
from .report import report
from .score import score
from .simulate import show, simulate_command
from .solve import solve
from .stats import stats


@click.group(cls=PrefaGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="prefa")
def main() -> None:
    """prefa-sim: double-dummy analysis and simulation for Greek prefa.

    Seats are numbered in play order, seat 0 first hand unless a dealer is
    named; wherever a seat is asked, first, second or dealer will do. The rules
    are in docs/rules.md.
    """


for command in (solve, auction, score, game, games, show, makerate, odds, stats, plot,
                report, match):
    main.add_command(command)
main.add_command(simulate_command, name="simulate")
