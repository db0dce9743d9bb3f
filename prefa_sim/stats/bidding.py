"""Statistics of played games (``prefa games``): who wins the auction and what it pays.

Read from a games dataset (``prefa_sim.sim.dataset.GAMES_SCHEMA``), without the bulky action
lists: the void rate; how often the auction winner makes the contract (takes at least
the level; a solo counts as failed), by player, contract level and position; the final
contracts; how often each declaration sequence is chosen and what it pays the declarer;
and each player's kapíkia per deal.  Money is each player's change of result (the pot's
movement shared in thirds: zero-sum).  A player's score for a deal is its money in every
row of the deal (the three seatings with ``--duplicate``, so every player held
every hand: the comparison is paired deal by deal); intervals are Wilson for rates over
independent rows, bootstrap over deals for money and for rates whose rows share a deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..bots.specs import player_label
from ..core.contracts import LADDER
from ..rules.settlement import DEFENCES
from ..sim.dataset import GAME_DEAL_CAP, GAMES_SCHEMA, DatasetError, read_batches
from ..util.words import counted
from .intervals import MIN_BOOTSTRAP_UNITS, Estimate, bootstrap_mean, ratio_bootstrap, wilson
from .output import estimate_record

COLUMNS = ("deal", "seating", "number", "player0", "player1", "player2", "void", "declarer",
           "position", "contract", "solo", "declarations", "tricks0", "tricks1", "tricks2",
           "net0", "net1", "net2", "result0", "result1", "result2", "pot", "pot_delta")


def read_games(path: str | Path, with_actions: bool = False,
               max_rows: int | None = None) -> pd.DataFrame:
    """The games of a dataset: without the action lists, or with them and the cards (for
    replaying), the first ``max_rows`` rows."""
    columns = COLUMNS + (("actions", "hand0", "hand1", "hand2", "widow", "dealer")
                         if with_actions else ())
    frames, rows = [], 0
    for batch in read_batches(path, columns, GAMES_SCHEMA):
        frames.append(batch.to_pandas())
        rows += batch.num_rows
        if max_rows is not None and rows >= max_rows:
            break
    if not frames:
        raise DatasetError(f"{path} holds no games")
    frame = pd.concat(frames, ignore_index=True)
    _check_games(frame, path, every_row=max_rows is None)
    return frame if max_rows is None else frame.head(max_rows)


def _check_games(games: pd.DataFrame, path: str | Path, every_row: bool = True) -> None:
    """Every value lies in the game's range (seats, positions, tricks, contracts), or the
    dataset is refused naming the column and a value, as ``stats makerate`` refuses its
    own: a figure over values the game cannot have would answer nothing."""
    played = games[~games["void"].astype(bool)]

    def refuse(column: str, values: pd.Series) -> None:
        value = values.iloc[0]
        value = value.item() if hasattr(value, "item") else value  # NumPy's as Python's
        raise DatasetError(f"{path} holds values outside the game's range in {column} "
                           f"(such as {value!r})")

    for column, low, high, rows in (("seating", 0, 2, games), ("number", 0, None, games),
                                    ("declarer", 0, 2, played), ("position", 0, 2, played),
                                    ("tricks0", 0, 10, games), ("tricks1", 0, 10, games),
                                    ("tricks2", 0, 10, games)):
        values = rows[column]
        bad = values[values.isna() | (values < low) | ((values > high) if high else False)]
        if len(bad):
            refuse(column, bad)
    for column in ("result0", "result1", "result2", "net0", "net1", "net2", "pot", "pot_delta"):
        values = games[column].astype(float)
        bad = values[~np.isfinite(values)]
        if len(bad):
            refuse(column, bad)
    for column in ("player0", "player1", "player2"):
        values = games[column]
        bad = values[[not isinstance(v, str) or not v.strip() for v in values]]
        if len(bad):
            refuse(column, bad)
    words = set(",".join(key) for key in DEFENCES)
    bad = played["declarations"][~played["solo"].astype(bool)
                                 & ~played["declarations"].isin(words)]
    if len(bad):
        refuse("declarations", bad)
    total = games[["tricks0", "tricks1", "tricks2"]].sum(axis=1)
    if (total > 10).any():
        refuse("tricks0-tricks2 (more than ten tricks a deal)", total[total > 10])
    contracts = played["contract"]
    bad = contracts[~contracts.isin([str(c) for c in LADDER])]
    if len(bad):
        refuse("contract", bad)
    _check_rows(games, path, every_row)


def _check_rows(games: pd.DataFrame, path: str | Path, every_row: bool = True) -> None:
    """The rows fit together as a run writes them: each deal (or deal of a game) once per
    seating, a void deal moving no money, every deal's results summing to zero, the same
    players in every row, and in a duplicate run (a seating other than 0) every deal in
    all three seatings (when ``every_row`` was read, not the first rows only)."""
    key = games[["deal", "seating", "number"]]
    twice = key[key.duplicated()]
    if len(twice):
        deal, seating, number = (int(v) for v in twice.iloc[0])
        where = f"deal {deal}" + (f" (deal {number} of that game)" if number else "")
        raise DatasetError(f"{path} holds {where} in seating {seating} twice: not the rows "
                           "of one run")
    results = games[["result0", "result1", "result2"]].astype(float)
    unbalanced = results.sum(axis=1).abs() > 1e-6
    if unbalanced.any():
        deal = int(games["deal"][unbalanced].iloc[0])
        raise DatasetError(f"{path} holds a deal whose results do not sum to zero (deal "
                           f"{deal}): not the rows of one run")
    money = games[["net0", "net1", "net2", "pot_delta", "result0", "result1", "result2"]]
    moves = games["void"].astype(bool) & (money.astype(float).abs().sum(axis=1) > 0)
    if moves.any():
        raise DatasetError(f"{path} holds a void deal that moves money (deal "
                           f"{int(games['deal'][moves].iloc[0])}): not the rows of one run")
    seating = games["seating"].astype(int).to_numpy()
    names = games[["player0", "player1", "player2"]].to_numpy()
    rows = np.arange(len(games))
    seated = pd.DataFrame({k: names[rows, (k + seating) % 3] for k in range(3)})
    players = sorted(set(seated.drop_duplicates().itertuples(index=False, name=None)))
    if len(players) > 1:
        shown = " and ".join(", ".join(p) for p in players[:2])
        raise DatasetError(f"{path} holds rows of different players ({shown}): not the rows "
                           "of one run")
    if every_row and (games["seating"] > 0).any():
        seatings = games.groupby("deal")["seating"].nunique()
        short = seatings[seatings < 3]
        if len(short):
            raise DatasetError(f"{path} holds deal {int(short.index[0])} in "
                               f"{int(short.iloc[0])} seating(s) only: a duplicate run holds "
                               "every deal in all three")


@dataclass(frozen=True)
class BiddingStats:
    """Every table of ``prefa stats bidding`` as records."""

    deals: int
    """Independent units: deals, or whole games (``unit``)."""
    rows: int
    duplicate: bool
    unit: str
    """``deal``, or ``game`` for whole games (money is then per game)."""
    void: Estimate
    players: list[dict]
    """Per player: kapíkia per deal (with interval), auctions won, made."""
    pairs: list[dict]
    """Per pair of players: the difference of kapíkia per deal, paired deal by deal."""
    by_level: list[dict]
    by_position: list[dict]
    contracts: list[dict]
    declarations: list[dict]
    games: int = 0
    """Whole games played (games times seatings; 0 for single deals)."""
    capped: int = 0
    """Of them, the games that reached the deal cap (``dataset.GAME_DEAL_CAP``) before
    the pot was spent: their money counts over the deals played, the pot left unsettled."""


def player_labels(specs: Sequence[str]) -> list[str]:
    """Player names (``specs.player_label``: a player that sees every card says
    so), lettered A B C when a name is seated twice."""
    labels = [player_label(spec) for spec in specs]
    return labels if len(set(specs)) == 3 else _with_letters(labels)


def lettered(names: Sequence[str]) -> list[str]:
    """Player names (``player_labels``) with their letters A B C in front, unless they
    have them already: the row labels of a table whose columns are headed by the letters
    alone, so that long names (players with settings) do not widen every column."""
    if all(name.startswith(f"{letter} ") for letter, name in zip("ABC", names, strict=True)):
        return list(names)
    return _with_letters(names)


def _with_letters(names: Sequence[str]) -> list[str]:
    return [f"{letter} {name}" for letter, name in zip("ABC", names, strict=True)]


def players_of(games: pd.DataFrame) -> list[str]:
    """The players 0, 1, 2 of a games frame (player k sits in seat (k + seating) mod 3),
    labelled as ``player_labels`` does."""
    first = games.iloc[0]
    return player_labels([first[f"player{(k + int(first['seating'])) % 3}"]
                          for k in range(3)])


def _rate(group: pd.DataFrame, paired: bool, replicates: int, seed: int,
          column: str = "made") -> dict:
    """How often ``column`` holds in ``group``: Wilson over rows, or bootstrapped over
    deals when a deal's rows are its three seatings (they share the cards)."""
    made, n = int(group[column].sum()), len(group)
    if paired and n:
        by_deal = group.groupby("deal")[column].agg(["sum", "count"])
        e = ratio_bootstrap(by_deal["sum"], by_deal["count"], replicates, seed)
    else:
        e = wilson(made, n)
    return {"won": n, "made": made, "rate": e.value, "rate_low": e.low, "rate_high": e.high}


def bidding_stats(games: pd.DataFrame, replicates: int = 2000, seed: int = 0) -> BiddingStats:
    """The statistics of ``read_games``'s frame."""
    paired = bool((games["seating"] > 0).any())
    played = games[~games["void"]].copy()
    seats = played["declarer"].astype(int).to_numpy()
    tricks = played[["tricks0", "tricks1", "tricks2"]].to_numpy()
    levels = played["contract"].str.extract(r"^(\d+)")[0].astype(int).to_numpy()
    played["level"] = levels
    played["made"] = (tricks[np.arange(len(played)), seats] >= levels) & ~played["solo"]
    # Player k sits in seat (k + seating) mod 3; players are told apart by k.
    labels = players_of(games)
    played["winner"] = (seats - played["seating"].astype(int).to_numpy()) % 3
    # Kapíkia per deal and player: every row of the deal, the player's seat in each.
    seating = games["seating"].astype(int).to_numpy()
    nets = games[["result0", "result1", "result2"]].to_numpy()
    score = pd.DataFrame({labels[k]: nets[np.arange(len(games)), (k + seating) % 3]
                          for k in range(3)}).groupby(games["deal"].to_numpy()).sum()
    players = []
    for k, name in enumerate(labels):
        won = played[played["winner"] == k]
        players.append({"player": name,
                        "kapikia_per_deal": estimate_record(bootstrap_mean(score[name], replicates,
                                                                  seed)),
                        **_rate(won, paired, replicates, seed)})
    pairs = [{"player": a, "versus": b,
              **estimate_record(bootstrap_mean(score[a] - score[b], replicates, seed))}
             for a in labels for b in labels if a != b]

    def grouped(key: str) -> list[dict]:
        out = []
        for value, group in played.groupby(key):
            out.append({key: value if isinstance(value, str) else int(value),
                        **_rate(group, paired, replicates, seed)})
        return out

    contracts = [{"contract": c, "deals": int(n), "share": n / len(played)}
                 for c, n in played["contract"].value_counts().items()]
    declarations = []
    for words, group in played[~played["solo"]].groupby("declarations"):
        net = group.apply(lambda r: r[f"result{int(r['declarer'])}"], axis=1)
        declarations.append({"declarations": words, "deals": len(group),
                             "share": len(group) / len(played),
                             "declarer_kapikia": estimate_record(bootstrap_mean(net, replicates,
                                                                       seed))})
    unit = "game" if (games["number"] > 0).any() else "deal"
    void = _rate(games, paired, replicates, seed, "void")
    whole, capped = _capped_games(games) if unit == "game" else (0, 0)
    return BiddingStats(games["deal"].nunique(), len(games), paired, unit,
                        Estimate(void["rate"], void["rate_low"], void["rate_high"], len(games)),
                        players, pairs, grouped("level"), grouped("position"), contracts,
                        declarations, whole, capped)


def _capped_games(games: pd.DataFrame) -> tuple[int, int]:
    """How many whole games the rows hold, and how many of them stopped with pot left
    (at the deal cap): a game's last deal leaves its pot at ``pot + pot_delta``."""
    last = games.sort_values("number").groupby(["deal", "seating"]).tail(1)
    return len(last), int((last["pot"] + last["pot_delta"] > 0).sum())


def bidding_text(stats: BiddingStats, markdown: bool = False) -> str:
    """The tables as aligned text (or Markdown)."""
    from .output import money_text, text_table

    def pct(r: dict) -> str:
        return f"{100 * r['rate']:.1f}% ({100 * r['rate_low']:.1f}-{100 * r['rate_high']:.1f})"

    def money(m: dict) -> str:
        return money_text(m["value"], m["low"], m["high"], m["few"])

    v = stats.void
    unit = stats.unit
    seatings = f"every {unit} in three seatings: paired" if stats.duplicate else "one seating"
    parts = [few_warning(stats.deals, unit)] if stats.deals < MIN_BOOTSTRAP_UNITS else []
    parts += [f"{stats.deals:,} {unit}s, {stats.rows:,} deals played ({seatings}); void "
             f"{100 * v.value:.1f}% ({100 * v.low:.1f}-{100 * v.high:.1f}) of deals; kapíkia: "
             "each player's change of result, the pot shared in thirds (zero-sum); 95% "
             f"intervals (Wilson, bootstrap over {unit}s)"]
    if stats.capped:
        parts.append(f"{stats.capped} of {counted(stats.games, 'game')} reached the "
                     f"{GAME_DEAL_CAP:,}-deal cap before the pot was spent; they are in every "
                     "per-game figure, their money counted over the deals played and the pot "
                     "left in them unsettled")
    labels = lettered([r["player"] for r in stats.players])
    parts.append(text_table(
        ["player", f"kapíkia per {unit}", "auctions won", "made"],
        [[label, money(r["kapikia_per_deal"]), str(r["won"]), pct(r) if r["won"] else "-"]
         for label, r in zip(labels, stats.players, strict=True)], markdown))
    parts.append(f"difference per {unit}, row minus column, paired {unit} by {unit} "
                 "(* the interval excludes zero):\n" + text_table(
                     ["", *(label[0] for label in labels)],
                     [[label, *("-" if a["player"] == b["player"] else _pair(stats, a, b)
                                for b in stats.players)]
                      for label, a in zip(labels, stats.players, strict=True)],
                     markdown))
    parts.append(text_table(["level", "won", "made"],
                            [[str(r["level"]), str(r["won"]), pct(r)] for r in stats.by_level],
                            markdown))
    parts.append(text_table(["declarer's position", "won", "made"],
                            [[("first hand", "second hand", "dealer")[r["position"]],
                              str(r["won"]), pct(r)] for r in stats.by_position], markdown))
    parts.append(text_table(["declarations", "deals", "share", "declarer's kapíkia"],
                            [[r["declarations"], str(r["deals"]), f"{100 * r['share']:.1f}%",
                              money(r["declarer_kapikia"])] for r in stats.declarations],
                            markdown))
    parts.append(text_table(["contract", "deals", "share"],
                            [[r["contract"], str(r["deals"]), f"{100 * r['share']:.1f}%"]
                             for r in stats.contracts[:10]], markdown))
    return "\n\n".join(parts)


def few_warning(units: int, unit: str = "deal") -> str:
    """The warning over fewer deals (or games) than the bootstrap needs."""
    return (f"warning: only {units} {unit}{'s' if units != 1 else ''}, fewer than the "
            f"{MIN_BOOTSTRAP_UNITS} a bootstrap needs: money intervals are Student's t (none "
            "from one), rates Wilson over the deals, and no difference is marked as "
            "excluding zero")


def _pair(stats: BiddingStats, a: dict, b: dict) -> str:
    r = next(p for p in stats.pairs if p["player"] == a["player"]
             and p["versus"] == b["player"])
    from .output import money_text

    clear = not r["few"] and (r["low"] > 0 or r["high"] < 0)
    return money_text(r["value"], r["low"], r["high"], r["few"]) + (" *" if clear else "")
