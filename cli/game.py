"""``prefa game``: play a whole game from a script, or with random legal actions."""

from __future__ import annotations

import json
import sys
from fractions import Fraction

import click

from prefa_sim.cards import format_deal, parse_deal
from prefa_sim.deal import IllegalActionError
from prefa_sim.game import Game, parse_action, play_random_game
from prefa_sim.kasa import KasaGame
from prefa_sim.settlement import LAST_CONTRACT_MODES


@click.command()
@click.argument("script", type=click.File("r"), required=False)
@click.option("--seed", type=int, default=None, help="Play random legal actions from SEED.")
@click.option("--dealer", type=click.IntRange(0, 2), default=0, show_default=True,
              help="The seat that deals first.")
@click.option("--max-deals", type=click.IntRange(min=1), default=200, show_default=True,
              help="End by agreement after this many deals.")
@click.option("--last-contract", type=click.Choice(LAST_CONTRACT_MODES), default="normal",
              show_default=True, help="How a pot smaller than the contract pays.")
@click.option("--kasa", type=click.IntRange(min=1), default=None,
              help="Score with a personal kása of this many units each (RULES §7) instead "
                   "of the common pot.")
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object per deal, then one with the final results.")
def game(script, seed, dealer, max_deals, last_contract, kasa, as_json):
    """Play a game and print the score sheet after each deal.

    SCRIPT is JSON Lines, one deal per line, the deal passing one seat on each
    time (--dealer deals first): {"deal": "H0 H1 H2 WIDOW", "actions": ["6S", "pass", "pass",
    "discard 8C TC", "7H", "play", "play", "AH", ...]}. Actions: auction calls,
    "discard C1 C2" or "solo", the contract ("7H", "7H aces"), play / pass /
    together / alone, cards, "claim", "accept" / "reject". With --seed every
    action is drawn at random from the legal ones.
    """
    if (script is None) == (seed is None):
        raise click.UsageError("give a SCRIPT file or --seed, not both")
    failed = 0
    if seed is not None:
        rounds = play_random_game(seed, max_deals, last_contract, dealer, kasa)
        game_state = None
        for game_state, deal in rounds:
            _report(game_state, deal, as_json)
    else:
        game_state = Game(dealer=dealer, last_contract=last_contract,
                          kasa=KasaGame([kasa] * 3) if kasa else None)
        for number, line in enumerate(script, start=1):
            if not line.strip() or game_state.over or game_state.deals >= max_deals:
                continue
            try:
                deal = _scripted_deal(game_state, line)
            except (ValueError, KeyError, TypeError) as exc:
                failed += 1
                click.echo(json.dumps({"line": number, "error": str(exc)}) if as_json
                           else f"line {number}: {exc}", err=not as_json)
                continue
            game_state.record(deal)
            _report(game_state, deal, as_json)
    if game_state is not None:
        _final(game_state, as_json)
    if failed:
        sys.exit(1)


def _scripted_deal(game_state: Game, line: str):
    obj = json.loads(line)
    if not isinstance(obj, dict) or not isinstance(obj.get("deal"), str) \
            or not isinstance(obj.get("actions"), list):
        raise ValueError('a line is {"deal": "H0 H1 H2 WIDOW", "actions": [...]}')
    hands, widow = parse_deal(obj["deal"])
    deal = game_state.new_deal(hands, widow)
    for i, token in enumerate(obj["actions"]):
        if deal.is_terminal():
            raise IllegalActionError(f"action {i} ({token!r}): the deal is already over")
        try:
            deal.apply(parse_action(deal, str(token)))
        except IllegalActionError as exc:
            raise IllegalActionError(f"action {i}: {exc}") from None
    if not deal.is_terminal():
        raise IllegalActionError(f"the actions end in the {deal.phase} phase, before the "
                                 "deal is over")
    return deal


def _exact(x: Fraction) -> str:
    whole = x.numerator // x.denominator if x >= 0 else -((-x.numerator) // x.denominator)
    rest = abs(x - whole)
    if not rest:
        return str(whole)
    return f"{whole} {rest}" if whole else str(x)


def _report(game_state: Game, deal, as_json: bool) -> None:
    dealer = (game_state.dealer - 1) % 3
    if game_state.kasa is not None:
        accounts = list(game_state.kasa.kapikia)
    else:
        accounts = [game_state.from_pot[s] + game_state.won[s] for s in range(3)]
    if as_json:
        obj = {"deal": game_state.deals, "dealer": dealer,
               "cards": format_deal(deal.hands_dealt, deal.widow), "void": deal.phase == "void"}
        if deal.settlement is not None:
            obj.update(declarer=deal.declarer, contract=str(deal.contract), solo=deal.solo,
                       aces=deal.aces, declarations=deal.declarations, tricks=deal.tricks,
                       pot_delta=deal.settlement.pot_delta)
        if game_state.kasa is not None:
            obj.update(kasa=list(game_state.kasa.kasa), kapikia=accounts)
        else:
            obj.update(pot=game_state.pot, accounts=accounts)
        click.echo(json.dumps(obj))
        return
    if deal.settlement is None:
        what = "void: all passed"
    else:
        what = (f"seat {deal.declarer} {deal.contract}"
                + (" solo" if deal.solo else f" {'-'.join(deal.declarations)}")
                + ("" if deal.solo or not deal.position else
                   f", tricks {'/'.join(map(str, deal.tricks))}"))
    money = ("kása " + " ".join(f"{k:>3d}" for k in game_state.kasa.kasa)
             if game_state.kasa is not None else f"pot {game_state.pot:>5}")
    click.echo(f"deal {game_state.deals:>3} (dealer {dealer}): {what:<44} {money}"
               f"  accounts {' '.join(f'{a:>+6d}' for a in accounts)}")


def _final(game_state: Game, as_json: bool) -> None:
    results = game_state.results()
    if as_json:
        click.echo(json.dumps({"final": True, "deals": game_state.deals, "pot": game_state.pot,
                               "over": game_state.over,
                               "results": [str(r) for r in results]}))
        return
    ended = ("all kásas empty" if game_state.kasa is not None else "pot spent") \
        if game_state.over else "ended by agreement"
    left = "" if game_state.kasa is not None else f", pot {game_state.pot}"
    click.echo(f"final after {game_state.deals} deals ({ended}){left}: "
               + ", ".join(f"seat {s} {_exact(r)}" for s, r in enumerate(results)))
