"""Widow-aware deal tables against solving the same deals directly."""

import random
from itertools import combinations

from prefa_sim.core.cards import Strain, iter_cards
from prefa_sim.core.position import Position
from prefa_sim.solve.tables import active_seats, deal_table, opening_leader

from ..helpers import random_deal


def test_opening_leader_follows_first_hand():
    # Dealer 2: first hand is seat 0; if seat 0 is out, seat 1 leads.
    assert opening_leader(2, (0, 1, 2)) == 0
    assert opening_leader(2, (1, 2)) == 1
    assert opening_leader(0, (0, 2)) == 2
    assert active_seats(1, "first") == (1, 2) and active_seats(1, "second") == (0, 1)


def test_spot_checks_against_direct_solving(solver):
    rng = random.Random(21)
    for _ in range(3):
        hands, widow = random_deal(rng)
        dealer = rng.randrange(3)
        declarer = rng.randrange(3)
        strain = Strain(rng.randrange(5))
        (row,) = deal_table(solver, hands, widow, dealer, [declarer], [strain])
        for mode in ("both", "first", "second"):
            active = active_seats(declarer, mode)
            leader = opening_leader(dealer, active)
            twelve = hands[declarer] | widow
            values = {}
            for a, b in combinations(iter_cards(twelve), 2):
                trial = list(hands)
                trial[declarer] = twelve & ~(1 << a) & ~(1 << b)
                values[(a, b)] = solver.solve(Position(tuple(trial), strain, leader, declarer,
                                                       active))
            best = max(values.values())
            assert row.tricks[mode] == best
            assert values[row.discard[mode]] == best
            assert row.best_discards[mode] == sum(v == best for v in values.values())


def test_whole_table_in_one_call_matches_each_cell_alone(solver):
    rng = random.Random(5)
    hands, widow = random_deal(rng)
    rows = deal_table(solver, hands, widow, dealer=1, declarers=iter(range(3)))
    assert [(r.declarer, r.strain) for r in rows] == [(d, s) for d in range(3) for s in Strain]
    for row in rows:
        for mode in ("both", "first", "second"):
            active = active_seats(row.declarer, mode)
            alone = solver.solve_widow(list(hands), widow, row.strain,
                                       opening_leader(1, active), row.declarer, active)
            assert row.tricks[mode] == alone.best_tricks
            assert row.discard[mode] == alone.best_discards[0]
            assert row.best_discards[mode] == len(alone.best_discards)
