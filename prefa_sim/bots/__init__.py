"""Players (bots) for every decision of the game, and the table that drives them.

``make_player("heuristic")`` gives a built-in player (``PLAYERS``); a user's own player
loads from a file with ``make_player("path/to/file.py:ClassName")``: a class with an
``act(observation, rng)`` method (see ``base.Player``), made with no arguments.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path

from .base import Player, PlayerError, RandomPlayer
from .heuristic import HeuristicParams, HeuristicPlayer
from .observation import Observation, observe
from .oracle import OraclePlayer
from .sampling import SamplingParams, SamplingPlayer

PLAYERS: dict[str, Callable[[], Player]] = {
    "random": RandomPlayer,
    "heuristic": HeuristicPlayer,
    "oracle": OraclePlayer,
    "sampling": SamplingPlayer,
}
"""The built-in players by name."""

__all__ = ["PLAYERS", "HeuristicParams", "HeuristicPlayer", "Observation", "OraclePlayer",
           "Player", "PlayerError", "RandomPlayer", "SamplingParams", "SamplingPlayer",
           "make_player", "make_players", "observe", "player_specs"]


def make_player(spec: str) -> Player:
    """A player from a built-in name or ``path/to/file.py:ClassName``."""
    spec = spec.strip()
    if spec in PLAYERS:
        return PLAYERS[spec]()
    path, sep, name = spec.rpartition(":")
    if not sep or not path.endswith(".py"):
        raise PlayerError(f"unknown player {spec!r} (built in: {', '.join(PLAYERS)}; or "
                          "path/to/file.py:ClassName)")
    file = Path(path)
    if not file.is_file():
        raise PlayerError(f"player file {file} does not exist")
    module_spec = importlib.util.spec_from_file_location(f"prefa_player_{file.stem}", file)
    module = importlib.util.module_from_spec(module_spec)
    try:
        module_spec.loader.exec_module(module)
    except Exception as exc:  # a user's file: any error in it is reported, not raised
        raise PlayerError(f"cannot load {file}: {type(exc).__name__}: {exc}") from None
    cls = getattr(module, name, None)
    if cls is None or not callable(getattr(cls, "act", None)):
        raise PlayerError(f"{file} has no player class {name!r} with an act() method")
    try:
        player = cls()
    except Exception as exc:
        raise PlayerError(f"cannot make {name} from {file}: {type(exc).__name__}: {exc}") \
            from None
    for attribute, default in (("name", name), ("sees_all_cards", False)):
        if not hasattr(player, attribute):
            setattr(player, attribute, default)
    return player


def player_specs(specs: str) -> list[str]:
    """Three player names, seat 0 first, from a comma-separated list (one name: all
    three), each checked by making the player once."""
    names = [s.strip() for s in specs.split(",") if s.strip()]
    if len(names) == 1:
        names *= 3
    if len(names) != 3:
        raise PlayerError(f"{specs!r}: name three players (seat 0, 1, 2) or one for all")
    for name in set(names):
        make_player(name)
    return names


def make_players(specs: str) -> list[Player]:
    """Three players, seat 0 first, from a comma-separated list (one name: all three)."""
    return [make_player(n) for n in player_specs(specs)]
