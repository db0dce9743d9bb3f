"""``prefa game``: play a whole game from a script, or with random legal actions."""

from __future__ import annotations

import sys
from concurrent.futures.process import BrokenProcessPool

import click

from prefa_sim.bots.base import PlayerError
from prefa_sim.bots.registry import player_specs
from prefa_sim.bots.sheet import game_sheet, whole_game_sheet
from prefa_sim.bots.specs import is_file_spec, player_label
from prefa_sim.rules.game import Game
from prefa_sim.rules.script import deal_line, final_line, play_script
from prefa_sim.rules.variants import LAST_CONTRACT_MODES, Rules
from prefa_sim.util.jsonl import dumps
from prefa_sim.util.workers import run_isolated

from .common import PrefaCommand, died, failure, say_waiting, user_errors
from .params import dealer_option, rules_option, rules_with_aliases


@click.command(cls=PrefaCommand)
@click.argument("script", type=click.File("rb"), required=False)
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Play random legal actions from SEED (with --players: the seed of the "
                   "deals and the players' choices, default 1).")
@click.option("--players", default=None, metavar="A,B,C",
              help="Players for seats 0, 1, 2 (one name for all): random, heuristic, "
                   "sampling, oracle (sees every card: cheating) or path/to/file.py:ClassName "
                   "(sees-all:path/to/file.py:ClassName to show it every card); "
                   "settings in parentheses: sampling(play=40,defence=40).")
@dealer_option(help="The seat that deals first (default 2: seat 0 is first hand in the "
                    "first deal).")
@click.option("--max-deals", type=click.IntRange(min=1), default=200, show_default=True,
              help="End by agreement after this many deals.")
@rules_option()
@click.option("--last-contract", type=click.Choice(LAST_CONTRACT_MODES), default=None,
              help="How a pot smaller than the contract pays (the rule last_contract of "
                   "--rules; default normal).")
@click.option("--kasa", type=click.IntRange(min=1), default=None,
              help="Score with a personal kása of this many units each (docs/rules.md §7) "
                   "instead of the common pot (the rule kasa of --rules).")
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object per deal (a script line that replays it), then one with "
                   "the final results.")
def game(script, seed, players, dealer, max_deals, rules, last_contract, kasa, as_json):
    """Play a game and print the score sheet after each deal.

    SCRIPT is JSON Lines, one deal per line, the deal passing one seat on each
    time (--dealer deals first): {"deal": "H0 H1 H2 WIDOW", "actions": ["6S",
    "pass", "pass", "discard 8C TC", "7H", "play", "play", "AH", ...]}.
    Actions: auction calls, "discard C1 C2" or "solo", the contract ("7H",
    "7H aces"), play / pass / together / alone, cards, "claim", "accept" /
    "reject". The lines of --json are script lines: a recorded game replays
    exactly. With --seed every action is drawn at random from the legal ones;
    with --players the players take every decision, each seeing only what its
    seat may know.
    """
    rules = rules_with_aliases(rules, last_contract=last_contract, kasa=kasa)
    if rules.first_deal != "dealer" and click.get_current_context().get_parameter_source(
            "dealer") == click.core.ParameterSource.COMMANDLINE:
        raise click.UsageError(f"--dealer contradicts first_deal={rules.first_deal}: the "
                               "cards of the first deal name its dealer")
    if not rules.is_default:
        click.echo(f"rules: {rules}", err=True)
    if script is None and seed is not None and players is None:
        players = "random"  # random legal actions: the random player's
    if players is not None:
        if script is not None:
            raise click.UsageError("--players plays new deals: no SCRIPT with it")
        _play_players(players, 1 if seed is None else seed, dealer, max_deals, rules, as_json)
        return
    if script is None:
        raise click.UsageError("give a SCRIPT file to replay, or --seed to play random "
                               "legal actions")
    if seed is not None:
        raise click.UsageError("give a SCRIPT file or --seed, not both")
    game_state = Game(dealer=dealer, rules=rules)
    with user_errors():
        failed = _play_script(game_state, script, max_deals, as_json)
    click.echo(final_line(game_state, as_json, failed))
    if failed:
        sys.exit(1)


def _play_players(specs: str, seed: int, dealer: int, max_deals: int, rules: Rules,
                  as_json: bool) -> None:
    """A game played by players, its lines printed as they come; a player file plays in a
    worker process of its own, so that nothing it does ends this one."""
    try:
        specs = player_specs(specs)
    except PlayerError as exc:
        raise click.BadParameter(str(exc), param_hint="--players") from None
    names = ", ".join(f"seat {s} {player_label(spec)}" for s, spec in enumerate(specs))
    click.echo(f"players: {names}; seed {seed}", err=True)
    args = (specs, seed, max_deals, rules, dealer, as_json)
    try:
        if any(map(is_file_spec, specs)):
            lines = run_isolated(whole_game_sheet, *args, on_stop=say_waiting)
        else:
            lines = game_sheet(*args)
        for line in lines:
            click.echo(line)
    except PlayerError as exc:
        raise failure(exc, str(exc)) from None
    except BrokenProcessPool as exc:
        raise failure(exc, died(exc)) from None
    except KeyboardInterrupt:
        click.echo("\ninterrupted", err=True)
        sys.exit(130)


def _play_script(game_state: Game, script, max_deals: int, as_json: bool) -> int:
    """Play the script's deals, printing each; report bad lines and go on.  Returns how
    many were bad."""
    failed = 0
    name = getattr(script, "name", "<stdin>")
    for event in play_script(game_state, script, max_deals):
        if event.warning is not None:
            click.echo(f"warning: {name}, line {event.line}: {event.warning}", err=True)
        elif event.error is not None:
            failed += 1
            click.echo(dumps({"line": event.line, "error": event.error}) if as_json
                       else f"{name}, line {event.line}: {event.error}", err=not as_json)
        else:
            click.echo(deal_line(game_state, event.deal, as_json, event.record))
    return failed
