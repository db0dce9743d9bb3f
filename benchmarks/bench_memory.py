"""Peak memory of `prefa simulate` as runs grow: it should stay flat.

    python benchmarks/bench_memory.py [--deals 5000 50000] [--workers 1] [--chunk-size 500]

Each size runs `prefa simulate` in a fresh process (one declarer, one strain, both
defenders, so that many deals are cheap; the make-rate summary included) and reports
the peak of the resident memory summed over that process and its workers, sampled
from /proc every 0.2 s (Linux), with the run's time.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from prefa_sim.util.words import counted

RUN = "from prefa_sim.cli import main; main()"


def tree_rss_mib(root: int) -> float:
    """Resident memory of process ``root`` and all its descendants, in MiB."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended while we looked
            continue
        pid = int(entry.name)
        children.setdefault(int(fields[1]), []).append(pid)  # parent pid
        rss[pid] = int(fields[21])  # resident pages
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += rss.get(pid, 0)
        todo += children.get(pid, [])
    return total * 4096 / 2**20


def measure(deals: int, workers: int, chunk_size: int, out: str) -> tuple[float, float]:
    """Peak tree memory (MiB) and seconds of one run."""
    args = [sys.executable, "-c", RUN, "simulate", "-n", str(deals), "--seed", "1",
            "--strains", "H", "--declarers", "0", "--modes", "both",
            "--chunk-size", str(chunk_size), "-w", str(workers), "-o", out]
    # The progress bar goes to a file: a pipe nobody reads would fill and stall the run.
    with tempfile.TemporaryFile() as log:
        start = time.perf_counter()
        process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=log)
        peak = 0.0
        while process.poll() is None:
            peak = max(peak, tree_rss_mib(process.pid))
            time.sleep(0.2)
        seconds = time.perf_counter() - start
        if process.returncode:
            log.seek(0)
            raise SystemExit(log.read().decode(errors="replace")[-2000:])
    return peak, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, nargs="+", default=[5000, 50000])
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--chunk-size", type=int, default=500)
    args = parser.parse_args()
    for deals in args.deals:
        with tempfile.TemporaryDirectory() as out:
            peak, seconds = measure(deals, args.workers, args.chunk_size, out + "/run")
        print(f"{deals:>8} deals, {counted(args.workers, 'worker')}: peak resident memory "
              f"{peak:.0f} MiB (all processes), {seconds:.0f} s", flush=True)


if __name__ == "__main__":
    main()
