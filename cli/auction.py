"""``prefa auction``: check and resolve an auction, or a batch of them."""

from __future__ import annotations

import sys

import click

from prefa_sim.core.seats import seat_label
from prefa_sim.requests.auction import auction_request, auction_result
from prefa_sim.rules.variants import DEFAULT_RULES
from prefa_sim.util.jsonl import dumps

from .batch import batch_option, refuse_with_batch, run_json_batch
from .common import PrefaCommand
from .params import dealer_option, rules_option


@click.command(cls=PrefaCommand)
@click.argument("calls", nargs=-1)
@dealer_option()
@rules_option()
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@batch_option("Resolve JSON Lines {\"calls\": [...], \"dealer\": 2} (--rules: of a request "
              "without its own)")
def auction(calls, dealer, rules, as_json, batch):
    """Check and resolve an auction: CALLS in speaking order from first hand, e.g.

      prefa auction 6S 6C 6D hold pass 6H hold pass

    Calls are pass, hold ("I have"), stay ("if they stay") and step names 6S ... 10NT.
    Seats: with the default dealer (seat 2), 0 is first hand, 1 second hand, 2 the dealer.
    """
    rules = rules or DEFAULT_RULES
    if batch is not None:
        if calls:
            raise click.UsageError("give either CALLS or --batch, not both")
        refuse_with_batch(("dealer",))
        run_json_batch(batch, lambda obj: auction_request(obj, rules))
        return
    result = auction_result(list(calls), dealer, rules)
    if not as_json and not rules.is_default:
        click.echo(f"rules: {rules}")
    if as_json:
        click.echo(dumps(result if rules.is_default else {"rules": str(rules), **result}))
    elif not result["legal"]:
        click.echo(f"illegal at call {result['first_illegal_index']}: {result['error']}")
    elif not result["complete"]:
        click.echo(f"not finished: {seat_label(result['next_player'], dealer)} to speak; "
                   f"legal: {' '.join(result['next_legal'])}")
    elif result["void"]:
        click.echo("all three passed: the deal is void")
    else:
        click.echo(f"declarer: {seat_label(result['declarer'], dealer)}, "
                   f"minimum contract {result['min_contract']}")
    if not result["legal"]:
        sys.exit(1)

