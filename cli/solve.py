"""``prefa solve``: the exact double-dummy answer for one deal, or a batch of them."""

from __future__ import annotations

import json
import sys

import click

from prefa_sim import report
from prefa_sim.batch import solve_lines
from prefa_sim.cards import (
    CardCountError,
    Strain,
    format_card,
    format_hand,
    parse_cards,
    parse_hand,
    parse_strain,
)
from prefa_sim.contracts import Contract, best_contract
from prefa_sim.position import Position
from prefa_sim.solver import Solver

from .common import SEAT, SeatList, user_errors

EXAMPLE_DEAL = "QJ7.T8.A.KQJT AKT.AKJ.QJ7.7 8.Q97.KT98.98 9.-.-.A"
"""First hand (seat 0) holds a heart hand; the widow is the nine of spades and the ace of hearts."""


@click.command()
@click.argument("deal", nargs=-1)
@click.option("-t", "--trump", help="S, C, D, H or NT (default: all five).")
@click.option("-d", "--declarer", type=SEAT, default=0, show_default=True,
              help="The declarer's seat.")
@click.option("-l", "--leader", type=SEAT, default=None,
              help="Seat on lead (default: the first active seat from seat 0, first hand).")
@click.option("-a", "--active", type=SeatList(), default="0,1,2", show_default=True,
              help="Seats that play; leave out a defender who passed.")
@click.option("--trick", default="", help="Cards already on the current trick, from its leader.")
@click.option("--line", "show_line", is_flag=True, help="Also print an optimal line of play.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.option("--batch", type=click.File("r"), default=None,
              help="Solve JSON Lines requests from FILE ('-' for standard input).")
@click.option("-w", "--workers", type=click.IntRange(min=1), default=None,
              help="Processes for --batch (default: all cores).")
def solve(deal, trump, declarer, leader, active, trick, show_line, as_json, batch, workers):
    """Solve DEAL double-dummy: three suit-grouped hands in seat order, then optionally
    the widow, e.g.

      prefa solve QJ7.T8.A.KQJT AKT.AKJ.QJ7.7 8.Q97.KT98.98 9.-.-.A

    (the built-in example, solved when no DEAL is given).

    Seats are numbered in play order (seat s+1 plays after seat s). With a
    widow the declarer picks it up: the answer is the best discard and tricks
    per strain and the contract to name. Without one it is the declarer's
    tricks, the value of each card the player to move may play and, with
    --line, an optimal line of play.
    """
    if batch is not None:
        if deal:
            raise click.UsageError("give either DEAL or --batch, not both")
        _run_batch(batch, workers)
        return
    if not deal:
        click.echo(f"no deal given: solving the built-in example {EXAMPLE_DEAL}\n")
        deal = (EXAMPLE_DEAL,)
    with user_errors():
        hands, widow = _parse_deal(deal, active)
        strains = [parse_strain(trump)] if trump else list(Strain)
        lead = leader if leader is not None else min(active)
        trick_cards = tuple(parse_cards(trick))
        solver = Solver()
        if widow is not None and not trick_cards:
            result = _solve_widow(solver, hands, widow, strains, lead, declarer, active)
            _print_widow(result, hands, widow, declarer, active, as_json)
        else:
            if widow is not None:
                raise click.UsageError("a widow is only picked up before the first trick")
            result = _solve_plain(solver, hands, strains, lead, declarer, active, trick_cards,
                                  show_line)
            _print_plain(result, hands, declarer, active, as_json)


def _parse_deal(parts, active):
    tokens = " ".join(parts).split()
    if len(tokens) not in (3, 4):
        raise CardCountError(f"a deal is three hands and optionally the widow, got {len(tokens)} "
                             "parts")
    hands = []
    for seat, text in enumerate(tokens[:3]):
        if text == "-":
            hands.append(0)
            continue
        try:
            hands.append(parse_hand(text))
        except ValueError as exc:
            raise type(exc)(f"hand of seat {seat}: {exc}") from None
    widow = parse_hand(tokens[3], 2) if len(tokens) == 4 else None
    return hands, widow


def _solve_widow(solver, hands, widow, strains, leader, declarer, active):
    table = {s: solver.solve_widow(hands, widow, s, leader, declarer, active) for s in strains}
    contract = best_contract({s: r.best_tricks for s, r in table.items()})
    return {"leader": leader, "table": table, "contract": contract}


def _solve_plain(solver, hands, strains, leader, declarer, active, trick, show_line):
    results = []
    for strain in strains:
        pos = Position(tuple(hands), strain, leader, declarer, active, trick)
        entry = {"position": pos, "tricks": solver.solve(pos)}
        if len(strains) == 1:
            entry["cards"] = solver.card_values(pos)
            if show_line and pos.tricks_left:
                entry["line"] = solver.play_line(pos)
        results.append(entry)
    return results


def _print_plain(results, hands, declarer, active, as_json):
    first = results[0]["position"]
    if as_json:
        out = {"hands": [format_hand(h) for h in hands], "declarer": declarer,
               "leader": first.leader, "active": list(active),
               "trick": [format_card(c) for c in first.trick], "results": []}
        for r in results:
            item = {"trump": r["position"].trump.name, "declarer_tricks": r["tricks"]}
            if "cards" in r:
                item["to_move"] = r["position"].to_move
                item["cards"] = {format_card(c): v for c, v in r["cards"].items()}
            if "line" in r:
                item["line"] = [[s, format_card(c)] for s, c in r["line"]]
            out["results"].append(item)
        click.echo(json.dumps(out))
        return
    click.echo(report.seats_text(hands, declarer, active))
    if len(results) > 1:
        click.echo("\n" + report.position_header(first, with_trump=False))
        click.echo("\nstrain  declarer tricks")
        for r in results:
            click.echo(f"{r['position'].trump.name:<8}{r['tricks']}")
        return
    pos = first
    (r,) = results
    click.echo("\n" + report.position_header(pos))
    click.echo(f"declarer takes {r['tricks']} of {pos.tricks_left} tricks"
               + (" (this trick on)" if pos.trick else ""))
    click.echo("\n" + report.card_values_text(r["cards"], pos.to_move))
    if "line" in r:
        click.echo("\n" + report.play_line_text(pos, r["line"]))


def _print_widow(result, hands, widow, declarer, active, as_json):
    table = result["table"]
    contract: Contract | None = result["contract"]
    if as_json:
        out = {"hands": [format_hand(h) for h in hands], "widow": format_hand(widow),
               "declarer": declarer, "leader": result["leader"], "active": list(active),
               "strains": {s.name: {"best_tricks": r.best_tricks,
                                    "best_discards": r.discard_names()}
                           for s, r in table.items()},
               "contract": str(contract) if contract else None}
        click.echo(json.dumps(out))
        return
    click.echo(report.seats_text(hands, declarer, active, widow))
    click.echo(f"\nseat {declarer} takes the widow; seat {result['leader']} leads; "
               f"seats {' '.join(map(str, active))} play\n")
    click.echo(report.widow_table_text(table))
    if contract is None:
        click.echo("\nno contract makes: the best is fewer than six tricks")
    else:
        discards = table[contract.strain].discard_names()
        click.echo(f"\ncontract to name: {contract} (discard {discards[0]})")


def _run_batch(stream, workers):
    failed = 0
    for ok, text in solve_lines(stream, workers):
        click.echo(text)
        if not ok:
            failed += 1
    if failed:
        click.echo(f"prefa solve: {failed} bad line(s), see their error objects", err=True)
        sys.exit(1)
