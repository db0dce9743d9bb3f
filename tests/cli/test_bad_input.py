"""Bad input never ends in a traceback: every command that reads it names the problem, exits
non-zero and keeps every answer already computed."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from prefa_sim.cli import main
from prefa_sim.core.cards import format_cards, format_hand
from prefa_sim.sim.chunks import chunk_path

from ..helpers import random_deal

NOT_UTF8 = b'{"calls": ["6S\xff"]}'
DEEP = b"[" * 20000 + b"]" * 20000
DEEP_FIELD = b'{"calls": ["6S"], "x": ' + b"[" * 20000 + b"]" * 20000 + b"}"


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def deal_line(seed, **extra):
    import random

    hands, widow = random_deal(random.Random(seed))
    return json.dumps({"hands": [format_hand(h) for h in hands], "widow": format_hand(widow),
                       **extra}).encode()


def void_deal_line(seed):
    import random

    hands, widow = random_deal(random.Random(seed))
    deal = " ".join(format_hand(h) for h in [*hands, widow])
    return json.dumps({"deal": deal, "actions": ["pass", "pass", "pass"]}).encode()


GOOD_LINES = {
    "solve": lambda k: deal_line(k, trump="H"),
    "auction": lambda k: json.dumps({"calls": ["6S", "pass", "pass"], "id": k}).encode(),
    "score": lambda k: json.dumps({"contract": "7H", "declarations": ["pass", "pass"],
                                   "id": k}).encode(),
}


@pytest.mark.parametrize("command", sorted(GOOD_LINES))
@pytest.mark.parametrize("bad, message", [
    (NOT_UTF8, "not UTF-8 text (byte 0xff at column 15)"),
    (DEEP, "nested too deeply"),
    (b"{not json", "not valid JSON"),
    (b'{"calls": ["6S"], "x": "\\ud800"}', "half of a UTF-16 surrogate pair"),
    (b'{"calls": ["6S"], "x": 1e999}', "1e999 is too large to be a number"),
    (b'{"calls": ["6S"], "x": ' + b"9" * 5000 + b"}", "a whole number of 5000 digits"),
])
def test_batch_modes_answer_a_bad_line_and_go_on(command, bad, message, tmp_path):
    good = GOOD_LINES[command]
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"\n".join([good(1), bad, good(2)]) + b"\n")
    result = run(command, "--batch", path)
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    out = [json.loads(x) for x in result.stdout.splitlines()]
    assert len(out) == 3
    assert out[1]["line"] == 2 and message in out[1]["error"]
    assert "error" not in out[0] and "error" not in out[2]
    assert "1 bad line, see their error objects" in result.stderr


@pytest.mark.parametrize("command", ["auction"])
def test_a_deep_field_in_a_good_request_is_an_error_object(command, tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_bytes(DEEP_FIELD + b"\n" + GOOD_LINES[command](1))
    result = run(command, "--batch", path)
    assert result.exit_code == 1
    out = [json.loads(x) for x in result.stdout.splitlines()]
    assert out[0]["line"] == 1 and "nested too deeply" in out[0]["error"]
    assert out[1]["id"] == 1


@pytest.mark.parametrize("bad, message", [
    (NOT_UTF8, "line 2: not UTF-8 text"),
    (DEEP, "line 2: JSON nested too deeply"),
])
def test_game_script_reports_the_bad_line_and_plays_the_rest(bad, message, tmp_path):
    path = tmp_path / "script.jsonl"
    path.write_bytes(b"\n".join([void_deal_line(1), bad, void_deal_line(2)]))
    result = run("game", path, "--json")
    assert result.exit_code == 1 and "Traceback" not in result.output
    out = [json.loads(x) for x in result.stdout.splitlines()]
    assert [o["line"] for o in out if "error" in o] == [2]
    assert message.split(": ", 1)[1] in out[1]["error"]
    assert sum("actions" in o for o in out) == 2 and out[-1]["final"] is True
    assert out[-1]["bad_lines"] == 1 and out[-1]["ended"].startswith("1 bad line not played")
    text = run("game", path).stdout.splitlines()[-1]
    assert text.startswith("final after 2 deals (1 bad line not played; ended by agreement)")


@pytest.mark.parametrize("bad, message", [
    (NOT_UTF8, "line 2: not UTF-8 text"),
    (DEEP, "line 2: JSON nested too deeply"),
])
def test_replay_skips_the_bad_line_and_keeps_the_dataset(bad, message, tmp_path):
    path = tmp_path / "deals.jsonl"
    path.write_bytes(b"\n".join([deal_line(1), bad, deal_line(2)]))
    out = tmp_path / "run"
    result = run("simulate", "--replay", path, "-o", out, "-w", 1, "--strains", "H",
                 "--declarers", 0, "--modes", "both")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert message in result.stderr and "1 bad line of" in result.stderr
    assert sorted(pd.read_parquet(out)["deal"]) == [0, 1]


@pytest.mark.parametrize("constraint, message", [
    ("(" * 60 + "first.aces >= 1" + ")" * 60, "nested more than 50 deep"),
    ("not " * 60 + "first.aces >= 1", "nested more than 50 deep"),
    ("- " * 60 + "1 >= 1", "nested more than 50 deep"),
    ("(" * 3000 + "first.aces >= 1" + ")" * 3000, "more than 400 tokens"),
    (" and ".join(["first.aces >= 0"] * 1200), "more than 400 tokens"),
    (" + ".join(["first.aces"] * 1200) + " >= 0", "more than 400 tokens"),
])
def test_a_deeply_nested_constraint_is_refused(constraint, message, tmp_path):
    result = run("simulate", "--constraint", constraint, "-o", tmp_path / "run")
    assert result.exit_code == 1 and message in result.output
    assert not (tmp_path / "run").exists()


def test_a_deeply_nested_scenario_file_is_refused(tmp_path):
    scenario = tmp_path / "deep.toml"
    scenario.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n")
    result = run("simulate", scenario, "-o", tmp_path / "run")
    assert result.exit_code == 1 and "deep.toml: TOML nested too deeply" in result.output


def test_a_scenario_file_that_is_not_utf8_names_its_line(tmp_path):
    scenario = tmp_path / "s.toml"
    scenario.write_bytes(b'name = "x"\n# caf\xe9\n')
    result = run("simulate", scenario, "-o", tmp_path / "run")
    assert result.exit_code == 1
    assert "s.toml, line 2: not UTF-8 text (byte 0xe9 at column 6)" in result.output
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("args, option", [
    (["--seed", "-1"], "--seed"),
    (["-n", "0"], "--deals"),
    (["-w", "0"], "--workers"),
    (["--strains", "X"], "--strains"),
    (["--declarers", "4"], "--declarers"),
    (["--declarers", "north"], "--declarers"),
    (["--dealer", "3"], "--dealer"),
    (["--chunk-size", "0"], "--chunk-size"),
])
def test_a_bad_option_is_refused_before_anything_is_written(args, option, tmp_path):
    out = tmp_path / "run"
    result = run("simulate", *args, "-o", out)
    assert result.exit_code == 2 and option in result.output
    assert not out.exists()


def test_an_impossible_scenario_leaves_the_folder_reusable(tmp_path):
    out = tmp_path / "run"
    result = run("simulate", "--constraint", "first.aces >= 3 and second.aces >= 3", "-n", 2,
                 "-o", out, "-w", 1, "--strains", "H", "--modes", "both")
    assert result.exit_code == 1 and "impossible or too rare" in result.output
    assert "left as it was" in result.output and not out.exists()
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    result = run("simulate", "--constraint", "first.aces >= 3 and second.aces >= 3", "-n", 2,
                 "-o", out, "-w", 1, "--strains", "H", "--modes", "both")
    assert result.exit_code == 1 and sorted(p.name for p in out.iterdir()) == ["notes.txt"]
    good = run("simulate", "-n", 2, "-o", out, "-w", 1, "--strains", "H", "--modes", "both",
               "--seed", 1)
    assert good.exit_code == 0, good.output


def small_run(out, *extra):
    args = ["simulate", "-n", 6, "--seed", 4, "--chunk-size", 2, "-w", 1, "--strains", "S",
            "--declarers", 1, "--modes", "both", *extra, "-o", out]
    result = run(*args)
    assert result.exit_code == 0, result.output
    return pd.read_parquet(out)


@pytest.mark.parametrize("damage", ["truncate", "garbage", "empty"])
def test_a_corrupt_part_is_redone_on_resume(damage, tmp_path):
    whole = small_run(tmp_path / "whole")
    out = tmp_path / "run"
    small_run(out)
    part = chunk_path(out, 1)
    data = part.read_bytes()
    if damage == "truncate":
        part.write_bytes(data[:len(data) // 2])
    elif damage == "garbage":
        part.write_bytes(b"PAR1" + os.urandom(len(data) - 8) + b"PAR1")
    else:
        part.write_bytes(b"")
    result = run("simulate", "-o", out, "--resume", "-w", 1)
    assert result.exit_code == 0 and "Traceback" not in result.output
    assert "part 1: " in result.stderr and "running it again" in result.stderr
    pd.testing.assert_frame_equal(pd.read_parquet(out), whole)


def snapshot(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


@pytest.mark.parametrize("change, message", [
    ("foreign part", "belongs to another run"),
    ("stray part", "not chunks of this run: part-00007.parquet"),
    ("short name", "not chunks of this run: part-1.parquet"),
    ("manifest seed", "belongs to another run"),
    ("manifest declarers", "declarers must be distinct values"),
    ("manifest strains", "strains must be distinct values"),
    ("manifest chunk size", "chunk_size must be a whole number"),
    ("manifest scenario", "the run's scenario"),
    ("manifest list", "not a JSON object"),
    ("manifest garbage", "not a whole run record"),
])
def test_resume_refuses_a_folder_changed_by_hand_and_changes_nothing(change, message,
                                                                     tmp_path):
    out = tmp_path / "run"
    small_run(out)
    record = json.loads((out / "_run.json").read_text())
    if change == "foreign part":
        small_run(tmp_path / "other", "--modes", "first")
        chunk_path(out, 1).write_bytes(chunk_path(tmp_path / "other", 1).read_bytes())
    elif change == "stray part":
        chunk_path(out, 7).write_bytes(chunk_path(out, 0).read_bytes())
    elif change == "short name":
        (out / "part-1.parquet").write_bytes(b"half a part")
    elif change == "manifest list":
        (out / "_run.json").write_text("[]")
    elif change == "manifest garbage":
        (out / "_run.json").write_bytes(b"\xff{")
    else:
        key, value = {"manifest seed": ("seed", 6), "manifest declarers": ("declarers", [7]),
                      "manifest strains": ("strains", ["X"]),
                      "manifest chunk size": ("chunk_size", 2.0),
                      "manifest scenario": ("scenario", {"dealer": "x"})}[change]
        record[key] = value
        (out / "_run.json").write_text(json.dumps(record))
    before = snapshot(out)
    result = run("simulate", "-o", out, "--resume", "-w", 1)
    assert result.exit_code == 1 and message in result.output, result.output
    assert "Traceback" not in result.output
    assert snapshot(out) == before


def test_force_replaces_a_run_only_once_the_new_one_has_a_part(tmp_path):
    out = tmp_path / "run"
    first = small_run(out)
    before = snapshot(out)
    result = run("simulate", "-n", 1, "--strains", "H", "--modes", "both", "--constraint",
                 "first.hearts > 8", "-o", out, "--force", "-w", 1)
    assert result.exit_code == 1 and "left as it was" in result.output
    assert snapshot(out) == before and not list(out.glob(".replaced*"))
    assert run("simulate", "-o", out, "--resume", "--force").exit_code == 1
    second = small_run(out, "--force", "--seed", 5)
    assert not second.equals(first) and not list(out.glob(".replaced*"))


def test_resume_needs_only_the_folder_and_refuses_other_settings(tmp_path):
    out = tmp_path / "run"
    result = run("simulate", "-o", out, "--resume")
    assert result.exit_code == 1 and "no run to resume" in result.output
    assert run("simulate", "-n", 2, "--seed", 1, "-o", out, "-w", 1, "--strains", "H",
               "--modes", "both").exit_code == 0
    result = run("simulate", "-o", out, "--resume", "-n", 3)
    assert result.exit_code == 2 and "leave out --deals" in result.output
    result = run("simulate", "-o", out, "--resume")
    assert result.exit_code == 0 and "1 of 1 chunk already written" in result.stderr


@pytest.mark.parametrize("args, message, status", [
    (["score", "7H", "-d", "play,play", "-t", "8,2,0", "--pot", "-5"], "--pot", 2),
    (["score", "7H", "-d", "play,play", "-t", "8,2"], "not three numbers", 2),
    (["score", "7H", "-d", "play,play", "-t", "8,1,1,0"], "not three numbers", 2),
    (["score", "7H", "-d", "play,play", "-t", "9,2,0"], "add up to 11", 1),
    (["score", "7H", "-d", "play,play", "-t", "12,-1,-1"], "whole number 0-10", 1),
    (["show", "{empty}"], "holds no dataset", 1),
    (["show", "{notparquet}"], "cannot read", 1),
    (["solve", "--line"], "--line needs one trump", 2),
    (["solve", "--line", "-t", "H", "QJ7.T8.A.KQJT", "AKT.AKJ.QJ7.7", "8.Q97.KT98.98",
      "9.-.-.A"], "--line needs one trump", 2),
    (["solve", "-d", "north"], "'north' is not a seat", 2),
    (["solve", "QJ7.T8.A.KQJT", "AKT.AKJ.QJ7.7"], "three hands", 1),
    (["solve", "QJ7.T8.A.KQJT", "AKT.AKJ.QJ7.7", "8.Q97.KT98.98", "9.-.-.A", "--trick", "AS"],
     "before the first trick", 2),
    (["game"], "give a SCRIPT file to replay, or --seed", 2),
    (["game", "{script}", "--seed", "1"], "not both", 2),
    (["game", "--seed", "-3"], "--seed", 2),
    (["simulate", "--constraint", "1", "-o", "{out}"], "must be a comparison", 1),
    (["simulate", "--constraint", "first.hearts", "-o", "{out}"], "must be a comparison", 1),
    (["simulate", "--constraint", "top(first, H, 9) >= 1", "-o", "{out}"], "top 1 to 8", 1),
    (["simulate", "--replay", "{replay}", "-n", "5", "-o", "{out}"], "only 2 good deals,", 2),
    (["auction", "--dealer", "first"], "--dealer", 2),
])
def test_bad_values_are_named(args, message, status, tmp_path):
    (tmp_path / "empty").mkdir()
    (tmp_path / "notparquet").write_text("hello")
    (tmp_path / "script").write_bytes(void_deal_line(1))
    (tmp_path / "replay").write_bytes(deal_line(1) + b"\n" + deal_line(2))
    args = [a.format(**{k: tmp_path / k for k in ("empty", "notparquet", "script", "out",
                                                  "replay")}) for a in args]
    result = run(*args)
    assert result.exit_code == status, result.output
    assert message in result.output and "Traceback" not in result.output
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("field, value, message", [
    ("pot", -1, "'pot' must be a whole number"),
    ("pot", "1500", "'pot' must be a whole number"),
    ("contract", 7, "'contract' must be"),
    ("declarations", "play,play", "'declarations' must be a list"),
    ("tricks", [8, 2, 0], "'tricks' must map"),
    ("tricks", {"declarer": "8", "first": 2, "second": 0}, "'tricks' of declarer"),
    ("aces", "yes", "'aces' must be true or false"),
    ("last_contract", 5, "'last_contract' must be one of"),
])
def test_score_batch_names_the_bad_field(field, value, message):
    request = {"contract": "7H", "declarations": ["play", "play"],
               "tricks": {"declarer": 8, "first": 2, "second": 0}, field: value}
    result = run("score", "--batch", "-", input=json.dumps(request))
    assert result.exit_code == 1
    assert message in json.loads(result.stdout)["error"]


def test_a_replay_honours_n(tmp_path):
    path = tmp_path / "deals.jsonl"
    path.write_bytes(b"\n".join(deal_line(k) for k in range(4)))
    result = run("simulate", "--replay", path, "-n", 2, "-o", tmp_path / "run", "-w", 1,
                 "--strains", "H", "--declarers", 0, "--modes", "both")
    assert result.exit_code == 0, result.output
    assert sorted(pd.read_parquet(tmp_path / "run")["deal"]) == [0, 1]


def test_a_constraint_error_points_at_its_column_on_the_command_line(tmp_path):
    result = run("simulate", "--constraint", "first.hearts >= 5 and $", "-o", tmp_path / "x")
    assert result.exit_code == 1
    lines = result.output.splitlines()
    shown = next(line for line in lines if line.endswith("first.hearts >= 5 and $"))
    caret = lines[lines.index(shown) + 1]
    assert caret.index("^") == shown.index("$")


def cli_process(*args, **popen):
    return subprocess.Popen([sys.executable, "-c", "from prefa_sim.cli import main; main()",
                             *map(str, args)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            **popen)


def test_more_workers_than_work_is_capped_and_leaks_nothing(tmp_path):
    requests = tmp_path / "in.jsonl"
    requests.write_bytes(deal_line(1, trump="H") + b"\n" + deal_line(2, trump="S"))
    solve = cli_process("solve", "--batch", requests, "-w", 64)
    out, err = solve.communicate(timeout=300)
    assert solve.returncode == 0, err
    assert len(out.splitlines()) == 2
    simulate = cli_process("simulate", "-n", 2, "--seed", 1, "-o", tmp_path / "run", "-w", 64,
                           "--strains", "H", "--declarers", 0, "--modes", "both")
    out, err = simulate.communicate(timeout=300)
    assert simulate.returncode == 0, err
    assert b"leaked" not in err and b"Traceback" not in err
    assert b"1 chunk into" in err and b", 1 worker\n" in err  # capped at the work


def test_ctrl_c_on_a_huge_run_exits_130_and_says_how_to_resume(tmp_path):
    """A run of 10**12 deals starts at once (nothing is listed per chunk up front), and
    Ctrl-C (SIGINT to the whole process group, as a terminal sends it) stops it cleanly."""
    out = tmp_path / "big"
    proc = cli_process("simulate", "-n", 10**12, "--seed", 5, "--strains", "H",
                       "--declarers", 0, "--modes", "both", "--chunk-size", 2, "-w", 2,
                       "-o", out, start_new_session=True)
    deadline = time.time() + 120
    while len(list(out.glob("part-*.parquet"))) < 2 and time.time() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, proc.communicate()
    status = Path(f"/proc/{proc.pid}/status")
    if status.exists():
        rss = next(int(line.split()[1]) for line in status.read_text().splitlines()
                   if line.startswith("VmRSS"))
        assert rss < 1024 * 1024  # KiB: well under a gigabyte
    os.killpg(proc.pid, signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=120)
    finally:  # never left running for the tests after this one
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130
    text = err.decode()
    assert f"prefa simulate -o {out} --resume" in text and "Traceback" not in text
    written = len(list(out.glob("part-*.parquet")))
    assert written >= 2 and not list(out.glob(".part-*"))


@pytest.mark.parametrize("workers", [1, 2])
def test_odd_solve_requests_are_answered_by_error_objects(workers, tmp_path):
    good = deal_line(1, trump="H")
    odd = [b'{"hands": null}', b'{"hands": [[1], [2], [3]]}',
           json.dumps({**json.loads(deal_line(2, trump="H")), "widow": [1, 2]}).encode(),
           b'{"hands": ["-", "-", "-"], "trump": "H"}',
           deal_line(3, trump="H")[:-1] + b', "active": [0, 1, 1]}',
           deal_line(4, trump="H")[:-1] + b', "dealer": 1.0}']
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"\n".join([good, *odd, good]))
    result = run("solve", "--batch", path, "-w", workers)
    assert result.exit_code == 1 and "Traceback" not in result.output
    out = [json.loads(x) for x in result.stdout.splitlines()]
    assert [o.get("line") for o in out] == [None, 2, 3, 4, 5, 6, 7, None]
    assert "'hands' must be a list" in out[1]["error"]
    assert "a card is text" in out[2]["error"] and "a card is text" in out[3]["error"]
    assert "the seats that play hold no cards" in out[4]["error"]
    assert "names a seat twice" in out[5]["error"]
    assert "the dealer must be seat 0, 1 or 2" in out[6]["error"]
    assert out[0] == out[-1]


def test_an_old_answer_fed_back_is_answered_afresh(solver):
    import random

    from prefa_sim.core.position import Position

    hands, _ = random_deal(random.Random(5))
    shown = run("solve", *[format_hand(h) for h in hands], "-t", "H", "--json")
    answer = json.loads(shown.stdout)
    assert answer["cards"] is True
    answer["trump"] = "NT"
    again = json.loads(run("solve", "--batch", "-", input=json.dumps(answer)).stdout)
    pos = Position(tuple(hands), 4, 0, 0)
    assert again["declarer_tricks"] == solver.solve(pos)
    assert again["card_values"] == {format_cards(1 << c)[0]: v
                                    for c, v in solver.card_values(pos).items()}


def test_one_deal_options_are_refused_beside_batch(tmp_path):
    for args, option in ((["solve", "-t", "S"], "-t"), (["auction", "--dealer", "0"], "--dealer"),
                         (["score", "--pot", "5"], "--pot")):
        result = run(*args, "--batch", "-", input="")
        assert result.exit_code == 2 and option in result.output


def test_foreign_parquet_files_are_not_datasets(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    from prefa_sim.sim.dataset import SCHEMA

    pq.write_table(pa.table({"deal": [0, 1]}), tmp_path / "deal_only.parquet")
    table = SCHEMA.empty_table()
    pq.write_table(table.drop_columns(["tricks_first"]), tmp_path / "no_first.parquet")
    strings = table.set_column(2, "hand0", pa.array([], pa.string()))
    pq.write_table(strings, tmp_path / "strings.parquet")
    for name, message in (("deal_only", "no column dealer"), ("no_first", "no column tricks_first"),
                          ("strings", "column hand0 is string")):
        result = run("show", tmp_path / f"{name}.parquet")
        assert result.exit_code == 1 and message in result.output, result.output
    run_dir = tmp_path / "run"
    small_run(run_dir)
    part = pq.read_table(chunk_path(run_dir, 0))
    nulls = part.set_column(0, "deal", pa.array([None] * len(part), pa.int64()))
    pq.write_table(nulls, tmp_path / "null_deal.parquet")
    result = run("show", tmp_path / "null_deal.parquet")
    assert result.exit_code == 1 and "missing values in deal" in result.output
    pq.write_table(table, tmp_path / "empty.parquet")
    result = run("show", tmp_path / "empty.parquet")
    assert result.exit_code == 0 and "the dataset has no rows" in result.output


@pytest.mark.parametrize("args, message, status", [
    (["solve", "-", "-", "-", "-t", "S"], "the seats that play hold no cards", 1),
    (["solve", "-a", "0,0,1", "-t", "S"], "names a seat twice", 2),
    (["solve", "--batch", "-", "-w", str(10**30)], "--workers", 2),
    (["simulate", "--strains", "h,h", "-o", "{out}"], "names a strain twice", 2),
    (["simulate", "--declarers", "0,first", "-o", "{out}"], "names a seat twice", 2),
    (["simulate", "-o", ""], "an output folder is needed", 2),
    (["simulate", "--replay", "{replay}", "--seed", "3", "-o", "{out}"], "no SCENARIO, --seed", 2),
    (["simulate", "--constraint", "first.hearts >= " + "1" * 5000, "-o", "{out}"],
     "at most six digits", 1),
    (["simulate", "{fixed_ints}", "-o", "{out}"], "fixed.first: a card is text", 1),
    (["simulate", "--dealer", "first", "-o", "{out}"], "placed from the dealer", 2),
    (["game", "--", "-.jsonl"], "'-.jsonl'", 2),
    (["score", "7H", "-d", "pass,pass", "-t", "5,5,0"], "leave 'tricks' out", 1),
    (["score", "7H", "--solo", "-d", "play,play", "-t", "8,2,0"], "no declarations or tricks", 1),
])
def test_more_bad_values_are_named(args, message, status, tmp_path):
    (tmp_path / "replay").write_bytes(deal_line(1))
    (tmp_path / "fixed_ints").write_text("[fixed]\nfirst = [1, 2]\n")
    args = [a.format(out=tmp_path / "out", replay=tmp_path / "replay",
                     fixed_ints=tmp_path / "fixed_ints") for a in args]
    result = run(*args, input="")
    assert result.exit_code == status, result.output
    assert message in result.output and "Traceback" not in result.output
    assert not (tmp_path / "out").exists()


def test_auction_calls_that_are_not_tokens_are_bad_lines():
    lines = [json.dumps({"calls": [None]}), json.dumps({"calls": [["6S"]]}),
             json.dumps({"calls": ["6S"], "dealer": None})]
    result = run("auction", "--batch", "-", input="\n".join(lines))
    out = [json.loads(x) for x in result.stdout.splitlines()]
    assert result.exit_code == 1
    assert out[0]["line"] == 1 and "call 0 is None" in out[0]["error"]
    assert out[1]["line"] == 2 and out[2]["result"]["next_player"] == 1


def test_a_replay_must_match_its_recording(tmp_path):
    recorded = run("game", "--seed", 11, "--kasa", 31, "--json", "--max-deals", 8)
    assert recorded.exit_code == 0
    same = run("game", "-", "--kasa", 31, "--json", "--max-deals", 8, input=recorded.stdout)
    assert same.exit_code == 0 and same.stdout == recorded.stdout
    other = run("game", "-", "--kasa", 40, "--max-deals", 8, input=recorded.stdout)
    assert other.exit_code == 1 and "the replay differs from the recording: rules kasa=40 " \
        "here, kasa=31 recorded (replay with the recording's --dealer and --rules)" in other.output
    twice = run("game", "-", "--kasa", 31, input=recorded.stdout * 2)
    assert twice.exit_code == 0
    assert "the recorded game ended (its final line) after deal 8; line ignored" in twice.stderr
    # A recording of the personal kása replayed with the common pot, and the other way round.
    pot = run("game", "-", "--max-deals", 8, input=recorded.stdout)
    assert pot.exit_code == 1 and "the replay differs from the recording: rules default " \
        "here, kasa=31 recorded" in pot.output
    common = run("game", "--seed", 11, "--json", "--max-deals", 8).stdout
    kasa = run("game", "-", "--kasa", 31, "--max-deals", 8, input=common)
    assert kasa.exit_code == 1 and "rules kasa=31 here, default recorded" in kasa.output
    # Any rule: a game of 10NT worth 11 replayed with the default rules.
    eleven = run("game", "--seed", 11, "--json", "--max-deals", 8, "--rules", "ten_nt=11")
    assert eleven.exit_code == 0 and all('"rules":"ten_nt=11"' in line
                                         for line in eleven.stdout.splitlines())
    again = run("game", "-", "--rules", "ten_nt=11", "--json", input=eleven.stdout)
    assert again.exit_code == 0 and again.stdout == eleven.stdout
    default = run("game", "-", input=eleven.stdout)
    assert default.exit_code == 1 and "rules default here, ten_nt=11 recorded" in default.output


def test_an_input_that_fails_to_read_is_named():
    from prefa_sim.util.jsonl import InputError, numbered_lines

    class Failing:
        name = "requests.jsonl"

        def __iter__(self):
            yield b'{"calls": []}\n'
            raise OSError(5, "Input/output error")

    lines = numbered_lines(Failing())
    assert next(lines).text == '{"calls": []}\n'
    with pytest.raises(InputError, match="cannot read requests.jsonl: Input/output error"):
        next(lines)


def test_a_json_error_names_its_column_in_the_line():
    result = CliRunner().invoke(main, ["solve", "--batch", "-"], input=b'{"hands": [1,2\n')
    assert result.exit_code == 1
    assert json.loads(result.stdout) == {
        "line": 1, "error": "not valid JSON: Expecting ',' delimiter (column 15)"}


# A near miss of a field, per batch mode: the misspelt line, the field it nearly is.
NEAR_MISSES = {
    "solve": (lambda k: deal_line(k, trupm="H"), "'trupm': did you mean 'trump'?"),
    "auction": (lambda k: json.dumps({"calls": ["6S", "pass", "pass"], "Dealer": 1}).encode(),
                "'Dealer': did you mean 'dealer'?"),
    "score": (lambda k: json.dumps({"contract": "7H", "declarations": ["pass", "pass"],
                                    "ace": True}).encode(),
              "'ace': did you mean 'aces'?"),
}
OWN_FIELDS = {
    "solve": lambda k: deal_line(k, trump="H", id=k, _trupm="a note"),
    "auction": lambda k: json.dumps({"calls": ["6S", "pass", "pass"], "id": k}).encode(),
    "score": lambda k: json.dumps({"contract": "7H", "declarations": ["pass", "pass"],
                                   "id": k}).encode(),
}


@pytest.mark.parametrize("command, workers", [("solve", 1), ("solve", 2), ("auction", None),
                                              ("score", None)])
def test_a_misspelt_field_is_refused_and_a_field_of_ones_own_echoed(command, workers, tmp_path):
    misspelt, message = NEAR_MISSES[command]
    good = OWN_FIELDS[command]
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"\n".join([good(1), misspelt(2), good(3)]) + b"\n")
    options = ("-w", workers) if workers else ()
    result = run(command, "--batch", path, *options)
    assert result.exit_code == 1 and "Traceback" not in result.output
    out = [json.loads(x) for x in result.stdout.splitlines()]
    assert out[1]["line"] == 2 and message in out[1]["error"]
    assert "error" not in out[0] and "error" not in out[2]
    assert (out[0]["id"], out[2]["id"]) == (1, 3)


@pytest.mark.parametrize("command, line, message", [
    ("solve", b'{"hand": ["-", "-", "-"]}', "'hand': did you mean 'hands'?"),
    ("auction", b'{"call": ["6S"]}', "'call': did you mean 'calls'?"),
])
def test_a_misspelt_required_field_is_named_before_its_absence(command, line, message):
    result = run(command, "--batch", "-", input=line)
    assert result.exit_code == 1 and message in json.loads(result.stdout)["error"]


@pytest.mark.parametrize("line, fields", [
    (b'{"hands": [], "label": "deal 17", "deal": 17, "note": "x", "id": 4}', "solve"),
    (b'{"_trupm": 1, "_hand": 2, "_Dealer": 3}', "solve"),  # '_' keeps a field one's own
    (b'{"net": 1, "pot_delta": 2, "transfers": 3, "note": "x", "id": 4}', "score"),
    (b'{"result": {}, "id": 4, "round": 2}', "auction"),
])
def test_fields_far_from_every_request_field_are_not_misspelt(line, fields):
    from prefa_sim.requests.fields import REQUEST_FIELDS
    from prefa_sim.requests.score import SCORE_FIELDS
    from prefa_sim.util.jsonl import misspelt_field

    known = {"solve": REQUEST_FIELDS, "score": SCORE_FIELDS, "auction": ("calls", "dealer")}
    assert misspelt_field(json.loads(line), known[fields]) is None


@pytest.mark.parametrize("key, field", [
    ("Trump", "trump"), ("trupm", "trump"), ("hand", "hands"), ("leeder", "leader"),
    ("declarar", "declarer"), ("widoww", "widow"), ("actve", "active"), ("declraer", "declarer"),
    ("dclarerr", "declarer"), ("lin", "line"),
])
def test_case_one_letter_or_two_in_a_long_name_is_a_near_miss(key, field):
    from prefa_sim.requests.fields import REQUEST_FIELDS
    from prefa_sim.util.jsonl import misspelt_field

    message = misspelt_field({key: 1}, REQUEST_FIELDS)
    assert message is not None and f"did you mean {field!r}" in message


def test_a_replay_line_with_a_misspelt_field_is_skipped(tmp_path):
    path = tmp_path / "deals.jsonl"
    path.write_bytes(b"\n".join([deal_line(1), deal_line(2, dealre=1), deal_line(3)]))
    out = tmp_path / "run"
    result = run("simulate", "--replay", path, "-o", out, "-w", 1, "--strains", "H",
                 "--declarers", 0, "--modes", "both")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "line 2: unknown field 'dealre': did you mean 'dealer'?" in result.stderr
    assert sorted(pd.read_parquet(out)["deal"]) == [0, 1]


@pytest.mark.parametrize("command", sorted(GOOD_LINES))
@pytest.mark.parametrize("workers", ["1", "2"])
def test_batch_answers_line_for_line_and_reads_json_strictly(command, workers, tmp_path):
    """Blank lines are answered in place, so answer k is line k's; a key given twice, NaN,
    and a field of one's own named error make bad lines, never a silent answer."""
    good = GOOD_LINES[command]
    key, value = next(iter(json.loads(good(2)).items()))
    twice = good(2)[:-1] + f', "{key}": {json.dumps(value)}}}'.encode()
    nan = good(3)[:-1] + b', "_x": NaN}'
    mine = good(4)[:-1] + b', "error": "mine"}'
    lines = [good(1), b"", twice, b"   ", nan, mine, good(5)]
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    args = [command, "--batch", path] + (["-w", workers] if command == "solve" else [])
    result = run(*args)
    out = [json.loads(x) for x in result.stdout.splitlines()]
    assert len(out) == len(lines) and result.exit_code == 1
    assert out[1] == {"line": 2, "blank": True} and out[3] == {"line": 4, "blank": True}
    assert "given twice" in out[2]["error"] and "NaN is not a JSON number" in out[4]["error"]
    assert "a field named 'error'" in out[5]["error"]
    assert "error" not in out[0] and "error" not in out[6]
    assert "3 bad lines" in result.stderr
