"""`prefa solve --batch` against the solver kernel on the same positions, and its scaling.

    python benchmarks/bench_batch.py [--seed 1] [--repeat 5] [--refdd PATH] [--kind 2h ...]

Three kinds of request, fixed-seed random deals (random trump, leader and declarer):
3-hand deals, 2-hand deals (a random defender out of play) and widow cells (one strain,
the best discard of the declarer's twelve cards).  Each kind has 2N requests; the first N
fill the solver's table, the second N are timed, so every measure meets the same table:

* kernel: the solver's own time per position, the N positions in one call
  (``Solver.solve_deals``, ``Solver.solve_widows``);
* batch: the same N request lines answered as ``prefa solve --batch FILE --workers 1``
  answers them (``bulk.byte_jobs`` and ``bulk.job_text``: read the file in jobs of bytes,
  scan and check a job at once, solve it in one kernel call, write the answers), in this
  process; the ratio batch / kernel (1.00: nothing beyond the solver's time);
* command: ``prefa solve --batch FILE`` as a user runs it on the 2N requests, a whole
  process writing to a pipe, with one and with two workers (alternating), timed from the
  moment its N-th answer line arrives to the moment its last one does: the second N
  requests, as above, with start-up (imports, loading the compiled kernels, starting
  workers) and the process's exit left out.  N is a multiple of ``BLOCK *
  BLOCKS_PER_JOB`` lines, a whole number of worker jobs of either kind (a widow request
  counts as ``WIDOW_WEIGHT`` lines), so that the N-th line ends a job, or nearly (a job
  is cut at a line's end, which may be a line beyond its weight).
  Beside it: how much work two processes do at once on this machine against one alone
  on positions of the same kind (``machine.py``), the ceiling of the two-worker gain,
  and how long the command took to write its first answer (start-up and the first job)
  and to end after its last one (its exit, and with two workers the started one's).

With ``--refdd PATH`` (a compiled ``refdd.c`` yardstick) the timed positions are also
solved by it (a widow cell as all 66 discards), its answers checked against ours, and the
kernel's and the one-worker command's speed printed as multiples of the yardstick's.

A warm-up compiles (or loads) the kernels first: compile time is excluded.  Every round
takes each measure once (kernel, batch, the command with one worker and with two), so that
the terms of a ratio are measured minutes apart at most, and every figure is the best of
``--repeat`` rounds (at least three; this machine's speed varies by some 10% from run to
run).  Every answer is checked against the kernel's.
``--kind`` (repeatable: ``3h``, ``2h``, ``widow``) times only those kinds, on the same
requests as a full run.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from bench_solver import compare_with_refdd
from machine import two_process_capacity

from prefa_sim.core.cards import Strain, format_hand
from prefa_sim.requests.bulk import BLOCK, BLOCKS_PER_JOB, byte_jobs, job_text
from prefa_sim.solve.solver import Solver

PREFA = shutil.which("prefa") or sys.exit("the prefa command is not installed here")

JOB = BLOCK * BLOCKS_PER_JOB
"""Lines of deals a worker process answers at a time (of widow requests, a
``WIDOW_WEIGHT``-th as many)."""
KINDS = {"3 hands": 30 * JOB, "2 hands": 270 * JOB, "widow cells": 2 * JOB}
"""Requests per kind (N; each kind has 2N): some two seconds of the command's time with
two workers, so that a job in flight when the N-th answer arrives, and the last jobs, which
one worker may end alone, move the figure little (widow cells: one second, as the yardstick
takes some 150 ms for each)."""
WORKLOADS = {"3 hands": "3h", "2 hands": "2h", "widow cells": "widow"}
"""The ``machine.py`` workload of each kind."""


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


def kernel_time(kind: str, rows: np.ndarray, n: int) -> tuple[float, list[int]]:
    """Seconds the kernel takes for rows ``n`` to ``2n`` after rows 0 to ``n``, one table."""
    solver = Solver()
    solve = (lambda r: solver.solve_widows(r)[0]) if kind == "widow cells" else \
        solver.solve_deals
    solve(rows[:n])
    start = time.perf_counter()
    answers = solve(rows[n:])
    return time.perf_counter() - start, answers.tolist()


def bulk_time(lines: list[bytes], n: int) -> tuple[float, list[str]]:
    """Seconds ``prefa solve --batch FILE`` takes in-process (one worker) for lines ``n``
    to ``2n`` after lines 0 to ``n``, one table; and the answers."""
    solver = Solver()
    for job in byte_jobs(io.BytesIO(b"".join(line + b"\n" for line in lines[:n]))):
        job_text(job, solver)
    data = io.BytesIO(b"".join(line + b"\n" for line in lines[n:]))
    start = time.perf_counter()
    texts = [job_text(job, solver)[1] for job in byte_jobs(data)]
    seconds = time.perf_counter() - start
    return seconds, "".join(texts).splitlines()


def command_time(path: Path, workers: int, n: int
                 ) -> tuple[float, float, float, list[bytes]]:
    """``prefa solve --batch path`` (2n requests) as a whole process, its answers read
    from a pipe as they come: seconds to its first answer line, seconds from its ``n``-th
    line to its last (the process's exit left out), seconds from its last line to the
    process's end (its exit, the workers' included), and the answer lines."""
    start = time.perf_counter()
    command = subprocess.Popen([PREFA, "solve", "--batch", str(path), "--workers",
                                str(workers)], stdout=subprocess.PIPE)
    chunks, lines, first, middle, last = [], 0, None, None, None
    while chunk := os.read(command.stdout.fileno(), 1 << 20):
        now = time.perf_counter()
        chunks.append(chunk)
        lines += chunk.count(b"\n")
        if first is None:
            first = now - start
        if middle is None and lines >= n:
            middle = now
        if last is None and lines >= 2 * n:
            last = now
    if command.wait() != 0 or last is None:
        sys.exit(f"{path.name}: the command failed")
    return first, last - middle, time.perf_counter() - last, b"".join(chunks).splitlines()


def yardstick(path: str, kind: str, rows: np.ndarray, answers: list[int],
              repeat: int) -> float:
    """The yardstick's best seconds per request on ``rows``; exits if an answer differs."""
    cells = []
    if kind == "widow cells":  # rows [h0, h1, h2, hand12, trump, leader, declarer, 7]
        cells = [([int(h) for h in r[:3]], int(r[3]) & ~int(r[r[6]]), int(r[4]), int(r[5]),
                  int(r[6])) for r in rows]
    seconds = float("inf")
    for _ in range(repeat):
        wrong, t = compare_with_refdd(path, "cells" if cells else rows, cells, answers)
        if wrong:
            sys.exit(f"{kind}: {wrong} answers differ from the yardstick's")
        seconds = min(seconds, t)
    return seconds / len(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--refdd", help="path of a compiled refdd yardstick")
    parser.add_argument("--kind", action="append", choices=sorted(WORKLOADS.values()),
                        help="time only this kind (repeatable; default: all)")
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    warm = Solver()  # compile (or load) the kernels before anything is timed
    warm.solve_deals(make_requests(rng, "3 hands", 2)[1])
    warm.solve_widows(make_requests(rng, "widow cells", 1)[1])
    rounds = max(3, args.repeat)
    print(f"prefa-sim batch benchmark: seed {args.seed}, best of {rounds} rounds, compile time "
          "and process start-up excluded; microseconds per request (first: seconds the "
          "command took to its first answer line; exit: seconds from its last answer line to "
          "its end)")
    print(f"{'kind':<12} {'N':>6} {'kernel':>8} {'batch':>8} {'ratio':>6} {'command 1w':>11} "
          f"{'ratio':>6} {'command 2w':>11} {'2w/1w':>6} {'ceiling':>8} {'first 1w':>9} "
          f"{'first 2w':>9} {'exit 1w':>8} {'exit 2w':>8}")
    against = []
    with tempfile.TemporaryDirectory() as tmp:
        for kind, n in KINDS.items():
            lines, rows = make_requests(rng, kind, 2 * n)  # drawn alike when not timed
            if args.kind and WORKLOADS[kind] not in args.kind:
                continue
            data = [line.encode() for line in lines]
            key = "best_tricks" if kind == "widow cells" else "declarer_tricks"
            path = Path(tmp) / f"{kind.replace(' ', '-')}.jsonl"
            path.with_name("warm-up.jsonl").write_text("\n".join(lines[:4]) + "\n")
            command_time(path.with_name("warm-up.jsonl"), 2, 2)  # compile what it needs
            path.write_text("\n".join(lines) + "\n")
            kernel = batch = float("inf")
            command = {1: float("inf"), 2: float("inf")}
            first, ends = dict(command), dict(command)
            for _ in range(rounds):  # every measure once a round
                seconds, answers = kernel_time(kind, rows, n)
                kernel = min(kernel, seconds / n)
                seconds, texts = bulk_time(data, n)
                batch = min(batch, seconds / n)
                if [json.loads(t)[key] for t in texts] != answers:
                    sys.exit(f"{kind}: the batch's answers differ from the kernel's")
                for workers in (1, 2):
                    to_first, seconds, to_end, out = command_time(path, workers, n)
                    first[workers] = min(first[workers], to_first)
                    ends[workers] = min(ends[workers], to_end)
                    command[workers] = min(command[workers], seconds / n)
                    if [json.loads(x)[key] for x in out[n:]] != answers:
                        sys.exit(f"{kind}: the command's answers differ from the kernel's")
            print(f"{kind:<12} {n:>6} {1e6 * kernel:>8.1f} {1e6 * batch:>8.1f} "
                  f"{batch / kernel:>6.2f} {1e6 * command[1]:>11.1f} "
                  f"{command[1] / kernel:>6.2f} {1e6 * command[2]:>11.1f} "
                  f"{command[1] / command[2]:>6.2f} "
                  f"{two_process_capacity(WORKLOADS[kind]):>8.2f} "
                  f"{first[1]:>9.2f} {first[2]:>9.2f} {ends[1]:>8.2f} {ends[2]:>8.2f}")
            if args.refdd:
                ref = yardstick(args.refdd, kind, rows[n:], answers, max(1, args.repeat // 2))
                against.append(f"{kind:<12} {n:>6} {1e6 * ref:>10.1f} {ref / kernel:>11.1f}x "
                               f"{ref / command[1]:>11.1f}x")
    print("ceiling: the work two processes do at once here against one alone, on positions "
          "of the same kind (benchmarks/machine.py): the most 2w/1w can reach in this run")
    if against:
        print("\nthe same timed positions by the refdd yardstick (a widow cell: all 66 "
              "discards), microseconds per request, and how many times faster we are")
        print(f"{'kind':<12} {'N':>6} {'refdd':>10} {'kernel':>12} {'command 1w':>12}")
        print("\n".join(against))


if __name__ == "__main__":
    main()
