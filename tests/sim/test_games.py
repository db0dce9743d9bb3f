"""`prefa games` and `prefa stats bidding`: played deals at scale, replayable rows,
reproducible runs, statistics checked against a direct computation and against
`prefa match`."""

import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from prefa_sim.analysis.match import play_match
from prefa_sim.cli import main
from prefa_sim.core.cards import format_deal
from prefa_sim.rules.deal import Deal
from prefa_sim.rules.game import parse_action
from prefa_sim.rules.settlement import ROLES
from prefa_sim.stats.bidding import bidding_stats, read_games

PLAYERS = "heuristic,random,random"


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("games") / "run"
    result = CliRunner().invoke(main, ["games", "--players", PLAYERS, "-n", "14", "--seed",
                                       "3", "--duplicate", "--chunk-size", "5", "-w", "1",
                                       "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out, result.output


def test_rows_replay_and_carry_the_settlement(run):
    out, _ = run
    data = pd.read_parquet(out).sort_values(["deal", "seating"])
    assert len(data) == 14 * 3 and sorted(set(data.seating)) == [0, 1, 2]
    for _, row in data.iterrows():
        hands = [int(row.hand0), int(row.hand1), int(row.hand2)]
        deal = Deal(hands, int(row.widow), int(row.dealer))
        for token in row.actions:
            deal.apply(parse_action(deal, token))
        assert deal.is_terminal() and bool(row.void) == (deal.settlement is None)
        assert [int(row[f"player{s}"] == "heuristic") for s in range(3)].count(1) == 1
        if deal.settlement is None:
            continue
        assert deal.declarer == row.declarer and str(deal.contract) == row.contract
        net = deal.settlement.net
        assert [row[f"net{s}"] for s in range(3)] == [net[ROLES[(s - deal.declarer) % 3]]
                                                      for s in range(3)]
        assert [row[f"tricks{s}"] for s in range(3)] == deal.credited_tricks
    # One deal's three rows share the cards; the heuristic player moves a seat each time.
    first = data[data.deal == 0]
    assert len({format_deal([int(r.hand0), int(r.hand1), int(r.hand2)], int(r.widow))
                for _, r in first.iterrows()}) == 1
    assert [list(r[["player0", "player1", "player2"]]).index("heuristic")
            for _, r in first.iterrows()] == [0, 1, 2]


def test_the_same_rows_whatever_the_chunks_and_workers_and_after_resume(run, tmp_path):
    out, _ = run
    other = tmp_path / "other"
    result = CliRunner().invoke(main, ["games", "--players", PLAYERS, "-n", "14", "--seed",
                                       "3", "--duplicate", "--chunk-size", "4", "-w", "2",
                                       "-o", str(other)])
    assert result.exit_code == 0, result.output

    def table(folder):
        return pd.read_parquet(folder).sort_values(["deal", "seating"]).reset_index(drop=True)

    pd.testing.assert_frame_equal(table(out), table(other))
    parts = sorted(other.glob("part-*.parquet"))
    parts[1].unlink()
    resumed = CliRunner().invoke(main, ["games", "-o", str(other), "--resume", "-w", "1"])
    assert resumed.exit_code == 0, resumed.output
    pd.testing.assert_frame_equal(table(out), table(other))
    again = CliRunner().invoke(main, ["games", "--players", "random", "-o", str(other)])
    assert again.exit_code == 1 and "holds a finished run" in again.output


def test_bidding_statistics_against_pandas_and_the_match(run):
    out, printed = run
    games = read_games(out)
    stats = bidding_stats(games, replicates=300)
    data = pd.read_parquet(out)
    assert stats.deals == 14 and stats.rows == 42 and stats.duplicate
    assert stats.void.value == pytest.approx(data.void.mean())
    # Kapíkia per deal: the same as prefa match's duplicate score, deal by deal.
    money = play_match(PLAYERS.split(","), 14, 3, workers=1)
    for k, record in enumerate(stats.players):
        assert record["kapikia_per_deal"]["value"] == pytest.approx(money[:, k].mean())
    played = data[~data.void]
    level = played.contract.str.extract(r"^(\d+)")[0].astype(int)
    tricks = np.array([r[f"tricks{int(r.declarer)}"] for _, r in played.iterrows()])
    made = (tricks >= level.to_numpy()) & ~played.solo.to_numpy()
    assert sum(r["made"] for r in stats.by_level) == int(made.sum())
    assert sum(r["won"] for r in stats.by_position) == len(played)
    assert "A heuristic" in printed and "made" in printed


def test_the_command_says_which_dataset_is_which(run, tmp_path):
    out, _ = run
    wrong = CliRunner().invoke(main, ["stats", "makerate", str(out)])
    assert wrong.exit_code == 1 and "it holds games, for prefa stats bidding" in wrong.output
    as_json = CliRunner().invoke(main, ["stats", "bidding", str(out), "--json",
                                        "--bootstrap", "200"])
    data = json.loads(as_json.stdout)
    assert data["deals"] == 14 and len(data["players"]) == 3
    for args, message in ((["games"], "--players is needed"),
                          (["games", "--players", "a,b"], "name three players"),
                          (["games", "--players", "nobody"], "unknown player 'nobody'"),
                          (["games", "-o", str(tmp_path / "none"), "--resume"],
                           "holds no games to resume")):
        result = CliRunner().invoke(main, args)
        assert result.exit_code != 0 and message in result.output, result.output


def test_whole_games_run_to_the_empty_pot_and_replay(tmp_path):
    out = tmp_path / "games"
    result = CliRunner().invoke(main, ["games", "--players", "heuristic", "-n", "2",
                                       "--full-games", "-w", "1", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "2 games" in result.output and "kapíkia per game" in result.output
    data = pd.read_parquet(out).sort_values(["deal", "number"])
    for game, rows in data.groupby("deal"):
        assert rows.number.tolist() == list(range(len(rows)))
        pots = rows.pot.to_numpy()
        assert pots[0] == 1500 and (pots[1:] == pots[:-1] + rows.pot_delta.to_numpy()[:-1]).all()
        assert pots[-1] + rows.pot_delta.iloc[-1] < 10  # the pot is spent
        assert rows.dealer.tolist() == [(2 + j) % 3 for j in range(len(rows))]
        script = tmp_path / f"game{game}.jsonl"
        script.write_text("\n".join(json.dumps({
            "deal": format_deal([int(r.hand0), int(r.hand1), int(r.hand2)], int(r.widow)),
            "actions": list(r.actions)}) for _, r in rows.iterrows()) + "\n")
        replay = CliRunner().invoke(main, ["game", str(script), "--json", "--max-deals",
                                           "1000"])
        final = json.loads(replay.stdout.splitlines()[-1])
        assert replay.exit_code == 0 and final["over"] and final["deals"] == len(rows)
    # Game 0 is the game prefa game --players plays for the same seed.
    single = CliRunner().invoke(main, ["game", "--players", "heuristic", "--seed", "1",
                                       "--json", "--max-deals", "1000"])
    lines = [json.loads(x) for x in single.stdout.splitlines()[:-1]]
    first = data[data.deal == 0]
    assert [line["actions"] for line in lines] == [list(a) for a in first.actions]


def test_the_oracle_gives_no_trick_away_and_random_players_do(tmp_path, solver):
    from prefa_sim.analysis.regret import play_regret

    out = tmp_path / "oracle"
    result = CliRunner().invoke(main, ["games", "--players", "oracle,random,random", "-n",
                                       "8", "--duplicate", "-w", "1", "-o", str(out)])
    assert result.exit_code == 0, result.output
    regrets = play_regret(read_games(out, with_actions=True), 100, solver, replicates=200)
    oracle = [r for r in regrets if r.player == "A oracle (sees all cards)"]
    others = [r for r in regrets if r.player != "A oracle (sees all cards)"]
    assert oracle and all(r.tricks.value == 0 and r.error_rate == 0 for r in oracle)
    assert sum(r.tricks.value * r.deals for r in others) > 0
    text = CliRunner().invoke(main, ["stats", "bidding", str(out), "--regret", "20",
                                     "--bootstrap", "200"])
    assert text.exit_code == 0 and "double-dummy regret of the card play" in text.output


def test_decision_regret_is_zero_for_the_oracles_choices_and_never_negative(tmp_path, solver):
    """The oracle's discards (best for its strain) and two oracles' defence (the declarer's
    least money, double dummy) give nothing away; random players' choices do; no choice
    ever does better than the best."""
    from prefa_sim.analysis.regret import deal_decision_regret, decision_regret

    out = tmp_path / "oracles"
    result = CliRunner().invoke(main, ["games", "--players", "oracle", "-n", "12", "-w", "1",
                                       "-o", str(out)])
    assert result.exit_code == 0, result.output
    games = read_games(out, with_actions=True)
    seen = set()
    for _, row in games.iterrows():
        for _, decision, lost in deal_decision_regret(row, solver):
            seen.add(decision)
            assert lost >= 0
            if decision in ("discard", "defence"):
                assert lost == 0
    assert {"discard", "contract", "defence"} <= seen
    out = tmp_path / "random"
    CliRunner().invoke(main, ["games", "--players", "random", "-n", "40", "-w", "1",
                              "-o", str(out)])
    regrets = decision_regret(read_games(out, with_actions=True), 100, solver, replicates=200)
    assert all(r.value.value >= 0 for r in regrets)
    assert {r.decision for r in regrets if r.value.value > 0} == {"discard", "contract",
                                                                  "defence"}
    text = CliRunner().invoke(main, ["stats", "bidding", str(out), "--regret", "20",
                                     "--bootstrap", "200", "--json"])
    data = json.loads(text.stdout)
    assert {d["decision"] for d in data["decision_regret"]} == {"discard", "contract",
                                                                  "defence"}


def test_the_bidding_figure_draws_the_statistics(run, tmp_path):
    from prefa_sim.stats.plots import bidding_figure

    out, _ = run
    stats = bidding_stats(read_games(out), 1000)
    fig = bidding_figure(out)
    left, right = fig.axes
    heights = [bar.get_height() for bar in left.patches]
    assert heights == pytest.approx([r["kapikia_per_deal"]["value"] for r in stats.players])
    assert [t.get_text() for t in left.get_xticklabels()] == [r["player"] for r in stats.players]
    line = right.lines[0]
    assert list(line.get_xdata()) == [r["level"] for r in stats.by_level]
    assert line.get_ydata() == pytest.approx([100 * r["rate"] for r in stats.by_level])
    figure = tmp_path / "bidding.svg"
    result = CliRunner().invoke(main, ["plot", "bidding", str(out), "-o", str(figure)])
    assert result.exit_code == 0 and figure.read_bytes().startswith(b"<?xml")
    refused = CliRunner().invoke(main, ["plot", "bidding", str(out), "-o", str(figure),
                                        "--where", "declarer == 0"])
    assert refused.exit_code == 2 and "takes no --where" in refused.output


def test_player_names_with_settings_do_not_run_into_each_other(tmp_path):
    from prefa_sim.stats.plots import bidding_figure

    players = "heuristic(defend_margin=0.5),heuristic(defend_margin=1.5),random"
    out = tmp_path / "run"
    result = CliRunner().invoke(main, ["games", "--players", players, "-n", "3", "--seed", "5",
                                       "--duplicate", "-w", "1", "-o", str(out)])
    assert result.exit_code == 0, result.output
    fig = bidding_figure(out)
    fig.canvas.draw()
    left = fig.axes[0]
    labels = left.get_xticklabels()
    names = [r["player"] for r in bidding_stats(read_games(out), 100).players]
    assert [t.get_text().replace("\n", "").replace(" ", "") for t in labels] == \
        [name.replace(" ", "") for name in names]
    boxes = [t.get_window_extent() for t in labels]
    for a, b in zip(boxes[:-1], boxes[1:], strict=True):
        assert a.x1 < b.x0  # each label ends before the next begins
