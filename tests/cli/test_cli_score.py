"""`prefa score` for one deal and in batch."""

import json

from click.testing import CliRunner

from prefa_sim.cli import main
from prefa_sim.core.contracts import parse_contract
from prefa_sim.rules.settlement import settle


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def test_one_deal_text_and_json():
    result = run("score", "7H", "-d", "play,play", "-t", "8,2,0")
    assert result.exit_code == 0
    assert result.output.splitlines() == ["pot: +0", "role       transfers     net",
                                          "declarer         +56     +56",
                                          "first            +14     +14",
                                          "second           -70     -70"]
    result = run("score", "6H", "-d", "pass,pass", "--aces", "--json")
    expected = settle(parse_contract("6H"), ["pass", "pass"], aces=True)
    assert json.loads(result.stdout) == {
        "pot_delta": expected.pot_delta, "net": expected.net, "transfers": expected.transfers,
        # 6H pass-pass with the aces: the declarer takes 50 from the pot (two thirds of it
        # are the others') and 25 from each defender.
        "result_thirds": {"declarer": 3 * (50 + 50) - 50, "first": 3 * -25 - 50,
                          "second": 3 * -25 - 50}}


def test_errors_are_clean():
    result = run("score", "7H", "-d", "play", "-t", "8,2,0")
    assert result.exit_code == 1 and "not a legal sequence" in result.output
    result = run("score", "7X", "-d", "play,play", "-t", "8,2,0")
    assert result.exit_code == 1 and "unknown contract '7X'" in result.output
    result = run("score", "7H", "-d", "play,play", "-t", "8,x")
    assert result.exit_code == 2 and "--tricks" in result.output


def test_batch():
    good = {"contract": "7H", "declarations": ["play", "pass", "together"],
            "tricks": {"declarer": 8, "first": 1, "second": 1}, "aces": False, "solo": False,
            "pot": 1500, "last_contract": "normal"}
    solo = {"contract": "8S", "solo": True}
    bad = {"contract": "7H", "declarations": ["play", "play"], "tricks": {"declarer": 11}}
    lines = [json.dumps(good), json.dumps(solo), json.dumps(bad)]
    result = run("score", "--batch", "-", input="\n".join(lines))
    assert result.exit_code == 1
    out = [json.loads(x) for x in result.stdout.splitlines()]
    assert out[0] == {**good, "pot_delta": 0, "net": {"declarer": 56, "first": -56, "second": 0},
                      "transfers": {"declarer": 56, "first": -56, "second": 0},
                      "result_thirds": {"declarer": 168, "first": -168, "second": 0}}
    s = settle(parse_contract("8S"), solo=True)
    assert out[1]["pot_delta"] == s.pot_delta == 160 and out[1]["transfers"] == s.transfers
    assert out[2]["line"] == 3 and "'tricks' of declarer" in out[2]["error"]
