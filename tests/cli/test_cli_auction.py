"""`prefa auction` for one auction and in batch; every command is documented."""

import json
import re
from pathlib import Path

from click.testing import CliRunner

from prefa_sim.cli import main
from prefa_sim.requests.auction import auction_result


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def test_one_auction_text_json_and_exit_codes():
    calls = ["6S", "6C", "6D", "hold", "pass", "6H", "hold", "pass"]
    result = run("auction", *calls)
    assert result.exit_code == 0
    assert result.output == "declarer: seat 0 (first hand), minimum contract 6H\n"
    result = run("auction", "--dealer", "0", *calls)
    assert result.output == "declarer: seat 1 (first hand), minimum contract 6H\n"
    result = run("auction", "--json", *calls)
    assert json.loads(result.stdout) == auction_result(calls)
    result = run("auction", "6S", "hold")
    assert result.exit_code == 1 and "illegal at call 1" in result.output
    assert run("auction", "pass", "pass", "pass").output == "all three passed: the deal is void\n"


def test_batch_keeps_order_and_reports_bad_lines():
    lines = [json.dumps({"calls": ["stay", "pass", "pass"], "id": 1}), "[1, 2",
             json.dumps({"calls": "6S"}), json.dumps({"calls": ["6S", "6C"]}),
             json.dumps({"calls": ["6S", "6C"], "dealer": 0})]
    result = run("auction", "--batch", "-", input="\n".join(lines) + "\n")
    assert result.exit_code == 1
    out = [json.loads(x) for x in result.stdout.splitlines()]
    assert out[0] == {"calls": ["stay", "pass", "pass"], "id": 1,
                      "result": auction_result(["stay", "pass", "pass"])}
    assert out[1]["line"] == 2 and "not valid JSON" in out[1]["error"]
    assert out[2] == {"line": 3, "error": "a request is an object with a list 'calls'"}
    assert out[3]["result"] == {"legal": True, "complete": False, "next_player": 2,
                                "next_role": "dealer", "next_legal": ["6D", "pass"]}
    assert out[4]["result"]["next_player"] == 0 and out[4]["result"]["next_role"] == "dealer"


def test_every_command_has_an_example_in_the_readme_or_the_guide():
    root = Path(__file__).parents[2]
    pages = [root / "README.md", *sorted((root / "docs" / "guide").glob("*.md"))]
    text = "\n".join(page.read_text() for page in pages)
    for name in main.commands:
        assert re.search(rf"^\$ .*\bprefa {name}\b", text, re.M), name
