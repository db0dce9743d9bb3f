"""Whole games as text: the score sheet (a line per deal, then the final line) and game
scripts, the JSON Lines a recorded game is written as and replayed from (``prefa game``).

A script line is ``{"deal": "H0 H1 H2 WIDOW", "actions": ["6S", "pass", ...]}``; a line
that also carries what a recording holds (the pot, the accounts, the results…) is
checked against the replay, and a recording's final line ends the game.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction

from ..core.cards import parse_deal
from ..core.seats import seat_label
from ..util.jsonl import InputError, LineError, decode, dumps, numbered_lines, unexpected
from ..util.words import counted
from .deal import Deal, IllegalActionError
from .game import (
    Game,
    Redeal,
    deal_record,
    final_record,
    parse_action,
    redeal_record,
    replay_difference,
)


def exact_text(x: Fraction) -> str:
    """A result in kapíkia with its thirds: ``66 2/3``."""
    whole = x.numerator // x.denominator if x >= 0 else -((-x.numerator) // x.denominator)
    rest = abs(x - whole)
    if not rest:
        return str(whole)
    return f"{whole} {rest}" if whole else str(x)


def deal_line(game: Game, deal: Deal | Redeal, as_json: bool = False,
              record: dict | None = None) -> str:
    """The score sheet's line for ``deal``, just recorded in ``game``: what was played, the
    pot (or the kásas) and the accounts; with ``as_json`` its recording (a script line)."""
    if as_json:
        return dumps(record or any_record(game, deal))
    if isinstance(deal, Redeal):
        return f"first deal dealt again: {deal.reason} (first_deal={game.rules.first_deal})"
    if deal.settlement is None:
        what = "void: all passed"
    else:
        credited = deal.credited_tricks
        how = "tricks" if credited == deal.tricks else "credited"
        what = (f"{seat_label(deal.declarer, deal.dealer)} {deal.contract}"
                + (" solo" if deal.solo else f" {'-'.join(deal.declarations)}")
                + f", {how} {'/'.join(map(str, credited))}")
    money = ("kása " + " ".join(f"{k:>3d}" for k in game.kasa.kasa)
             if game.kasa is not None else f"pot {game.pot:>5}")
    return (f"deal {game.deals:>3} (dealer {deal.dealer}): {what:<58} {money}"
            f"  accounts {' '.join(f'{a:>+6d}' for a in game.accounts())}")


def final_line(game: Game, as_json: bool = False, bad_lines: int = 0) -> str:
    """The last line: how the game ended, what is left and the results; a script with bad
    lines says how many of its deals were not played."""
    record = final_record(game)
    if bad_lines:
        record["bad_lines"] = bad_lines
        record["ended"] = f"{counted(bad_lines, 'bad line')} not played; {record['ended']}"
    if as_json:
        return dumps(record)
    left = "" if game.kasa is not None else f", pot {game.pot}"
    if game.kasa is not None and not game.over:
        left = f", units left {' '.join(map(str, game.kasa.kasa))} settled in thirds"
    return (f"final after {game.deals} deals ({record['ended']}){left}: "
            + ", ".join(f"seat {s} {exact_text(r)}" for s, r in enumerate(game.results())))


def any_record(game: Game, deal: Deal | Redeal) -> dict:
    """``deal_record``, or ``redeal_record`` for cards dealt again."""
    return redeal_record(game, deal) if isinstance(deal, Redeal) else deal_record(game, deal)


def scripted_deal(game: Game, obj: object) -> Deal | Redeal:
    """The next deal of ``game`` played out by a decoded script line (not yet recorded), or
    the first deal's cards dealt again (``Game.redeal``: the line then takes no action)."""
    if not isinstance(obj, dict) or not isinstance(obj.get("deal"), str | list) \
            or not isinstance(obj.get("actions"), list):
        raise ValueError('a line is {"deal": "H0 H1 H2 WIDOW", "actions": [...]}')
    hands, widow = parse_deal(obj["deal"])
    redeal = game.redeal(hands, widow)
    if redeal is not None:
        if obj["actions"]:
            raise IllegalActionError(f"{redeal.reason}: these cards are dealt again "
                                     f"(first_deal={game.rules.first_deal}), so the line "
                                     "takes no action")
        return redeal
    deal = game.new_deal(hands, widow)
    if "dealer" in obj and obj["dealer"] != deal.dealer:
        raise ValueError(f"the line says dealer {obj['dealer']!r}, but seat "
                         f"{deal.dealer} deals this deal")
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


def check_replay(recorded: dict, replayed: dict) -> None:
    """A ``ValueError`` naming the first field a recording holds that its replay does not."""
    key = replay_difference(recorded, replayed)
    if key is not None:
        default = "default" if key == "rules" else "absent"
        raise ValueError(f"the replay differs from the recording: {key} "
                         f"{replayed.get(key, default)} here, {recorded.get(key, default)} "
                         "recorded (replay with the recording's --dealer and --rules)")


@dataclass(frozen=True)
class ScriptEvent:
    """What one script line did: a deal played (``deal`` and ``record``), a bad line
    (``error``), or a line ignored after the game's end (``warning``)."""

    line: int
    deal: Deal | None = None
    record: dict | None = None
    error: str | None = None
    warning: str | None = None


def play_script(game: Game, lines: Iterable[bytes | str],
                max_deals: int) -> Iterator[ScriptEvent]:
    """Play the script's deals in ``game``, one event per line: a bad line is reported
    and the rest played.  A deal that replays but differs from its recording is played
    and then reported as bad too."""
    stopped = None
    for line in numbered_lines(lines):
        try:
            if line.error is not None:
                raise LineError(line.error)
            obj = decode(line.text)
            final = isinstance(obj, dict) and obj.get("final") is True
            if stopped is None and (final or game.over or game.deals >= max_deals):
                stopped = (f"the recorded game ended (its final line) after deal "
                           f"{game.deals}" if final
                           else f"the game is over after deal {game.deals}" if game.over
                           else f"--max-deals {max_deals} reached after deal {game.deals}")
                if final:
                    check_replay(obj, final_record(game))
                    continue
            if stopped is not None:
                yield ScriptEvent(line.number, warning=f"{stopped}; line ignored")
                continue
            deal = scripted_deal(game, obj)
        except InputError:
            raise
        except Exception as exc:  # noqa: BLE001 - report the line and play the rest
            yield ScriptEvent(line.number, error=str(exc) if isinstance(exc, ValueError)
                              else unexpected(exc))
            continue
        game.record(deal)
        record = any_record(game, deal)
        yield ScriptEvent(line.number, deal=deal, record=record)
        try:
            check_replay(obj, record)
        except ValueError as exc:
            yield ScriptEvent(line.number, error=str(exc))
