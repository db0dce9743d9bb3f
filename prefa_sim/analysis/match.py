"""Duplicate matches: every deal played once per seating, so the luck of the cards cancels.

Deal ``i`` of the seed is played three times, the players rotated through the seats
(player k in seat k + seating, mod 3) with the same cards, dealer and random stream, each
time from a full pot.  A player's score for the deal is its change of result over its three seats
(``Settlement.result``: the payments, and the pot's movement shared in thirds, so the
scores sum to zero), and every player held every hand once.  Differences between two
players are taken deal by deal (paired) and their intervals bootstrapped over deals.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np

from ..bots.specs import is_file_spec
from ..rules.variants import DEFAULT_RULES, Rules
from ..sim.games import deal_row
from ..stats.intervals import Estimate, bootstrap_mean
from ..util.workers import unordered_map


def duplicate_deal(specs: Sequence[str], seed: int, index: int,
                   rules: Rules = DEFAULT_RULES) -> list[float]:
    """Each player's change of result (``Settlement.result``, zero-sum) from deal ``index``
    played under ``rules`` in all three seatings (the rows ``prefa games --duplicate``
    writes)."""
    totals = [0.0, 0.0, 0.0]
    for seating in range(3):
        row = deal_row(specs, seed, index, seating, rules)
        for k in range(3):
            totals[k] += row[f"result{(k + seating) % 3}"]
    return totals


def _deal_chunk(job: tuple[tuple[str, ...], int, range, Rules]
                ) -> tuple[int, list[list[float]]]:
    specs, seed, indices, rules = job
    return indices.start, [duplicate_deal(specs, seed, i, rules) for i in indices]


def play_match(specs: Sequence[str], deals: int, seed: int, workers: int = 1,
               progress: Callable[[int], None] | None = None, chunk: int = 20,
               on_stop: Callable[[int], None] | None = None,
               rules: Rules = DEFAULT_RULES) -> np.ndarray:
    """Kapíkia (change of result) per deal and player under ``rules``, ``[deals, 3]``, deal
    ``i`` in row ``i`` whatever the number of workers.  Player files play in worker processes even
    with one worker (``workers.unordered_map``'s ``isolated``).  A Ctrl-C waits for the
    running chunks of deals after telling ``on_stop`` how many they are."""
    jobs = ((tuple(specs), seed, range(start, min(start + chunk, deals)), rules)
            for start in range(0, deals, chunk))
    isolated = any(is_file_spec(spec) for spec in specs)
    blocks: dict[int, list[list[float]]] = {}
    done = 0
    for start, block in unordered_map(_deal_chunk, jobs, workers, on_stop=on_stop,
                                      isolated=isolated):
        blocks[start] = block
        done += len(block)
        if progress:
            progress(done)
    rows = [row for start in sorted(blocks) for row in blocks[start]]
    return np.array(rows, dtype=float).reshape(-1, 3)


@dataclass(frozen=True)
class MatchResult:
    """Each player's kapíkia per deal, and every pair's difference, with intervals."""

    names: tuple[str, ...]
    deals: int
    means: tuple[Estimate, ...]
    differences: dict[tuple[int, int], Estimate]
    """``(a, b)``: player a's kapíkia per deal minus player b's, paired deal by deal."""


def match_result(names: Sequence[str], money: np.ndarray, replicates: int = 2000,
                 seed: int = 0) -> MatchResult:
    """Bootstrap intervals over deals for ``play_match``'s table."""
    boot = partial(bootstrap_mean, replicates=replicates, seed=seed)
    means = tuple(boot(money[:, k]) for k in range(3))
    differences = {(a, b): boot(money[:, a] - money[:, b])
                   for a in range(3) for b in range(3) if a != b}
    return MatchResult(tuple(names), len(money), means, differences)
