"""The first deals of a dataset as text (``prefa show``): the hands, the widow, and each
declarer's tricks and discard in every strain and defence mode."""

from __future__ import annotations

import pandas as pd

from ..core.cards import Strain, format_discard, format_hand
from ..core.seats import seat_label


def deals_text(data: pd.DataFrame, deals: int) -> str:
    """The first ``deals`` deals of ``data`` (rows of a solved-deals dataset)."""
    lines = []
    for deal_index in sorted(data["deal"].unique())[:deals]:
        rows = data[data["deal"] == deal_index].copy()
        rows["order"] = rows["strain"].map({s.name: int(s) for s in Strain})
        rows = rows.sort_values(["declarer", "order"])
        first = rows.iloc[0]
        dealer = int(first.dealer)
        lines.append(f"deal {deal_index} (dealer seat {dealer})")
        for seat in range(3):
            lines.append(f"  {seat_label(seat, dealer):<22}"
                         f"{format_hand(int(first[f'hand{seat}']))}")
        lines.append(f"  {'widow':<22}{format_hand(int(first.widow))}")
        lines.append("  declarer strain  both first second  discard (both)")
        for _, row in rows.iterrows():
            tricks = ["-" if pd.isna(row[f"tricks_{mode}"]) else str(int(row[f"tricks_{mode}"]))
                      for mode in ("both", "first", "second")]
            discard = row["discard_both"]
            shown = "-" if pd.isna(discard) else format_discard(int(discard))
            lines.append(f"  {row.declarer:>8} {row.strain:<6} {tricks[0]:>5} {tricks[1]:>5} "
                         f"{tricks[2]:>6}  {shown}")
    return "\n".join(lines)
