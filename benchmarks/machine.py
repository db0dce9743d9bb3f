"""How much work this machine does with two processes at once, against one alone.

    python benchmarks/machine.py [--seconds 2] [--repeat 3]

A shared or virtual machine may not give two busy processes two whole cores: then no
program scales to x2 on it, whatever it does.  Two processes each solve the same fixed
2-hand deals for a fixed count (no input, no output, no communication), first one alone,
then two started together, best of three each, alternating; the capacity is twice the
lone time over the slower of the pair.  ``bench_simulate.py`` and ``bench_batch.py``
print it beside their two-worker figures, as the ceiling those can reach in that run.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

_CHILD = """
import sys, time
import numpy as np
from bench_solver import make_deals
from prefa_sim.solver import Solver
deals = make_deals(np.random.default_rng(7), 1000, True)
solver = Solver()
solver.solve_deals(deals[:10], fresh_table=True)  # load the kernels
rounds, start_at = int(sys.argv[1]), float(sys.argv[2])
while time.time() < start_at:
    time.sleep(0.001)
begin = time.perf_counter()
for _ in range(rounds):
    solver.solve_deals(deals, fresh_table=True)
print(time.perf_counter() - begin)
"""


def _run(copies: int, rounds: int) -> list[float]:
    """Seconds of the timed loop in each of ``copies`` processes started together."""
    start_at = f"{time.time() + 2.0:.3f}"  # after every copy has loaded the kernels
    children = [subprocess.Popen([sys.executable, "-c", _CHILD, str(rounds), start_at],
                                 cwd=Path(__file__).parent, stdout=subprocess.PIPE, text=True)
                for _ in range(copies)]
    return [float(child.communicate()[0]) for child in children]


def two_process_capacity(seconds: float = 2.0, repeat: int = 3) -> float:
    """Work done by two processes at once over one alone's, in the same time (2.0: two
    whole cores); best of ``repeat`` runs each."""
    one_round = _run(1, 1)[0]
    rounds = max(1, round(seconds / one_round))
    alone = pair = float("inf")
    for _ in range(repeat):
        alone = min(alone, _run(1, rounds)[0])
        pair = min(pair, max(_run(2, rounds)))
    return 2 * alone / pair


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="length of each timed loop")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each; the best counts")
    args = parser.parse_args()
    capacity = two_process_capacity(args.seconds, args.repeat)
    print(f"two processes at once: x{capacity:.2f} one alone")


if __name__ == "__main__":
    main()
