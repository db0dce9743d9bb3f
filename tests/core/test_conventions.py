"""One seat convention everywhere: the same deal gives the same answer through `prefa solve`,
`solve --batch`, `simulate --replay`, `prefa game` and the Python API."""

import json
import random

import pandas as pd
import pytest
from click.testing import CliRunner

from prefa_sim.cli import main
from prefa_sim.core.cards import Strain, format_cards, format_discard, format_hand
from prefa_sim.core.contracts import parse_contract
from prefa_sim.core.position import Position
from prefa_sim.core.seats import DEFAULT_DEALER, opening_leader, position_of, seat_of
from prefa_sim.rules.settlement import settle
from prefa_sim.solve.tables import active_seats

from ..helpers import random_deal

DEALS = 10


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


@pytest.fixture(scope="module")
def deals():
    rng = random.Random(2026)
    return [(*random_deal(rng), rng.randrange(3), rng.choice(list(Strain)))
            for _ in range(DEALS)]


@pytest.fixture(scope="module")
def api_answers(deals, solver):
    """Best tricks per (deal, declarer, mode, strain) from the Python API."""
    answers = {}
    for k, (hands, widow, _, _) in enumerate(deals):
        for declarer in range(3):
            for mode in ("both", "first"):
                active = active_seats(declarer, mode)
                leader = opening_leader(DEFAULT_DEALER, active)
                table = solver.widow_table(hands, widow, leader, declarer, active)
                for strain, result in table.items():
                    answers[k, declarer, mode, strain] = result
    return answers


def deal_text(hands, widow):
    return [format_hand(h) for h in hands] + [format_hand(widow)]


def test_the_default_dealer_makes_seat_0_first_hand():
    assert DEFAULT_DEALER == 2
    assert [position_of(s) for s in range(3)] == ["first", "second", "dealer"]
    assert [seat_of(r) for r in ("first", "second", "dealer")] == [0, 1, 2]
    assert [seat_of(r, dealer=0) for r in ("first", "second", "dealer")] == [1, 2, 0]


def test_solve_and_its_batch_agree_with_the_api(deals, api_answers):
    requests = []
    for k, (hands, widow, declarer, _) in enumerate(deals):
        role = ("first", "second", "dealer")[declarer]
        result = run("solve", *deal_text(hands, widow), "-d", role, "--json")
        assert result.exit_code == 0, result.output
        out = json.loads(result.stdout)
        assert out["declarer"] == declarer and out["leader"] == 0
        for strain in Strain:
            want = api_answers[k, declarer, "both", strain]
            assert out["strains"][strain.name]["best_tricks"] == want.best_tricks
            assert out["strains"][strain.name]["best_discards"] == want.discard_names()
        # The defender on the declarer's right alone (the other passed): two hands.
        first = (declarer + 1) % 3
        two = run("solve", *deal_text(hands, widow), "-d", str(declarer), "-a",
                  f"{declarer},{first}", "--json")
        assert {s: v["best_tricks"] for s, v in json.loads(two.stdout)["strains"].items()} == \
            {s.name: api_answers[k, declarer, "first", s].best_tricks for s in Strain}
        requests.append(json.dumps({"hands": [format_cards(h) for h in hands],
                                    "widow": format_cards(widow), "declarer": role}))
    batch = run("solve", "--batch", "-", "-w", "1", input="\n".join(requests))
    assert batch.exit_code == 0, batch.output
    for k, line in enumerate(batch.stdout.splitlines()):
        out = json.loads(line)
        declarer = deals[k][2]
        for strain in Strain:
            assert out["strains"][strain.name]["best_tricks"] == \
                api_answers[k, declarer, "both", strain].best_tricks


def test_simulate_replay_agrees_with_the_api(deals, api_answers, tmp_path):
    lines = [json.dumps({"hands": [format_hand(h) for h in hands], "widow": format_hand(widow)})
             for hands, widow, _, _ in deals]
    replay = tmp_path / "deals.jsonl"
    replay.write_text("\n".join(lines))
    result = run("simulate", "--replay", str(replay), "-o", str(tmp_path / "run"), "-w", "1",
                 "--modes", "both,first")
    assert result.exit_code == 0, result.output
    data = pd.read_parquet(tmp_path / "run")
    assert len(data) == DEALS * 3 * 5
    for _, row in data.iterrows():
        assert row.dealer == DEFAULT_DEALER and row.position == row.declarer
        for mode in ("both", "first"):
            want = api_answers[row.deal, row.declarer, mode, Strain[row.strain]]
            assert row[f"tricks_{mode}"] == want.best_tricks


def test_a_game_played_optimally_takes_the_solved_tricks(deals, api_answers, solver):
    script = []
    expected = []
    for k, (hands, widow, declarer, strain) in enumerate(deals):
        # The declarer wins the auction at 6S, then plays the solved discard and contract.
        dealer = (DEFAULT_DEALER + k) % 3  # the deal passes one seat on each time
        place = position_of(declarer, dealer)
        calls = {"first": ["6S", "pass", "pass"], "second": ["pass", "6S", "pass"],
                 "dealer": ["pass", "pass", "6S"]}[place]
        best = api_answers_for(hands, widow, dealer, declarer, strain, solver)
        discard = best.best_discards[0]
        twelve = hands[declarer] | widow
        after = list(hands)
        after[declarer] = twelve & ~(1 << discard[0]) & ~(1 << discard[1])
        position = Position(tuple(after), strain, opening_leader(dealer, (0, 1, 2)), declarer)
        cards = [format_cards(1 << c)[0] for _, c in solver.play_line(position)]
        actions = [*calls, "discard " + format_discard(discard), f"6{strain.name}", "play",
                   "play", *cards]
        script.append(json.dumps({"deal": " ".join(deal_text(hands, widow)),
                                  "actions": actions}))
        expected.append((declarer, best.best_tricks))
    result = run("game", "-", "--json", input="\n".join(script))
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.stdout.splitlines()][:-1]
    for record, (declarer, tricks) in zip(records, expected, strict=True):
        assert record["declarer"] == declarer
        assert record["tricks_played"][declarer] == tricks
        # Money by seat: the settlement's roles placed from this declarer.
        played = record["tricks_played"]
        by_role = {role: played[(declarer + k) % 3]
                   for k, role in enumerate(("declarer", "first", "second"))}
        settled = settle(parse_contract(record["contract"]), ["play", "play"], by_role)
        assert [record["transfers"][(declarer + k) % 3] for k in range(3)] == \
            [settled.transfers[r] for r in ("declarer", "first", "second")]


def api_answers_for(hands, widow, dealer, declarer, strain, solver):
    leader = opening_leader(dealer, (0, 1, 2))
    return solver.solve_widow(hands, widow, strain, leader, declarer)
