"""Deals per second on one core for each player mix, through the rules engine.

    python benchmarks/bench_players.py [--deals 3000] [--slow-deals 40] [--seed 1]

Each mix plays the same deals of the seed (the cards of ``prefa simulate``'s deals),
every decision taken by the players, settlement included.  A few warm-up deals run
first and are not timed, so numba's compile time is excluded.  The players that solve
(oracle, sampling at its default samples) play fewer deals.
"""

from __future__ import annotations

import argparse
import time

from prefa_sim.bots.registry import make_players
from prefa_sim.bots.table import play_deal

MIXES = (("random", "random"), ("heuristic", "heuristic"),
         ("heuristic,random,random", "heuristic vs random"), ("oracle", "oracle"),
         ("sampling", "sampling"), ("sampling,heuristic,heuristic", "sampling vs heuristic"))
SLOW = ("oracle", "sampling")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--slow-deals", type=int, default=40,
                        help="deals for the players that solve (oracle, sampling)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"prefa-sim players benchmark: seed {args.seed}, one core, warm-up excluded")
    for spec, label in MIXES:
        players = make_players(spec)
        deals = args.slow_deals if any(name in spec for name in SLOW) else args.deals
        for i in range(3):
            play_deal(players, args.seed + 1, i)  # warm-up: compile, caches
        start = time.perf_counter()
        played = sum(play_deal(players, args.seed, i).settlement is not None
                     for i in range(deals))
        seconds = time.perf_counter() - start
        print(f"{label:<20} {deals / seconds:9.1f} deals/s  ({deals} deals, {played} played "
              f"out, {seconds:.1f} s)")


if __name__ == "__main__":
    main()
