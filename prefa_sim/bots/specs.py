"""Player specs as the command line gives them, and which of them may see every card.

A spec is a built-in name (``heuristic``, ``sampling(play=40)``) or a player file
(``path/to/file.py:ClassName``).  Seeing the other hands is granted by the spec alone,
never by the player's code: the built-in ``oracle``, or a file's player whose spec starts
with ``sees-all:`` (``sees-all:bots/mine.py:Cheater``).  Every output names such a player
with ``player_label``, which says that it sees all cards.

This module is light (no NumPy, no numba) so that the statistics can label players
without loading the players themselves.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

SEES_ALL = "sees-all:"
"""The prefix of a player file's spec that grants it every card."""

SEEING_BUILT_INS = frozenset({"oracle"})
"""The built-in players that see every card by design."""

SEES_ALL_NOTE = " (sees all cards)"


def sees_all_cards(spec: str) -> bool:
    """Does the command line grant the player of ``spec`` every card?"""
    spec = spec.strip()
    return spec in SEEING_BUILT_INS or spec.startswith(SEES_ALL)


def without_grant(spec: str) -> str:
    """The spec with its ``sees-all:`` prefix taken off."""
    spec = spec.strip()
    return spec[len(SEES_ALL):].strip() if spec.startswith(SEES_ALL) else spec


WITH_SETTINGS = re.compile(r"^(\w+)\((.*)\)$", re.S)
"""A built-in player with settings: ``sampling(play=40,defence=40)``."""


def is_file_spec(spec: str) -> bool:
    """Does ``spec`` name a player file (``path/to/file.py:ClassName``)?"""
    bare = without_grant(spec)
    path, sep, _ = bare.rpartition(":")
    return bool(sep) and path.endswith(".py") and not WITH_SETTINGS.match(bare)


def player_label(spec: str) -> str:
    """The name outputs give a player: its spec, marked when it sees all cards."""
    spec = str(spec)
    return spec + SEES_ALL_NOTE if sees_all_cards(spec) else spec


def file_digest(path: str | Path) -> str:
    """The SHA-256 of a player file's contents, as a run records it."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()
