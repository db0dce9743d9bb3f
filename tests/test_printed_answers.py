"""Every printed answer answers its own question: what a summary pools, what an unfinished
run leaves out, how many whole games a cap cut short, and small samples."""

import json

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
