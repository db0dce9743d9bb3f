"""Random complete deals per second through the rules engine (auction to settlement).

    python benchmarks/bench_deals.py [--deals 5000] [--seed 1]

Every action is drawn uniformly from the legal ones; one core.
"""

from __future__ import annotations

import argparse
import random
import time

from prefa_sim.rules.deal import Deal
from prefa_sim.rules.game import random_cards


def play_random_deal(rng: random.Random, dealer: int) -> Deal:
    """Deal the cards and take random legal actions until the deal ends."""
    hands, widow = random_cards(rng)
    deal = Deal(hands, widow, dealer)
    while not deal.is_terminal():
        deal.apply(rng.choice(deal.legal_actions()))
    return deal


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    start = time.perf_counter()
    phases = {"settled": 0, "void": 0}
    for i in range(args.deals):
        phases[play_random_deal(rng, i % 3).phase] += 1
    seconds = time.perf_counter() - start
    print(f"{args.deals} random deals in {seconds:.2f} s: {args.deals / seconds:.0f} deals/s "
          f"({phases['settled']} settled, {phases['void']} void), seed {args.seed}, one core")


if __name__ == "__main__":
    main()
