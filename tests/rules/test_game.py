"""Whole games: scripted and random, money exact and summing to zero."""

import json
import random
from fractions import Fraction

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from prefa_sim.bots.base import RandomPlayer
from prefa_sim.bots.table import play_game
from prefa_sim.cli import main
from prefa_sim.core.cards import format_cards, parse_deal
from prefa_sim.core.contracts import parse_contract
from prefa_sim.core.position import Position
from prefa_sim.rules.game import (
    STAKE,
    Game,
    format_action,
    parse_action,
    thirds,
)
from prefa_sim.rules.kasa import KasaGame
from prefa_sim.rules.settlement import SOLO_TRICKS, settle
from prefa_sim.rules.variants import Rules
from prefa_sim.solve.solver import Solver

from ..helpers import random_deal

RANDOM = [RandomPlayer()] * 3
"""Three players of random legal actions."""

EXAMPLE = "QJ7.T8.A.KQJT AKT.AKJ.QJ7.7 8.Q97.KT98.98 9.-.-.A"


def optimal_actions():
    """A scripted deal: seat 0 (first hand, dealer 2) declares 7H and both play it out."""
    hands, widow = parse_deal(EXAMPLE)
    actions = ["6S", "pass", "pass", "discard 8C TC", "7H", "play", "play"]
    hands12 = list(hands)
    hands12[0] = (hands[0] | widow) & ~(1 << 9) & ~(1 << 11)  # without 8C and TC
    pos = Position(tuple(hands12), 3, 0, 0)
    for _, card in Solver().play_line(pos):
        actions.append(format_cards(1 << card)[0])
    return actions


def test_scripted_game_score_sheet():
    actions = optimal_actions()
    lines = [json.dumps({"deal": EXAMPLE, "actions": actions}),
             json.dumps({"deal": EXAMPLE, "actions": ["pass", "pass", "pass"]}),
             json.dumps({"deal": EXAMPLE, "actions": ["6S", "hold"]}),
             json.dumps({"deal": EXAMPLE, "actions": ["6S", "pass"]})]
    result = CliRunner().invoke(main, ["game", "-", "--json"], input="\n".join(lines))
    assert result.exit_code == 1
    out = [json.loads(x) for x in result.stdout.splitlines()]
    first, second, errors, final = out[0], out[1], out[2:4], out[4]
    # Seat 2 deals first, so seat 0 is first hand and declares; 7H makes with optimal play.
    assert first["dealer"] == 2 and first["declarer"] == 0 and first["contract"] == "7H"
    assert first["tricks_played"][0] == 7 == first["tricks_credited"][0]
    assert first["pot_delta"] == -70 and first["discard"] == "8C TC"
    assert first["actions"] == actions and first["actors"][:3] == [0, 1, 2]
    t = first["tricks_played"]  # by seat: the declarer 0, then the first and second defender
    s = settle(parse_contract("7H"), ["play", "play"],
               {"declarer": t[0], "first": t[1], "second": t[2]})
    assert first["transfers"] == [s.transfers["declarer"], s.transfers["first"],
                                  s.transfers["second"]]
    assert second["void"] is True and second["dealer"] == 0
    assert errors[0]["line"] == 3 and "hold is not legal" in errors[0]["error"]
    assert errors[1]["line"] == 4 and "before the deal is over" in errors[1]["error"]
    assert final["deals"] == 2
    assert sum(final["results_thirds"]) == 0
    assert all(isinstance(r, int) for r in final["results_thirds"])
    assert final["pot"] == 1500 + first["pot_delta"]


def test_parse_action_by_phase():
    hands, widow = parse_deal(EXAMPLE)
    game = Game(dealer=2)
    deal = game.new_deal(hands, widow)
    for token in ("6S", "pass", "pass", "discard TC 8C", "7H", "play"):
        deal.apply(parse_action(deal, token))
    assert deal.phase == "defence"


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["normal", "unbalanced", "fair"]))
def test_random_games_money_is_exact(seed, mode):
    previous_pot = 3 * STAKE
    game = None
    for game, deal in play_game(RANDOM, seed, max_deals=60, rules=Rules(last_contract=mode)):
        if deal.settlement is not None:
            assert sum(deal.settlement.transfers.values()) == 0
            assert game.pot == previous_pot + deal.settlement.pot_delta
        if mode == "normal":
            assert game.pot >= 0
        previous_pot = game.pot
        assert sum(game.results()) == 0
    assert game is not None and (game.over or game.deals == 60)


def test_a_game_ends_when_the_pot_is_spent():
    # Both defenders always pass: every deal takes 10 v from the pot until it is spent.
    game = Game()
    rng = random.Random(4)
    while not game.over:
        deal = game.new_deal(*random_deal(rng))
        for token in ("6S", "pass", "pass", "discard " + " ".join(
                format_cards(deal.hands[(game.dealer + 1) % 3] | deal.widow)[:2]), "10NT",
                "pass", "pass"):
            deal.apply(parse_action(deal, token))
        game.record(deal)
    # 10NT is worth 100; 15 deals spend the pot exactly.
    assert game.deals == 15 and game.pot == 0
    assert game.results() == [Fraction(v) for v in (
        sum(100 for d in range(15) if (d + 1) % 3 == s) - STAKE for s in range(3))]


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_kasa_games(seed):
    game = None
    for game, _ in play_game(RANDOM, seed, max_deals=80, rules=Rules(kasa=4)):
        assert all(k >= 0 for k in game.kasa.kasa)
        assert sum(game.results()) == 0
    assert game.over or game.deals == 80
    assert game.pot == 3 * STAKE  # the common pot is not used


def test_kasa_game_from_the_command_line():
    result = CliRunner().invoke(main, ["game", "--seed", "3", "--kasa", "5", "--json",
                                       "--max-deals", "6"])
    assert result.exit_code == 0
    out = [json.loads(x) for x in result.stdout.splitlines()]
    assert len(out) == 7 and all("kasa" in o for o in out[:6])
    # Ended by agreement: the units left are settled in thirds (docs/rules.md §7).
    kasa, kapikia = out[5]["kasa"], out[5]["kapikia"]
    assert out[-1]["results_thirds"] == [3 * kapikia[s] + 10 * (sum(kasa) - 3 * kasa[s])
                                         for s in range(3)]


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([None, 6]))
def test_a_recorded_game_replays_exactly_as_a_script(seed, kasa):
    options = ["--max-deals", "25"] + (["--kasa", str(kasa)] if kasa else [])
    recorded = CliRunner().invoke(main, ["game", "--seed", str(seed), "--json", *options])
    assert recorded.exit_code == 0, recorded.output
    replayed = CliRunner().invoke(main, ["game", "-", "--json", *options],
                                  input=recorded.stdout)
    assert replayed.exit_code == 0, replayed.output
    assert replayed.stdout == recorded.stdout
    for record in map(json.loads, recorded.stdout.splitlines()[:-1]):
        assert len(record["actions"]) == len(record["actors"])
        if record["void"]:
            continue
        declarer, credited = record["declarer"], record["tricks_credited"]
        assert sum(credited) == 10
        level = parse_contract(record["contract"]).level
        if record["solo"]:
            by_role = [credited[(declarer + k) % 3] for k in range(3)]
            assert tuple(by_role) == SOLO_TRICKS[level]
            assert record["tricks_played"] == [0, 0, 0]
        elif record["declarations"] == ["pass", "pass"]:
            assert credited[declarer] == 10 and record["tricks_played"] == [0, 0, 0]
        else:
            assert credited == record["tricks_played"]


def test_every_action_token_reads_back_as_the_action():
    rng = random.Random(11)
    for _ in range(40):
        deal = Game().new_deal(*random_deal(rng))
        while not deal.is_terminal():
            for action in deal.legal_actions():
                assert parse_action(deal, format_action(action)) == action
            deal.apply(rng.choice(deal.legal_actions()))


def test_script_lines_after_the_end_are_warned_about():
    lines = [json.dumps({"deal": EXAMPLE, "actions": ["pass", "pass", "pass"]})] * 4
    result = CliRunner().invoke(main, ["game", "-", "--max-deals", "2"], input="\n".join(lines))
    assert result.exit_code == 0
    assert "warning: <stdin>, line 3: --max-deals 2 reached after deal 2; line ignored" \
        in result.stderr and "line 4:" in result.stderr
    assert result.stdout.count("void: all passed") == 2
    wrong_dealer = json.dumps({"deal": EXAMPLE, "actions": ["pass"] * 3, "dealer": 0})
    result = CliRunner().invoke(main, ["game", "-"], input=wrong_dealer)
    assert result.exit_code == 1 and "seat 2 deals this deal" in result.stderr


def kasa_game(kasa: KasaGame) -> Game:
    """A game with the personal kása, its kásas and kapíkia as given."""
    game = Game(rules=Rules(kasa=max(max(kasa.kasa), 1)))
    game.kasa = kasa
    return game


def test_a_kasa_game_ended_by_agreement_settles_the_units_left_in_thirds():
    # docs/rules.md §7.5: kásas of 8, 3 and 0 units; nets -43 1/3, +6 2/3, +36 2/3.
    game = kasa_game(KasaGame([8, 3, 0], [0, 0, 0]))
    assert game.results() == [Fraction(-130, 3), Fraction(20, 3), Fraction(110, 3)]
    assert [thirds(r) for r in game.results()] == [-130, 20, 110]
    # Two kásas empty: the owner of the last pays a third of it to each (the Russian rule).
    game = kasa_game(KasaGame([9, 0, 0], [5, -5, 0]))
    assert game.results() == [5 - 60, -5 + 30, 30]
    # All empty: the kapíkia are the results.
    assert kasa_game(KasaGame([0, 0, 0], [7, -3, -4])).results() == [7, -3, -4]
