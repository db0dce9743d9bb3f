"""The 2-hand endgame table against exhaustive minimax, its layout, and the file that keeps
it between runs."""

import os
import random
import time
from itertools import combinations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from prefa_sim.core.position import Position
from prefa_sim.engine.endgame import ENDGAME_ENTRIES, ENDGAME_TRICKS, endgame_index, endgame_lookup
from prefa_sim.engine.endgame_build import build_endgame_table, cache_path, endgame_table
from prefa_sim.engine.layout import STAT_ENDGAME_HITS, STAT_NODES
from prefa_sim.solve.solver import Solver

from ..helpers import random_position, reference_value, relocate_below

TWO_HANDS = [(0, 1), (0, 2), (1, 2)]


@st.composite
def two_hand_endings(draw):
    """Random 2-hand trick starts of the lengths the table holds, any strain, leader and
    declarer."""
    active = draw(st.sampled_from(TWO_HANDS))
    tricks = draw(st.integers(1, ENDGAME_TRICKS))
    seed = draw(st.integers(0, 2**32 - 1))
    return random_position(random.Random(seed), tricks, active, draw(st.integers(0, 4)),
                           draw(st.sampled_from(active)), draw(st.sampled_from(active)), 0)


def lookup(pos: Position, target: int) -> tuple[bool, int]:
    defender = next(s for s in pos.active if s != pos.declarer)
    reaches, rel = endgame_lookup(endgame_table(), pos.hand(pos.declarer), pos.hand(defender),
                                  pos.leader == pos.declarer, int(pos.trump),
                                  pos.tricks_left, target)
    return bool(reaches), int(rel)


@settings(max_examples=400, deadline=None)
@given(two_hand_endings(), st.integers(0, 2**32 - 1))
def test_every_target_and_its_relevant_cards_match_minimax(pos, seed):
    """For each target the table says whether the declarer reaches it, as minimax does,
    and the same holds wherever the cards below the relevant ones lie (the relevant cards
    of the highest target reached serve the lower ones, those of the first target missed
    the higher ones)."""
    value = reference_value(pos)
    rng = random.Random(seed)
    in_play = pos.hand(pos.active[0]) | pos.hand(pos.active[1])
    for target in range(1, pos.tricks_left + 1):
        reaches, rel = lookup(pos, target)
        assert reaches == (value >= target)
        assert rel & ~in_play == 0
        if target in (value, value + 1):
            for _ in range(2):
                other = relocate_below(pos, rel, rng.randrange(2**32))
                assert (reference_value(other) >= target) == reaches


def test_every_position_has_an_entry_of_its_own():
    """The canonical positions (the declarer's cards among the top cards of each suit, the
    trump suit first) fill the table's entries one to one."""
    seen = set()
    for tricks in range(1, ENDGAME_TRICKS + 1):
        for lengths in _compositions(2 * tricks):
            cards = [8 * s + 8 - n + j for s, n in enumerate(lengths) for j in range(n)]
            for mine in combinations(cards, tricks):
                declarer_hand = sum(1 << c for c in mine)
                defender_hand = sum(1 << c for c in cards) & ~declarer_hand
                for trump in (0, 4) if lengths[0] else (4,):
                    for declarer_leads in (False, True):
                        seen.add(int(endgame_index(declarer_hand, defender_hand, declarer_leads,
                                                   trump, tricks)))
    assert seen == set(range(ENDGAME_ENTRIES))


def _compositions(total: int):
    """Suit lengths (at most 8 each) that add up to ``total``."""
    for a in range(min(8, total) + 1):
        for b in range(min(8, total - a) + 1):
            for c in range(min(8, total - a - b) + 1):
                d = total - a - b - c
                if d <= 8:
                    yield a, b, c, d


def test_any_trump_suit_reads_the_entry_of_its_canonical_order():
    """The same cards with the trump suit renamed, the other suits keeping their order,
    read one entry (while a trump is held)."""
    rng = random.Random(3)
    checked = 0
    while checked < 200:
        trump = rng.randrange(4)
        pos = random_position(rng, rng.randint(1, ENDGAME_TRICKS), (0, 1), trump,
                              rng.choice((0, 1)), 0, 0)
        if not ((pos.hand(0) | pos.hand(1)) >> (8 * trump)) & 255:
            continue
        checked += 1
        new_trump = rng.randrange(4)
        sides = iter(s for s in range(4) if s != new_trump)
        order = [new_trump if s == trump else next(sides) for s in range(4)]
        renamed = [sum(1 << (8 * order[c // 8] + c % 8) for c in range(32) if h >> c & 1)
                   for h in (pos.hand(0), pos.hand(1))]
        first = endgame_index(pos.hand(0), pos.hand(1), pos.leader == 0, int(pos.trump),
                              pos.tricks_left)
        second = endgame_index(renamed[0], renamed[1], pos.leader == 0, order[int(pos.trump)],
                               pos.tricks_left)
        assert first == second


def test_solver_answers_the_same_with_or_without_the_table_and_searches_less():
    rng = random.Random(12)
    rows = []
    for _ in range(60):
        deck = rng.sample(range(32), 20)
        active = rng.choice(TWO_HANDS)
        hands = [0, 0, 0]
        hands[active[0]] = sum(1 << c for c in deck[:10])
        hands[active[1]] = sum(1 << c for c in deck[10:])
        rows.append([*hands, rng.randrange(5), rng.choice(active), rng.choice(active),
                     (1 << active[0]) | (1 << active[1])])
    deals = np.array(rows, dtype=np.int64)
    with_table, without = Solver(table_bits=14), Solver(table_bits=14, endgame=False)
    assert (with_table.solve_deals(deals, fresh_table=True)
            == without.solve_deals(deals, fresh_table=True)).all()
    assert with_table.stats[STAT_ENDGAME_HITS] > 0 and without.stats[STAT_ENDGAME_HITS] == 0
    assert with_table.stats[STAT_NODES] < without.stats[STAT_NODES]


def test_three_hand_positions_in_a_batch_with_two_hand_ones_are_searched():
    """A batch with 2-hand rows hands the table to the kernel for every row: the 3-hand
    rows must not read it."""
    rng = random.Random(4)
    positions = []
    for _ in range(60):
        active = rng.choice([(0, 1, 2), *TWO_HANDS])
        positions.append(random_position(rng, rng.randint(2, 4), active, rng.randrange(5),
                                         rng.choice(active), rng.choice(active), 0))
    deals = np.array([[*(p.hand(s) for s in range(3)), int(p.trump), p.leader, p.declarer,
                       p.active_mask] for p in positions], dtype=np.int64)
    solver = Solver(table_bits=12)
    got = solver.solve_deals(deals, fresh_table=True)
    assert got.tolist() == [reference_value(p) for p in positions]
    assert solver.stats[STAT_ENDGAME_HITS] > 0


def test_the_table_is_kept_in_the_cache_folder_and_a_damaged_file_built_again(tmp_path,
                                                                              monkeypatch):
    monkeypatch.setenv("PREFA_SIM_CACHE_DIR", str(tmp_path))
    others = []  # other versions' tables, the last one written first
    for age in range(3):
        other = tmp_path / f"endgame-2h-6-{age:016x}.npy"
        other.write_bytes(b"old")
        os.utime(other, (1e9 - age, 1e9 - age))
        others.append(other)
    killed = tmp_path / "endgame-2h-6-0000000000000000killed.tmp"  # a writer killed long ago
    killed.write_bytes(b"half")
    os.utime(killed, (time.time() - 7200, time.time() - 7200))
    writing = tmp_path / "endgame-2h-6-0000000000000000writing.tmp"  # another writer, now
    writing.write_bytes(b"half")
    endgame_table.cache_clear()
    try:
        built = endgame_table()
        kept = cache_path()
        assert kept.parent == tmp_path and kept.exists()
        # the oldest table and the stale temporary file went
        assert sorted(tmp_path.iterdir()) == sorted([kept, *others[:2], writing])
        endgame_table.cache_clear()
        assert np.array_equal(endgame_table(), built)  # read back
        kept.write_bytes(kept.read_bytes()[:1000])  # cut short
        endgame_table.cache_clear()
        assert np.array_equal(endgame_table(), built)
        assert np.array_equal(np.load(kept), built)  # written whole again
    finally:
        endgame_table.cache_clear()


def test_without_a_folder_to_keep_it_in_the_table_is_built_all_the_same(tmp_path,
                                                                        monkeypatch):
    blocked = tmp_path / "a file"
    blocked.write_text("")
    monkeypatch.setenv("PREFA_SIM_CACHE_DIR", str(blocked / "cache"))
    endgame_table.cache_clear()
    try:
        assert np.array_equal(endgame_table(), build_endgame_table())
        assert list(tmp_path.iterdir()) == [blocked]
        monkeypatch.setenv("PREFA_SIM_CACHE_DIR", "")
        assert cache_path() is None
    finally:
        endgame_table.cache_clear()
