"""Players from users' files: loading a ``path/to/file.py:ClassName`` spec, the wrapper the
table seats such a player in, and the pinning of files a run records."""

from __future__ import annotations

import copy
import importlib.util
from collections.abc import Sequence
from pathlib import Path

from .base import Player, PlayerError
from .observation import Observation
from .specs import SEES_ALL, file_digest, is_file_spec, without_grant


def load_player(path: str, name: str) -> Player:
    """The player of class ``name`` in the file ``path``, made with no arguments, in the
    table's wrapper (``FilePlayer``); any error of the file's code is a ``PlayerError``."""
    file = Path(path)
    if not file.is_file():
        raise PlayerError(f"player file {file} does not exist")
    module_spec = importlib.util.spec_from_file_location(f"prefa_player_{file.stem}", file)
    module = importlib.util.module_from_spec(module_spec)
    try:
        module_spec.loader.exec_module(module)
    except (Exception, SystemExit) as exc:  # a user's file: any error in it is reported
        raise PlayerError(f"cannot load {file}: {type(exc).__name__}: {exc}") from None
    cls = getattr(module, name, None)
    if cls is None or not callable(getattr(cls, "act", None)):
        raise PlayerError(f"{file} has no player class {name!r} with an act() method")
    try:
        player = cls()
    except (Exception, SystemExit) as exc:
        raise PlayerError(f"cannot make {name} from {file}: {type(exc).__name__}: {exc}") \
            from None
    try:
        label = str(getattr(player, "name", name))
    except Exception:  # noqa: BLE001 - a name that fails: the class's own
        label = name
    return FilePlayer(player, label)


class FilePlayer(Player):
    """A player from a user's file, as the table seats it: the table reads its name and
    whether it sees every card here, set from the spec, never from the file's code."""

    def __init__(self, inner: object, name: str) -> None:
        self.inner = inner
        self.name = name
        self.sees_all_cards = False

    def act(self, observation: Observation, rng) -> object:
        """The file's decision on a copy of the observation: what the file's code changes
        in it (an action of ``legal``, a call of the auction) never reaches the engine,
        which judges the action against its own legal actions."""
        return self.inner.act(copy.deepcopy(observation), rng)


def pinned_specs(specs: Sequence[str]) -> tuple[list[str], dict[str, str]]:
    """Player specs with every file named by its absolute path, and the SHA-256 of each
    file's contents by that path: what a run records, so that a resume from another
    folder, or with a changed file, plays the same players or is refused."""
    pinned, files = [], {}
    for spec in specs:
        grant = SEES_ALL if spec.strip().startswith(SEES_ALL) else ""
        bare = without_grant(spec)
        path, sep, name = bare.rpartition(":")
        if is_file_spec(bare):
            absolute = str(Path(path).resolve())
            files[absolute] = file_digest(absolute)
            bare = f"{absolute}:{name}"
        pinned.append(grant + bare)
    return pinned, files


