"""`prefa solve` for one deal and in batch: answers, errors and exit codes."""

import json
import random

from click.testing import CliRunner

from prefa_sim.cli import main
from prefa_sim.core.cards import Strain, format_cards, format_hand, parse_deal, parse_hand
from prefa_sim.core.position import Position
from prefa_sim.solve.solver import recommended_contract

from ..helpers import random_deal


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def deal_args(hands, widow=None):
    parts = [format_hand(h) for h in hands]
    if widow is not None:
        parts.append(format_hand(widow))
    return " ".join(parts)


def test_solve_one_deal_text_and_json(solver):
    hands, _ = random_deal(random.Random(1))
    pos = Position(tuple(hands), Strain.H, 1, 2)
    expected = solver.solve(pos)
    values = solver.card_values(pos)
    result = run("solve", deal_args(hands), "-t", "H", "-d", "2", "-l", "1")
    assert result.exit_code == 0, result.output
    assert f"declarer takes {expected} of 10 tricks" in result.output
    result = run("solve", deal_args(hands), "-t", "H", "-d", "2", "-l", "1", "--json", "--line")
    item = json.loads(result.stdout)
    assert item["declarer_tricks"] == expected
    assert item["to_move"] == 1
    assert item["card_values"] == {format_cards(1 << c)[0]: v for c, v in values.items()}
    line = item["play_line"]
    assert len(line) == 30 and line[0][0] == 1
    # Roles name the same seats: with seat 0 dealing, the dealer is seat 0 and second hand
    # is seat 2.
    same = run("solve", deal_args(hands), "-t", "H", "-d", "second", "-l", "first",
               "--dealer", "0", "--json")
    assert json.loads(same.stdout)["declarer_tricks"] == expected


def test_solve_all_strains_two_hands(solver):
    hands, _ = random_deal(random.Random(2))
    result = run("solve", deal_args([hands[0], 0, hands[2]]), "-a", "0,2", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    got = {name: r["declarer_tricks"] for name, r in out["strains"].items()}
    for strain in Strain:
        pos = Position((hands[0], 0, hands[2]), strain, 0, 0, (0, 2))
        assert got[strain.name] == solver.solve(pos)


def test_solve_with_widow_names_discards_and_contract(solver):
    hands, widow = random_deal(random.Random(3))
    result = run("solve", deal_args(hands, widow), "-d", "1", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    for strain in Strain:
        res = solver.solve_widow(hands, widow, strain, 0, 1)
        assert out["strains"][strain.name]["best_tricks"] == res.best_tricks
        assert out["strains"][strain.name]["best_discards"] == res.discard_names()
    text = run("solve", deal_args(hands, widow), "-d", "1").output
    assert "best discards" in text


def test_solve_mid_trick_position(solver):
    hands, _ = random_deal(random.Random(4))
    pos = Position(tuple(hands), Strain.S, 0, 0)
    card = min(c for c in range(32) if pos.legal_cards() >> c & 1)
    after, _ = pos.play(card)
    result = run("solve", deal_args(after.hands), "-t", "S", "--trick", format_cards(1 << card)[0],
                 "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["declarer_tricks"] == solver.solve(after)


def test_solve_errors_are_clean():
    hands, widow = random_deal(random.Random(5))
    bad = deal_args(hands).replace("A", "X", 1)
    result = run("solve", bad, "-t", "H")
    assert result.exit_code == 1
    assert "unknown rank 'X'" in result.output and "Traceback" not in result.output
    dup = " ".join([format_hand(hands[0])] * 2 + [format_hand(hands[2])])
    result = run("solve", dup, "-t", "H")
    assert result.exit_code == 1 and "in two hands" in result.output
    result = run("solve", deal_args(hands), "-t", "Q")
    assert result.exit_code == 1 and "unknown strain 'Q'" in result.output
    short = deal_args([hands[0] & (hands[0] - 1), hands[1], hands[2]])
    result = run("solve", short, "-t", "H")
    assert result.exit_code == 1
    assert "seat 0's hand J.J98.Q9.JT7 holds 9 cards, the others hold 10" in result.output
    assert run("solve", "--batch", "-", deal_args(hands)).exit_code == 2


def test_solve_without_a_deal_solves_the_example(solver):
    from prefa_sim.cli.solve import EXAMPLE_DEAL
    from prefa_sim.core.cards import parse_deal
    from prefa_sim.solve.solver import recommended_contract

    hands, widow = parse_deal(EXAMPLE_DEAL)
    table = solver.widow_table(hands, widow, 0, 0)
    contract = recommended_contract(table)
    result = run("solve")
    assert result.exit_code == 0, result.output
    assert f"contract to name: {contract}" in result.output
    assert f"discard {table[contract.strain].discard_names()[0]}" in result.output


def request(hands, **fields):
    obj = {"hands": [format_cards(h) for h in hands], "trump": "H", "leader": 0, "declarer": 0}
    obj.update(fields)
    return json.dumps(obj)


def test_batch_answers_in_order_and_reports_bad_lines(solver, tmp_path):
    rng = random.Random(6)
    lines, expected = [], []
    for i in range(12):
        hands, widow = random_deal(rng)
        if i % 4 == 3:
            lines.append(request(hands, widow=format_cards(widow), declarer=1))
            res = solver.solve_widow(hands, widow, Strain.H, 0, 1)
            expected.append({"best_tricks": res.best_tricks, "best_discards": res.discard_names()})
        elif i % 4 == 2:
            lines.append(request(hands, active=[0, 2], trump="NT"))
            pos = Position((hands[0], 0, hands[2]), Strain.NT, 0, 0, (0, 2))
            expected.append({"declarer_tricks": solver.solve(pos)})
        else:
            lines.append(request(hands))
            expected.append({"declarer_tricks": solver.solve(Position(tuple(hands), 3, 0, 0))})
    lines.insert(5, "{not json")
    lines.insert(8, request([0, 0, 0]).replace('"trump": "H"', '"trump": "Z"'))
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(lines) + "\n\n")
    for workers in ("1", "2"):
        result = run("solve", "--batch", str(path), "--workers", workers)
        assert result.exit_code == 1
        out = [json.loads(x) for x in result.stdout.splitlines()]
        assert len(out) == 15 and out.pop() == {"line": 15, "blank": True}  # in its place
        assert out[5] == {"line": 6, "error": out[5]["error"]}
        assert "not valid JSON" in out[5]["error"]
        assert out[8]["line"] == 9 and "unknown strain 'Z'" in out[8]["error"]
        good = [o for i, o in enumerate(out) if i not in (5, 8)]
        for got, want, line in zip(good, expected, [x for i, x in enumerate(lines)
                                                    if i not in (5, 8)], strict=True):
            asked = json.loads(line)
            assert got == {**asked, **want, "dealer": 2,
                           "active": asked.get("active", [0, 1, 2])}


def test_batch_from_stdin_all_good_exits_zero(solver):
    hands, _ = random_deal(random.Random(7))
    result = run("solve", "--batch", "-", "--workers", "1", input=request(hands) + "\n")
    assert result.exit_code == 0
    want = solver.solve(Position(tuple(hands), Strain.H, 0, 0))
    assert json.loads(result.stdout)["declarer_tricks"] == want


def test_batch_widow_without_trump_answers_every_strain_and_the_contract(solver):
    hands, widow = random_deal(random.Random(8))
    line = json.dumps({"hands": [format_hand(h) for h in hands], "widow": format_cards(widow),
                       "declarer": "second"})
    result = run("solve", "--batch", "-", "-w", "1", input=line)
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    table = solver.widow_table(hands, widow, leader=0, declarer=1)
    assert {s: v["best_tricks"] for s, v in out["strains"].items()} == \
        {s.name: r.best_tricks for s, r in table.items()}
    contract = recommended_contract(table)
    assert out["contract"] == (str(contract) if contract else None)
    if contract:
        assert out["contract_discard"] in table[contract.strain].discard_names()
    single = run("solve", *deal_args(hands, widow).split(), "-d", "second", "--json")
    assert json.loads(single.stdout)["strains"] == out["strains"]


def test_batch_card_values_and_the_opening_lead_rule(solver):
    hands, _ = random_deal(random.Random(9))
    # Seat 0 deals: first hand is seat 1, and leads when active; with it out, seat 2 leads.
    for active, leader in (([0, 1, 2], 1), ([0, 2], 2)):
        shown = [format_hand(h) if s in active else "-" for s, h in enumerate(hands)]
        line = json.dumps({"hands": shown, "trump": "D", "declarer": 0, "dealer": 0,
                           "active": active, "cards": True})
        out = json.loads(run("solve", "--batch", "-", "-w", "1", input=line).stdout)
        pos = Position(tuple(h if s in active else 0 for s, h in enumerate(hands)), Strain.D,
                       leader, 0, tuple(active))
        assert out["leader"] == leader and out["to_move"] == leader
        assert out["declarer_tricks"] == solver.solve(pos)
        assert out["card_values"] == {format_cards(1 << c)[0]: v
                                      for c, v in solver.card_values(pos).items()}
    bad = json.dumps({"hands": [format_hand(h) for h in hands], "cards": True})
    out = json.loads(run("solve", "--batch", "-", input=bad).stdout)
    assert "'cards' needs one trump" in out["error"]


def test_hands_starting_with_a_void_and_hands_of_card_tokens(solver):
    hands = [parse_hand("-.AKQJ.AKQ.AKQ"), parse_hand("AKQJT987.T9.-.-"),
             parse_hand("-.87.JT98.JT98")]
    as_tokens = ",".join(format_cards(hands[1]))
    result = run("solve", "-.AKQJ.AKQ.AKQ", as_tokens, " ".join(format_cards(hands[2])),
                 "-t", "NT", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["hands"] == [format_hand(h) for h in hands]
    assert out["declarer_tricks"] == solver.solve(Position(tuple(hands), Strain.NT, 0, 0))
    # A widow that starts with a void reads the same way.
    deal = "QJ7.T8.A.KQJT AKT9.AKJ.QJ.A 8.Q97.KT98.98 -.-.7.7"
    hands, widow = parse_deal(deal)
    result = run("solve", *deal.split(), "-t", "H", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["best_tricks"] == \
        solver.solve_widow(hands, widow, Strain.H, 0, 0).best_tricks


def test_the_last_trick_with_the_leader_already_empty(solver):
    # Seat 0 led its last card; seats 1 and 2 still hold one each.
    hands = (0, parse_hand("-.-.-.A"), parse_hand("-.-.-.7"))
    result = run("solve", "-", "-.-.-.A", "-.-.-.7", "-t", "NT", "--trick", "KH", "--json")
    assert result.exit_code == 0, result.output
    pos = Position(hands, Strain.NT, 0, 0, trick=(parse_hand("-.-.-.K").bit_length() - 1,))
    assert json.loads(result.stdout)["declarer_tricks"] == solver.solve(pos) == 0


def test_a_reader_that_stops_early_ends_the_batch_quietly(tmp_path):
    """`prefa solve --batch FILE | head -1`: no error message and no traceback when the
    reader closes the pipe."""
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    requests = Path(__file__).parents[2] / "data" / "solve_requests.jsonl"
    batch = tmp_path / "many.jsonl"
    batch.write_text(requests.read_text() * 400)
    prefa = shutil.which("prefa", path=str(Path(sys.executable).parent)) or shutil.which("prefa")
    assert prefa, "the prefa command is installed with the package"
    process = subprocess.Popen([str(prefa), "solve", "--batch", str(batch), "-w", "1"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = process.stdout.readline()
    process.stdout.close()
    process.wait(timeout=300)
    error = process.stderr.read().decode()
    assert json.loads(first)["declarer_tricks"] == 6
    assert "Error" not in error and "Traceback" not in error, error


def test_commands_load_only_the_libraries_they_use():
    """Each command's module is imported on first use: solving a deal loads neither pandas,
    matplotlib nor pyarrow (a worker of ``solve --batch`` starts the same way), and every
    command the help lists still resolves to its command."""
    import subprocess
    import sys

    hands, _ = random_deal(random.Random(3))
    code = ("import sys\nfrom prefa_sim.cli import main\n"
            f"main(['solve', {deal_args(hands)!r}, '-t', 'S', '--json'], standalone_mode=False)\n"
            "print(sorted(m for m in ('pandas', 'matplotlib', 'pyarrow', 'prefa_sim.bots')"
            " if m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    answer, loaded = done.stdout.strip().splitlines()
    assert json.loads(answer) == json.loads(run("solve", deal_args(hands), "-t", "S",
                                                "--json").output)
    assert loaded == "[]"
    listed = main.list_commands(None)
    assert len(listed) == 14 and "simulate" in listed and "rules" in listed
    for name in listed:
        command = main.get_command(None, name)
        assert command is not None and command.callback is not None, name
    assert main.get_command(None, "nosuch") is None
