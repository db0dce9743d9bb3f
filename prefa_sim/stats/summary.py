"""The summary ``prefa simulate`` prints after a run: per strain, how often each level makes
against both defenders, and the mean tricks, with what the rows are."""

from __future__ import annotations

from pathlib import Path

from ..core.seats import seat_label
from ..sim.config import RunConfig
from .groups import strain_counts
from .makerate import make_rate_table


def make_rate_summary(out: str | Path, config: RunConfig | None = None) -> str:
    """The make-rate table of the dataset in ``out`` (the run ``config``, when known)."""
    counts = strain_counts(out, "both")
    if not counts.any():
        return "no rows with both defenders playing (see --modes)"
    table = make_rate_table(counts, "make-rate against both defenders (declarer with the "
                                    "widow, best discard)")
    note = ""
    if config is None or len(config.declarers) > 1:
        note = ("\n(the declarers of one deal share its cards, so intervals that treat "
                "their rows as independent are somewhat too narrow)")
    if config is not None and config.rules != "default":
        note += f"\n(played under the rules {config.rules}, docs/rules.md §7.6)"
    return f"{table}\n({counts.sum()} declarer-strain rows from {out}; " \
           f"{_declarers_text(config)}){note}"


def _declarers_text(config: RunConfig | None) -> str:
    if config is None:
        return "declarers as in the run"
    pooled = "pooled over the declarers " if len(config.declarers) > 1 else "declarer "
    if config.replay:
        return f"{pooled}in seats {','.join(map(str, config.declarers))}, their positions " \
               "set by each replayed deal's dealer"
    dealer = config.dealer
    return pooled + ", ".join(seat_label(d, dealer) for d in config.declarers)
