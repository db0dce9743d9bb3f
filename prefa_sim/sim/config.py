"""A run's configuration: everything that determines its data and its files, and the
record of it in the run folder (``_run.json``)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from ..core.cards import Strain
from ..core.seats import DEFAULT_DEALER
from ..dealing.scenario import parse_scenario
from ..rules.variants import Rules, RulesError
from ..solve.tables import MODES
from .run_folder import MANIFEST

LATER_KEYS = {"players", "duplicate", "full_games", "player_files", "rules"}
"""Run-record keys added after the first release: a record without them is still whole."""


class RunError(ValueError):
    """A run that cannot start or resume as asked."""


@dataclass(frozen=True)
class RunConfig:
    """Everything that determines a run's data and its files."""

    deals: int
    seed: int
    chunk_size: int = 25
    declarers: tuple[int, ...] = (0, 1, 2)
    strains: tuple[str, ...] = tuple(s.name for s in Strain)
    modes: tuple[str, ...] = MODES
    scenario: dict = field(default_factory=dict)
    """The scenario as decoded TOML (empty: uniformly random deals, seat 2 dealing)."""
    scenario_text: str = ""
    replay: str = ""
    """SHA-256 of the replayed deals (``REPLAY_FILE`` in the output folder), or empty."""
    players: tuple[str, ...] = ()
    """``prefa games``: the players of seats 0-1-2 (empty: solve deals double-dummy)."""
    duplicate: bool = False
    """``prefa games``: every deal in the three seatings of the players."""
    full_games: bool = False
    """``prefa games``: ``deals`` whole games to the empty pot instead of single deals."""
    player_files: dict = field(default_factory=dict)
    """``prefa games``: the SHA-256 of each player file's contents, by absolute path (the
    players' specs name the files by that path): a resume with a changed file is refused."""
    rules: str = "default"
    """The rules the deals are solved or played under, in their text form (``Rules``);
    written in the record only when they are not the default."""

    def __post_init__(self) -> None:
        for name, low in (("deals", 1), ("seed", 0), ("chunk_size", 1)):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise RunError(f"{name} must be a whole number {low} or more, got {value!r}")
        for name in ("declarers", "strains", "modes"):
            value = getattr(self, name)
            if not isinstance(value, list | tuple) or not value:
                raise RunError(f"{name} must be a non-empty list, got {value!r}")
            object.__setattr__(self, name, tuple(value))
        allowed = {"declarers": (0, 1, 2), "strains": tuple(s.name for s in Strain),
                   "modes": MODES}
        for name, values in allowed.items():
            items = getattr(self, name)
            if any(isinstance(v, bool) or v not in values for v in items) \
                    or len(set(items)) != len(items):
                raise RunError(f"{name} must be distinct values among "
                               f"{', '.join(map(str, values))}, got {list(items)!r}")
        if not isinstance(self.scenario, dict) or not isinstance(self.scenario_text, str) \
                or not isinstance(self.replay, str):
            raise RunError("scenario must be a table, scenario_text and replay text")
        if self.scenario:
            parse_scenario(self.scenario, "the run's scenario")
        if not isinstance(self.players, list | tuple) or len(self.players) not in (0, 3) \
                or not all(isinstance(p, str) and p.strip() for p in self.players):
            raise RunError(f"players must be three names, got {self.players!r}")
        object.__setattr__(self, "players", tuple(self.players))
        for name in ("duplicate", "full_games"):
            value = getattr(self, name)
            if not isinstance(value, bool) or (value and not self.players):
                raise RunError(f"{name} is true or false, and needs players")
        if not isinstance(self.player_files, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in self.player_files.items()):
            raise RunError("player_files must map file paths to their hashes")
        if self.players and (self.scenario or self.replay):
            raise RunError("games are played on random deals: no scenario or replay")
        if not isinstance(self.rules, str):
            raise RunError(f"rules must be text such as \"ten_nt=11\", got {self.rules!r}")
        try:
            object.__setattr__(self, "rules", str(Rules.parse(self.rules)))
        except RulesError as exc:
            raise RunError(f"rules: {exc}") from None

    @property
    def rules_value(self) -> Rules:
        """The run's rules."""
        return Rules.parse(self.rules)

    @property
    def dealer(self) -> int:
        """The dealer of every deal (replayed deals carry their own)."""
        return self.scenario.get("dealer", DEFAULT_DEALER)

    @property
    def chunks(self) -> int:
        return (self.deals + self.chunk_size - 1) // self.chunk_size

    def chunk_deals(self, index: int) -> range:
        """The deal indices of chunk ``index``."""
        start = index * self.chunk_size
        return range(start, min(start + self.chunk_size, self.deals))

    def chunk_rows(self, index: int) -> int | None:
        """How many dataset rows chunk ``index`` holds (None: whole games, whose length
        is known only once played)."""
        if self.full_games:
            return None
        if self.players:
            return len(self.chunk_deals(index)) * (3 if self.duplicate else 1)
        return len(self.chunk_deals(index)) * len(self.declarers) * len(self.strains)

    def to_json(self) -> dict:
        data = asdict(self)
        for name in ("declarers", "strains", "modes", "players"):
            data[name] = list(getattr(self, name))
        if self.rules == "default":
            del data["rules"]  # as recorded before rules were a setting
        return data

    @classmethod
    def from_json(cls, data: dict) -> RunConfig:
        """The configuration recorded by ``to_json``."""
        return cls(**data)


def read_manifest(out_dir: str | Path) -> RunConfig | None:
    """The configuration recorded in a run folder (None when there is no run); a record
    that is not whole and valid is refused with ``RunError`` before anything is touched."""
    manifest = Path(out_dir) / MANIFEST
    if not manifest.exists():
        return None
    try:
        data = json.loads(manifest.read_bytes().decode("utf-8"))
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        known = {f.name for f in fields(RunConfig)}
        if not known - LATER_KEYS <= set(data) <= known:
            raise ValueError(f"expected the keys {', '.join(sorted(known))}")
        return RunConfig.from_json(data)
    except (OSError, ValueError, RecursionError) as exc:
        raise RunError(f"{manifest} is not a whole run record of prefa-sim ({exc}); "
                       "use --force to start the run again") from None
