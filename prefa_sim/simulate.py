"""Running a simulation: seeded chunks of deals, solved and written as Parquet files.

A run of ``deals`` deals is cut into chunks of ``chunk_size``.  Chunk ``i`` draws
its deals from its own stream, ``SeedSequence(seed, spawn_key=(i,))``, so the
data depend only on the seed and the configuration, never on how many workers
or machines ran the chunks.  Each chunk is written to ``part-NNNNN.parquet``
through a temporary name and a rename, so a killed run leaves only whole
files; ``resume`` runs the chunks still missing.  ``_run.json`` records the
configuration; a finished run is not overwritten unless forced.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from .cards import ALL_CARDS, Strain, parse_hand, popcount
from .dataset import records_table, table_records
from .scenario import DealSampler, SamplerStats, Scenario, parse_scenario
from .solver import Solver, worker_solver
from .tables import MODES, deal_table

MANIFEST = "_run.json"  # a leading "_" keeps Parquet readers from reading it
REPLAY_FILE = "_replay.npy"  # deals to replay: rows [hand0, hand1, hand2, widow, dealer]


class RunError(ValueError):
    """A run that cannot start or resume as asked."""


@dataclass(frozen=True)
class RunConfig:
    """Everything that determines a run's data."""

    deals: int
    seed: int
    chunk_size: int = 25
    declarers: tuple[int, ...] = (0, 1, 2)
    strains: tuple[str, ...] = tuple(s.name for s in Strain)
    modes: tuple[str, ...] = MODES
    scenario: dict = field(default_factory=dict)
    """The scenario as decoded TOML (empty: uniformly random deals, seat 0 dealing)."""
    scenario_text: str = ""
    replay: str = ""
    """SHA-256 of the replayed deals (``REPLAY_FILE`` in the output folder), or empty."""

    @property
    def chunks(self) -> int:
        return (self.deals + self.chunk_size - 1) // self.chunk_size

    def chunk_deals(self, index: int) -> range:
        """The deal indices of chunk ``index``."""
        start = index * self.chunk_size
        return range(start, min(start + self.chunk_size, self.deals))

    def to_json(self) -> dict:
        data = asdict(self)
        data["declarers"] = list(self.declarers)
        data["strains"] = list(self.strains)
        data["modes"] = list(self.modes)
        return data



def chunk_table(config: RunConfig, index: int, solver: Solver | None = None,
                stats: SamplerStats | None = None, out_dir: Path | None = None) -> pa.Table:
    """Deal (or replay), solve and tabulate chunk ``index`` of a run.

    ``stats`` receives the sampling counts; ``out_dir`` holds the replayed deals.
    """
    scenario = parse_scenario(config.scenario) if config.scenario else Scenario()
    span = config.chunk_deals(index)
    if config.replay:
        rows = np.load(Path(out_dir) / REPLAY_FILE, mmap_mode="r")[span.start:span.stop]
        deals, dealers = np.array(rows[:, :4]), [int(d) for d in rows[:, 4]]
    else:
        rng = np.random.default_rng(np.random.SeedSequence(config.seed, spawn_key=(index,)))
        sampler = DealSampler(scenario)
        deals = sampler.sample(rng, len(span))
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


def file_metadata(config: RunConfig, index: int, stats: SamplerStats) -> dict[bytes, bytes]:
    """Parquet key-value metadata: seed, scenario, sampling, versions, creation time."""
    versions = {name: version(name) for name in ("prefa-sim", "numpy", "numba", "pyarrow")}
    info = {"root_seed": config.seed, "chunk": index, "spawn_key": [index],
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
    pq.write_table(table, temporary)
    os.replace(temporary, final)
    return index, stats.tried, stats.accepted


def _write_chunk_job(job: tuple[RunConfig, str, int]) -> tuple[int, int, int]:
    config, out_dir, index = job
    return write_chunk(config, Path(out_dir), index)


def replay_rows(deals: np.ndarray) -> tuple[np.ndarray, str]:
    """Deals to replay as int64 rows ``[hand0, hand1, hand2, widow, dealer]`` and their SHA-256."""
    rows = np.ascontiguousarray(deals, dtype=np.int64)
    return rows, hashlib.sha256(rows.tobytes()).hexdigest()


def prepare(config: RunConfig, out_dir: Path, resume: bool, force: bool,
            replay: np.ndarray | None = None) -> list[int]:
    """Check the output folder (and store the deals to replay); return the chunks to run."""
    out_dir.mkdir(parents=True, exist_ok=True)
    manifest = out_dir / MANIFEST
    if manifest.exists() and not force:
        recorded = json.loads(manifest.read_text())
        done = [i for i in range(config.chunks) if chunk_path(out_dir, i).exists()]
        if not resume:
            state = "finished" if len(done) == config.chunks else "unfinished"
            raise RunError(f"{out_dir} holds a {state} run; use --resume to finish it or "
                           "--force to start again")
        if recorded != config.to_json():
            raise RunError(f"{out_dir} holds a run with other settings; --resume needs the "
                           "same seed, size, scenario and options (or use --force)")
    else:
        old_parts = [*out_dir.glob("part-*.parquet"), *out_dir.glob(".part-*.parquet.tmp*")]
        if old_parts and not force:
            raise RunError(f"{out_dir} holds Parquet parts but no run of prefa-sim; choose "
                           "another folder, or --force to replace them")
        for old in old_parts:
            old.unlink()
        if replay is not None:
            temporary = out_dir / f".{REPLAY_FILE}.tmp"
            with open(temporary, "wb") as f:
                np.save(f, replay)
            os.replace(temporary, out_dir / REPLAY_FILE)
        temporary = out_dir / f".{MANIFEST}.tmp"
        temporary.write_text(json.dumps(config.to_json(), indent=1))
        os.replace(temporary, manifest)
    for stray in out_dir.glob(".part-*.parquet.tmp*"):
        stray.unlink()
    return [i for i in range(config.chunks) if not chunk_path(out_dir, i).exists()]


def run_chunks(config: RunConfig, out_dir: Path, chunks: list[int], workers: int,
               scheduler: str | None = None) -> Iterator[tuple[int, int, int]]:
    """Run ``chunks`` and yield ``(chunk, tried, accepted)`` as each is written.

    With ``scheduler`` (a Dask distributed address, or a ``Client``), on that
    cluster: its workers need prefa-sim installed and ``out_dir`` on a shared
    file system.  Otherwise on a local process pool (inline with one worker).
    """
    jobs = [(config, str(out_dir), index) for index in chunks]
    if scheduler is not None:
        from distributed import Client, as_completed

        client = scheduler if isinstance(scheduler, Client) else Client(scheduler)
        try:
            futures = client.map(_write_chunk_job, jobs, pure=False)
            for future in as_completed(futures):
                yield future.result()
        finally:
            if client is not scheduler:
                client.close()
        return
    if workers <= 1:
        for index in chunks:
            yield write_chunk(config, out_dir, index)
        return
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        yield from pool.imap_unordered(_write_chunk_job, jobs)


def simulate(config: RunConfig, out_dir: str | Path, workers: int = 1, resume: bool = False,
             force: bool = False, progress: Callable[[int, int, float, float], None] | None = None,
             scheduler=None, replay: np.ndarray | None = None) -> Path:
    """Run (or finish) a simulation into ``out_dir``.

    ``replay``: deals to solve instead of sampling (``replay_rows``; the config's
    ``replay`` must be their hash and ``deals`` their number).

    ``progress(done, total, seconds, acceptance)`` is called after each chunk; acceptance
    is the share of sampled deals that met the scenario's constraints so far.

    ``scheduler``: a Dask distributed address or ``Client`` to run the chunks on.
    """
    out_dir = Path(out_dir)
    todo = prepare(config, out_dir, resume, force, replay)
    start = time.perf_counter()
    done = config.chunks - len(todo)
    sampled = SamplerStats()
    for _, tried, accepted in run_chunks(config, out_dir, todo, workers, scheduler):
        done += 1
        sampled.tried += tried
        sampled.accepted += accepted
        if progress:
            progress(done, config.chunks, time.perf_counter() - start, sampled.acceptance)
    return out_dir


def read_replay(lines) -> tuple[np.ndarray, list[tuple[int, str]]]:
    """Deals to replay from JSON Lines in the ``prefa solve`` format.

    Each line needs ``hands`` (three hands of ten cards) and may give ``widow`` (else the
    two cards left over) and ``dealer`` (default 0); other fields are ignored.  Returns
    the rows for ``replay_rows`` and the bad lines as ``(line number, error)``.
    """
    rows, errors = [], []
    for number, text in ((n, t) for n, t in enumerate(lines, start=1) if t.strip()):
        try:
            obj = json.loads(text)
            if not isinstance(obj, dict) or not isinstance(obj.get("hands"), list) \
                    or len(obj["hands"]) != 3:
                raise ValueError("a line needs 'hands': three hands of ten cards")
            hands = [parse_hand(h, 10) for h in obj["hands"]]
            dealt = hands[0] | hands[1] | hands[2]
            if popcount(dealt) != 30:
                raise ValueError("a card is in two hands")
            widow = parse_hand(obj["widow"], 2) if "widow" in obj else ALL_CARDS & ~dealt
            if widow & dealt:
                raise ValueError("a widow card is also in a hand")
            dealer = obj.get("dealer", 0)
            if dealer not in (0, 1, 2) or isinstance(dealer, bool):
                raise ValueError("'dealer' must be a seat 0-2")
            rows.append([*hands, widow, dealer])
        except json.JSONDecodeError as exc:
            errors.append((number, f"not valid JSON: {exc.msg}"))
        except ValueError as exc:
            errors.append((number, str(exc)))
    return np.array(rows, dtype=np.int64).reshape(-1, 5), errors
