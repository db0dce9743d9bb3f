"""Players from users' files: loading a ``path/to/file.py:ClassName`` spec, the wrapper the
table seats such a player in, and the pinning of files a run records."""

from __future__ import annotations

import copy
import hashlib
import importlib.util
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from ..util import last_words
from ..util.workers import ctrl_c_ignored
from .base import Player, PlayerError, error_text
from .observation import Observation
from .specs import SEES_ALL, file_digest, is_file_spec, without_grant

NAME = re.compile(r"[\w.,:()+=/-][\w .,:()+=/-]{0,59}")
"""A name a player may give itself: one plain line of up to 60 characters, a plain ``str``;
any other (a line break, control characters, blanks, a ``str`` of its own type) is
replaced by its class's name in every output."""

_MODULES: dict[str, object] = {}
"""Player files loaded in this process, by resolved path: two seats of one file share its
module (its classes are then one class, as pickling needs) and get an instance each."""


def load_player(path: str, name: str) -> Player:
    """The player of class ``name`` in the file ``path``, made with no arguments, in the
    table's wrapper (``FilePlayer``); any error of the file's code is a ``PlayerError``.

    The file runs once per process as a module of its own (registered in ``sys.modules``,
    so that dataclasses and pickling find it), under a name unique to its path."""
    file = Path(path)
    if not file.is_file():
        raise PlayerError(f"player file {file} does not exist")
    module = _module(file)
    cls = getattr(module, name, None)
    if cls is None or not callable(getattr(cls, "act", None)):
        raise PlayerError(f"{file} has no player class {name!r} with an act() method")
    last_words.say(f"player {name} of {file} was being made")
    try:
        player = cls()
        try:
            label = getattr(player, "name", name)
        except Exception:  # noqa: BLE001 - a name that fails: the class's own
            label = name
    except BaseException as exc:  # noqa: BLE001 - a user's code: any error in it is reported
        if isinstance(exc, KeyboardInterrupt) and not ctrl_c_ignored():
            raise
        raise PlayerError(f"cannot make {name} from {file}: {error_text(exc)}") \
            from _chained(exc)
    finally:
        last_words.say("")
    plain = type(label) is str and NAME.fullmatch(label)
    return FilePlayer(player, label if plain else name)


def _module(file: Path):
    """The module of a player file, run the first time this process asks for it."""
    resolved = str(file.resolve())
    if resolved in _MODULES:
        return _MODULES[resolved]
    digest = hashlib.sha256(resolved.encode()).hexdigest()[:12]
    module_name = f"prefa_player_{file.stem}_{digest}"
    module_spec = importlib.util.spec_from_file_location(module_name, file)
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[module_name] = module
    last_words.say(f"player file {file} was loading")
    try:
        module_spec.loader.exec_module(module)
    except BaseException as exc:  # noqa: BLE001 - a user's file: any error in it is reported
        sys.modules.pop(module_name, None)
        if isinstance(exc, KeyboardInterrupt) and not ctrl_c_ignored():
            raise  # the user's Ctrl-C
        raise PlayerError(f"cannot load {file}: {error_text(exc)}") from _chained(exc)
    finally:
        last_words.say("")
    _MODULES[resolved] = module
    return module


def _chained(exc: BaseException) -> BaseException | None:
    """The error to chain (for ``--debug``'s traceback): the file's own, unless it is of a
    type of the file's that a worker process could not hand back."""
    return exc if isinstance(exc, Exception | SystemExit) else None


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


