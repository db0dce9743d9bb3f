"""Every printed answer answers its own question: what a summary pools, what an unfinished
run leaves out, how many whole games a cap cut short, and small samples."""

import json
import re

import numpy as np
import pandas as pd
from click.testing import CliRunner

from prefa_sim.cli import main


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_statistics_of_an_unfinished_run_say_so(tmp_path, monkeypatch):
    out = tmp_path / "run"
    assert run("simulate", "-n", 6, "--seed", 3, "--chunk-size", 2, "--strains", "S,H", "-w", 1,
               "-o", out).exit_code == 0
    (out / "part-00001.parquet").unlink()  # as a run stopped before its end leaves it
    note = f"(an unfinished run: 2 of 3 chunks written; finish with prefa simulate -o {out} " \
           "--resume)"
    for args in (["stats", "makerate", out], ["stats", "defence", out, "--contract", "6S"],
                 ["stats", "makerate", out, "--format", "json"]):
        result = run(*args)
        assert result.exit_code == 0, result.output
        assert note in result.output.splitlines()
    assert note not in run("stats", "makerate", out, "--json").stdout  # JSON stays JSON
    captions = []
    import prefa_sim.cli.plot as plot

    def drawn(dataset, scenario, *rest):
        captions.append(scenario)
        raise ValueError("not drawn")
    monkeypatch.setattr(plot, "makerate_figure", drawn)
    run("plot", "makerate", out, "-o", tmp_path / "f.png")
    assert note[1:-1] in captions[0] and "pooled over the declaring seats 0, 1, 2" in captions[0]
    games = tmp_path / "games"
    assert run("games", "--players", "random", "-n", 6, "--chunk-size", 2, "-w", 1, "-o",
               games).exit_code == 0
    (games / "part-00002.parquet").unlink()
    result = run("stats", "bidding", games)
    assert f"finish with prefa games -o {games} --resume)" in result.output
    result = run("stats", "bidding", games, "--json")
    assert json.loads(result.stdout)["notes"] == [
        f"an unfinished run: 2 of 3 chunks written; finish with prefa games -o {games} --resume"]
    assert len(pd.read_parquet(games)) == 4


def test_few_deals_star_nothing_and_print_no_exact_interval(tmp_path):
    """Two deals between a player and two random ones: no difference starred, a warning,
    and no interval of one deal printed as if exact."""
    result = run("match", "heuristic", "random", "random", "-n", 2, "-w", 1)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("warning: only 2 deals, fewer than the 20")
    assert " *" not in result.stdout.split("(* the interval excludes zero):")[1]
    assert "(too few deals to tell)" in result.stdout
    as_json = json.loads(run("match", "heuristic", "random", "random", "-n", 2, "-w", 1,
                             "--json").stdout)
    assert all(d["few"] for d in as_json["differences"])
    games = tmp_path / "games"
    assert run("games", "--players", "heuristic,random,random", "-n", 3, "-w", 1, "-o",
               games).exit_code == 0
    text = run("stats", "bidding", games).stdout
    assert text.startswith("warning: only 3 deals")
    assert not re.search(r"([+-]\d+\.\d) \(\1\.\.\1\)", text)  # no +32.0 (+32.0..+32.0)
    assert " *" not in text.split("(* the interval excludes zero):")[1]
    data = json.loads(run("stats", "bidding", games, "--json").stdout)
    assert all(p["few"] for p in data["pairs"])
    # Enough deals: the bootstrap's intervals, and a clear difference is starred.
    big = run("match", "heuristic", "random", "random", "-n", 40, "-w", 1)
    assert "warning" not in big.stdout and " *" in big.stdout


def test_intervals_over_few_units():
    from prefa_sim.stats.intervals import bootstrap_mean, ratio_bootstrap, wilson

    one = bootstrap_mean([32.0])
    assert one.few and one.low == float("-inf") and not one.excludes_zero
    same = bootstrap_mean([5.0, 5.0, 5.0])
    assert same.few and not same.excludes_zero
    spread = bootstrap_mean([1.0, 2.0, 3.0, 4.0])  # Student's t with 3 degrees of freedom
    assert abs(spread.high - (2.5 + 3.182 * (5 / 3) ** 0.5 / 2)) < 1e-3
    # Rates over few deals are at least Wilson over the deals, not over their rows.
    rate = ratio_bootstrap([3, 3, 3], [3, 3, 3])
    assert rate.low <= wilson(3, 3).low and rate.few


def test_whole_games_cut_at_the_deal_cap_are_counted(tmp_path):
    capped, ended = tmp_path / "random", tmp_path / "heuristic"
    # Random players fill the pot rather than spend it: their games reach the cap.
    assert run("games", "--players", "random", "--full-games", "-n", 2, "-w", 1, "-o",
               capped).exit_code == 0
    text = run("stats", "bidding", capped).stdout
    assert "2 of 2 games reached the 1,000-deal cap before the pot was spent; they are in " \
           "every per-game figure" in text
    data = json.loads(run("stats", "bidding", capped, "--json").stdout)
    assert (data["games"], data["capped"]) == (2, 2)
    assert run("games", "--players", "heuristic", "--full-games", "-n", 2, "-w", 1, "-o",
               ended).exit_code == 0
    assert "cap" not in run("stats", "bidding", ended).stdout
    assert json.loads(run("stats", "bidding", ended, "--json").stdout)["capped"] == 0


def test_stats_bidding_reads_a_dataset_written_back_and_checks_its_values(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    games = tmp_path / "games"
    assert run("games", "--players", "heuristic,random,random", "-n", 30, "-w", 1, "-o",
               games).exit_code == 0
    original = run("stats", "bidding", games, "--json").stdout
    table = pq.read_table(games / "part-00000.parquet")
    wider = pa.schema([pa.field(f.name, pa.large_string() if pa.types.is_string(f.type)
                                else pa.int64() if pa.types.is_integer(f.type)
                                else pa.large_list(pa.large_string()) if pa.types.is_list(f.type)
                                else f.type) for f in table.schema])
    written = tmp_path / "written.parquet"
    pq.write_table(table.cast(wider), written)  # as pandas or another tool writes it back
    assert run("stats", "bidding", written, "--json").stdout == original
    frame = table.to_pandas()
    for column, value, shown in (("tricks0", 11, "tricks0 (such as 11)"),
                                 ("contract", "11H", "contract (such as '11H')"),
                                 ("seating", 7, "seating (such as 7)"),
                                 ("result0", float("nan"), "result0 (such as nan)"),
                                 ("result1", float("inf"), "result1 (such as inf)"),
                                 ("declarations", "foo,bar", "declarations (such as 'foo,bar')"),
                                 ("player0", None, "player0 (such as nan)")):
        bad = frame.copy()
        row = bad.index[~bad["void"]][0]
        bad[column] = bad[column].astype(object)
        bad.loc[row, column] = value
        path = tmp_path / f"bad-{column}.parquet"
        bad.to_parquet(path)
        result = run("stats", "bidding", path)
        assert result.exit_code == 1 and "Traceback" not in result.output
        assert f"holds values outside the game's range in {shown}" in result.output



def test_stats_bidding_refuses_rows_that_do_not_fit_together(tmp_path):
    games = tmp_path / "games"
    assert run("games", "--players", "heuristic,random,random", "-n", 12, "--duplicate",
               "-w", 1, "-o", games).exit_code == 0
    frame = pd.read_parquet(games)
    assert frame["void"].any() and (~frame["void"]).any()
    same_deal = frame.assign(deal=0)
    void = frame.copy()
    void["void"] = True
    short = frame[~((frame["deal"] == 3) & (frame["seating"] == 2))]
    void_result = frame.copy()
    row = void_result.index[void_result["void"]][0]
    void_result.loc[row, "result0"] += 30
    void_result.loc[row, "result1"] -= 30
    unbalanced = frame.copy()
    unbalanced.loc[0, "result0"] += 999
    relabelled = frame.copy()
    relabelled.loc[4, "player0"] = "oracle"
    for name, bad, message in (
            ("same", same_deal, "holds deal 0 in seating 0 twice"),
            ("void", void, "holds a void deal that moves money"),
            ("void-result", void_result, "holds a void deal that moves money"),
            ("unbalanced", unbalanced, "whose results do not sum to zero"),
            ("relabelled", relabelled, "holds rows of different players"),
            ("short", short, "holds deal 3 in 2 seating(s) only")):
        path = tmp_path / f"{name}.parquet"
        bad.to_parquet(path)
        result = run("stats", "bidding", path)
        assert result.exit_code == 1 and message in result.output, result.output
    for rows in (1, 4, 5):  # the first rows of a duplicate run: deals cut short are fine
        result = run("stats", "bidding", games, "--regret", rows)
        assert result.exit_code == 0, result.output


def test_solve_names_the_card_a_hand_lacks():
    result = run("solve", "QJ7.T8.A.KQJT", "AKT.AKJ.QJ7.7", "8.Q97.KT98.9", "9.-.-.A")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "seat 2's hand 8.Q97.KT98.9 holds 9 cards, each hand is dealt 10: 8H in no hand " \
           "and not in the widow" in result.output
    result = run("solve", "QJ7.T8.A.KQJT", "AKT.AKJ.QJ7.7", "8.Q97.KT98.9")
    assert "the cards in no hand are 9S AH 8H" in result.output


def test_where_and_deal_counts_name_the_real_problem(tmp_path):
    out = tmp_path / "run"
    assert run("simulate", "-n", 2, "-w", 1, "--strains", "S", "-o", out).exit_code == 0
    for where, message in (("trumps >=", "compares trumps with nothing"),
                           ("trumps = 5", "compare with '==', not '='"),
                           ("trumps => 5", "write '>=', not '=>'"),
                           ("trumps >= 5 and", "an 'and' with no comparison"),
                           ("trumps >= 123456789012345678901234567890",
                            "1234567890... (30 digits), far outside any count of cards")):
        result = run("stats", "makerate", out, "--where", where)
        assert result.exit_code == 1 and message in result.output, result.output
    result = run("simulate", "-n", "123456789012345678901234567890", "-o", tmp_path / "big")
    assert result.exit_code == 2 and "1<=x<=1000000000000" in result.output
    assert not (tmp_path / "big").exists()


def test_one_spelling_of_the_widow_and_no_two_output_forms(tmp_path):
    one_word = run("odds", "AKQJ9.A.-.KQ87", "--widow", "7S,8D")
    two_words = run("odds", "AKQJ9.A.-.KQ87", "--widow", "7S", "8D")
    assert one_word.exit_code == two_words.exit_code == 0
    assert two_words.stdout == one_word.stdout
    assert "--widow takes its two cards as one word" in two_words.stderr
    assert "one word" not in one_word.stderr
    makerate = run("makerate", "AKQJ9.A.-.KQ87", "--widow", "7S", "8D", "-n", 3, "-w", 1)
    assert makerate.exit_code == 0, makerate.output
    assert makerate.stdout == run("makerate", "AKQJ9.A.-.KQ87", "--widow", "7S,8D", "-n", 3,
                                  "-w", 1).stdout
    both = run("odds", "AKQJ9.A.-.KQ87", "--out", 3)
    assert both.exit_code == 2 and "give a HAND or --out N, not both" in both.output
    out = tmp_path / "run"
    assert run("simulate", "-n", 2, "-w", 1, "--strains", "S", "-o", out).exit_code == 0
    for args in (["--format", "json", "--csv"], ["--json", "--format=csv"]):
        result = run("stats", "makerate", out, *args)
        assert result.exit_code == 2 and "each choose the output's form" in result.output
    result = run("stats", "makerate", out, "--format", "json", "--format", "json")
    assert result.exit_code == 0


def test_output_paths_are_checked_before_the_work(tmp_path, monkeypatch):
    import prefa_sim.analysis.prospects as prospects

    monkeypatch.setattr(prospects, "hand_prospects", lambda *a, **k: 1 / 0)  # never reached
    unwritable = "/proc/figure.png"  # a folder nobody may write in, root included
    result = run("makerate", "AKQJ9.A.-.KQ87", "-n", 2000, "--plot", unwritable)
    assert result.exit_code == 2 and "cannot write in the folder /proc" in result.output
    for args in (["games", "--players", "random", "-n", 2], ["simulate", "-n", 2],
                 ["makerate", "AKQJ9.A.-.KQ87", "-n", 2]):
        result = run(*args, "-o", "")
        assert result.exit_code == 2 and "an output folder is needed" in result.output
    out = tmp_path / "run"
    assert run("simulate", "-n", 2, "-w", 1, "--strains", "S", "-o", out).exit_code == 0
    for args in (["plot", "makerate", out, "-o", ""], ["report", out, "-o", ""]):
        result = run(*args)
        assert result.exit_code == 2 and "an output file is needed" in result.output
    result = run("simulate", "-n", 2, "-o", "/proc/run")
    assert result.exit_code == 1 and "cannot make the folder /proc/run" in result.output
    result = run("plot", "makerate", out, "-o", "/proc/x.png")
    assert result.exit_code == 2 and "cannot write in the folder /proc" in result.output
    result = run("makerate", "AKQJ9.A.-.KQ87", "-n", 2000, "--plot", "")
    assert result.exit_code == 2 and "an output file is needed" in result.output
    a_file = tmp_path / "afile"
    a_file.write_text("")
    result = run("makerate", "AKQJ9.A.-.KQ87", "-n", 2000, "--plot", a_file / "x.png")
    assert result.exit_code == 2 and f"{a_file} is a file, not a folder" in result.output


def test_small_slips_are_named(tmp_path):
    for where in ("", "   "):
        result = run("stats", "makerate", tmp_path, "--where", where)
        assert result.exit_code == 2 and "leave --where out to keep every row" in result.output
    result = run("match", "sampling(play=4,play=5)", "random", "random", "-n", 2)
    assert result.exit_code == 2 and "sampling: play is set twice" in result.output
    games = tmp_path / "games"
    assert run("games", "--players", "random", "-n", 2, "-w", 1, "-o", games).exit_code == 0
    result = run("simulate", "-o", games, "--resume")
    assert result.exit_code == 1
    assert f"holds games: finish them with prefa games -o {games} --resume" in result.output


def test_make_rate_columns_never_touch():
    from prefa_sim.stats.makerate import make_rate_table

    counts = np.zeros((5, 11), dtype=np.int64)
    counts[0, 10] = 40  # every row makes 10 tricks: 100.0% (91.2-100.0)
    counts[1, 0] = 40
    rows = make_rate_table(counts, "t").splitlines()
    assert rows[2].split() == ["6", "100.0%", "(91.2-100.0)", "0.0%", "(0.0-8.8)"]


def test_the_bidding_figure_refuses_games_without_a_contract(tmp_path):
    games = tmp_path / "games"
    assert run("games", "--players", "heuristic", "-n", 3, "-w", 1, "-o", games).exit_code == 0
    frame = pd.read_parquet(games)
    assert frame["void"].all()  # seed 1's first three deals: all pass
    frame[["contract", "declarer", "position"]] = None
    frame.to_parquet(tmp_path / "void.parquet")  # pandas writes those columns as nulls
    for path in (games, tmp_path / "void.parquet"):
        result = run("plot", "bidding", path, "-o", tmp_path / "b.png")
        assert result.exit_code == 1 and "holds no deal with a contract" in result.output
    assert not (tmp_path / "b.png").exists()


def test_a_first_run_says_the_engine_compiles(monkeypatch):
    import prefa_sim.engine.driver as driver

    monkeypatch.setattr(driver, "compiled", lambda: False)
    result = run("solve", "QJ7.T8.A.KQJT", "AKT.AKJ.QJ7.7", "8.Q97.KT98.98", "-t", "H")
    assert result.stderr.startswith("compiling the engine (once, about 60 s)")
    monkeypatch.setattr(driver, "compiled", lambda: True)
    result = run("solve", "QJ7.T8.A.KQJT", "AKT.AKJ.QJ7.7", "8.Q97.KT98.98", "-t", "H")
    assert "compiling" not in result.stderr


def test_the_time_to_go_leaves_the_compile_out(capsys):
    from prefa_sim.cli.progress import ProgressReport
    from prefa_sim.sim.config import RunConfig
    from prefa_sim.sim.plan import Plan
    from prefa_sim.sim.simulate import Progress

    config = RunConfig(deals=1000, seed=1, chunk_size=10)
    for workers in (1, 2):
        report = ProgressReport(config, "header", workers, None)
        report.terminal = False
        report.start(Plan(lambda: iter(()), config.chunks, [], []))
        # The first chunk of each worker waits 120 s for the compile; then 1 s a chunk
        # over all workers.
        for done in range(1, 101):
            seconds = 120 + max(0, done - workers) / workers
            report.update(Progress(done, 100, done * 10, seconds, 1.0))
        lines = capsys.readouterr().err.splitlines()
        tenth = next(line for line in lines if line.startswith("10/100 chunks"))
        left = 90 / workers  # seconds: 90 chunks to go
        assert f"about {int(left) // 60}:{round(left) % 60:02d} to go" in tenth, tenth


def test_a_match_between_equals_names_nobody_ahead():
    for deals, seed in ((3, 1), (2, 5), (40, 5)):
        result = run("match", "heuristic", "heuristic", "heuristic", "-n", deals, "--seed",
                     seed, "-w", 1)
        assert result.exit_code == 0
        assert "ahead: nobody; A heuristic, B heuristic and C heuristic are level" \
            in result.stdout
        assert "-0.0" not in result.stdout  # a hair below zero is zero
        few = deals < 20
        assert ("Student's t: too few deals for a bootstrap" in result.stdout) == few
        assert ("95% bootstrap intervals over deals" in result.stdout) == (not few)
        if few:  # no interval of zero width printed as exact
            assert "(+0.0..+0.0" not in result.stdout


def test_regret_over_few_deals_is_never_below_zero(tmp_path):
    games = tmp_path / "games"
    assert run("games", "--players", "heuristic,random,random", "-n", 4, "-w", 1, "-o",
               games).exit_code == 0
    text = run("stats", "bidding", games, "--regret", 4).stdout
    cells = re.findall(r"(\d+\.\d\d) \((-?\d+\.\d\d)\.\.(-?\d+\.\d\d), few deals\)", text)
    assert cells and all(float(low) >= 0 and float(low) <= float(value) <= float(high)
                         for value, low, high in cells)
    assert not re.search(r"\(-?\d+\.\d\d-\d", text)  # intervals are written low..high
    data = json.loads(run("stats", "bidding", games, "--regret", 4, "--json").stdout)
    assert all(r["tricks_per_deal"]["few"] for r in data["regret"])
