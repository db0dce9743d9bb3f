"""prefa-sim: double-dummy solver, simulator and statistics for Greek prefa.

The public API, from the bottom layer up (docs/development.md names the layers)::

    from prefa_sim import Solver, Position, parse_deal
    hands, widow = parse_deal("QJ7.T8.A.KQJT AKT.AKJ.QJ7.7 8.Q97.KT98.98 9.-.-.A")

Names are loaded on first use (PEP 562), so ``import prefa_sim`` stays light: it loads
neither numba, NumPy, pandas, pyarrow nor matplotlib until a name that needs them is used.
"""

from __future__ import annotations

import importlib
from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("prefa-sim")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0.0.0"

_API = {
    # core: cards, seats, contracts, positions
    "core.cards": ("Strain", "CardError", "parse_card", "parse_cards", "parse_hand",
                   "parse_deal", "format_card", "format_cards", "format_hand", "format_deal"),
    "core.contracts": ("Contract", "parse_contract", "best_contract"),
    "core.position": ("Position",),
    # rules: the auction, one deal, settlement, whole games
    "rules.auction": ("Auction", "run_auction"),
    "rules.deal": ("Deal", "IllegalActionError"),
    "rules.settlement": ("Settlement", "settle"),
    "rules.game": ("Game",),
    "rules.variants": ("Rules", "RulesError", "PRESETS"),
    # solving and solve requests
    "solve.solver": ("Solver", "WidowResult", "recommended_contract"),
    "requests.solve": ("Request", "RequestError", "make_request", "solve_request", "answer"),
    "requests.bulk": ("solve_lines",),
    "requests.auction": ("auction_result",),
    "requests.score": ("settle_request",),
    # dealing
    "dealing.scenario": ("Scenario", "ScenarioError", "DealSampler", "load_scenario",
                         "parse_scenario"),
    # players at the table
    "bots.base": ("Player", "PlayerError"),
    "bots.observation": ("Observation",),
    "bots.registry": ("PLAYERS", "make_player"),
    "bots.table": ("play_out", "play_deal", "play_game"),
    # simulation runs and their datasets
    "sim.config": ("RunConfig", "RunError"),
    "sim.simulate": ("simulate",),
    "sim.options": ("new_run_config",),
    "sim.replay": ("read_replay",),
    "sim.dataset": ("DatasetError", "read_frame", "dataset_rules"),
    # statistics
    "stats.intervals": ("Estimate", "wilson"),
    "stats.groups": ("group_make_rates",),
    "stats.defence": ("defence_stats",),
    "stats.bidding": ("bidding_stats",),
    "stats.compare": ("compare_datasets",),
    # analysis
    "analysis.prospects": ("hand_prospects",),
    "analysis.match": ("play_match", "match_result"),
}
_WHERE = {name: module for module, names in _API.items() for name in names}

__all__ = sorted(_WHERE)


def __getattr__(name: str):
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'prefa_sim' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # loaded once
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
