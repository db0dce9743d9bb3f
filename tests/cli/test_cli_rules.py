"""``--rules`` on the commands that solve, call, settle and play one deal or game: the
answer follows the rules, the output names them, and bad or contradictory rules are one
clear line."""

import json

import pytest
from click.testing import CliRunner

from prefa_sim.cli import main

# The declarer leads 8H, the first defender ruffs with the QS and the second, KS 7S, keeps
# the king by under-trumping: without under-trumping it must overtrump, and the JS wins.
OVERTRUMP_DEAL = ["8H,JS", "QS,7C", "KS,7S", "-t", "S"]
# Seat 0 holds eight solid spades and two aces: ten tricks on lead in spades or no trumps.
TEN_TRICKS = ["AKQJT987.A.-.A", "-.KQJT9.AKQJT.-", "-.87.987.KQJT9", "-.-.-.87"]


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def test_solve_follows_the_rule_against_under_trumping_and_says_so():
    plain = run("solve", *OVERTRUMP_DEAL)
    ruled = run("solve", *OVERTRUMP_DEAL, "--rules", "overtrump=yes")
    assert "declarer takes 0 of 2 tricks" in plain.output and "rules:" not in plain.output
    assert ruled.output.startswith("rules: overtrump=yes\n")
    assert "declarer takes 1 of 2 tricks" in ruled.output
    as_json = json.loads(run("solve", *OVERTRUMP_DEAL, "--rules", "overtrump=yes",
                             "--json").output)
    assert as_json["rules"] == "overtrump=yes" and as_json["declarer_tricks"] == 1


@pytest.mark.parametrize("rules, named", [(None, "10NT"), ("ten_nt=off", "10S"),
                                          ("ten_nt=11", "10NT")])
def test_the_contract_to_name_follows_the_10nt_rule(rules, named):
    args = ["solve", *TEN_TRICKS] + (["--rules", rules] if rules else [])
    result = run(*args)
    assert result.exit_code == 0
    assert f"contract to name: {named} " in result.output


def test_a_batch_takes_the_command_line_rules_unless_a_line_has_its_own():
    line = {"hands": ["8H JS", "QS 7C", "KS 7S"], "trump": "S"}
    lines = "\n".join(json.dumps(x) for x in (
        line, {**line, "rules": "overtrump=no"}, {**line, "rules": {"overtrump": True}},
        {**line, "rules": "overtrump=maybe"}))
    for workers in (1, 2):
        result = run("solve", "--batch", "-", "--rules", "overtrump=yes", "-w", workers,
                     input=lines)
        out = [json.loads(x) for x in result.stdout.splitlines()]
        assert result.exit_code == 1
        assert [o.get("declarer_tricks") for o in out] == [1, 0, 1, None]
        assert [o.get("rules") for o in out[:3]] == ["overtrump=yes", "overtrump=no",
                                                     "overtrump=yes"]
        assert out[3] == {"line": 4, "error": "'rules': rule overtrump cannot be 'maybe' "
                                              "(valid: yes, no)"}
    default = run("solve", "--batch", "-", input=json.dumps(line))
    assert json.loads(default.stdout)["declarer_tricks"] == 0
    assert "rules" not in json.loads(default.stdout)


def test_auction_under_ten_nt_off():
    calls = ["6S", "6C", "pass"]
    for step in ("6D", "6H", "6NT", "7S", "7C", "7D", "7H", "7NT", "8S", "8C", "8D", "8H",
                 "8NT", "9S", "9C", "9D", "9H", "9NT", "10S", "10C", "10D", "10H"):
        calls += ["hold", step]
    ended = run("auction", *calls, "hold", "--rules", "ten_nt=off")
    assert ended.output == "rules: ten_nt=off\ndeclarer: seat 0 (first hand), minimum " \
                           "contract 10H\n"
    default = run("auction", *calls, "hold")
    assert "not finished: seat 1 (second hand) to speak; legal: 10NT pass" in default.output
    batch = run("auction", "--batch", "-", "--rules", "ten_nt=off",
                input=json.dumps({"calls": [*calls, "hold"]}))
    assert json.loads(batch.stdout)["result"]["min_contract"] == "10H"


def test_score_under_the_variants():
    eleven = run("score", "10NT", "-d", "pass,pass", "--rules", "ten_nt=11", "--json")
    assert json.loads(eleven.output)["pot_delta"] == -110
    nine = run("score", "10S", "-d", "play,play", "-t", "10,0,0", "--rules",
               "ten_as_nine=yes")
    assert nine.output.splitlines()[:2] == ["rules: ten_as_nine=yes", "pot: +0"]
    kasa = run("score", "7H", "-d", "play,play", "-t", "6,2,2", "--rules", "pagat")
    assert kasa.output.splitlines()[:2] == ["rules: kasa=31", "declarer's kása: +7 units"]
    batch = run("score", "--batch", "-", "--rules", "ten_nt=11", input="\n".join([
        json.dumps({"contract": "10NT", "declarations": ["pass", "pass"]}),
        json.dumps({"contract": "10NT", "declarations": ["pass", "pass"], "rules": "default"}),
        json.dumps({"contract": "10NT", "declarations": ["pass", "pass"],
                    "last_contract": "fair"})]))
    out = [json.loads(x) for x in batch.stdout.splitlines()]
    assert [o["pot_delta"] for o in out] == [-110, -100, -110]
    assert [o["rules"] for o in out] == ["ten_nt=11", "default", "last_contract=fair,ten_nt=11"]


@pytest.mark.parametrize("args, message", [
    (["score", "7H", "--rules", "tennt=11"],
     "Invalid value for '--rules': unknown rule 'tennt' (rules: last_contract, kasa, ten_nt, "
     "ten_as_nine, aces, overtrump, first_deal)"),
    (["solve", "--rules", "overtrump=perhaps"],
     "Invalid value for '--rules': rule overtrump cannot be 'perhaps' (valid: yes, no)"),
    (["game", "--seed", "1", "--rules", "kasa=31", "--kasa", "40"],
     "--kasa 40 contradicts --rules kasa=31 (kasa=31)"),
    (["game", "--seed", "1", "--rules", "kasa=31", "--last-contract", "fair"],
     "last_contract=fair contradicts kasa=31: the last contract is a rule of the common pot"),
    (["score", "10NT", "-d", "pass,pass", "--rules", "ten_nt=off"],
     "10NT is not allowed under these rules (ten_nt=off)"),
])
def test_bad_rules_are_one_clear_line(args, message):
    result = run(*args)
    assert result.exit_code != 0 and message in result.output
    assert "Traceback" not in result.output


def test_old_flags_are_aliases_of_their_rules():
    alias = run("game", "--seed", "2", "--kasa", "20", "--last-contract", "normal",
                "--max-deals", "6", "--json")
    rules = run("game", "--seed", "2", "--rules", "kasa=20", "--max-deals", "6", "--json")
    assert alias.stdout == rules.stdout and '"rules":"kasa=20"' in alias.stdout
    assert run("game", "--seed", "2", "--rules", "ten_nt=11", "--kasa", "20",
               "--max-deals", "2").exit_code == 0
