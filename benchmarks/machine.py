"""How much work this machine does with two processes at once, against one alone.

    python benchmarks/machine.py [--workload 2h] [--seconds 2] [--repeat 3]

A shared or virtual machine may not give two busy processes two whole cores: then no
program scales to x2 on it, whatever it does, and how near it comes depends on the work
(two virtual cores may share one core's caches).  Two processes each solve the same
fixed positions for a fixed count (no input, no output, no communication), first one
alone, then two started together, best of three each, alternating; the capacity is twice
the lone time over the slower of the pair.  The positions are those of a workload of
``bench_solver.py``: 3-hand deals, 2-hand deals or widow cells.  ``bench_simulate.py``
and ``bench_batch.py`` print it beside their two-worker figures, for the workload nearest
theirs, as the ceiling those can reach in that run.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

WORKLOADS = ("3h", "2h", "widow")

_CHILD = """
import sys, time
import numpy as np
from bench_solver import make_cells, make_deals
from prefa_sim.solve.solver import Solver
rounds, start_at, workload = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
rng = np.random.default_rng(7)
solver = Solver()
if workload == "widow":
    rows = np.array([[*hands, hands[declarer] | widow, trump, leader, declarer, 7]
                     for hands, widow, trump, leader, declarer in make_cells(rng, 40)])
    work = lambda: solver.solve_widows(rows)
else:
    deals = make_deals(rng, 1000 if workload == "2h" else 250, workload == "2h")
    work = lambda: solver.solve_deals(deals, fresh_table=True)
work()  # load the kernels
while time.time() < start_at:
    time.sleep(0.001)
begin = time.perf_counter()
for _ in range(rounds):
    work()
print(time.perf_counter() - begin)
"""


def _run(copies: int, rounds: int, workload: str) -> list[float]:
    """Seconds of the timed loop in each of ``copies`` processes started together."""
    start_at = f"{time.time() + 2.0:.3f}"  # after every copy has loaded the kernels
    children = [subprocess.Popen([sys.executable, "-c", _CHILD, str(rounds), start_at,
                                  workload],
                                 cwd=Path(__file__).parent, stdout=subprocess.PIPE, text=True)
                for _ in range(copies)]
    return [float(child.communicate()[0]) for child in children]


def two_process_capacity(workload: str = "2h", seconds: float = 2.0, repeat: int = 3
                         ) -> float:
    """Work done by two processes at once over one alone's, in the same time (2.0: two
    whole cores), on ``workload`` (one of ``WORKLOADS``); best of ``repeat`` runs each."""
    one_round = _run(1, 1, workload)[0]
    rounds = max(1, round(seconds / one_round))
    alone = pair = float("inf")
    for _ in range(repeat):
        alone = min(alone, _run(1, rounds, workload)[0])
        pair = min(pair, max(_run(2, rounds, workload)))
    return 2 * alone / pair


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workload", choices=WORKLOADS, default="2h")
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="length of each timed loop")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each; the best counts")
    args = parser.parse_args()
    capacity = two_process_capacity(args.workload, args.seconds, args.repeat)
    print(f"{args.workload}: two processes at once: x{capacity:.2f} one alone")


if __name__ == "__main__":
    main()
