"""The players' strength table: duplicate matches with 95% intervals, one fixed seed.

    python benchmarks/bench_strength.py [--deals 300] [--seed 1] [--workers N]

Three duplicate matches (``prefa match``: every deal in all three seatings, each player's
change of result per deal, differences paired deal by deal, bootstrap intervals over
deals): heuristic against two random players, sampling against two heuristic players,
and the oracle (which sees every card: the bound) with sampling and heuristic.  Prints
each pair's difference in kapíkia per deal, its interval, and whether the interval
excludes zero; then the wall time of each match (all workers).
"""

from __future__ import annotations

import argparse
import time

from prefa_sim.analysis.match import match_result, play_match
from prefa_sim.stats.bidding import player_labels
from prefa_sim.util.words import counted
from prefa_sim.util.workers import default_workers

MATCHES = (("heuristic", "random", "random"),
           ("sampling", "heuristic", "heuristic"),
           ("oracle", "sampling", "heuristic"))
PAIRS = {0: ((0, 1), (0, 2)), 1: ((0, 1), (0, 2)), 2: ((0, 1), (0, 2), (1, 2))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=default_workers())
    args = parser.parse_args()
    print(f"prefa-sim strength: duplicate matches of {args.deals} deals x 3 seatings, seed "
          f"{args.seed}, kapíkia per deal (row player minus column player, paired deal by "
          "deal, 95% bootstrap interval over deals; * excludes zero)")
    width = max(len(name) for players in MATCHES for name in player_labels(players))
    print(f"{'match':<30} {'player':<{width}} {'versus':<{width}} {'difference':>28}")
    times = []
    for index, players in enumerate(MATCHES):
        start = time.perf_counter()
        money = play_match(players, args.deals, args.seed, args.workers)
        times.append(time.perf_counter() - start)
        names = player_labels(players)
        result = match_result(names, money)
        for a, b in PAIRS[index]:
            e = result.differences[a, b]
            star = "*" if e.excludes_zero else " "
            print(f"{' '.join(players):<30} {names[a]:<{width}} {names[b]:<{width}} "
                  f"{e.value:+8.1f} ({e.low:+7.1f}..{e.high:+7.1f}) {star}")
    print("wall time per match (s): " + ", ".join(f"{t:.0f}" for t in times)
          + f" with {counted(args.workers, 'worker')}")


if __name__ == "__main__":
    main()
