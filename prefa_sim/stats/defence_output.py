"""The defence statistics as records (CSV, JSON) and as readable tables.

Four tables, each a list of flat records: ``quota`` (per contract: make-rate, the
defence's quota with both playing and with each defender alone, what the declarer nets
against the defence's best), ``money`` (per contract and declaration sequence: each
player's expected kapíkia), ``decisions`` (the defenders' choices compared deal by deal)
and ``matrix`` (the four ways to defend, paired, in the defence's money).
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from ..core.contracts import Contract
from .defence import OUTCOME_NAMES, SEQUENCES, DefenceStats, sequence_text
from .intervals import Estimate
from .output import records, text_table

TABLES = ("quota", "money", "decisions", "matrix")

CONVENTIONS = (
    "kapíkia per deal: each player's change of result were the game to end after the deal "
    "(docs/rules.md §6.12; the pot's movement shared in thirds, so the three sum to zero), "
    "full pot, no aces; each row of the dataset counts as if its declarer named the contract. "
    "The declarer's money never depends on how the two defenders share their tricks; a "
    "defender's own money after 'play, play' does, and is shown from the share worst for "
    "that defender to the share best for them. Each defence mode uses the declarer's best "
    "discard for that mode. Against the best defence, the defenders declare, deal by deal, "
    "what leaves the declarer least. 95% intervals: Wilson for rates, bootstrap over deals "
    "for money and for paired differences.")


def _put(record: dict, name: str, e: Estimate) -> None:
    # "+ 0.0" writes a zero difference as 0.0, never -0.0.
    record[name] = e.value + 0.0
    record[f"{name}_low"] = e.low + 0.0
    record[f"{name}_high"] = e.high + 0.0


def quota_records(stats: DefenceStats, contracts: Sequence[Contract]) -> list[dict]:
    out = []
    for c in contracts:
        r: dict = {"contract": str(c), "rows": int(stats.n[c.step])}
        _put(r, "make", stats.make_rate(c))
        for mode in ("both", "first", "second"):
            _put(r, f"quota_{mode}", stats.quota(c, mode))
        _put(r, "declarer_vs_best_defence", stats.best_defence(c))
        out.append(r)
    return out


def money_records(stats: DefenceStats, contracts: Sequence[Contract]) -> list[dict]:
    out = []
    for c in contracts:
        for seq in SEQUENCES:
            r: dict = {"contract": str(c), "declarations": sequence_text(seq),
                       "rows": int(stats.n[c.step])}
            _put(r, "declarer", stats.money(c, seq, "declarer")[0])
            for role in ("first", "second"):
                worst, best = stats.money(c, seq, role)
                _put(r, f"{role}_worst_share", worst)
                _put(r, f"{role}_best_share", best)
            out.append(r)
    return out


def decision_records(stats: DefenceStats, contracts: Sequence[Contract]) -> list[dict]:
    out = []
    for c in contracts:
        for d in stats.decisions(c):
            r: dict = {"contract": str(c), "who": d.role, "after": d.after,
                       "choice": d.choice, "versus": d.other, "rows": int(stats.n[c.step])}
            _put(r, "difference_worst_share", d.difference)
            _put(r, "difference_best_share", d.difference_high or d.difference)
            out.append(r)
    return out


def matrix_records(stats: DefenceStats, contracts: Sequence[Contract]) -> list[dict]:
    out = []
    for c in contracts:
        for name, row in zip(OUTCOME_NAMES, stats.matrix(c), strict=True):
            for other, e in zip(OUTCOME_NAMES, row, strict=True):
                r: dict = {"contract": str(c), "defence": name, "versus": other,
                           "rows": int(stats.n[c.step])}
                _put(r, "difference", e)
                out.append(r)
    return out


RECORDS = {"quota": quota_records, "money": money_records, "decisions": decision_records,
           "matrix": matrix_records}


def pct_text(r: dict, name: str) -> str:
    return f"{100 * r[name]:.1f}% ({100 * r[name + '_low']:.1f}-{100 * r[name + '_high']:.1f})"


def money_text(r: dict, name: str) -> str:
    value, low, high = r[name], r[name + "_low"], r[name + "_high"]
    if value == low == high:  # no spread: a fixed payment, or a player out of play
        return "0" if value == 0 else f"{value:+.1f}"
    return f"{value:+.1f} ({low:+.1f}..{high:+.1f})"


def share_text(r: dict, name: str) -> str:
    worst, best = f"{name}_worst_share", f"{name}_best_share"
    if r[worst] == r[best]:
        return money_text(r, worst)
    return f"{r[worst]:+.1f} to {r[best]:+.1f} by share"


def table_cells(table: str, rows: list[dict]) -> tuple[list[str], list[list[str]]]:
    """The header and the cells of the ``quota``, ``money`` or ``decisions`` table."""
    if table == "quota":
        header = ["contract", "rows", "declarer makes", "quota, both play", "quota, first alone",
                  "quota, second alone", "declarer vs best defence"]
        body = [[r["contract"], str(r["rows"]), pct_text(r, "make"), pct_text(r, "quota_both"),
                 pct_text(r, "quota_first"), pct_text(r, "quota_second"),
                 money_text(r, "declarer_vs_best_defence")] for r in rows]
    elif table == "money":
        header = ["contract", "declarations", "declarer", "first defender", "second defender"]
        body = [[r["contract"], r["declarations"], money_text(r, "declarer"),
                 share_text(r, "first"), share_text(r, "second")] for r in rows]
    else:
        header = ["contract", "who", "after", "choice", "versus", "gain per deal"]
        body = [[r["contract"], r["who"], r["after"], r["choice"], r["versus"],
                 share_text(r, "difference")] for r in rows]
    return header, body


def table_text(table: str, rows: list[dict], markdown: bool = False) -> str:
    """One table's records as aligned text (or Markdown)."""
    if table == "matrix":
        return _matrix_text(rows, markdown)
    return text_table(*table_cells(table, rows), markdown)


def _matrix_text(rows: list[dict], markdown: bool) -> str:
    parts = []
    for contract in dict.fromkeys(r["contract"] for r in rows):
        cells = {(r["defence"], r["versus"]): r for r in rows if r["contract"] == contract}
        header = [f"{contract}: defence minus", *OUTCOME_NAMES]
        body = [[name, *("-" if name == other else money_text(cells[name, other], "difference")
                         for other in OUTCOME_NAMES)] for name in OUTCOME_NAMES]
        parts.append(text_table(header, body, markdown))
    return "\n\n".join(parts)


TITLES = {
    "quota": "How often the declarer makes the contract and the defence reaches its quota",
    "money": "Expected kapíkia per deal of each declaration sequence",
    "decisions": "The defenders' choices compared deal by deal (gain of the choice over the "
                 "alternative, in the chooser's kapíkia; the defence's for both play)",
    "matrix": "The four ways to defend, paired deal by deal: the defence's kapíkia of the row "
              "minus the column's",
}


def render_defence(stats: DefenceStats, contracts: Sequence[Contract], tables: Sequence[str],
                   fmt: str, header: str = "") -> str:
    """The chosen tables in ``fmt``: table and markdown show each under its title with the
    conventions; csv needs a single table; json tags each record with its table."""
    if fmt in ("csv", "json"):
        out = []
        for table in tables:
            rows = RECORDS[table](stats, contracts)
            out += [{"table": table, **r} for r in rows] if fmt == "json" else rows
        return records(out, fmt)
    markdown = fmt == "markdown"
    parts = [header] if header else []
    parts.append(textwrap.fill(CONVENTIONS, 92))
    for table in tables:
        title = f"### {TITLES[table]}" if markdown else f"{TITLES[table]}:"
        parts.append(f"{title}\n\n{table_text(table, RECORDS[table](stats, contracts), markdown)}"
                     if markdown else
                     f"{title}\n{table_text(table, RECORDS[table](stats, contracts))}")
    return "\n\n".join(parts)
