"""The players by name: the built-in ones, with or without settings, and players from
users' files; the check of a list of three.

``make_player("heuristic")`` gives a built-in player (``PLAYERS``), and
``make_player("sampling(play=40,defence=40)")`` one with other settings (the fields of
its parameters: ``SamplingParams``, ``HeuristicParams``); a user's own player loads from a
file with ``make_player("path/to/file.py:ClassName")``: a class with an
``act(observation, rng)`` method (see ``base.Player``), made with no arguments.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable, Sequence

from ..util.workers import WorkerDied, run_isolated
from .base import Player, PlayerError, RandomPlayer
from .files import load_player
from .heuristic import HeuristicParams, HeuristicPlayer
from .oracle import OraclePlayer
from .sampling import SamplingParams, SamplingPlayer
from .specs import SEES_ALL, WITH_SETTINGS, is_file_spec, without_grant

PLAYERS: dict[str, Callable[[], Player]] = {
    "random": RandomPlayer,
    "heuristic": HeuristicPlayer,
    "oracle": OraclePlayer,
    "sampling": SamplingPlayer,
}
"""The built-in players by name."""

SETTINGS = {"heuristic": HeuristicParams, "sampling": SamplingParams}
"""The built-in players that take settings, and the dataclass of their settings."""

MAX_SETTING = 100_000
"""The largest setting a built-in player takes (samples, tries, margins): beyond it a
player would think for days over one decision."""


def make_player(spec: str) -> Player:
    """A player from a built-in name or ``path/to/file.py:ClassName``; a spec starting with
    ``sees-all:`` grants the player every card (``player_specs``), which the built-in
    ``oracle`` has by design and no player's own code can claim."""
    spec = spec.strip()
    if spec.startswith(SEES_ALL):
        player = make_player(without_grant(spec))
        player.sees_all_cards = True  # the table's wrapper, or a built-in player
        return player
    if spec in PLAYERS:
        return PLAYERS[spec]()
    match = WITH_SETTINGS.match(spec)
    if match:
        return _with_settings(match.group(1), match.group(2))
    path, sep, name = spec.rpartition(":")
    if not sep or not path.endswith(".py"):
        raise PlayerError(f"unknown player {spec!r} (built in: {', '.join(PLAYERS)}; or "
                          "path/to/file.py:ClassName)")
    return load_player(path, name)


def _with_settings(name: str, text: str) -> Player:
    """A built-in player made with ``key=value`` settings (``sampling(play=40)``)."""
    if name not in SETTINGS:
        takes = ", ".join(SETTINGS)
        raise PlayerError(f"player {name!r} takes no settings (those that do: {takes})")
    params = SETTINGS[name]
    fields = {f.name: f for f in dataclasses.fields(params)}
    values = {}
    for item in (t.strip() for t in text.split(",")):
        if not item:
            continue
        key, sep, value = (x.strip() for x in item.partition("="))
        if key in values:
            raise PlayerError(f"{name}: {key} is set twice")
        if not sep or key not in fields:
            raise PlayerError(f"{name}: unknown setting {item!r} (settings: "
                              f"{', '.join(fields)})")
        kind = type(fields[key].default)
        if kind is bool:
            if value.lower() not in ("true", "false"):
                raise PlayerError(f"{name}: {key} must be true or false, got {value!r}")
            values[key] = value.lower() == "true"
            continue
        wanted = (f"a whole number from 1 to {MAX_SETTING:,}" if kind is int
                  else f"a number from -{MAX_SETTING:,} to {MAX_SETTING:,}")
        try:
            values[key] = kind(value)
        except ValueError:
            raise PlayerError(f"{name}: {key} must be {wanted}, got {value!r}") from None
        number = values[key]
        if not math.isfinite(number) or abs(number) > MAX_SETTING or kind is int and number < 1:
            raise PlayerError(f"{name}: {key} must be {wanted}, got {value[:40]!r}")
    return PLAYERS[name](params(**values))


def split_specs(specs: str) -> list[str]:
    """A comma-separated list of player specs.  A piece that is not a whole spec on its
    own (a setting of ``sampling(play=40,defence=40)``, a folder with a comma in its
    name) is joined to the next one; when that leaves a piece that is no spec, the list
    is cut at every comma outside parentheses instead, so that the error names the
    pieces as given."""
    names, current = [], ""
    for piece in specs.split(","):
        current = f"{current},{piece}" if current else piece
        if _whole_spec(current.strip()):
            names.append(current)
            current = ""
    if current.strip():
        names, depth, current = [], 0, ""
        for char in specs:
            depth += {"(": 1, ")": -1}.get(char, 0)
            if char == "," and depth == 0:
                names.append(current)
                current = ""
            else:
                current += char
        names.append(current)
    return [n.strip() for n in names if n.strip()]


def _whole_spec(text: str) -> bool:
    text = without_grant(text)
    return (text in PLAYERS or bool(WITH_SETTINGS.match(text))
            or bool(re.search(r"\.py:\w+$", text)))


def player_specs(specs: str) -> list[str]:
    """Three player names, seat 0 first, from a comma-separated list (one name: all
    three), each checked by making the player once (``check_players``)."""
    names = split_specs(specs)
    if len(names) == 1:
        names *= 3
    if len(names) != 3:
        raise PlayerError(f"{specs!r}: name three players (seat 0, 1, 2) or one for all")
    check_players(names)
    return names


def check_players(specs: Sequence[str]) -> None:
    """Make each player once, a ``PlayerError`` naming what is wrong: a player file in a
    worker process of its own (``workers.run_isolated``), so that its code, whatever it
    does as it loads, never ends this process."""
    files = sorted({spec for spec in specs if is_file_spec(spec)})
    for spec in sorted(set(specs) - set(files)):
        make_player(spec)
    if files:
        try:
            run_isolated(_check_players, files)
        except WorkerDied as exc:
            raise PlayerError(str(exc)) from None


def _check_players(specs: list[str]) -> None:
    """Make each player once (in a worker process: ``check_players``)."""
    for spec in specs:
        make_player(spec)


def make_players(specs: str) -> list[Player]:
    """Three players, seat 0 first, from a comma-separated list (one name: all three)."""
    return [make_player(n) for n in player_specs(specs)]
