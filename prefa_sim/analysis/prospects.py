"""One hand's prospects: what each contract is worth to the hand, from simulated deals.

The hand is fixed in its position (and the widow too, when it is known); the other
cards are dealt at random (meeting any constraints) with the run's seed, every deal
is solved double-dummy with the widow for this declarer in every strain and defence
mode by ``prefa_sim.sim.simulate``, and the dataset is read back by the statistics layer:
the make-rates are the ones ``prefa simulate`` prints, the defence figures those of
``prefa stats defence``.  Each deal gives one row per strain, so the rows of a
contract are independent and its intervals exact.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..core.cards import CardError, Strain, format_hand, parse_hand
from ..core.contracts import Contract
from ..core.seats import DEFAULT_DEALER, seat_of
from ..dealing.scenario import ScenarioError, parse_scenario, with_overrides
from ..rules.variants import DEFAULT_RULES, Rules
from ..sim.config import RunConfig
from ..stats.defence import BOOTSTRAP, defence_stats
from ..stats.groups import group_make_rates
from ..stats.intervals import Estimate
from ..util.words import counted

POSITIONS = ("first", "second", "dealer")
FEW_DEALS = 30
"""Below this many deals the intervals are said to be rough."""


def hand_config(hand: str, position: str, widow: str | None = None, deals: int = 2000,
                seed: int = 1, constraints: Sequence[str] = (), fixed: Sequence[str] = (),
                chunk_size: int = 25, rules: Rules = DEFAULT_RULES) -> RunConfig:
    """The run that deals around ``hand`` (ten cards) held in ``position`` (first, second,
    dealer), with the ``widow`` when known, other ``fixed`` cards (``second=AK.-.-.-``) and
    ``constraints``, under ``rules``; ``CardError`` or ``ScenarioError`` names what is
    wrong."""
    if position not in POSITIONS:
        raise ScenarioError(f"position {position!r} is not one of {', '.join(POSITIONS)}")
    mask = parse_hand(hand, 10)
    cards = {position: format_hand(mask)}
    if widow is not None:
        try:
            cards["widow"] = format_hand(parse_hand(widow, 2))
        except CardError as exc:
            raise ScenarioError(f"--widow {widow!r}: {exc} (the widow is two cards as one "
                                "word, e.g. 7S,8D)") from None
    for item in fixed:
        role = item.partition("=")[0].strip().lower()
        if role == "widow":
            raise ScenarioError(f"--fixed {item!r}: give the widow with --widow")
        if role in cards:
            raise ScenarioError(f"--fixed {item!r}: the {role} cards are given already")
    description = f"{position} hand holds {format_hand(mask)}" + (
        f", widow {cards['widow']}" if widow is not None else "")
    data = with_overrides({"name": "prefa makerate", "description": description,
                           "dealer": DEFAULT_DEALER, "fixed": cards},
                          None, fixed, constraints)
    parse_scenario(data, "the command line")  # names a clash or a bad constraint
    return RunConfig(deals=deals, seed=seed, chunk_size=chunk_size,
                     declarers=(seat_of(position, DEFAULT_DEALER),), scenario=data,
                     rules=str(rules))


@dataclass(frozen=True)
class Prospect:
    """One contract for the hand."""

    contract: Contract
    make: Estimate
    """How often the declarer takes at least the level against both defenders."""
    tricks: Estimate
    """The declarer's mean tricks in the strain against both defenders."""
    quota_both: Estimate
    quota_first: Estimate
    quota_second: Estimate
    """How often the defence reaches its quota: both playing, each defender alone."""
    value: Estimate
    """The declarer's expected kapíkia when the defence declares its best, deal by deal."""
    best: bool = False
    """The contract worth the most on average."""
    margin: Estimate | None = None
    """For the best contract: what it gains over the next best, paired deal by deal."""
    runner_up: Contract | None = None


def hand_prospects(path: str | Path, replicates: int = BOOTSTRAP, seed: int = 0
                   ) -> list[Prospect]:
    """Every contract's prospects from a dataset of one declarer (``hand_config``'s run)."""
    groups = {Strain(g.key[0]): g for g in group_make_rates(path, ("strain",), None, "both")}
    defence = defence_stats(path, None, replicates, seed)
    out = []
    for c in defence.rules.ladder:
        if c.strain not in groups or not defence.n[c.step]:
            continue
        group = groups[c.strain]
        out.append(Prospect(c, group.rates[c.level], group.mean, defence.quota(c, "both"),
                            defence.quota(c, "first"), defence.quota(c, "second"),
                            defence.best_defence(c)))
    if len(out) > 1:
        ranked = sorted(out, key=lambda p: (p.value.value, p.contract.step), reverse=True)
        top, second = ranked[0], ranked[1]
        margin = defence.best_defence_difference(top.contract, second.contract)
        marked = Prospect(**{**top.__dict__, "best": True, "margin": margin,
                             "runner_up": second.contract})
        out = [marked if p is top else p for p in out]
    return out


def prospect_records(prospects: Sequence[Prospect]) -> list[dict]:
    """One flat record per contract, every figure with its interval."""
    out = []
    for p in prospects:
        r: dict = {"contract": str(p.contract), "deals": p.make.n}
        for name in ("make", "tricks", "quota_both", "quota_first", "quota_second", "value"):
            e = getattr(p, name)
            r.update({name: e.value, f"{name}_low": e.low, f"{name}_high": e.high})
        r["best"] = p.best
        m = p.margin  # the same columns in every record (CSV), empty but for the best
        r.update(runner_up=str(p.runner_up) if p.runner_up else None,
                 margin=m and m.value, margin_low=m and m.low, margin_high=m and m.high)
        out.append(r)
    return out


def prospects_text(prospects: Sequence[Prospect], markdown: bool = False) -> str:
    """The contracts as a table, the best marked, and the value of passing below."""
    from ..stats.output import text_table

    def pct(e: Estimate) -> str:
        return f"{100 * e.value:.1f}% ({100 * e.low:.1f}-{100 * e.high:.1f})"

    header = ["contract", "makes", "tricks", "quota, both play", "first alone",
              "second alone", "kapíkia vs best defence"]
    body = [[f"{p.contract}{' *' if p.best else ''}", pct(p.make),
             f"{p.tricks.value:.2f} ({p.tricks.low:.2f}-{p.tricks.high:.2f})",
             pct(p.quota_both), pct(p.quota_first), pct(p.quota_second),
             f"{p.value.value:+.1f} ({p.value.low:+.1f}..{p.value.high:+.1f})"]
            for p in prospects]
    table = text_table(header, body, markdown)
    if prospects and prospects[0].make.n < FEW_DEALS:
        table += (f"\n\n(only {counted(prospects[0].make.n, 'deal')}: the intervals are rough; "
                  "use -n 1000 or more)")
    best = next((p for p in prospects if p.best), None)
    if best is None:
        return table
    verdict = ("name it" if best.value.low > 0 else
               "passing is worth more" if best.value.high < 0 else
               "not clearly better than passing")
    m = best.margin
    return (f"{table}\n\n* best contract: {best.contract}, {best.value.value:+.1f} kapíkia a "
            f"deal ({best.value.low:+.1f}..{best.value.high:+.1f}); passing is worth 0 "
            f"(no contract, no money moves): {verdict}.\n  Over the next best, "
            f"{best.runner_up}: {m.value:+.1f} a deal ({m.low:+.1f}..{m.high:+.1f}), paired "
            f"deal by deal{'' if m.low > 0 else ', not clearly better'}.")
