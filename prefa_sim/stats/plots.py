"""Figures of a dataset's statistics (matplotlib, no display needed).

Figures are made as ``matplotlib.figure.Figure`` objects, never through pyplot, so that
no backend is chosen for the program that imports this module and nothing is left open.

Every figure carries a title, axis labels, the number of rows behind it and the
dataset's scenario, and uses colours that survive colour blindness (cividis, and
the Okabe-Ito palette for lines).
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from ..core.cards import Strain
from ..core.contracts import LADDER, MAX_LEVEL, MIN_LEVEL
from .defence import OUTCOME_NAMES, OUTCOMES, defence_stats
from .groups import StatsError, group_make_rates
from .output import file_path_problem

OKABE_ITO = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#F0E442",
             "#000000")
LEVELS = range(MIN_LEVEL, MAX_LEVEL + 1)
KINDS = ("makerate", "tricks", "defence", "features", "bidding")


PERCENT_LIMITS = (-4, 104)
"""A percentage axis with room around 0 and 100, so that no marker sits on the frame."""


def _footnote(fig, text: str, width: int = 150) -> None:
    """The figure's footnote, wrapped to the figure's width."""
    fig.text(0.01, 0.01, "\n".join(textwrap.fill(part, width) for part in text.split("\n")),
             fontsize=7, color="#444444")


def _legend_outside(ax, **kwargs) -> None:
    """A legend to the right of the axes, where it covers no data."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0, fontsize=8,
              **kwargs)


def _caption(fig, rows: int, scenario: str, mode: str, intervals: bool = True,
             where: str | None = None) -> None:
    defence = {"both": "both defenders playing", "first": "the first defender alone",
               "second": "the second defender alone"}[mode]
    rows_text = f"{rows:,} declarer-strain rows" + (f" with {where}" if where else "")
    _footnote(fig, f"{rows_text}; {defence}; scenario: {scenario}"
              + ("; 95% Wilson intervals" if intervals else ""), width=120)


def _groups(path: str | Path, by: tuple[str, ...], where: str | None, mode: str,
            strain: Strain | None = None) -> list:
    """The groups a figure draws (the rows of ``strain`` only, when given), or a clear
    ``StatsError`` when there are none: a figure with nothing on it is not written."""
    query = " and ".join(([f"strain == {strain.name}"] if strain is not None else [])
                         + ([where] if where else []))
    groups = group_make_rates(path, by, query or None, mode)
    if not groups:
        raise StatsError(f"no rows of {path}" + (f" in {strain.name}" if strain is not None else "")
                         + f" in defence mode {mode}"
                         + (f" meet --where {where}" if where else "") + ": nothing to draw")
    return groups


def makerate_figure(path: str | Path, scenario: str = "random deals", mode: str = "both",
                    where: str | None = None):
    """A heat map of make-rates, level by strain, each cell with its rate and interval."""
    groups = {Strain(g.key[0]): g for g in _groups(path, ("strain",), where, mode)}
    strains = list(groups)
    rates = np.array([[groups[s].rates[level].value for s in strains] for level in LEVELS])
    fig = Figure(figsize=(7, 4.8))
    ax = fig.subplots()
    top = max(10.0, float(np.ceil(rates.max() * 10)) * 10)  # the scale ends at a round 10%
    image = ax.imshow(rates * 100, cmap="cividis", vmin=0, vmax=top, aspect="auto",
                      origin="lower")
    for i, level in enumerate(LEVELS):
        for j, s in enumerate(strains):
            e = groups[s].rates[level]
            colour = "white" if 100 * e.value < 0.6 * top else "black"
            ax.text(j, i, f"{100 * e.value:.1f}%\n({100 * e.low:.1f}-{100 * e.high:.1f})",
                    ha="center", va="center", fontsize=7, color=colour)
    ax.set_xticks(range(len(strains)), [s.name for s in strains])
    ax.set_yticks(range(len(LEVELS)), [str(level) for level in LEVELS])
    ax.set_xlabel("strain")
    ax.set_ylabel("contract level (tricks needed)")
    ax.set_title("How often the declarer makes each contract\n(double dummy, with the widow "
                 "and the best discard)", fontsize=11)
    fig.colorbar(image, ax=ax, label="make-rate (%)")
    _caption(fig, sum(g.n for g in groups.values()), scenario, mode, where=where)
    fig.subplots_adjust(bottom=0.16)
    return fig


def tricks_figure(path: str | Path, scenario: str = "random deals", mode: str = "both",
                  where: str | None = None):
    """The distribution of the declarer's tricks in each strain."""
    groups = {Strain(g.key[0]): g for g in _groups(path, ("strain",), where, mode)}
    fig = Figure(figsize=(7, 4.2))
    ax = fig.subplots()
    width = 0.8 / max(1, len(groups))
    for k, (strain, g) in enumerate(groups.items()):
        share = g.counts / g.n
        ax.bar(np.arange(11) + (k - (len(groups) - 1) / 2) * width, 100 * share, width,
               label=f"{strain.name} (mean {g.mean.value:.2f})", color=OKABE_ITO[k])
    ax.set_xticks(range(11))
    ax.set_xlabel("declarer's tricks")
    ax.set_ylabel("share of rows (%)")
    ax.set_title("Declarer's double-dummy tricks by strain", fontsize=11)
    _legend_outside(ax, title="strain")
    _caption(fig, sum(g.n for g in groups.values()), scenario, mode, intervals=False,
             where=where)
    fig.subplots_adjust(bottom=0.19, right=0.74)
    return fig


def features_figure(path: str | Path, scenario: str = "random deals", mode: str = "both",
                    strain: Strain = Strain.H, where: str | None = None):
    """Make-rate against trump length after the widow, one line per level, with bands."""
    groups = _groups(path, ("trumps_after",), where, mode, strain)
    fig = Figure(figsize=(8, 4.2))
    ax = fig.subplots()
    lengths = [g.key[0] for g in groups]
    for k, level in enumerate(LEVELS):
        rates = [g.rates[level] for g in groups]
        colour = OKABE_ITO[k]
        ax.plot(lengths, [100 * e.value for e in rates], marker="o", color=colour,
                label=f"{level} {strain.name}")
        ax.fill_between(lengths, [100 * e.low for e in rates], [100 * e.high for e in rates],
                        color=colour, alpha=0.18, linewidth=0)
    ax.set_xticks(lengths, [f"{n}\n{g.n} rows" for n, g in zip(lengths, groups, strict=True)],
                  fontsize=7)
    ax.set_xlabel(f"cards in {strain.name} after the widow and the discard")
    ax.set_ylabel("make-rate (%)")
    ax.set_ylim(*PERCENT_LIMITS)
    ax.set_title(f"Make-rate against trump length, {strain.name} trumps", fontsize=11)
    _legend_outside(ax, title="contract")
    _caption(fig, sum(g.n for g in groups), scenario, mode, where=where)
    fig.subplots_adjust(bottom=0.23, right=0.84)
    return fig


def _by_contract(ax, contracts, estimates, label, colour, offset=0.0, scale=1.0) -> None:
    x = np.arange(len(contracts)) + offset
    values = np.array([scale * e.value for e in estimates])
    errors = np.array([[scale * (e.value - e.low) for e in estimates],
                       [scale * (e.high - e.value) for e in estimates]])
    ax.errorbar(x, values, yerr=np.maximum(errors, 0), fmt="o", markersize=3.5, capsize=2,
                color=colour, label=label, linewidth=1)


def _contract_axis(ax, contracts) -> None:
    ax.set_xticks(range(len(contracts)), [str(c) for c in contracts], rotation=90, fontsize=7)
    for k in range(1, len(contracts)):  # a faint line between levels
        if contracts[k].level != contracts[k - 1].level:
            ax.axvline(k - 0.5, color="#dddddd", linewidth=0.8, zorder=0)


def defence_figure(path: str | Path, scenario: str = "random deals", where: str | None = None,
                   replicates: int = 1000):
    """Per contract: how often the defence reaches its quota (both playing, each alone),
    and what the declarer nets against each way to defend, with intervals."""
    stats = defence_stats(path, where, replicates)
    contracts = stats.contracts
    if not contracts:
        raise StatsError(stats.no_rows_reason(path, where))
    fig = Figure(figsize=(10.5, 7))
    top, bottom = fig.subplots(2, 1, sharex=True)
    for k, (mode, label) in enumerate((("both", "both play"), ("first", "first alone"),
                                       ("second", "second alone"))):
        _by_contract(top, contracts, [stats.quota(c, mode) for c in contracts], label,
                     OKABE_ITO[k], (k - 1) * 0.22, 100)
    top.set_ylabel("defence reaches its quota (%)")
    top.set_ylim(*PERCENT_LIMITS)
    _legend_outside(top, title="who defends")
    top.set_title("The defence against each contract (double dummy, with the widow)",
                  fontsize=11)
    for k, (seq, label) in enumerate(zip(OUTCOMES, OUTCOME_NAMES, strict=True)):
        _by_contract(bottom, contracts, [stats.money(c, seq, "declarer")[0] for c in contracts],
                     label, OKABE_ITO[k], (k - 1.5) * 0.18)
    bottom.axhline(0, color="#444444", linewidth=0.8)
    bottom.set_ylabel("declarer's kapíkia per deal")
    _legend_outside(bottom, title="defence declares")
    _contract_axis(top, contracts)
    _contract_axis(bottom, contracts)
    bottom.set_xlabel("contract")
    rows = int(stats.counts.sum())
    _footnote(fig, f"{rows:,} declarer-strain rows{f' with {where}' if where else ''}, "
              f"each counted as if it named every contract of its strain; scenario: "
              f"{scenario}\nkapíkia: the change of result, the pot shared in thirds (full pot, "
              "no aces); 95% Wilson (rates) and bootstrap-over-deals (kapíkia) intervals")
    fig.subplots_adjust(bottom=0.15, top=0.94, hspace=0.08, right=0.78)
    return fig


def prospects_figure(records: list[dict], title: str, caption: str):
    """One hand's contracts: the make probability and the expected kapíkia against the
    best defence, with intervals, the best contract marked and passing at zero."""
    contracts = [c for c in LADDER if str(c) in {r["contract"] for r in records}]
    by_name = {r["contract"]: r for r in records}
    fig = Figure(figsize=(10, 6.5))
    top, bottom = fig.subplots(2, 1, sharex=True)
    x = np.arange(len(contracts))
    colours = [OKABE_ITO[int(c.strain)] for c in contracts]
    for axis, name, scale in ((top, "make", 100), (bottom, "value", 1)):
        rs = [by_name[str(c)] for c in contracts]
        values = np.array([scale * r[name] for r in rs])
        low = np.array([scale * r[f"{name}_low"] for r in rs])
        high = np.array([scale * r[f"{name}_high"] for r in rs])
        axis.vlines(x, low, high, colors=colours, linewidth=2)
        axis.scatter(x, values, c=colours, s=18, zorder=3)
    best = [k for k, c in enumerate(contracts) if by_name[str(c)]["best"]]
    for k in best:
        bottom.scatter([k], [by_name[str(contracts[k])]["value"]], s=140, facecolors="none",
                       edgecolors="black", zorder=4, label="best contract")
    bottom.axhline(0, color="#444444", linewidth=0.8, label="pass (0)")
    top.set_ylabel("declarer makes it (%)")
    top.set_ylim(*PERCENT_LIMITS)
    for strain in sorted({c.strain for c in contracts}):  # the colour key
        top.scatter([], [], color=OKABE_ITO[int(strain)], s=18, label=strain.name)
    _legend_outside(top, title="strain")
    bottom.set_ylabel("kapíkia per deal\nagainst the best defence")
    _legend_outside(bottom)
    _contract_axis(top, contracts)
    _contract_axis(bottom, contracts)
    bottom.set_xlabel("contract (colour: strain)")
    top.set_title(title, fontsize=11)
    _footnote(fig, caption, width=170)
    fig.subplots_adjust(bottom=0.15, top=0.93, hspace=0.08, right=0.84)
    return fig


def _bound(end: float | None) -> float:
    """An interval's end for a figure: none (over one game) is not drawn."""
    return np.nan if end is None else end


def bidding_figure(path: str | Path, scenario: str = "games"):
    """Played games: each player's kapíkia per deal (or game) with intervals, and how often
    the auction winner makes the contract at each level."""
    from .bidding import bidding_stats, read_games

    stats = bidding_stats(read_games(path), 1000)
    if not stats.by_level:
        raise StatsError(f"{path} holds no deal with a contract (every deal was void): the "
                         "bidding figure has nothing to draw")
    fig = Figure(figsize=(10, 4.2))
    left, right = fig.subplots(1, 2)
    names = [r["player"] for r in stats.players]
    money = [r["kapikia_per_deal"] for r in stats.players]
    x = np.arange(len(names))
    left.bar(x, [m["value"] for m in money], color=OKABE_ITO[:len(names)], width=0.6)
    left.errorbar(x, [m["value"] for m in money],
                  yerr=[[m["value"] - _bound(m["low"]) for m in money],
                        [_bound(m["high"]) - m["value"] for m in money]],
                  fmt="none", ecolor="black", capsize=4)
    left.axhline(0, color="#444444", linewidth=0.8)
    labels = [_player_label(name) for name in names]
    small = {"fontsize": 8} if any("\n" in t for t in labels) else {}
    left.set_xticks(x, labels, **small)
    left.set_ylabel(f"kapíkia per {stats.unit} (change of result)")
    left.set_title("Each player's money", fontsize=11)
    levels = [r["level"] for r in stats.by_level]
    right.errorbar(levels, [100 * r["rate"] for r in stats.by_level],
                   yerr=[[100 * (r["rate"] - r["rate_low"]) for r in stats.by_level],
                         [100 * (r["rate_high"] - r["rate"]) for r in stats.by_level]],
                   fmt="o-", color=OKABE_ITO[0], capsize=3)
    for level, r in zip(levels, stats.by_level, strict=True):
        right.annotate(f"{r['won']}", (level, 100 * r["rate"]), textcoords="offset points",
                       xytext=(7, 3), ha="left", fontsize=7, color="#444444")
    right.set_xticks(levels)
    right.set_xlim(min(levels, default=6) - 0.4, max(levels, default=10) + 0.4)
    right.set_ylim(-4, 109)  # room around 0, and for the counts above a 100% point
    right.set_xlabel("contract level (number: contracts named)")
    right.set_ylabel("auction winner makes it (%)")
    right.set_title("Contracts made", fontsize=11)
    paired = "every deal in three seatings, paired" if stats.duplicate else "one seating"
    fig.text(0.01, 0.01, f"{stats.deals:,} {stats.unit}s, {stats.rows:,} deals played ({paired}); "
             f"scenario: {scenario}; 95% intervals (bootstrap over {stats.unit}s, Wilson)",
             fontsize=7, color="#444444")
    lines = max((t.count("\n") + 1 for t in labels), default=1)
    fig.subplots_adjust(bottom=0.2 + 0.04 * (lines - 1), wspace=0.3)
    return fig


def _player_label(name: str, width: int = 14) -> str:
    """A player's name for a tick label, broken after ``(`` and commas (and, in a longer
    setting, after ``_``) into lines of about ``width`` characters, so that names
    carrying settings do not run into each other; spaces that would begin a line are
    dropped.  (A long name without such points stays on one line.)"""
    pieces = []
    for piece in re.findall(r"[^(,]*[(,]|[^(,]+$", name):
        pieces += re.findall(r"[^_]*_|[^_]+$", piece) if len(piece) > width else [piece]
    lines = [""]
    for piece in pieces:
        if lines[-1] and len(lines[-1]) + len(piece.lstrip(" ")) > width:
            lines.append("")
        lines[-1] += piece.lstrip(" ") if not lines[-1] else piece
    return "\n".join(lines)


def figure_path_problem(out: str | Path) -> str | None:
    """Why a figure cannot be written to ``out`` (not .png or .svg, no such folder), or
    None; a command can ask before a long run instead of after it."""
    return file_path_problem(out, (".png", ".svg"), "a figure is written as .png or .svg")


def save(fig, out: str | Path) -> Path:
    """Write a figure (PNG or SVG by the file's ending)."""
    problem = figure_path_problem(out)
    out = Path(out)
    if problem:
        raise ValueError(problem)
    fig.savefig(out, dpi=150)
    return out
