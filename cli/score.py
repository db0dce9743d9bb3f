"""``prefa score``: settle one deal outcome, or a batch of them."""

from __future__ import annotations

import click

from prefa_sim.requests.score import settle_request
from prefa_sim.rules.settlement import ROLES
from prefa_sim.rules.variants import LAST_CONTRACT_MODES
from prefa_sim.util.jsonl import dumps

from .batch import batch_option, refuse_with_batch, run_json_batch
from .common import PrefaCommand, user_errors
from .params import rules_option, rules_with_aliases


@click.command(cls=PrefaCommand)
@click.argument("contract", required=False)
@click.option("-d", "--declarations", default="",
              help="Defence declarations in order, e.g. play,pass,together.")
@click.option("-t", "--tricks", default="",
              help="Tricks of declarer, first and second defender, e.g. 7,2,1.")
@click.option("--aces", is_flag=True, help="The declarer announced the four aces.")
@click.option("--solo", is_flag=True, help="The declarer conceded a solo.")
@click.option("--pot", type=click.IntRange(min=0), default=1500, show_default=True,
              help="Kapíkia in the pot.")
@rules_option()
@click.option("--last-contract", type=click.Choice(LAST_CONTRACT_MODES), default=None,
              help="How a pot smaller than the contract pays (the rule last_contract of "
                   "--rules; default normal).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@batch_option("Settle JSON Lines requests (--rules: of a request without its own)")
def score(contract, declarations, tricks, aces, solo, pot, rules, last_contract, as_json,
          batch):
    """Settle one deal with the common pot (docs/rules.md §6), e.g.

      prefa score 7H -d play,play -t 8,2,0

    Roles: the declarer, the first defender (the declarer's right-hand
    neighbour) and the second. Money is in kapíkia.
    """
    rules = rules_with_aliases(rules, last_contract=last_contract)
    if batch is not None:
        if contract:
            raise click.UsageError("give either CONTRACT or --batch, not both")
        refuse_with_batch(("declarations", "tricks", "aces", "solo", "pot", "last_contract"))
        run_json_batch(batch, lambda obj: settle_request(obj, rules))
        return
    if not contract:
        raise click.UsageError("give a CONTRACT such as 7H, or --batch FILE")
    request = {"contract": contract, "aces": aces, "solo": solo, "pot": pot,
               "last_contract": rules.last_contract}
    if declarations:
        request["declarations"] = declarations.replace(",", " ").split()
    with user_errors():
        if tricks:
            try:
                counts = [int(x) for x in tricks.split(",")]
            except ValueError:
                counts = []
            if len(counts) != 3:
                raise click.BadParameter(f"{tricks!r} is not three numbers such as 7,2,1 "
                                         "(declarer, first, second)", param_hint="--tricks")
            request["tricks"] = dict(zip(ROLES, counts, strict=True))
        result = settle_request(request, rules)
    if as_json:
        click.echo(dumps({k: result[k] for k in ("rules", "pot_delta", "net", "transfers",
                                                       "result_thirds") if k in result}))
        return
    if not rules.is_default:
        click.echo(f"rules: {rules}")
    if rules.kasa:
        click.echo(f"declarer's kása: {result['pot_delta'] // 10:+d} units")
    else:
        click.echo(f"pot: {result['pot_delta']:+d}")
    click.echo(f"{'role':<10}{'transfers':>10}{'net':>8}")
    for role in ROLES:
        click.echo(f"{role:<10}{result['transfers'][role]:>+10d}{result['net'][role]:>+8d}")
