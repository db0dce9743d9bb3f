"""Peak memory of `prefa simulate` as runs grow: it should stay flat.

    python benchmarks/bench_memory.py [--deals 5000 50000]

Each size runs in a fresh process (one worker, one declarer, one strain, both defenders,
chunks of 500 deals, so that many deals are cheap) and reports that process's peak
resident memory, dataset summary included.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile

CHILD = """
import resource, sys
from click.testing import CliRunner
from prefa_sim.cli import main
result = CliRunner().invoke(main, ["simulate", "-n", sys.argv[1], "--seed", "1", "--strains",
    "H", "--declarers", "0", "--modes", "both", "--chunk-size", "500", "-w", "1", "-o",
    sys.argv[2]])
assert result.exit_code == 0, result.output
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, nargs="+", default=[5000, 50000])
    args = parser.parse_args()
    for deals in args.deals:
        with tempfile.TemporaryDirectory() as out:
            done = subprocess.run([sys.executable, "-c", CHILD, str(deals), out + "/run"],
                                  capture_output=True, text=True, check=True)
        print(f"{deals:>8} deals: peak resident memory {done.stdout.strip()} MiB")


if __name__ == "__main__":
    main()
