"""``prefa solve``: the exact double-dummy answer for one deal, or a batch of them."""

from __future__ import annotations

import click

from prefa_sim.core.cards import CardCountError, split_hands
from prefa_sim.requests.bulk import solve_text
from prefa_sim.requests.solve import answer_fields, make_request, request_fields, solve_request
from prefa_sim.requests.text import answer_text
from prefa_sim.rules.variants import DEFAULT_RULES
from prefa_sim.solve.solver import Solver
from prefa_sim.util.jsonl import dumps

from .batch import batch_option, refuse_with_batch, report_text_batch
from .common import PrefaCommand, say_if_compiling, user_errors
from .params import SEAT, SeatList, dealer_option, rules_option

EXAMPLE_DEAL = "QJ7.T8.A.KQJT AKT.AKJ.QJ7.7 8.Q97.KT98.98 9.-.-.A"
"""First hand (seat 0) holds a heart hand; the widow is the nine of spades and the ace of hearts."""


@click.command(cls=PrefaCommand)
@click.argument("deal", nargs=-1)
@click.option("-t", "--trump", help="S, C, D, H or NT (default: all five).")
@click.option("-d", "--declarer", type=SEAT, default="first", show_default=True,
              help="The declarer: a seat 0-2 or first, second, dealer.")
@dealer_option()
@click.option("-l", "--leader", type=SEAT, default=None,
              help="Seat on lead (default: the first active seat from first hand).")
@click.option("-a", "--active", type=SeatList(), default="0,1,2", show_default=True,
              help="Seats that play; leave out a defender who passed.")
@click.option("--trick", default="", help="Cards already on the current trick, from its leader.")
@click.option("--line", "show_line", is_flag=True,
              help="Also print an optimal line of play (needs -t and no widow).")
@rules_option()
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@batch_option("Solve JSON Lines requests (--rules: of a request without its own)")
@click.option("-w", "--workers", type=click.IntRange(1, 1024), default=None,
              help="Processes for --batch (default: all cores).")
def solve(deal, trump, declarer, dealer, leader, active, trick, show_line, rules, as_json,
          batch, workers):
    """Solve DEAL double-dummy: three hands in seat order, then optionally the widow, e.g.

      prefa solve QJ7.T8.A.KQJT AKT.AKJ.QJ7.7 8.Q97.KT98.98 9.-.-.A

    (the built-in example, solved when no DEAL is given). A hand is
    suit-grouped (S.C.D.H, a void as - or empty) or card tokens in one word
    ("AS KS QS" or AS,KS,QS); "-" is a hand out of play.

    Seats are numbered in play order (seat s+1 plays after seat s); seat 0 is
    first hand unless --dealer says otherwise. With a widow the declarer picks
    it up: the answer is the best discard and tricks per strain and the
    contract to name. Without one it is the declarer's tricks, the value of
    each card the player to move may play and, with --line, an optimal line
    of play. --json prints the answer of the equivalent --batch request.
    """
    if batch is not None:
        if deal:
            raise click.UsageError("give either DEAL or --batch, not both")
        refuse_with_batch(("trump", "declarer", "dealer", "leader", "active", "trick",
                           "show_line"))
        say_if_compiling()
        with user_errors():
            report_text_batch(solve_text(batch, workers, rules or DEFAULT_RULES))
        return
    if not deal:
        click.echo(f"no deal given: solving the built-in example {EXAMPLE_DEAL}\n")
        deal = (EXAMPLE_DEAL,)
    with user_errors():
        parts = split_hands(deal)
        if len(parts) not in (3, 4):
            raise CardCountError(f"a deal is three hands and optionally the widow, got "
                                 f"{len(parts)} parts")
        widow = parts[3] if len(parts) == 4 else None
        if show_line and (trump is None or widow is not None):
            raise click.UsageError("--line needs one trump (-t) and a deal without the widow")
        if widow is not None and trick:
            raise click.UsageError("a widow is only picked up before the first trick")
        request = make_request(parts[:3], trump=trump, declarer=declarer, leader=leader,
                               active=active, dealer=dealer, widow=widow, trick=trick,
                               cards=trump is not None and widow is None, line=show_line,
                               rules=rules)
        say_if_compiling()
        answer = solve_request(request, Solver())
    if as_json:
        obj = request_fields(request)
        click.echo(dumps({**obj, **answer_fields(answer)}))
        return
    click.echo(answer_text(answer))

