"""Running a simulation: deals drawn from the seed, solved and written as Parquet files.

Deal ``i`` of a run draws its cards from its own stream,
``SeedSequence(seed, spawn_key=(i,))``, so the data depend only on the seed and
the scenario, never on the chunk size, the number of workers or the machines.
The deals are cut into chunks of ``chunk_size``; chunk ``k`` is written to
``part-KKKKK.parquet`` through a temporary name and a rename, so a killed run
leaves only whole files.  ``_run.json`` records the configuration: ``resume``
reads it back, checks the parts already written (a truncated or corrupt part is
done again) and runs the chunks still missing.  A finished run is not
overwritten unless forced, and a run that fails before its first part is
written leaves the folder as it found it.

Nothing is listed per chunk up front: the chunks to run are generated as the
workers take them, so a run of any size starts at once in bounded memory.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field, fields
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ..bots.specs import file_digest, is_file_spec
from ..core.cards import ALL_CARDS, Strain, format_hand, parse_hand, popcount
from ..core.seats import DEFAULT_DEALER, SeatError, check_dealer
from ..dealing.scenario import DealSampler, SamplerStats, Scenario, deal_rng, parse_scenario
from ..solve.solver import Solver, worker_solver
from ..solve.tables import MODES, deal_table
from ..util.jsonl import decode, misspelt_field, numbered_lines, unexpected
from ..util.words import counted
from ..util.workers import DEFAULT_SCHEDULER_TIMEOUT, dask_client, unordered_map
from .dataset import records_table, table_records
from .run_folder import (
    MANIFEST,
    PART_GLOB,
    REPLAY_FILE,
    TEMPORARY_PART_GLOB,
    RunLock,
    drop_replaced,
    put_back,
    recover_locked,
    run_files,
    set_aside,
)

LATER_KEYS = {"players", "duplicate", "full_games", "player_files"}
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
        return data

    @classmethod
    def from_json(cls, data: dict) -> RunConfig:
        """The configuration recorded by ``to_json``."""
        return cls(**data)


# -- one chunk ---------------------------------------------------------------------------

def chunk_table(config: RunConfig, index: int, solver: Solver | None = None,
                stats: SamplerStats | None = None, out_dir: Path | None = None) -> pa.Table:
    """Deal (or replay), solve and tabulate chunk ``index`` of a run.

    ``stats`` receives the sampling counts; ``out_dir`` holds the replayed deals.
    """
    span = config.chunk_deals(index)
    if config.players:
        from .games import games_table

        return games_table(config.players, config.seed, span, config.duplicate,
                           config.full_games)
    if config.replay:
        rows = np.load(Path(out_dir) / REPLAY_FILE, mmap_mode="r")[span.start:span.stop]
        deals, dealers = np.array(rows[:, :4]), [int(d) for d in rows[:, 4]]
    else:
        scenario = parse_scenario(config.scenario) if config.scenario else Scenario()
        sampler = DealSampler(scenario)
        deals = [sampler.deal(deal_rng(config.seed, i)) for i in span]
        dealers = [scenario.dealer] * len(span)
        if stats is not None:
            stats.tried += sampler.stats.tried
            stats.accepted += sampler.stats.accepted
    solver = solver or worker_solver()
    strains = [Strain[s] for s in config.strains]
    records = []
    for deal_index, row, dealer in zip(span, deals, dealers, strict=True):
        hands = [int(row[0]), int(row[1]), int(row[2])]
        table = deal_table(solver, hands, int(row[3]), dealer, config.declarers, strains,
                           config.modes)
        records += table_records(deal_index, hands, int(row[3]), dealer, table)
    return records_table(records)


def chunk_path(out_dir: Path, index: int) -> Path:
    return out_dir / f"part-{index:05d}.parquet"


def chunk_index(path: Path) -> int | None:
    """The chunk a part file holds, from its name exactly as ``chunk_path`` writes it
    (None for any other file, ``part-1.parquet`` included)."""
    stem = path.name.removeprefix("part-").removesuffix(".parquet")
    if not (path.name.startswith("part-") and stem.isascii() and stem.isdigit()):
        return None
    return int(stem) if chunk_path(path.parent, int(stem)).name == path.name else None


def file_metadata(config: RunConfig, index: int, stats: SamplerStats) -> dict[bytes, bytes]:
    """Parquet key-value metadata: seed, scenario, sampling, versions, creation time."""
    versions = {name: version(name) for name in ("prefa-sim", "numpy", "numba", "pyarrow")}
    span = config.chunk_deals(index)
    info = {"root_seed": config.seed, "chunk": index, "deals": [span.start, span.stop],
            "deal_streams": "SeedSequence(root_seed, spawn_key=(deal,))",
            "config": config.to_json(), "versions": versions,
            "sampling": {"tried": stats.tried, "accepted": stats.accepted},
            "created": datetime.now(UTC).isoformat(timespec="seconds")}
    return {b"prefa_sim": json.dumps(info).encode()}


def write_chunk(config: RunConfig, out_dir: Path, index: int) -> tuple[int, int, int]:
    """Compute and write one chunk atomically; returns (chunk, deals tried, deals accepted)."""
    stats = SamplerStats()
    table = chunk_table(config, index, stats=stats, out_dir=out_dir)
    table = table.replace_schema_metadata({**(table.schema.metadata or {}),
                                           **file_metadata(config, index, stats)})
    final = chunk_path(out_dir, index)
    temporary = final.with_name(f".{final.name}.tmp{os.getpid()}")  # hidden from readers
    try:
        pq.write_table(table, temporary)
        os.replace(temporary, final)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return index, stats.tried, stats.accepted


def _write_chunk_job(job: tuple[RunConfig, str, int]) -> tuple[int, int, int]:
    config, out_dir, index = job
    return write_chunk(config, Path(out_dir), index)


def part_problem(path: Path, config: RunConfig, index: int) -> str | None:
    """Why the part file of chunk ``index`` must be written again (None when it is whole).

    A part that reads well but belongs to another run raises ``RunError``: it is not
    damage to repair but a sign that the folder was changed by hand.
    """
    try:
        table = pq.read_table(path)
        info = json.loads((table.schema.metadata or {}).get(b"prefa_sim", b"null"))
    except (ValueError, pa.ArrowException) as exc:
        return f"unreadable ({str(exc).splitlines()[0][:80]})"
    except OSError as exc:  # not damage: permissions, a failing disk
        raise RunError(f"cannot read {path}: {exc.strerror or exc}") from None
    if not isinstance(info, dict) or info.get("chunk") != index \
            or info.get("config") != config.to_json():
        raise RunError(f"{path} belongs to another run than the one recorded in "
                       f"{MANIFEST}; nothing was changed: move it away, or use --force to "
                       "start the run again")
    if config.chunk_rows(index) is not None and table.num_rows != config.chunk_rows(index):
        return f"{table.num_rows} rows, expected {config.chunk_rows(index)}"
    return None


# -- the output folder --------------------------------------------------------------------

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


def describe_run(out_dir: str | Path) -> list[tuple[str, str]]:
    """What made the dataset in ``out_dir``, as (label, text) pairs for a reader: the
    scenario, the seed, the deals and what was studied; empty when it has no run record."""
    try:
        config = read_manifest(out_dir) if Path(out_dir).is_dir() else None
    except RunError:
        return [("run record", f"{Path(out_dir) / MANIFEST} cannot be read: the figures "
                               "below come from the part files alone")]
    if config is None:
        return []
    about = [("deals", f"{config.deals:,}")]
    unfinished = _unfinished(Path(out_dir), config)
    if unfinished:
        about.append(("unfinished", unfinished))
    if config.replay:
        about.append(("deals from", "a replayed file (their own dealers)"))
    else:
        scenario = parse_scenario(config.scenario) if config.scenario else Scenario()
        about += [("seed", str(config.seed)), ("scenario", scenario.name),
                  ("description", scenario.description), ("dealer", f"seat {scenario.dealer}")]
        about += [(f"fixed ({role})", format_hand(mask)) for role, mask in
                  scenario.fixed.items() if mask]
        about += [("constraint", c.text) for c in scenario.constraints]
    about += [("declaring seats", ", ".join(map(str, config.declarers))),
              ("strains", ", ".join(config.strains)), ("defence modes", ", ".join(config.modes))]
    return about


def _unfinished(out_dir: Path, config: RunConfig) -> str | None:
    """How much of an unfinished run is written, and how to finish it (None: finished)."""
    written = len(written_chunks(out_dir, config))
    if written == config.chunks:
        return None
    command = "games" if config.players else "simulate"
    return (f"{written} of {counted(config.chunks, 'chunk')} written; finish with prefa "
            f"{command} -o {out_dir} --resume")


def dataset_notes(out_dir: str | Path, split_by_declarer: bool = False) -> list[str]:
    """What every summary of the dataset in ``out_dir`` must say of it: that the run is
    unfinished (its figures cover the chunks written), and that rows of more than one
    declaring seat are pooled (unless the summary is ``split_by_declarer``).  Empty for
    a file, or a folder without a readable run record."""
    try:
        config = read_manifest(out_dir) if Path(out_dir).is_dir() else None
    except RunError:
        return []
    if config is None:
        return []
    notes = []
    unfinished = _unfinished(Path(out_dir), config)
    if unfinished:
        notes.append(f"an unfinished run: {unfinished}")
    if not config.players and len(config.declarers) > 1 and not split_by_declarer:
        seats = ", ".join(map(str, config.declarers))
        notes.append(f"rows pooled over the declaring seats {seats}: declarer or position "
                     "in --by or --where tells them apart")
    return notes


def dataset_caption(out_dir: str | Path) -> str:
    """The scenario behind a dataset and its ``dataset_notes``, for a figure's footnote."""
    return "; ".join([scenario_name(out_dir), *dataset_notes(out_dir)])


def scenario_name(out_dir: str | Path) -> str:
    """The name of the scenario behind a dataset, for captions."""
    about = dict(describe_run(out_dir))
    if "deals" not in about:
        return "as in the dataset"
    return about.get("scenario", "replayed deals")


def written_chunks(out_dir: Path, config: RunConfig) -> set[int]:
    """The chunks of ``config`` with a part file in ``out_dir`` (not checked)."""
    found = (chunk_index(p) for p in out_dir.glob(PART_GLOB))
    return {i for i in found if i is not None and i < config.chunks}


def is_finished(out_dir: str | Path, config: RunConfig) -> bool:
    """Does ``out_dir`` hold this run, every chunk written?"""
    out_dir = Path(out_dir)
    try:
        recorded = read_manifest(out_dir)
    except (RunError, OSError):
        return False
    return recorded == config and len(written_chunks(out_dir, config)) == config.chunks


@dataclass
class Plan:
    """What a run does in its folder: the chunks to run, and how to undo a failed start."""

    todo: Callable[[], Iterator[int]]
    remaining: int
    redone: list[tuple[int, str]]
    """Parts found broken on resume, with the reason; they are run again."""
    created: list[Path]
    """Files (and the folder) made by a fresh start, removed if it fails before any part."""
    replaced: bool = False
    """A run set aside by ``--force`` (``run_folder.set_aside``), put back if the new run
    fails before its first part, deleted once it is written."""
    fresh: bool = False
    """A new run (not a resume): a failure before its first part is undone."""
    undone: bool = False
    """Set when a failed start was undone: the folder is as the run found it."""
    lock: RunLock | None = None
    """The folder's lock, held until the run ends."""


def _write_atomic(path: Path, data: bytes) -> None:
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)


def _check_replay(out_dir: Path, config: RunConfig) -> None:
    """The replayed deals in the folder are the ones the run recorded."""
    try:
        rows = np.load(out_dir / REPLAY_FILE, allow_pickle=False)
        intact = replay_rows(rows)[1] == config.replay and rows.ndim == 2 \
            and len(rows) == config.deals
    except (OSError, ValueError):
        intact = False
    if not intact:
        raise RunError(f"{out_dir / REPLAY_FILE} is missing or not the deals this run "
                       "recorded; use --force to start the run again")


def _check_player_files(config: RunConfig) -> None:
    """The player files of a run hold what they held when it started."""
    for path, digest in config.player_files.items():
        try:
            now = file_digest(path)
        except OSError as exc:
            raise RunError(f"player file {path} of this run cannot be read "
                           f"({exc.strerror or exc}); resume with the file as it was") from None
        if now != digest:
            raise RunError(f"player file {path} has changed since this run started: resume "
                           "with the file as it was (or --force to start again with the new "
                           "one)")


def _resume_plan(config: RunConfig, out_dir: Path) -> Plan:
    _check_player_files(config)
    if config.replay:
        _check_replay(out_dir, config)
    parts = list(out_dir.glob(PART_GLOB))
    found = {chunk_index(p): p for p in parts}
    foreign = sorted(p.name for p in parts
                     if chunk_index(p) is None or chunk_index(p) >= config.chunks)
    if foreign:
        raise RunError(f"{out_dir} holds part files that are not chunks of this run: "
                       f"{', '.join(foreign[:5])}; move them away before resuming")
    done = set(found) - {None}
    redone = []
    for index in sorted(done):  # checked before anything is changed
        problem = part_problem(chunk_path(out_dir, index), config, index)
        if problem:
            redone.append((index, problem))
    for stray in out_dir.glob(TEMPORARY_PART_GLOB):
        stray.unlink()
    for index, _ in redone:
        chunk_path(out_dir, index).unlink(missing_ok=True)
        done.discard(index)

    def missing() -> Iterator[int]:
        return (i for i in range(config.chunks) if i not in done)
    return Plan(missing, config.chunks - len(done), redone, [])


def prepare(config: RunConfig, out_dir: Path, resume: bool, force: bool,
            replay: np.ndarray | None = None) -> Plan:
    """Lock the output folder, put right an interrupted ``--force`` found there, check the
    folder (and store the deals to replay) and plan the chunks to run.  The plan holds
    the lock: ``finish`` lets go of it."""
    if resume and force:
        raise RunError("--resume finishes the run in the folder and --force replaces it: "
                       "give one of them")
    if out_dir.exists() and not out_dir.is_dir():
        raise RunError(f"{out_dir} is a file, not a folder")
    if resume and not out_dir.exists():
        raise RunError(f"{out_dir} holds no run to resume")
    made_folder = not out_dir.exists()
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RunError(f"cannot make the folder {out_dir}: {exc.strerror or exc}") from None
    lock = RunLock(out_dir)
    try:
        lock.acquire()
        recover_locked(out_dir)  # says what it put right (logging)
        plan = _plan(config, out_dir, resume, force, replay, made_folder)
    except BaseException:
        lock.release()
        if made_folder and out_dir.is_dir() and not any(out_dir.iterdir()):
            out_dir.rmdir()
        raise
    plan.lock = lock
    return plan


def _plan(config: RunConfig, out_dir: Path, resume: bool, force: bool,
          replay: np.ndarray | None, made_folder: bool) -> Plan:
    recorded = read_manifest(out_dir) if not force else None
    if recorded is not None:
        if not resume:
            if len(written_chunks(out_dir, recorded)) == recorded.chunks:
                raise RunError(f"{out_dir} holds a finished run; use --force to replace it, or "
                               "-o to write to another folder")
            raise RunError(f"{out_dir} holds an unfinished run; use --resume to finish it or "
                           "--force to start again")
        if recorded != config:
            raise RunError(f"{out_dir} holds a run with other settings; --resume takes them "
                           "from the folder (or use --force to start again)")
        return _resume_plan(config, out_dir)
    if resume:
        raise RunError(f"{out_dir} holds no run to resume")
    if not force and run_files(out_dir):
        raise RunError(f"{out_dir} holds Parquet parts but no run of prefa-sim; choose "
                       "another folder, or --force to replace them")
    plan = Plan(lambda: iter(range(config.chunks)), config.chunks, [],
                [out_dir] if made_folder else [], fresh=True)
    try:
        # --force: the old run is set aside until the new one has written a part
        plan.replaced = force and set_aside(out_dir) is not None
        if replay is not None:
            plan.created.append(out_dir / REPLAY_FILE)
            _write_atomic(out_dir / REPLAY_FILE, _npy_bytes(replay))
        plan.created.append(out_dir / MANIFEST)
        _write_atomic(out_dir / MANIFEST, json.dumps(config.to_json(), indent=1).encode())
    except BaseException:
        _restore_start(out_dir, plan)
        raise
    return plan


def _npy_bytes(array: np.ndarray) -> bytes:
    import io

    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


def _undo_start(out_dir: Path, plan: Plan, restore: bool = True) -> None:
    """After a failed or interrupted run: a fresh start that wrote no part is undone
    (``_restore_start``); once the new run has a part, the replaced run goes instead.
    With ``restore`` false (tasks may still be running on a cluster) a replaced run
    stays where it was set aside, for the next command on the folder to put right
    (``run_folder.recover``)."""
    for stray in out_dir.glob(TEMPORARY_PART_GLOB):
        stray.unlink(missing_ok=True)
    if not plan.fresh:
        return
    if any(out_dir.glob(PART_GLOB)):  # the old run's parts were all set aside at the start
        drop_replaced(out_dir)
    elif restore:
        _restore_start(out_dir, plan)


def _restore_start(out_dir: Path, plan: Plan) -> None:
    """Remove what a fresh start made and put a replaced run back."""
    for path in reversed(plan.created):
        if path != out_dir:
            path.unlink(missing_ok=True)
    if plan.replaced:
        put_back(out_dir)
    if out_dir in plan.created and not any(out_dir.iterdir()):
        out_dir.rmdir()
    plan.undone = True


# -- running -------------------------------------------------------------------------------

def run_chunks(config: RunConfig, out_dir: Path, chunks: Iterable[int], workers: int,
               client=None, on_stop: Callable[[int], None] | None = None
               ) -> Iterator[tuple[int, int, int]]:
    """Run ``chunks`` and yield ``(chunk, tried, accepted)`` as each is written.

    With ``client`` (a Dask distributed ``Client``, ``workers.dask_client``), on its
    cluster: its workers need prefa-sim installed and ``out_dir`` on a shared file
    system.  Otherwise on local processes (inline with one worker).  Jobs are handed
    out a few at a time, never listed up front.  Stopped by a Ctrl-C, the local
    processes finish their running chunks first (``on_stop`` is told how many), unless
    a second Ctrl-C comes (``workers.unordered_map``).
    """
    jobs = ((config, str(out_dir), index) for index in chunks)
    if client is not None:
        yield from _run_on_dask(jobs, client)
        return
    yield from unordered_map(_write_chunk_job, jobs, workers, on_stop=on_stop,
                             isolated=any(map(is_file_spec, config.players)))


def _run_on_dask(jobs: Iterator, client) -> Iterator[tuple[int, int, int]]:
    from distributed import as_completed

    submitted: list = []
    try:
        window = 2 * max(1, sum(client.nthreads().values()))
        submitted = [client.submit(_write_chunk_job, job, pure=False)
                     for job in _take(jobs, window)]
        running = as_completed(submitted)
        for future in running:
            yield future.result()
            for job in _take(jobs, 1):
                submitted.append(client.submit(_write_chunk_job, job, pure=False))
                running.add(submitted[-1])
            submitted = [f for f in submitted if not f.done()]
    finally:
        client.cancel([f for f in submitted if not f.done()])


def _take(iterator: Iterator, n: int) -> list:
    out = []
    for item in iterator:
        out.append(item)
        if len(out) == n:
            break
    return out


@dataclass
class Progress:
    """Where a run stands, passed to the progress callback after each chunk."""

    done: int
    total: int
    deals_done: int
    seconds: float
    acceptance: float


def simulate(config: RunConfig, out_dir: str | Path, workers: int = 1, resume: bool = False,
             force: bool = False, progress: Callable[[Progress], None] | None = None,
             scheduler=None, replay: np.ndarray | None = None,
             on_plan: Callable[[Plan], None] | None = None,
             scheduler_timeout: float = DEFAULT_SCHEDULER_TIMEOUT,
             on_stop: Callable[[int], None] | None = None) -> Path:
    """Run (or finish) a simulation into ``out_dir``.

    ``replay``: deals to solve instead of sampling (``replay_rows``; the config's
    ``replay`` must be their hash and ``deals`` their number).  ``progress`` is
    called after each chunk, ``on_plan`` once the folder is checked and ``on_stop``
    with the number of running chunks a Ctrl-C waits for.
    ``scheduler``: a Dask distributed address or ``Client`` to run the chunks on; it
    is reached (within ``scheduler_timeout`` seconds) before the folder is touched, so
    a scheduler that is refused leaves the folder as it was.  ``workers`` is capped at
    the number of chunks to run.  One process at a time works in a folder
    (``run_folder.RunLock``).
    """
    out_dir = Path(out_dir)
    client = dask_client(scheduler, scheduler_timeout) if scheduler is not None else None
    try:
        plan = prepare(config, out_dir, resume, force, replay)
    except BaseException:
        _close_client(client, scheduler)
        raise
    start = time.perf_counter()
    done = config.chunks - plan.remaining
    deals_done = 0
    sampled = SamplerStats()
    chunks = run_chunks(config, out_dir, plan.todo(), min(workers, plan.remaining), client,
                        on_stop)
    try:
        if on_plan:
            on_plan(plan)
        for index, tried, accepted in chunks:
            if deals_done == 0:
                drop_replaced(out_dir)  # the new run has its first part: the old one goes
            done += 1
            deals_done += len(config.chunk_deals(index))
            sampled.tried += tried
            sampled.accepted += accepted
            if progress:
                progress(Progress(done, config.chunks, deals_done,
                                  time.perf_counter() - start, sampled.acceptance))
    except BaseException:
        chunks.close()  # the running chunks are finished (or killed) before the folder is seen
        _undo_start(out_dir, plan, restore=client is None)
        raise
    finally:
        _close_client(client, scheduler)
        plan.lock.release()
    drop_replaced(out_dir)
    return out_dir


def _close_client(client, scheduler) -> None:
    """Close a client made here from an address (one handed in stays open)."""
    if client is not None and client is not scheduler:
        client.close()


# -- replays -------------------------------------------------------------------------------

def replay_rows(deals: np.ndarray) -> tuple[np.ndarray, str]:
    """Deals to replay as int64 rows ``[hand0, hand1, hand2, widow, dealer]`` and their SHA-256."""
    rows = np.ascontiguousarray(deals, dtype=np.int64)
    return rows, hashlib.sha256(rows.tobytes()).hexdigest()


def parse_replay_deal(obj) -> list[int]:
    """One replay line, decoded: ``[hand0, hand1, hand2, widow, dealer]``."""
    misspelt = misspelt_field(obj, ("hands", "widow", "dealer")) if isinstance(obj, dict) \
        else None
    if misspelt:
        raise ValueError(misspelt)
    if not isinstance(obj, dict) or not isinstance(obj.get("hands"), list) \
            or len(obj["hands"]) != 3:
        raise ValueError("a line needs 'hands': three hands of ten cards")
    hands = []
    for seat, hand in enumerate(obj["hands"]):
        if not isinstance(hand, str | list):
            raise ValueError(f"hand of seat {seat} must be cards, e.g. \"AKQ.-.J7.AT98\"")
        try:
            hands.append(parse_hand(hand, 10))
        except ValueError as exc:
            raise ValueError(f"hand of seat {seat}: {exc}") from None
    dealt = hands[0] | hands[1] | hands[2]
    if popcount(dealt) != 30:
        raise ValueError("a card is in two hands")
    if "widow" in obj:
        if not isinstance(obj["widow"], str | list):
            raise ValueError("'widow' must be two cards")
        widow = parse_hand(obj["widow"], 2)
    else:
        widow = ALL_CARDS & ~dealt
    if widow & dealt:
        raise ValueError("a widow card is also in a hand")
    try:
        dealer = obj.get("dealer")
        dealer = DEFAULT_DEALER if dealer is None else check_dealer(dealer)
    except SeatError as exc:
        raise ValueError(str(exc)) from None
    return [*hands, widow, dealer]


def read_replay(lines: Iterable[bytes | str], limit: int | None = None
                ) -> tuple[np.ndarray, list[tuple[int, str]]]:
    """Deals to replay from JSON Lines in the ``prefa solve`` format.

    Each line needs ``hands`` (three hands of ten cards) and may give ``widow`` (else the
    two cards left over) and ``dealer`` (default 2); other fields are ignored, but one
    that is nearly one of these is a bad line (``jsonl.misspelt_field``).  Reads at most
    ``limit`` good deals.  Returns the rows for ``replay_rows`` and the bad lines as
    ``(line number, error)``.
    """
    rows, errors = [], []
    for line in numbered_lines(lines):
        if limit is not None and len(rows) >= limit:
            break
        if line.error is not None:
            errors.append((line.number, line.error))
            continue
        try:
            rows.append(parse_replay_deal(decode(line.text)))
        except ValueError as exc:
            errors.append((line.number, str(exc)))
        except Exception as exc:  # noqa: BLE001 - report the line and read the rest
            errors.append((line.number, unexpected(exc)))
    return np.array(rows, dtype=np.int64).reshape(-1, 5), errors
