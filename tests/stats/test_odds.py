"""Exact suit splits: they sum to one, match a full enumeration and simulated deals."""

import json
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest
from click.testing import CliRunner

from prefa_sim.cli import main
from prefa_sim.core.cards import parse_hand
from prefa_sim.stats.odds import (
    DEFENDERS_VIEW,
    LONE_DEFENDER_VIEW,
    grouped,
    suit_splits,
    unseen_by_suit,
)


@pytest.mark.parametrize("sizes", [DEFENDERS_VIEW, LONE_DEFENDER_VIEW])
def test_splits_cover_every_case_once(sizes):
    for out in range(9):
        splits = suit_splits(out, sizes)
        assert sum(s.probability for s in splits) == 1
        assert all(s.first + s.second == out for s in splits)
        assert len({s.first for s in splits}) == len(splits)


def test_splits_match_a_full_enumeration_of_the_unseen_cards():
    # 20 unseen cards, the suit's 3 are cards 0, 1, 2; every way to give 10 to the first hand.
    tally = dict.fromkeys(range(4), 0)
    for hand in combinations(range(20), 10):
        tally[sum(c < 3 for c in hand)] += 1
    total = sum(tally.values())
    assert {s.first: s.probability for s in suit_splits(3)} == \
        {k: Fraction(n, total) for k, n in tally.items()}


@pytest.mark.parametrize("out, sizes", [(4, DEFENDERS_VIEW), (5, DEFENDERS_VIEW),
                                         (5, LONE_DEFENDER_VIEW)])
def test_splits_match_simulated_deals(out, sizes):
    rng = np.random.default_rng(7)
    trials = 20000
    unseen = sum(sizes)
    firsts = np.array([(rng.permutation(unseen)[:sizes[0]] < out).sum() for _ in range(trials)])
    for s in suit_splits(out, sizes):
        p = float(s.probability)
        observed = (firsts == s.first).mean()
        assert abs(observed - p) <= 4 * np.sqrt(p * (1 - p) / trials) + 1e-9


def test_grouped_and_unseen():
    assert [label for label, _ in grouped(suit_splits(4))] == ["4-0", "3-1", "2-2"]
    assert sum(p for _, p in grouped(suit_splits(5))) == 1
    known = parse_hand("AKQJ9.A.-.KQ87") | parse_hand("7S 8D")
    assert unseen_by_suit(known) == [2, 7, 7, 4]


def test_the_command_prints_what_the_library_computes():
    result = CliRunner().invoke(main, ["odds", "AKQJ9.A.-.KQ87", "--widow", "7S 8D", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["sizes"] == [10, 10] and list(out["suits"]) == ["S", "C", "D", "H"]
    for suit, n in zip("SCDH", [2, 7, 7, 4], strict=True):
        assert [Fraction(s["probability"]) for s in out["suits"][suit]] == \
            [s.probability for s in suit_splits(n)]
    text = CliRunner().invoke(main, ["odds", "--out", "4"]).output
    assert "2-2     41.80%      135/323" in text and "either way: 4-0 8.7%, 3-1 49.5%" in text
    for args, message in ((["odds"], "give a HAND"),
                          (["odds", "AKQ.-.-.-", "--widow", "7S 8D"], "twelve cards"),
                          (["odds", "AKQJ9.A.-.KQ87", "--widow", "AS 8D"], "AS in both"),
                          (["odds", "--out", "9"], "--out")):
        result = CliRunner().invoke(main, args)
        assert result.exit_code in (1, 2) and message in result.output
