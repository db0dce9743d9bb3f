"""Every player plays under every rule variant (docs/rules.md §7.6): only legal actions
(the table checks each), money that sums to zero, and the variant visible in what is
played."""

from fractions import Fraction

import pytest

from prefa_sim.bots.registry import make_players
from prefa_sim.bots.table import play_game
from prefa_sim.rules.variants import Rules

SMALL_SAMPLING = "sampling(bidding=2,widow=2,defence=3,play=3)"
VARIANTS = ["overtrump=yes", "ten_nt=off", "ten_nt=11,aces=each:25", "ten_as_nine=yes,kasa=12",
            "aces=raise:4,last_contract=unbalanced"]


@pytest.mark.parametrize("text", VARIANTS)
@pytest.mark.parametrize("seats", ["random,heuristic,oracle", f"{SMALL_SAMPLING},random,random"])
def test_every_player_plays_every_variant(text, seats):
    rules = Rules.parse(text)
    players = make_players(seats)
    deals = 0
    for game, deal in play_game(players, 7, max_deals=12, rules=rules):
        deals += 1
        assert sum(game.results(), Fraction(0)) == 0
        assert deal.rules == rules
        if deal.contract is not None:
            assert rules.allows(deal.contract)
        if deal.position is not None:
            assert deal.position.overtrump == rules.overtrump
        if deal.settlement is not None:
            assert sum(deal.settlement.result.values()) == 0
    assert deals == 12 or game.over


def test_the_sampling_and_oracle_players_name_10nt_only_where_it_exists():
    """Ten sure tricks on lead in any strain: 10NT by default (the higher step at the same
    value), 10S when the ladder ends at 10H."""
    import numpy as np

    from prefa_sim.bots.observation import Observation
    from prefa_sim.bots.sampling import SamplingPlayer
    from prefa_sim.core.cards import parse_hand
    from prefa_sim.core.contracts import parse_contract
    from prefa_sim.rules.deal import Name
    from prefa_sim.rules.variants import DEFAULT_RULES

    hand = parse_hand("AKQJT987.A.-.A", 10)
    discard = parse_hand("-.-.87.-", 2)
    for rules, named in ((DEFAULT_RULES, "10NT"), (Rules(ten_nt="off"), "10S")):
        obs = Observation(seat=0, dealer=2, phase="contract", hand=hand,
                          legal=tuple(Name(c) for c in rules.ladder), declarer=0,
                          min_contract=parse_contract("6S"), widow=discard, discard=discard,
                          rules=rules)
        action = SamplingPlayer().act(obs, np.random.default_rng(1))
        assert action == Name(parse_contract(named))
