"""Simulation throughput: deals per second per core, and scaling from 1 to 2 workers.

    python benchmarks/bench_simulate.py [--deals 1000] [--seed 1] [--repeat 2]

Workloads: the default table (random deals, every declarer, strain and defence mode)
and a fixed-hand scenario (first hand fixed, one declarer, every strain and mode).
Per-core numbers exclude JIT compile time (a warm-up chunk runs first) and are the best
of ``--repeat`` runs.  The scaling
runs time whole `simulate` calls with one and two workers, of N and of 2N deals (the
first N deals of both are the same); the whole-run figures include starting the worker
processes (each imports the library and loads the compiled kernels, some 0.8 s), and
the steady figures exclude it by taking the difference of the two runs.  Each whole
run is the best of ``--repeat``, one and two workers alternating (this machine's speed
varies by some 10% from run to run).  Last, ``machine.py`` measures how much work two
processes do at once here, against one alone, on widow cells (the work of a simulation):
the ceiling of the two-worker gain.
"""

from __future__ import annotations

import argparse
import tempfile
import time

from machine import two_process_capacity

from prefa_sim.sim.chunks import chunk_table
from prefa_sim.sim.config import RunConfig
from prefa_sim.sim.simulate import simulate
from prefa_sim.solve.solver import Solver

FIXED = {"dealer": 2, "fixed": {"first": "AKQJ9.-.A7.K98"}}


def per_core(config: RunConfig, repeat: int) -> float:
    """Deals per second solving ``config``'s chunks in this process, best of ``repeat``
    runs, each with a fresh solver."""
    chunk_table(RunConfig(**{**config.to_json(), "deals": 2, "chunk_size": 2}), 0, Solver())
    best = float("inf")
    for _ in range(repeat):
        solver = Solver()
        start = time.perf_counter()
        for index in range(config.chunks):
            chunk_table(config, index, solver)
        best = min(best, time.perf_counter() - start)
    return config.deals / best


def whole_run(config: RunConfig, workers: int) -> float:
    """Seconds of one whole ``simulate`` call."""
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        simulate(config, out, workers)
        return time.perf_counter() - start


def scaling(config: RunConfig, repeat: int) -> dict[int, tuple[float, float]]:
    """For one and two workers: deals per second of a whole run of ``config``, and the
    same with start-up excluded (the difference between runs of N and of 2N deals).
    Best of ``repeat`` runs each, the worker counts alternating."""
    double = RunConfig(**{**config.to_json(), "deals": 2 * config.deals})
    short = {1: float("inf"), 2: float("inf")}
    long = dict(short)
    for _ in range(repeat):
        for workers in (1, 2):
            short[workers] = min(short[workers], whole_run(config, workers))
            long[workers] = min(long[workers], whole_run(double, workers))
    return {w: (config.deals / short[w], config.deals / (long[w] - short[w])) for w in short}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=2,
                        help="runs of each measure (whole runs per worker count and size); "
                        "the best counts")
    args = parser.parse_args()
    default = RunConfig(deals=args.deals, seed=args.seed, chunk_size=25)
    fixed = RunConfig(deals=args.deals, seed=args.seed, chunk_size=25, declarers=(0,),
                      scenario=FIXED)
    print(f"prefa-sim simulation benchmark, seed {args.seed}, {args.deals} deals per workload")
    print(f"default table, one core:        {per_core(default, args.repeat):7.1f} deals/s")
    print(f"fixed hand, declarer 0, one core: {per_core(fixed, args.repeat):5.1f} deals/s")
    runs = scaling(default, args.repeat)
    (one, one_steady), (two, two_steady) = runs[1], runs[2]
    print(f"whole run, 1 worker:  {one:6.1f} deals/s   steady: {one_steady:6.1f} deals/s")
    print(f"whole run, 2 workers: {two:6.1f} deals/s   steady: {two_steady:6.1f} deals/s")
    print(f"2 workers / 1:        x{two / one:.2f}{'':13}"
          f"steady: x{two_steady / one_steady:.2f}")
    print(f"this machine, two processes at once: x{two_process_capacity('widow'):.2f} one "
          "alone on widow cells (benchmarks/machine.py; the most 2 workers can gain here now)")


if __name__ == "__main__":
    main()
