"""Solver throughput on fixed-seed random deals, one core, JIT compile time excluded.

    python benchmarks/bench_solver.py [--deals 3000] [--cells 100] [--seed 1] [--refdd PATH]

Three workloads:

* full 3-hand deals: random trump, leader and declarer;
* 2-hand deals: a random defender out of play, random trump, leader and declarer;
* widow cells: one declarer and one strain, best discard over the 12 cards
  (3 hands, random trump, leader and declarer).

The 3-hand deals and the widow cells are solved again under the rule against
under-trumping (``overtrump=yes``, which only 3-hand play can meet), and the time
of each is printed against the default rules' on the same deals.

The table is cleared before every deal and every cell, so no deal profits from
another; "one table for the batch" repeats the 3-hand run without clearing.
Each workload runs ``--repeat`` times and the best time counts, for our solver
and the yardstick alike, alternating, so that both see the same machine.  The
2-hand endgame table is built (or read from the cache folder) before the timed
runs: its build and read times are printed apart and, like numba's compile time,
not counted.
``nodes/solve`` is the search's nodes per deal or cell: the same in every run, so
it shows a change to the search where the time is lost in the machine's noise.

With ``--refdd PATH`` (a compiled ``refdd.c`` yardstick) the same deals are
also solved by it in the same run, the widow cells as all 66 discards each,
its answers are checked against ours, and the speed ratios are printed.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from itertools import combinations

import numpy as np

from prefa_sim.core.cards import iter_cards
from prefa_sim.engine.endgame_build import build_endgame_table, endgame_table
from prefa_sim.engine.layout import STAT_NODES
from prefa_sim.solve.solver import Solver


def make_deals(rng: np.random.Generator, n: int, two_hands: bool) -> np.ndarray:
    """Rows ``[h0, h1, h2, trump, leader, declarer, active]`` of random deals."""
    rows = np.zeros((n, 7), dtype=np.int64)
    for i in range(n):
        deck = rng.permutation(32)
        for s in range(3):
            rows[i, s] = sum(1 << int(c) for c in deck[10 * s:10 * s + 10])
        rows[i, 3] = rng.integers(5)
        if two_hands:
            out = int(rng.integers(3))
            seats = [s for s in range(3) if s != out]
            rows[i, 6] = sum(1 << s for s in seats)
            rows[i, 4] = seats[rng.integers(2)]
            rows[i, 5] = seats[rng.integers(2)]
        else:
            rows[i, 6] = 7
            rows[i, 4] = rng.integers(3)
            rows[i, 5] = rng.integers(3)
    return rows


def make_cells(rng: np.random.Generator, n: int) -> list[tuple[list[int], int, int, int, int]]:
    """Widow cells: (hands, widow, trump, leader, declarer)."""
    cells = []
    for _ in range(n):
        deck = rng.permutation(32)
        hands = [sum(1 << int(c) for c in deck[10 * s:10 * s + 10]) for s in range(3)]
        widow = (1 << int(deck[30])) | (1 << int(deck[31]))
        cells.append((hands, widow, int(rng.integers(5)), int(rng.integers(3)),
                      int(rng.integers(3))))
    return cells


def refdd_lines(deals: np.ndarray) -> str:
    """The yardstick's input for rows ``[h0, h1, h2, trump, leader, declarer, active]``.

    A seat out of play is written with no cards, as the kernel sees it: the yardstick
    counts every card it is given as still in play, so the third hand's cards would
    split its runs of equal cards and slow it down (by a quarter on 2-hand deals).
    """
    return "".join(
        " ".join(f"{r[s]:x}" if (r[6] >> s) & 1 else "0" for s in range(3))
        + f" {r[3]} {r[4]} {r[5]} {r[6]}\n" for r in deals)


def run_refdd(path: str, text: str) -> tuple[np.ndarray, float]:
    """Answers and seconds of the yardstick on ``text`` (its own timing, I/O excluded)."""
    with tempfile.TemporaryFile("w+") as f:
        f.write(text)
        f.seek(0)
        done = subprocess.run([path, "-t"], stdin=f, capture_output=True, text=True, check=True)
    seconds = float(done.stderr.split(" solves in ")[1].split(" s")[0])
    return np.array(done.stdout.split(), dtype=np.int64), seconds


def time_deals(solver: Solver, deals: np.ndarray, fresh: bool, overtrump: bool = False
               ) -> tuple[np.ndarray, float, int]:
    """Answers, seconds and search nodes of solving ``deals``."""
    nodes = int(solver.stats[STAT_NODES])
    start = time.perf_counter()
    out = solver.solve_deals(deals, fresh_table=fresh, overtrump=overtrump)
    return out, time.perf_counter() - start, int(solver.stats[STAT_NODES]) - nodes


def time_cells(solver: Solver, cells, overtrump: bool = False
               ) -> tuple[list[int], float, int]:
    """Best tricks, seconds and search nodes of solving widow ``cells``."""
    results = []
    nodes = int(solver.stats[STAT_NODES])
    start = time.perf_counter()
    for hands, widow, trump, leader, declarer in cells:
        solver.clear()
        results.append(solver.solve_widow(hands, widow, trump, leader, declarer,
                                          overtrump=overtrump).best_tricks)
    return results, time.perf_counter() - start, int(solver.stats[STAT_NODES]) - nodes


def cells_as_discards(cells) -> tuple[str, list[int]]:
    """All 66 discards of every cell as yardstick input lines, and the cell of each line."""
    lines, owner = [], []
    for k, (hands, widow, trump, leader, declarer) in enumerate(cells):
        hand12 = hands[declarer] | widow
        for a, b in combinations(iter_cards(hand12), 2):
            h = list(hands)
            h[declarer] = hand12 & ~(1 << a) & ~(1 << b)
            lines.append(f"{h[0]:x} {h[1]:x} {h[2]:x} {trump} {leader} {declarer} 7\n")
            owner.append(k)
    return "".join(lines), owner


def compare_with_refdd(path, yardstick, cells, answers) -> tuple[int, float]:
    """Run the yardstick on the same work; return (answers that differ, its seconds)."""
    if isinstance(yardstick, str):  # widow cells: every discard, best per cell
        text, owner = cells_as_discards(cells)
        ref, seconds = run_refdd(path, text)
        best = [-1] * len(cells)
        for k, v in zip(owner, ref, strict=True):
            best[k] = max(best[k], int(v))
        return sum(a != b for a, b in zip(best, answers, strict=True)), seconds
    ref, seconds = run_refdd(path, refdd_lines(yardstick))
    return int(np.sum(ref != answers)), seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--cells", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each workload")
    parser.add_argument("--refdd", help="path of a compiled refdd yardstick")
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    three = make_deals(rng, args.deals, two_hands=False)
    two = make_deals(rng, args.deals, two_hands=True)
    cells = make_cells(rng, args.cells)

    solver = Solver()
    solver.solve_deals(three[:20], fresh_table=True)  # compile the kernels first
    solver.solve_deals(two[:20], fresh_table=True)
    time_cells(solver, cells[:2])
    start = time.perf_counter()
    build_endgame_table()  # as on a machine's first 2-hand solve (compiled above)
    build = time.perf_counter() - start
    endgame_table.cache_clear()
    start = time.perf_counter()
    endgame_table()  # as every later process does
    read = time.perf_counter() - start

    print(f"prefa-sim solver benchmark, seed {args.seed}, one core, JIT compile excluded, "
          f"best of {args.repeat} runs (ours and refdd alternating)")
    print(f"the 2-hand endgame table: {build:.2f} s to build (once, kept in the cache folder), "
          f"{1000 * read:.0f} ms to read (once per process), before the timed runs")
    print(f"{'workload':<34}{'count':>7}{'solves/s':>11}{'ms/solve':>10}{'refdd ms':>10}"
          f"{'ratio':>8}{'nodes/solve':>13}")
    workloads = [
        ("3 hands, table cleared per deal", len(three),
         lambda: time_deals(solver, three, fresh=True), three),
        ("3 hands, one table for the batch", len(three),
         lambda: time_deals(Solver(), three, fresh=False), None),
        ("2 hands, table cleared per deal", len(two),
         lambda: time_deals(solver, two, fresh=True), two),
        ("widow cell (66 discards)", len(cells), lambda: time_cells(solver, cells), "cells"),
        ("3 hands, no under-trumping", len(three),
         lambda: time_deals(solver, three, fresh=True, overtrump=True), None),
        ("widow cell, no under-trumping", len(cells),
         lambda: time_cells(solver, cells, overtrump=True), None),
    ]
    status = 0
    best_seconds = {}
    for name, count, run, yardstick in workloads:
        seconds = ref_s = float("inf")
        answers = None
        for _ in range(args.repeat):
            answers, t, nodes = run()
            seconds = min(seconds, t)
            if args.refdd and yardstick is not None:
                mismatches, t = compare_with_refdd(args.refdd, yardstick, cells, answers)
                ref_s = min(ref_s, t)
                if mismatches:
                    print(f"  {name}: {mismatches} answers differ from refdd", file=sys.stderr)
                    status = 1
        ref_ms = f"{1000 * ref_s / count:.3f}" if ref_s < float("inf") else ""
        ratio = f"{ref_s / seconds:.1f}x" if ref_s < float("inf") else ""
        print(f"{name:<34}{count:>7}{count / seconds:>11.0f}{1000 * seconds / count:>10.3f}"
              f"{ref_ms:>10}{ratio:>8}{nodes / count:>13.1f}")
        best_seconds[name] = seconds
    for rule, default in (("3 hands, no under-trumping", "3 hands, table cleared per deal"),
                          ("widow cell, no under-trumping", "widow cell (66 discards)")):
        print(f"{rule}: {best_seconds[rule] / best_seconds[default]:.2f}x the time of the "
              "default rules on the same work")
    return status


if __name__ == "__main__":
    sys.exit(main())
