"""Aggregation throughput of the statistics layer: rows per second on one core, and peak memory.

    python benchmarks/bench_stats.py [--rows 10000000] [--files 10] [--seed 1]

Writes a synthetic dataset in the simulation schema (random hands, tricks and features:
the numbers are meaningless, only the work is real) into a temporary folder, then times
``group_make_rates`` grouped by strain and position, and by features after the widow
(computed from the hands, the widow and the discard), with a filter, and the defence
statistics (``defence_stats``: quotas, the money of every declaration sequence and their
bootstrap over deals).  The peak resident
memory of the process (writing included) is printed at the end.
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from prefa_sim.sim.dataset import SCHEMA
from prefa_sim.stats.defence import _values, defence_stats
from prefa_sim.stats.groups import group_make_rates


def synthetic_part(rng: np.random.Generator, rows: int, first_row: int = 0) -> pa.Table:
    """Random values of the right types in every column of the dataset; 15 rows a deal."""
    columns = {}
    for field in SCHEMA:
        if field.name == "deal":
            columns["deal"] = pa.array((first_row + np.arange(rows)) // 15)
        elif field.name == "strain":
            columns[field.name] = pa.array(rng.choice(["S", "C", "D", "H", "NT"], rows))
        elif pa.types.is_uint32(field.type):
            columns[field.name] = pa.array(rng.integers(0, 2**32, rows, dtype=np.uint32))
        else:
            high = 3 if field.name in ("dealer", "declarer", "position") else 11
            values = rng.integers(0, high, rows).astype(field.type.to_pandas_dtype())
            columns[field.name] = pa.array(values)
    return pa.table(columns, schema=SCHEMA)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--files", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        per_file = args.rows // args.files
        for index in range(args.files):
            pq.write_table(synthetic_part(rng, per_file, index * per_file),
                           out / f"part-{index:05d}.parquet")
        rows = per_file * args.files
        print(f"prefa-sim statistics benchmark: {rows:,} rows in {args.files} files, one core")
        for label, by, where in (
                ("by strain and position", ("strain", "position"), None),
                ("by trumps and top trumps after the widow, filtered",
                 ("trumps_after", "trump_top3_after"), "strain == H and position == 0")):
            start = time.perf_counter()
            groups = group_make_rates(out, by, where)
            seconds = time.perf_counter() - start
            print(f"{label}: {len(groups)} groups, {rows / seconds / 1e6:.2f} million rows/s "
                  f"({seconds:.1f} s)")
        _values()  # the money table is built once per process: not part of the scan
        start = time.perf_counter()
        stats = defence_stats(out, replicates=1000)
        seconds = time.perf_counter() - start
        print(f"defence (quotas, 7 sequences x 3 players, 25 contracts, 1000 bootstrap "
              f"replicates): {len(stats.contracts)} contracts, {rows / seconds / 1e6:.2f} "
              f"million rows/s ({seconds:.1f} s)")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory: {peak:.0f} MiB")


if __name__ == "__main__":
    main()
