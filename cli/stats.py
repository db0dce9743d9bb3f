"""``prefa stats``: statistics over a simulation dataset."""

from __future__ import annotations

import re

import click

from prefa_sim.core.contracts import LADDER, ContractError, parse_contract
from prefa_sim.sim.about import dataset_notes
from prefa_sim.sim.dataset import rules_for
from prefa_sim.stats.defence import BOOTSTRAP, defence_stats
from prefa_sim.stats.defence_output import TABLES, render_defence
from prefa_sim.stats.groups import FEATURES, MODES, group_make_rates
from prefa_sim.stats.output import estimate_record, makerate_rows, render
from prefa_sim.util.jsonl import dumps

from .common import PrefaCommand, say_notes
from .params import DATASET_RULES_HELP, check_where, format_options, rules_option


@click.group()
def stats() -> None:
    """Statistics over a dataset made by prefa simulate, every figure with its interval."""


def scheduler_option(command):
    return click.option("--scheduler", default=None, metavar="ADDRESS",
                        help="Read the files on this Dask distributed scheduler (the dataset "
                             "must be on a file system its workers share).")(command)


WHERE_HELP = ("Keep rows that meet comparisons joined by 'and', e.g. "
              "'strain == H and trumps >= 5' (a position as first, second or dealer).")


@stats.command("makerate", cls=PrefaCommand)
@click.argument("dataset", type=click.Path(exists=True))
@click.option("--by", default="strain", show_default=True,
              help=f"Comma-separated features to group by: {', '.join(FEATURES)}.")
@click.option("--where", default=None, metavar="EXPR", callback=check_where,
              help=WHERE_HELP)
@click.option("--mode", type=click.Choice(MODES), default="both", show_default=True,
              help="Defence mode: both defenders, or the first or second alone.")
@click.option("--min-count", type=click.IntRange(min=1), default=30, show_default=True,
              help="Groups with fewer rows are flagged small (and still shown).")
@rules_option(DATASET_RULES_HELP)
@format_options()
@scheduler_option
def makerate(dataset, by, where, mode, min_count, rules, fmt, scheduler):
    """How often the declarer makes each level (6-10), with 95% Wilson intervals, and the
    mean tricks, for each group of rows of DATASET.

    Rows are (deal, declarer, strain); group by `position` or `declarer` as well as
    the strain for rows that are independent deal by deal. Features ending in _after
    describe the declarer's ten cards after the widow and the best discard.
    """
    features = tuple(f.strip().lower() for f in by.split(",") if f.strip())
    try:
        rules_for(dataset, rules)
        groups = group_make_rates(dataset, features, where, mode, scheduler)
    except (ValueError, OSError) as exc:  # StatsError, DatasetError, SchedulerError
        raise click.ClickException(str(exc)) from None
    if not groups:
        raise click.ClickException(f"no rows of {dataset} meet the filter in mode {mode}")
    click.echo(render(makerate_rows(groups, features, min_count), features, fmt))
    split = bool({"declarer", "position"} & set(features)) or _one_declarer(where)
    say_notes(dataset_notes(dataset, split), machine=fmt in ("csv", "json"))


def _one_declarer(where: str | None) -> bool:
    """Does a --where filter keep one declaring seat or position?"""
    return bool(where and re.search(r"\b(declarer|position)\s*==", where))


def _contracts(value: str) -> list:
    if value.strip().lower() == "all":
        return list(LADDER)
    contracts = []
    for text in value.split(","):
        try:
            contracts.append(parse_contract(text))
        except ContractError as exc:
            raise click.BadParameter(str(exc), param_hint="--contract") from None
    return sorted(set(contracts), key=lambda c: c.step)


def _tables(value: str, fmt: str) -> list[str]:
    names = [t.strip().lower() for t in value.split(",") if t.strip()]
    if names == ["all"]:
        names = list(TABLES)
    bad = [t for t in names if t not in TABLES]
    if bad or not names:
        raise click.BadParameter(f"{', '.join(bad) or value!r}: expected all or a "
                                 f"comma-separated list of {', '.join(TABLES)}",
                                 param_hint="--table")
    if fmt == "csv" and len(names) != 1:
        raise click.BadParameter("CSV holds one table: name one of "
                                 f"{', '.join(TABLES)}", param_hint="--table")
    return [t for t in TABLES if t in names]


@stats.command("defence", cls=PrefaCommand)
@click.argument("dataset", type=click.Path(exists=True))
@click.option("-c", "--contract", "contract_text", default="all", show_default=True,
              help="Contracts to show, comma-separated (e.g. 7H,8S), or all.")
@click.option("--where", default=None, metavar="EXPR", callback=check_where, help=WHERE_HELP)
@click.option("--table", "table_text", default="quota,money,decisions", show_default=True,
              help=f"Tables to show, comma-separated, or all: {', '.join(TABLES)}.")
@click.option("--bootstrap", type=click.IntRange(100, 100_000), default=BOOTSTRAP,
              show_default=True, help="Bootstrap replicates for the money intervals.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Seed of the bootstrap.")
@rules_option(DATASET_RULES_HELP + " Quotas and money follow the dataset's rules.")
@format_options(" CSV holds one table.")
@scheduler_option
def defence(dataset, contract_text, where, table_text, bootstrap, seed, rules, fmt, scheduler):
    """For every contract, how often the defence reaches its quota (both playing, each
    defender alone), what each of the seven declaration sequences pays the declarer and
    each defender, and the defenders' choices compared deal by deal.

    Every row of DATASET counts as if its declarer named the contract: use --where to
    keep the hands that would (e.g. 'trumps_after >= 5'). The dataset must hold all
    three defence modes (prefa simulate's default).
    """
    contracts = _contracts(contract_text)
    tables = _tables(table_text, fmt)
    try:
        stats_ = defence_stats(dataset, where, bootstrap, seed, scheduler, rules)
    except (ValueError, OSError) as exc:  # StatsError, DatasetError, SchedulerError
        raise click.ClickException(str(exc)) from None
    shown = [c for c in contracts if stats_.n[c.step]]
    if not shown:
        raise click.ClickException(stats_.no_rows_reason(dataset, where))
    header = (f"{dataset}: {int(stats_.counts.sum())} declarer-strain rows"
              f"{f' with {where}' if where else ''}; bootstrap {bootstrap} replicates over "
              f"deals (seed {seed})")
    click.echo(render_defence(stats_, shown, tables, fmt, header))
    say_notes(dataset_notes(dataset, _one_declarer(where)), machine=fmt in ("csv", "json"))


@stats.command("bidding", cls=PrefaCommand)
@click.argument("dataset", type=click.Path(exists=True))
@click.option("--bootstrap", type=click.IntRange(100, 100_000), default=2000,
              show_default=True, help="Bootstrap replicates for the money intervals.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Seed of the bootstrap.")
@click.option("--regret", type=click.IntRange(min=0), default=0, show_default=True,
              metavar="N", help="Also the double-dummy regret of each kind of decision: "
                                "the tricks each player's cards, and discards, gave away, "
                                "and the kapíkia its contracts and defence declarations "
                                "gave away, against the best choice with every card seen; "
                                "over the first N rows (a deal, or one seating of a "
                                "duplicate deal) played out, and not void.")
@click.option("--markdown", is_flag=True, help="Markdown tables.")
@click.option("--json", "as_json", is_flag=True, help="Every table as one JSON object.")
@rules_option(DATASET_RULES_HELP)
def bidding(dataset, bootstrap, seed, regret, markdown, as_json, rules):
    """Statistics of the games in DATASET (made by prefa games): the void rate, how
    often the auction winner makes the contract (by player, level and position), the
    final contracts, each declaration sequence's share and what it pays the declarer, and
    each player's kapíkia per deal, compared pair by pair deal by deal."""
    import dataclasses

    from prefa_sim.stats.bidding import bidding_stats, bidding_text, read_games

    try:
        rules = rules_for(dataset, rules)
        result = bidding_stats(read_games(dataset), bootstrap, seed)
        regrets, decisions = [], []
        if regret:
            from prefa_sim.analysis.regret import decision_regret, play_regret

            games = read_games(dataset, with_actions=True, max_rows=4 * regret)
            regrets = play_regret(games, regret, replicates=bootstrap, seed=seed, rules=rules)
            decisions = decision_regret(games, regret, replicates=bootstrap, seed=seed,
                                        rules=rules)
    except (ValueError, OSError) as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        data = dataclasses.asdict(result)
        data["void"] = {"value": result.void.value, "low": result.void.low,
                        "high": result.void.high}
        data["regret"] = [{"player": r.player, "role": r.role, "deals": r.deals,
                           "tricks_per_deal": estimate_record(r.tricks),
                           "error_rate": r.error_rate} for r in regrets]
        data["decision_regret"] = [
            {"player": r.player, "decision": r.decision, "unit": r.unit,
             "decisions": r.decisions, "per_decision": estimate_record(r.value),
             "error_rate": r.error_rate} for r in decisions]
        data["notes"] = dataset_notes(dataset)
        click.echo(dumps(data))
        return
    click.echo(bidding_text(result, markdown))
    say_notes(dataset_notes(dataset))
    if regrets:
        from prefa_sim.stats.output import estimate_text, text_table

        click.echo("\ndouble-dummy regret of the card play (tricks given away against play "
                   "with every card seen):")
        click.echo(text_table(
            ["player", "role", "deals", "tricks per deal", "cards that lost a trick"],
            [[r.player, r.role, str(r.deals),
              estimate_text(r.tricks),
              f"{100 * r.error_rate:.1f}%"] for r in regrets], markdown))
    if decisions:
        from prefa_sim.stats.output import estimate_text, text_table

        click.echo("\ndouble-dummy regret of the decisions before the play (given away against "
                   "the best choice with every card seen; a defence's declarations are "
                   "charged to both defenders; auction calls have no such measure):")
        click.echo(text_table(
            ["player", "decision", "decisions", "given away per decision", "unit",
             "decisions that lost"],
            [[r.player, r.decision, str(r.decisions),
              estimate_text(r.value), r.unit,
              f"{100 * r.error_rate:.1f}%"] for r in decisions], markdown))


@stats.command("compare", cls=PrefaCommand)
@click.argument("dataset_a", type=click.Path(exists=True))
@click.argument("dataset_b", type=click.Path(exists=True))
@click.option("-c", "--contract", "contract_text", default="all", show_default=True,
              help="Contracts to show, comma-separated (e.g. 7H,10NT), or all.")
@click.option("--where", default=None, metavar="EXPR", callback=check_where,
              help="Keep rows that meet comparisons of the cards as dealt, joined by 'and', "
                   "e.g. 'aces >= 3'.")
@click.option("--bootstrap", type=click.IntRange(100, 100_000), default=1000,
              show_default=True, help="Bootstrap replicates for the intervals.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Seed of the bootstrap.")
@format_options()
def compare(dataset_a, dataset_b, contract_text, where, bootstrap, seed, fmt):
    """Compare two datasets of the same deals contract by contract, deal by deal: two runs
    of one seed and scenario under different --rules (or anything else they differ in).

    For every contract: the make-rate in A and in B, the paired difference B - A and how
    many rows changed, and the declarer's kapíkia against the best defence, each under its
    dataset's own rules, with their paired difference. Make-rates carry Wilson intervals,
    differences and kapíkia bootstrap intervals over deals.
    """
    import dataclasses

    from prefa_sim.stats.compare import compare_datasets, comparison_records, comparison_text

    wanted = set(_contracts(contract_text))
    try:
        result = compare_datasets(dataset_a, dataset_b, bootstrap, seed, where)
    except (ValueError, OSError) as exc:
        raise click.ClickException(str(exc)) from None
    result = dataclasses.replace(result, contracts=tuple(c for c in result.contracts
                                                         if c.contract in wanted))
    if not result.contracts:
        raise click.ClickException("no rows in both datasets for the contracts asked")
    if fmt in ("csv", "json"):
        from prefa_sim.stats.output import records

        click.echo(records(comparison_records(result), fmt))
        return
    click.echo(comparison_text(result, markdown=fmt == "markdown"))
