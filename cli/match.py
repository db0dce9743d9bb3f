"""``prefa match``: three players in a duplicate match, with intervals."""

from __future__ import annotations

import sys

import click

from prefa_sim.analysis.match import match_result, play_match
from prefa_sim.bots.base import PlayerError
from prefa_sim.bots.registry import check_players
from prefa_sim.rules.variants import DEFAULT_RULES
from prefa_sim.stats.bidding import few_warning, lettered, player_labels
from prefa_sim.stats.intervals import MIN_BOOTSTRAP_UNITS
from prefa_sim.stats.output import estimate_record, money_text, signed, text_table
from prefa_sim.util.jsonl import dumps
from prefa_sim.util.words import counted
from prefa_sim.util.workers import default_workers

from .common import PrefaCommand, say_if_compiling, say_waiting, solving_players, user_errors
from .params import deal_count, rules_option


@click.command(cls=PrefaCommand)
@click.argument("players", nargs=3, metavar="A B C")
@click.option("-n", "--deals", type=deal_count(2), default=200, show_default=True,
              help="Deals, each played in all three seatings.")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True,
              help="Seed of the deals and the players' choices.")
@click.option("-w", "--workers", type=click.IntRange(1, 1024), default=None,
              help="Processes (default: all cores).")
@click.option("--bootstrap", type=click.IntRange(100, 100_000), default=2000,
              show_default=True, help="Bootstrap replicates for the intervals.")
@rules_option()
@click.option("--json", "as_json", is_flag=True, help="The result as one JSON object.")
def match(players, deals, seed, workers, bootstrap, rules, as_json):
    """Play a duplicate match between three players (random, heuristic, sampling,
    oracle (sees every card), or path/to/file.py:ClassName (sees-all:path/to/file.py:
    ClassName to show it every card); settings in parentheses, such as
    "sampling(play=40,defence=40)"): every deal in all three seatings, so each
    player holds every hand once; then who is ahead, by how much, and whether the 95%
    interval of the difference (paired deal by deal) excludes zero."""
    try:
        check_players(players)
    except PlayerError as exc:
        raise click.BadParameter(str(exc), param_hint="PLAYERS") from None
    names = player_labels(players)
    workers = workers or default_workers()
    rules = rules or DEFAULT_RULES
    if rules.first_deal != "dealer":
        raise click.UsageError(f"first_deal={rules.first_deal} chooses the dealer of a game's "
                               "first deal: a match plays single deals")
    click.echo(f"duplicate match: {counted(deals, 'deal')} x 3 seatings, seed {seed}, "
               f"{counted(min(workers, deals), 'worker')}"
               + ("" if rules.is_default else f", rules {rules}"), err=True)
    shown = [0]

    def progress(done: int) -> None:  # a line every tenth of the match
        if done * 10 >= (shown[0] + 1) * deals:
            shown[0] = done * 10 // deals
            click.echo(f"{done}/{deals} deals", err=True)

    if solving_players(players):
        say_if_compiling()
    try:
        with user_errors():
            money = play_match(players, deals, seed, workers, progress, on_stop=say_waiting,
                               rules=rules)
    except KeyboardInterrupt:
        click.echo("\ninterrupted: nothing was kept", err=True)
        sys.exit(130)
    result = match_result(names, money, bootstrap)
    if as_json:
        stated = {} if rules.is_default else {"rules": str(rules)}
        click.echo(dumps({**_as_dict(result, seed), **stated}))
        return
    if not rules.is_default:
        click.echo(f"rules: {rules}")
    click.echo(_text(result, seed))


def _money(e) -> str:
    return money_text(e.value, e.low, e.high, e.few)


def _text(result, seed: int) -> str:
    how = ("95% intervals over deals (Student's t: too few deals for a bootstrap)"
           if result.deals < MIN_BOOTSTRAP_UNITS else "95% bootstrap intervals over deals")
    lines = [f"duplicate match, {result.deals} deals x 3 seatings, seed {seed}; kapíkia per "
             "deal: each player's change of result summed over the deal's three seatings (the "
             f"pot shared in thirds: zero-sum), {how}", ""]
    labels = lettered(result.names)
    lines.append(text_table(["player", "kapíkia per deal"],
                            [[n, _money(e)] for n, e in zip(labels, result.means,
                                                            strict=True)]))
    lines += ["", "row minus column, paired deal by deal (* the interval excludes zero):"]
    body = []
    for a, label in enumerate(labels):
        row = [label]
        for b in range(3):
            if a == b:
                row.append("-")
                continue
            e = result.differences[a, b]
            row.append(_money(e) + (" *" if e.excludes_zero else ""))
        body.append(row)
    lines.append(text_table(["", "A", "B", "C"], body))
    order = sorted(range(3), key=lambda k: -result.means[k].value)
    top, second = order[0], order[1]
    e = result.differences[top, second]
    clear = "the interval excludes zero" if e.excludes_zero else \
        "the interval does not exclude zero"
    detail = ("too few deals to tell" if e.few
              else f"{signed(e.low)}..{signed(e.high)}; {clear}")
    if signed(e.value) == signed(0.0):  # level to the printed tenth
        level = [result.names[k] for k in range(3)
                 if k == top or signed(result.differences[top, k].value) == signed(0.0)]
        lines += ["", f"ahead: nobody; {', '.join(level[:-1])} and {level[-1]} are level"]
    else:
        lines += ["", f"ahead: {result.names[top]}, by {signed(e.value)} kapíkia per deal over "
                      f"{result.names[second]} ({detail})"]
    if result.deals < MIN_BOOTSTRAP_UNITS:
        lines.insert(0, few_warning(result.deals))
    return "\n".join(lines)


def _as_dict(result, seed: int) -> dict:
    def est(e):
        return estimate_record(e)

    return {"deals": result.deals, "seed": seed, "players": list(result.names),
            "kapikia_per_deal": [est(e) for e in result.means],
            "differences": [{"player": result.names[a], "versus": result.names[b], **est(e)}
                            for (a, b), e in result.differences.items()]}
