"""``prefa game``: play a whole game from a script, or with random legal actions."""

from __future__ import annotations

import sys
from fractions import Fraction

import click

from prefa_sim.bots.specs import player_label
from prefa_sim.core.cards import parse_deal
from prefa_sim.core.seats import seat_label
from prefa_sim.rules.deal import IllegalActionError
from prefa_sim.rules.game import (
    Game,
    deal_record,
    final_record,
    parse_action,
    replay_difference,
)
from prefa_sim.rules.kasa import KasaGame
from prefa_sim.rules.settlement import LAST_CONTRACT_MODES
from prefa_sim.util.jsonl import InputError, LineError, decode, dumps, numbered_lines, unexpected
from prefa_sim.util.words import counted

from .common import PrefaCommand, user_errors
from .params import dealer_option


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
@click.option("--last-contract", type=click.Choice(LAST_CONTRACT_MODES), default="normal",
              show_default=True, help="How a pot smaller than the contract pays.")
@click.option("--kasa", type=click.IntRange(min=1), default=None,
              help="Score with a personal kása of this many units each (docs/rules.md §7) "
                   "instead of the common pot.")
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object per deal (a script line that replays it), then one with "
                   "the final results.")
def game(script, seed, players, dealer, max_deals, last_contract, kasa, as_json):
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
    if script is None and seed is not None and players is None:
        players = "random"  # random legal actions: the random player's
    if players is not None:
        if script is not None:
            raise click.UsageError("--players plays new deals: no SCRIPT with it")
        _play_players(players, 1 if seed is None else seed, dealer, max_deals, last_contract,
                      kasa, as_json)
        return
    if script is None:
        raise click.UsageError("give a SCRIPT file to replay, or --seed to play random "
                               "legal actions")
    if seed is not None:
        raise click.UsageError("give a SCRIPT file or --seed, not both")
    game_state = Game(dealer=dealer, last_contract=last_contract,
                      kasa=KasaGame([kasa] * 3) if kasa else None)
    with user_errors():
        failed = _play_script(game_state, script, max_deals, as_json)
    _final(game_state, as_json, failed)
    if failed:
        sys.exit(1)


def _play_players(specs: str, seed: int, dealer: int, max_deals: int, last_contract: str,
                  kasa: int | None, as_json: bool) -> None:
    from prefa_sim.bots.base import PlayerError
    from prefa_sim.bots.registry import make_player, player_specs
    from prefa_sim.bots.table import play_game

    try:
        specs = player_specs(specs)
        seated = [make_player(spec) for spec in specs]
    except PlayerError as exc:
        raise click.BadParameter(str(exc), param_hint="--players") from None
    names = ", ".join(f"seat {s} {player_label(spec)}" for s, spec in enumerate(specs))
    click.echo(f"players: {names}; seed {seed}", err=True)
    game_state = None
    try:
        for game_state, deal in play_game(seated, seed, max_deals, last_contract, dealer, kasa):
            _report(game_state, deal, as_json)
    except PlayerError as exc:
        raise click.ClickException(str(exc)) from None
    if game_state is not None:
        _final(game_state, as_json)


def _play_script(game_state: Game, script, max_deals: int, as_json: bool) -> int:
    """Play the script's deals; report bad lines and go on. Returns how many were bad.

    A line that carries what a recording holds (the pot, accounts, results…) is
    checked against the replay; a recording's final line ends the game.
    """
    failed = 0
    stopped = None
    name = getattr(script, "name", "<stdin>")

    def fail(number: int, message: str) -> None:
        nonlocal failed
        failed += 1
        click.echo(dumps({"line": number, "error": message}) if as_json
                   else f"{name}, line {number}: {message}", err=not as_json)

    for line in numbered_lines(script):
        try:
            obj = decode(line.text) if line.error is None else None
            if line.error is not None:
                raise LineError(line.error)
            final = isinstance(obj, dict) and obj.get("final") is True
            if stopped is None and (final or game_state.over or game_state.deals >= max_deals):
                stopped = (f"the recorded game ended (its final line) after deal "
                           f"{game_state.deals}" if final
                           else f"the game is over after deal {game_state.deals}"
                           if game_state.over
                           else f"--max-deals {max_deals} reached after deal {game_state.deals}")
                if final:
                    _check_replay(obj, final_record(game_state))
                    continue
            if stopped is not None:
                click.echo(f"warning: {name}, line {line.number}: {stopped}; line ignored",
                           err=True)
                continue
            deal = _scripted_deal(game_state, obj)
        except InputError:
            raise
        except Exception as exc:  # noqa: BLE001 - report the line and play the rest
            fail(line.number, str(exc) if isinstance(exc, ValueError) else unexpected(exc))
            continue
        game_state.record(deal)
        record = deal_record(game_state, deal)
        _report(game_state, deal, as_json, record)
        try:
            _check_replay(obj, record)
        except ValueError as exc:
            fail(line.number, str(exc))
    return failed


def _check_replay(recorded: dict, replayed: dict) -> None:
    key = replay_difference(recorded, replayed)
    if key is not None:
        here = replayed.get(key, "absent")
        raise ValueError(f"the replay differs from the recording: {key} {here} here, "
                         f"{recorded[key]} recorded (replay with the recording's --dealer, "
                         "--kasa and --last-contract)")


def _scripted_deal(game_state: Game, obj):
    if not isinstance(obj, dict) or not isinstance(obj.get("deal"), str | list) \
            or not isinstance(obj.get("actions"), list):
        raise ValueError('a line is {"deal": "H0 H1 H2 WIDOW", "actions": [...]}')
    if "dealer" in obj and obj["dealer"] != game_state.dealer:
        raise ValueError(f"the line says dealer {obj['dealer']!r}, but seat "
                         f"{game_state.dealer} deals this deal")
    hands, widow = parse_deal(obj["deal"])
    deal = game_state.new_deal(hands, widow)
    for i, token in enumerate(obj["actions"]):
        if not isinstance(token, str):
            raise ValueError(f"action {i}: an action is a string such as \"pass\", got "
                             f"{token!r}")
        if deal.is_terminal():
            raise IllegalActionError(f"action {i} ({token!r}): the deal is already over")
        try:
            deal.apply(parse_action(deal, token))
        except IllegalActionError as exc:
            raise IllegalActionError(f"action {i}: {exc}") from None
    if not deal.is_terminal():
        raise IllegalActionError(f"the actions end in the {deal.phase} phase, before the "
                                 "deal is over")
    return deal


def _exact(x: Fraction) -> str:
    """A result in kapíkia with its thirds: ``66 2/3``."""
    whole = x.numerator // x.denominator if x >= 0 else -((-x.numerator) // x.denominator)
    rest = abs(x - whole)
    if not rest:
        return str(whole)
    return f"{whole} {rest}" if whole else str(x)


def _report(game_state: Game, deal, as_json: bool, record: dict | None = None) -> None:
    if as_json:
        click.echo(dumps(record or deal_record(game_state, deal)))
        return
    if deal.settlement is None:
        what = "void: all passed"
    else:
        credited = deal.credited_tricks
        how = "tricks" if credited == deal.tricks else "credited"
        what = (f"{seat_label(deal.declarer, deal.dealer)} {deal.contract}"
                + (" solo" if deal.solo else f" {'-'.join(deal.declarations)}")
                + f", {how} {'/'.join(map(str, credited))}")
    money = ("kása " + " ".join(f"{k:>3d}" for k in game_state.kasa.kasa)
             if game_state.kasa is not None else f"pot {game_state.pot:>5}")
    click.echo(f"deal {game_state.deals:>3} (dealer {deal.dealer}): {what:<58} {money}"
               f"  accounts {' '.join(f'{a:>+6d}' for a in game_state.accounts())}")


def _final(game_state: Game, as_json: bool, bad_lines: int = 0) -> None:
    """The last line: how the game ended, what is left and the results; a script with bad
    lines says how many of its deals were not played."""
    record = final_record(game_state)
    if bad_lines:
        record["bad_lines"] = bad_lines
        record["ended"] = (f"{counted(bad_lines, 'bad line')} not played; "
                           f"{record['ended']}")
    if as_json:
        click.echo(dumps(record))
        return
    left = ("" if game_state.kasa is not None else f", pot {game_state.pot}")
    if game_state.kasa is not None and not game_state.over:
        left = f", units left {' '.join(map(str, game_state.kasa.kasa))} settled in thirds"
    click.echo(f"final after {game_state.deals} deals ({record['ended']}){left}: "
               + ", ".join(f"seat {s} {_exact(r)}" for s, r in enumerate(game_state.results())))
