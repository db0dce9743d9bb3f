"""One chunk of a run: its deals drawn (or replayed), solved or played, and written as one
Parquet part through a temporary name and a rename, so a killed run leaves only whole
files; and the check of a part already written."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ..core.cards import Strain
from ..dealing.scenario import DealSampler, SamplerStats, Scenario, deal_rng, parse_scenario
from ..solve.solver import Solver, worker_solver
from ..solve.tables import deal_table
from .config import RunConfig, RunError
from .dataset import records_table, table_records
from .games import games_table
from .run_folder import (
    MANIFEST,
    PART_GLOB,
    REPLAY_FILE,
)


def chunk_table(config: RunConfig, index: int, solver: Solver | None = None,
                stats: SamplerStats | None = None, out_dir: Path | None = None) -> pa.Table:
    """Deal (or replay), solve and tabulate chunk ``index`` of a run.

    ``stats`` receives the sampling counts; ``out_dir`` holds the replayed deals.
    """
    span = config.chunk_deals(index)
    if config.players:
        return games_table(config.players, config.seed, span, config.duplicate,
                           config.full_games, config.rules_value)
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
    overtrump = config.rules_value.overtrump
    records = []
    for deal_index, row, dealer in zip(span, deals, dealers, strict=True):
        hands = [int(row[0]), int(row[1]), int(row[2])]
        table = deal_table(solver, hands, int(row[3]), dealer, config.declarers, strains,
                           config.modes, overtrump=overtrump)
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


def write_chunk_job(job: tuple[RunConfig, str, int]) -> tuple[int, int, int]:
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


def written_chunks(out_dir: Path, config: RunConfig) -> set[int]:
    """The chunks of ``config`` with a part file in ``out_dir`` (not checked)."""
    found = (chunk_index(p) for p in out_dir.glob(PART_GLOB))
    return {i for i in found if i is not None and i < config.chunks}
