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

import json
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from .cards import Strain
from .dataset import records_table, table_records
from .scenario import DealSampler, SamplerStats, Scenario, parse_scenario
from .solver import Solver
from .tables import MODES, deal_table

MANIFEST = "_run.json"  # a leading "_" keeps Parquet readers from reading it


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


_worker = threading.local()  # one solver per worker thread: solvers are not thread-safe


def chunk_table(config: RunConfig, index: int, solver: Solver | None = None,
                stats: SamplerStats | None = None) -> pa.Table:
    """Deal, solve and tabulate chunk ``index`` of a run (``stats``: sampling counts, added)."""
    scenario = parse_scenario(config.scenario) if config.scenario else Scenario()
    rng = np.random.default_rng(np.random.SeedSequence(config.seed, spawn_key=(index,)))
    sampler = DealSampler(scenario)
    deals = sampler.sample(rng, len(config.chunk_deals(index)))
    if stats is not None:
        stats.tried += sampler.stats.tried
        stats.accepted += sampler.stats.accepted
    solver = solver or _get_solver()
    strains = [Strain[s] for s in config.strains]
    records = []
    for deal_index, row in zip(config.chunk_deals(index), deals, strict=True):
        hands = [int(row[0]), int(row[1]), int(row[2])]
        table = deal_table(solver, hands, int(row[3]), scenario.dealer, config.declarers,
                           strains, config.modes)
        records += table_records(deal_index, hands, int(row[3]), scenario.dealer, table)
    return records_table(records)


def _get_solver() -> Solver:
    if not hasattr(_worker, "solver"):
        _worker.solver = Solver()
    return _worker.solver


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
    table = chunk_table(config, index, stats=stats)
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


def prepare(config: RunConfig, out_dir: Path, resume: bool, force: bool) -> list[int]:
    """Check the output folder; return the chunks still to run."""
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
             scheduler=None) -> Path:
    """Run (or finish) a simulation into ``out_dir``.

    ``progress(done, total, seconds, acceptance)`` is called after each chunk; acceptance
    is the share of sampled deals that met the scenario's constraints so far.

    ``scheduler``: a Dask distributed address or ``Client`` to run the chunks on.
    """
    out_dir = Path(out_dir)
    todo = prepare(config, out_dir, resume, force)
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
