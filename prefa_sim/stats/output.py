"""Statistics as rows, and rows as a text table, CSV, JSON or Markdown."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable, Sequence
from pathlib import Path

from ..core.cards import Strain
from ..core.contracts import MAX_LEVEL, MIN_LEVEL
from ..util.jsonl import dumps
from .groups import GroupRates
from .intervals import Estimate

FORMATS = ("table", "csv", "json", "markdown")


def file_path_problem(out: str | Path, endings: Sequence[str], wrong_ending: str) -> str | None:
    """Why a file cannot be written to ``out`` (its ending not one of ``endings``, said as
    ``wrong_ending``; no such folder), or None: a command can ask before a long piece of
    work instead of after it."""
    if not str(out).strip():
        return "an output file is needed"
    out = Path(out)
    if out.suffix.lower() not in endings:
        return f"{out}: {wrong_ending}"
    if out.parent.exists() and not out.parent.is_dir():
        return f"{out}: {out.parent} is a file, not a folder"
    if not out.parent.is_dir():
        return f"{out}: the folder {out.parent} does not exist"
    return folder_problem(out.parent)


def folder_problem(folder: str | Path) -> str | None:
    """Why no file can be written in ``folder`` (None when one can): a file is made there
    and removed, which tells what permissions alone do not (a read-only file system, a
    user allowed everything)."""
    import tempfile

    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        return f"cannot write in the folder {folder}: {exc.strerror or exc}"
    return None


def makerate_rows(groups: Sequence[GroupRates], by: Sequence[str],
                  min_count: int = 30) -> list[dict]:
    """One flat record per group: its features, rows, mean tricks and the make-rate of
    every level with their 95% intervals, and ``small`` when it has fewer than
    ``min_count`` rows (shown, never hidden)."""
    rows = []
    for g in groups:
        row: dict = {name: (Strain(v).name if name == "strain" else v)
                     for name, v in zip(by, g.key, strict=True)}
        mean = g.mean
        row.update(rows=g.n, mean=mean.value, mean_low=mean.low, mean_high=mean.high)
        for level, e in g.rates.items():
            row.update({f"make_{level}": e.value, f"make_{level}_low": e.low,
                        f"make_{level}_high": e.high})
        row["small"] = g.n < min_count
        rows.append(row)
    return rows


def render(rows: list[dict], by: Sequence[str], fmt: str) -> str:
    """``rows`` in one of ``FORMATS``."""
    if fmt in ("json", "csv"):
        return records(rows, fmt)
    header = [*by, "rows", "mean tricks", *(f"make {lv}" for lv in range(MIN_LEVEL,
                                                                         MAX_LEVEL + 1))]
    body = [[*(str(r[f]) for f in by),
             f"{r['rows']}{' (small)' if r['small'] else ''}",
             f"{r['mean']:.2f} ({r['mean_low']:.2f}-{r['mean_high']:.2f})",
             *(f"{100 * r[f'make_{lv}']:.1f}% ({100 * r[f'make_{lv}_low']:.1f}-"
               f"{100 * r[f'make_{lv}_high']:.1f})" for lv in range(MIN_LEVEL, MAX_LEVEL + 1))]
            for r in rows]
    return text_table(header, body, markdown=fmt == "markdown")


def records(rows: list[dict], fmt: str) -> str:
    """Records as JSON Lines or CSV (the columns of the first record)."""
    if fmt == "json":
        return "\n".join(dumps(r) for r in rows)
    out = io.StringIO()
    if rows:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return out.getvalue().rstrip("\n")


def text_table(header: Sequence[str], body: Sequence[Sequence[str]],
               markdown: bool = False) -> str:
    """Cells in aligned columns, or a Markdown table."""
    if markdown:
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        return "\n".join(lines + ["| " + " | ".join(cells) + " |" for cells in body])
    widths = [max(len(h), *(len(b[i]) for b in body)) if body else len(h)
              for i, h in enumerate(header)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip()]
    lines += ["  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()
              for cells in body]
    return "\n".join(lines)


def money_text(value: float, low: float | None, high: float | None, few: bool = False) -> str:
    """Kapíkia with their interval, ``+12.3 (+4.0..+20.1)``; over too few deals for the
    bootstrap (``intervals.Estimate.few``) the interval is said to be rough, and where it
    has no width or no bounds it is not printed as if exact."""
    return _with_interval(value, low, high, few, signed)


def estimate_text(e: Estimate, digits: int = 2) -> str:
    """A figure that is never negative (a rate of tricks, a regret) with its interval,
    ``0.42 (0.10..0.81)``; as ``money_text`` over too few deals."""
    return _with_interval(e.value, e.low, e.high, e.few,
                          lambda x: f"{round(x, digits) + 0.0:.{digits}f}")


def _with_interval(value: float, low: float | None, high: float | None, few: bool,
                   shown: Callable[[float], str]) -> str:
    """``value (low..high)`` each written by ``shown``, marked over few deals; an interval
    without bounds, or of no width over few deals, is said to be missing."""
    if low is None or high is None or not math.isfinite(low) or not math.isfinite(high) \
            or (few and shown(low) == shown(high)):
        return f"{shown(value)} (too few deals for an interval)"
    return f"{shown(value)} ({shown(low)}..{shown(high)}{', few deals' if few else ''})"


def signed(x: float) -> str:
    """A number of kapíkia to one decimal with its sign; one that rounds to zero is
    ``+0.0`` (never ``-0.0``: the sum of thirds in another order may be a hair below)."""
    rounded = round(x, 1)
    return f"{rounded if rounded else 0.0:+.1f}"


def estimate_record(e: Estimate) -> dict:
    """An estimate (kapíkia, tricks) for JSON: bounds that are not finite are null, and ``few``
    says whether the deals were too few for the bootstrap."""
    def bound(x: float) -> float | None:
        return x if math.isfinite(x) else None
    return {"value": e.value, "low": bound(e.low), "high": bound(e.high), "few": e.few}
