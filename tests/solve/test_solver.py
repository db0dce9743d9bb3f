"""The solver against a plain exhaustive minimax, and its per-card values and play lines."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from prefa_sim.core.cards import Strain
from prefa_sim.core.position import Position
from prefa_sim.engine.layout import STAT_NODES, STAT_SEARCHES
from prefa_sim.solve.solver import Solver

from ..helpers import (
    ACTIVE_SETS,
    assert_card_values_match_minimax,
    assert_the_table_answers_relocated_low_cards,
    endings,
    random_deal,
    reference_value,
)


@settings(max_examples=300, deadline=None)
@given(endings(min_tricks=3, max_tricks=5, trick_start=True), st.integers(0, 2**32 - 1))
def test_positions_that_differ_in_low_cards_share_the_table_soundly(pos, seed):
    """The table answers for every way the cards below the relevant ones can lie: solve
    a position, then others with the low cards of each suit dealt differently, with the
    table kept, against minimax."""
    assert_the_table_answers_relocated_low_cards(pos, seed)


@settings(max_examples=200, deadline=None)
@given(endings(min_tricks=3, max_tricks=4, trick_start=True), st.randoms())
def test_strains_share_the_table_once_no_trumps_are_left(pos, rng):
    """Once no one holds a trump, play goes on as in no-trumps and the table stores it so:
    the same cards solved in every strain, one after the other with one table, against
    minimax."""
    solver = Solver(table_bits=12)
    hands = tuple(pos.hand(s) if s in pos.active else 0 for s in range(3))
    strains = list(Strain)
    rng.shuffle(strains)
    for strain in [*strains, strains[0]]:
        other = Position(hands, strain, pos.leader, pos.declarer, pos.active)
        assert solver.solve(other) == reference_value(other)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(ACTIVE_SETS), st.integers(2, 6), st.integers(0, 3), st.randoms())
def test_a_position_without_trumps_is_answered_from_its_no_trumps_entries(active, tricks,
                                                                          suit, rng):
    """Cards dealt without a single card of ``suit`` play the same with it as trumps and in
    no-trumps: once the no-trumps position is solved, the table answers every test of
    the other at its first node."""
    deck = [c for c in range(32) if c // 8 != suit]
    rng.shuffle(deck)
    hands = [0, 0, 0]
    for i, seat in enumerate(active):
        hands[seat] = sum(1 << c for c in deck[i * tricks:(i + 1) * tricks])
    leader, declarer = rng.choice(active), rng.choice(active)
    solver = Solver(table_bits=16)
    value = solver.solve(Position(tuple(hands), Strain.NT, leader, declarer, active))
    solver.stats[:] = 0
    assert solver.solve(Position(tuple(hands), Strain(suit), leader, declarer, active)) == value
    assert solver.stats[STAT_NODES] == solver.stats[STAT_SEARCHES]


@settings(max_examples=2500, deadline=None)
@given(endings())
def test_solver_matches_minimax_on_short_endings(solver, pos):
    assert solver.solve(pos) == reference_value(pos)


@settings(max_examples=150, deadline=None)
@given(endings(min_tricks=5, max_tricks=5))
def test_solver_matches_minimax_on_five_trick_endings(solver, pos):
    assert solver.solve(pos) == reference_value(pos)


@settings(max_examples=300, deadline=None)
@given(endings(max_tricks=3))
def test_card_values_match_minimax_after_each_card(solver, pos):
    assert_card_values_match_minimax(solver, pos)


@settings(max_examples=200, deadline=None)
@given(endings(max_tricks=4))
def test_play_line_is_optimal_for_every_player(solver, pos):
    value = solver.solve(pos)
    line = solver.play_line(pos)
    assert len(line) == pos.tricks_left * len(pos.active) - len(pos.trick)
    taken = 0
    for seat, card in line:
        assert seat == pos.to_move
        values = solver.card_values(pos)
        best = max(values.values()) if seat == pos.declarer else min(values.values())
        assert values[card] == best
        pos, winner = pos.play(card)
        taken += winner == pos.declarer
    assert taken == value


def test_full_deals_agree_with_table_kept_or_cleared(solver):
    rng = random.Random(11)
    for _ in range(40):
        hands, _ = random_deal(rng)
        pos = Position(tuple(hands), rng.randrange(5), rng.randrange(3), rng.randrange(3))
        kept = solver.solve(pos)
        solver.clear()
        assert solver.solve(pos) == kept
        # Declarer's and defenders' tricks in the same deal add up to ten.
        assert 0 <= kept <= 10


def test_trick_values_sum_to_ten_for_the_two_sides_in_two_hand_play(solver):
    # With two hands, each seat's tricks as declarer are the other's losses.
    rng = random.Random(5)
    for _ in range(40):
        hands, _ = random_deal(rng)
        trump = Strain(rng.randrange(5))
        a = Position(tuple(hands), trump, 0, 0, (0, 1))
        b = Position(tuple(hands), trump, 0, 1, (0, 1))
        assert solver.solve(a) + solver.solve(b) == 10


def test_solve_deals_matches_solve_with_and_without_fresh_tables():
    from prefa_sim.solve.solver import Solver

    rng = random.Random(8)
    rows, expected = [], []
    checker = Solver(table_bits=12)
    for _ in range(60):
        hands, _ = random_deal(rng)
        active = rng.choice(ACTIVE_SETS)
        pos = Position(tuple(hands), rng.randrange(5), rng.choice(active), rng.choice(active),
                       active)
        rows.append([*hands, int(pos.trump), pos.leader, pos.declarer, pos.active_mask])
        expected.append(checker.solve(pos))
    batch = Solver(table_bits=12)
    assert batch.solve_deals(rows, fresh_table=True).tolist() == expected
    assert batch.solve_deals(rows).tolist() == expected
