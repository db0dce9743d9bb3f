"""The first deal by the 7 of diamonds (first_deal, docs/rules.md §7.6): who deals it,
cards dealt again, recordings that replay, and the commands that refuse the rule."""

import json

import pytest
from click.testing import CliRunner

from prefa_sim.bots.registry import make_players
from prefa_sim.bots.table import play_game
from prefa_sim.cli import main
from prefa_sim.core.cards import parse_card, parse_deal
from prefa_sim.rules.game import Redeal, first_dealer
from prefa_sim.rules.variants import Rules

SEVEN, EIGHT = parse_card("7D"), parse_card("8D")
# Seat 1 holds the 7 of diamonds; seat 2 the 8.
DEAL = "AKQJ.AKQ.AKQ.- T98.JT9.7.AKQ 7.87.JT8.JT98 -.-.9.7"


def test_the_holder_of_the_seven_speaks_first_and_the_seat_before_it_deals():
    hands, widow = parse_deal(DEAL)
    for rule in ("7d8d", "7d"):
        assert first_dealer(Rules(first_deal=rule), hands, widow) == (0, "seat 1 holds the 7D")
    assert first_dealer(Rules(), hands, widow) == (None, "")


def test_the_eight_decides_when_the_seven_is_in_the_widow_unless_the_table_says_not():
    # The 7 of diamonds in the widow, the 8 with seat 2.
    hands, widow = parse_deal("AKQJ.AKQ.AKQ.- T98.JT9.9.AKQ 7.87.JT8.JT98 -.-.7.7")
    assert first_dealer(Rules(first_deal="7d8d"), hands, widow) == (1, "seat 2 holds the 8D")
    assert first_dealer(Rules(first_deal="7d"), hands, widow) == (
        None, "the 7 of diamonds is in the widow")
    # Both in the widow: dealt again either way.
    hands, widow = parse_deal("AKQJ.AKQ.AKQ.- T98.JT9.9.AKQ 7.87.JT.JT987 -.-.87.-")
    assert first_dealer(Rules(first_deal="7d8d"), hands, widow) == (
        None, "the 7 and the 8 of diamonds are both in the widow")


def test_a_game_deals_again_then_follows_the_cards():
    """Seed 18's first cards hold the 7 of diamonds in the widow: with 7d they are dealt
    again, with 7d8d the holder of the 8 speaks first; then the deal passes one seat on."""
    players = make_players("random")
    again = list(play_game(players, 18, max_deals=3, rules=Rules(first_deal="7d")))
    assert isinstance(again[0][1], Redeal) and again[0][1].reason == \
        "the 7 of diamonds is in the widow"
    first = again[1][1]
    holder = next(s for s in range(3) if first.hands_dealt[s] >> SEVEN & 1)
    assert first.dealer == (holder + 2) % 3 and first.first_hand == holder
    assert [d.dealer for _, d in again[1:]] == [first.dealer, (first.dealer + 1) % 3,
                                                (first.dealer + 2) % 3]
    eight = list(play_game(players, 18, max_deals=2, rules=Rules(first_deal="7d8d")))
    deal = eight[0][1]
    assert not isinstance(deal, Redeal) and deal.widow >> SEVEN & 1
    assert deal.first_hand == next(s for s in range(3) if deal.hands_dealt[s] >> EIGHT & 1)


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def test_a_recording_with_cards_dealt_again_replays_exactly():
    recorded = run("game", "--seed", 18, "--rules", "first_deal=7d", "--max-deals", 4,
                   "--json")
    lines = recorded.stdout.splitlines()
    assert json.loads(lines[0]) == {
        "number": 0, "rules": "first_deal=7d", "redeal": "the 7 of diamonds is in the widow",
        "deal": json.loads(lines[0])["deal"], "actions": []}
    again = run("game", "-", "--rules", "first_deal=7d", "--json", input=recorded.stdout)
    assert again.exit_code == 0 and again.stdout == recorded.stdout
    text = run("game", "-", "--rules", "first_deal=7d", input=recorded.stdout)
    assert text.stdout.splitlines()[0] == ("first deal dealt again: the 7 of diamonds is in "
                                           "the widow (first_deal=7d)")
    # The same cards with an action: they are dealt again, so the line is refused.
    bad = dict(json.loads(lines[0]), actions=["pass"])
    refused = run("game", "-", "--rules", "first_deal=7d", input=json.dumps(bad))
    assert refused.exit_code == 1 and ("the 7 of diamonds is in the widow: these cards are "
                                       "dealt again (first_deal=7d), so the line takes no "
                                       "action") in refused.output
    # With the 8 deciding, the same cards are played: a line without actions ends too soon.
    eight = run("game", "-", "--rules", "first_deal=7d8d", input=lines[0])
    assert eight.exit_code == 1 and "the actions end in the auction phase" in eight.output


@pytest.mark.parametrize("args, message", [
    (["game", "--seed", 1, "--dealer", 0, "--rules", "first_deal=7d8d"],
     "--dealer contradicts first_deal=7d8d: the cards of the first deal name its dealer"),
    (["simulate", "-n", 4, "-o", "never", "--rules", "first_deal=7d"],
     "first_deal=7d chooses the dealer of a game's first deal: the deals of a simulation "
     "have the scenario's dealer"),
    (["match", "random", "random", "random", "-n", 4, "--rules", "first_deal=7d"],
     "a match plays single deals"),
    (["games", "--players", "random", "-n", 4, "-o", "never", "--rules", "first_deal=7d"],
     "it needs --full-games"),
])
def test_commands_without_a_first_deal_refuse_the_rule(args, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run(*args)
    assert result.exit_code == 2 and message in result.output
    assert not (tmp_path / "never").exists()
