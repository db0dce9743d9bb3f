"""`prefa solve --batch` against the solver kernel on the same positions, and its scaling.

    python benchmarks/bench_batch.py [--seed 1] [--repeat 3]

Three kinds of request, fixed-seed random deals (random trump, leader and declarer):
3-hand deals, 2-hand deals (a random defender out of play) and widow cells (one strain,
the best discard of the declarer's twelve cards).  For each kind:

* kernel: the solver's own time per position, every position of the set in one call
  (``Solver.solve_deals``, ``Solver.solve_widows``), one table for the set as the batch
  has, after a warm-up (numba's compile time excluded);
* batch: ``prefa solve --batch FILE`` as a user runs it, a whole process writing its
  answers to a file, per request.  Start-up (imports, loading the compiled kernels,
  starting workers) is excluded by timing N and 2N requests and taking the difference:
  the time the second N took;
* the ratio batch / kernel (1.00: no time beyond the solver's), and the speed-up of two
  workers over one.

Every answer of the batch is checked against the kernel's.  Times are the best of
``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from prefa_sim.cards import Strain, format_hand
from prefa_sim.solver import Solver

PREFA = shutil.which("prefa") or sys.exit("the prefa command is not installed here")

KINDS = {"3 hands": 3000, "2 hands": 12000, "widow cells": 150}
"""Requests per kind (N; the batch also runs 2N)."""


def make_requests(rng: np.random.Generator, kind: str, n: int) -> tuple[list[str], np.ndarray]:
    """JSON request lines and the kernel's rows for the same positions."""
    lines, rows = [], []
    for _ in range(n):
        deck = rng.permutation(32)
        hands = [sum(1 << int(c) for c in deck[10 * s:10 * s + 10]) for s in range(3)]
        widow = (1 << int(deck[30])) | (1 << int(deck[31]))
        trump = int(rng.integers(5))
        active = [0, 1, 2]
        if kind == "2 hands":
            active.remove(int(rng.integers(3)))
        leader, declarer = (active[int(rng.integers(len(active)))] for _ in range(2))
        request = {"hands": [format_hand(h) if s in active else "-"
                             for s, h in enumerate(hands)],
                   "trump": Strain(trump).name, "leader": leader, "declarer": declarer,
                   "active": active}
        mask = sum(1 << s for s in active)
        if kind == "widow cells":
            request["widow"] = format_hand(widow)
            rows.append([*hands, hands[declarer] | widow, trump, leader, declarer, mask])
        else:
            rows.append([*(h if s in active else 0 for s, h in enumerate(hands)), trump,
                         leader, declarer, mask])
        lines.append(json.dumps(request))
    return lines, np.array(rows, dtype=np.int64)


def kernel_time(kind: str, rows: np.ndarray, repeat: int) -> tuple[float, list[int]]:
    """Seconds for the whole set in one kernel call (best of ``repeat``), and the answers."""
    best, answers = float("inf"), None
    for _ in range(repeat):
        solver = Solver()
        start = time.perf_counter()
        if kind == "widow cells":
            answers, _ = solver.solve_widows(rows)
        else:
            answers = solver.solve_deals(rows)
        best = min(best, time.perf_counter() - start)
    return best, answers.tolist()


def batch_time(path: Path, workers: int, repeat: int) -> tuple[float, Path]:
    """Seconds of ``prefa solve --batch path`` as a whole process (best of ``repeat``)."""
    out = path.with_suffix(".out")
    best = float("inf")
    for _ in range(repeat):
        with out.open("wb") as sink:
            start = time.perf_counter()
            subprocess.run([PREFA, "solve", "--batch", str(path), "--workers", str(workers)],
                           stdout=sink, check=True)
            best = min(best, time.perf_counter() - start)
    return best, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    warm = Solver()  # compile (or load) the kernels before anything is timed
    warm.solve_deals(make_requests(rng, "3 hands", 2)[1])
    warm.solve_widows(make_requests(rng, "widow cells", 1)[1])
    print(f"prefa-sim batch benchmark: seed {args.seed}, best of {args.repeat}, start-up and "
          "compile time excluded; microseconds per request")
    print(f"{'kind':<12} {'N':>6} {'kernel':>9} {'batch 1w':>9} {'ratio':>6} {'batch 2w':>9} "
          f"{'2w/1w':>6}")
    with tempfile.TemporaryDirectory() as tmp:
        for kind, n in KINDS.items():
            lines, rows = make_requests(rng, kind, 2 * n)
            seconds, answers = kernel_time(kind, rows[n:], args.repeat)
            kernel = seconds / n
            files = {}
            for size in (n, 2 * n):
                files[size] = Path(tmp) / f"{kind.replace(' ', '-')}-{size}.jsonl"
                files[size].write_text("\n".join(lines[:size]) + "\n")
            per = {}
            for workers in (1, 2):
                short, _ = batch_time(files[n], workers, args.repeat)
                long, out = batch_time(files[2 * n], workers, args.repeat)
                per[workers] = (long - short) / n
                key = "best_tricks" if kind == "widow cells" else "declarer_tricks"
                got = [json.loads(x)[key] for x in out.read_text().splitlines()[n:]]
                if got != answers:
                    sys.exit(f"{kind}: the batch's answers differ from the kernel's")
            print(f"{kind:<12} {n:>6} {1e6 * kernel:>9.1f} {1e6 * per[1]:>9.1f} "
                  f"{per[1] / kernel:>6.2f} {1e6 * per[2]:>9.1f} {per[1] / per[2]:>6.2f}")


if __name__ == "__main__":
    main()
