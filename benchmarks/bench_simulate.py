"""Simulation throughput: deals per second per core, and scaling from 1 to 2 workers.

    python benchmarks/bench_simulate.py [--deals 1000] [--seed 1]

Workloads: the default table (random deals, every declarer, strain and defence mode)
and a fixed-hand scenario (first hand fixed, one declarer, every strain and mode).
Per-core numbers exclude JIT compile time (a warm-up chunk runs first); the scaling
run times whole `simulate` calls, worker start-up included.
"""

from __future__ import annotations

import argparse
import tempfile
import time

from prefa_sim.simulate import RunConfig, chunk_table, simulate
from prefa_sim.solver import Solver

FIXED = {"dealer": 2, "fixed": {"first": "AKQJ9.-.A7.K98"}}


def per_core(config: RunConfig) -> float:
    """Deals per second solving ``config``'s chunks in this process."""
    solver = Solver()
    chunk_table(RunConfig(**{**config.to_json(), "deals": 2, "chunk_size": 2}), 0, solver)
    start = time.perf_counter()
    for index in range(config.chunks):
        chunk_table(config, index, solver)
    return config.deals / (time.perf_counter() - start)


def whole_run(config: RunConfig, workers: int) -> float:
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        simulate(config, out, workers)
        return config.deals / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    default = RunConfig(deals=args.deals, seed=args.seed, chunk_size=25)
    fixed = RunConfig(deals=args.deals, seed=args.seed, chunk_size=25, declarers=(0,),
                      scenario=FIXED)
    print(f"prefa-sim simulation benchmark, seed {args.seed}, {args.deals} deals per workload")
    print(f"default table, one core:        {per_core(default):7.1f} deals/s")
    print(f"fixed hand, declarer 0, one core: {per_core(fixed):5.1f} deals/s")
    one = whole_run(default, 1)
    two = whole_run(default, 2)
    print(f"whole run, 1 worker:  {one:6.1f} deals/s")
    print(f"whole run, 2 workers: {two:6.1f} deals/s  (x{two / one:.2f})")


if __name__ == "__main__":
    main()
