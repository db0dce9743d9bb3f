"""The ``prefa`` command line: thin Click commands over the prefa_sim library."""

import click

from prefa_sim import __version__

from .auction import auction
from .game import game
from .score import score
from .simulate import show, simulate_command
from .solve import solve


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="prefa")
def main() -> None:
    """prefa-sim: double-dummy analysis and simulation for Greek prefa."""


main.add_command(solve)
main.add_command(auction)
main.add_command(score)
main.add_command(game)
main.add_command(simulate_command, name="simulate")
main.add_command(show)
