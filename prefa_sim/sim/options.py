"""A new run's configuration from the words of a command line (``prefa simulate``): the
scenario file and its overrides, the seed, the seats, strains and defence modes studied,
or the deals to replay."""

from __future__ import annotations

import secrets
import tomllib
from collections.abc import Sequence

import numpy as np

from ..core.cards import Strain
from ..core.seats import DEFAULT_DEALER, SeatError, seats_of
from ..dealing.scenario import load_scenario, parse_scenario, with_overrides
from ..rules.variants import DEFAULT_RULES, Rules
from ..solve.tables import MODES
from .config import RunConfig, RunError
from .replay import replay_rows


class OptionError(RunError):
    """An option whose value cannot make a run; ``option`` names it (``--strains``)."""

    def __init__(self, message: str, option: str) -> None:
        super().__init__(message)
        self.option = option


def studied_names(value: str, allowed: tuple[str, ...], what: str) -> tuple[str, ...]:
    """A comma-separated list of strains or modes (``what``), in the order of ``allowed``."""
    items = tuple(v.strip().upper() if what == "strain" else v.strip().lower()
                  for v in value.split(",") if v.strip())
    bad = [v for v in items if v not in allowed]
    if len(set(items)) != len(items):
        raise OptionError(f"{value!r} names a {what} twice", f"--{what}s")
    if bad or not items:
        raise OptionError(f"{', '.join(bad) or value!r}: expected a comma-separated list of "
                          f"{', '.join(allowed)}", f"--{what}s")
    return tuple(v for v in allowed if v in items)


def declaring_seats(declarers: Sequence[int | str], dealers: set[int]) -> tuple[int, ...]:
    """Seats from ``--declarers``; roles (first, second, dealer) need one dealer for the
    whole run."""
    if any(isinstance(d, str) for d in declarers) and len(dealers) != 1:
        raise SeatError("the replayed deals have different dealers, so roles (first, second, "
                        "dealer) name no fixed seat: give seat numbers")
    seats = seats_of(declarers, next(iter(dealers)))
    if len(seats) != len(declarers):
        raise SeatError(f"{','.join(map(str, declarers))} names a seat twice")
    return seats


def check_replay_alone(scenario: str | None, overridden: bool, seed: int | None) -> None:
    """Replayed deals come from their file: no scenario, overrides or seed beside them."""
    if scenario is not None or overridden or seed is not None:
        raise OptionError("--replay takes its deals from the file: no SCENARIO, --seed, "
                          "--dealer, --fixed or --constraint", "--replay")


def new_run_config(scenario: str | None = None, dealer: int | None = None,
                   fixed: Sequence[str] = (), constraints: Sequence[str] = (),
                   deals: int = 2500, seed: int | None = None,
                   declarers: Sequence[int | str] | None = None, strains: str = "S,C,D,H,NT",
                   modes: str = "both,first,second", chunk_size: int = 25,
                   replayed: np.ndarray | None = None, rules: Rules | None = None) -> RunConfig:
    """The configuration of a new run.

    ``scenario`` is a TOML file's path; ``dealer``, ``fixed`` (``HAND=CARDS``) and
    ``constraints`` override it.  Without ``seed``: seed 1 for the built-in random
    deals, a fresh one otherwise (0 for a replay).  A scenario that fixes cards of a
    hand studies that hand: without ``declarers`` they are the seats of the fixed hands
    (else all three).  ``replayed``: deals to solve instead (``replay.read_replay``
    rows), which carry their own dealers.  ``rules``: the command line's, which must agree
    with the scenario's ``[rules]`` where both are given.  Raises ``ScenarioError``,
    ``OptionError`` (naming the option) or ``RunError``.
    """
    overridden = dealer is not None or bool(fixed) or bool(constraints)
    if replayed is not None:
        check_replay_alone(scenario, overridden, seed)
    digest = ""
    if replayed is not None:
        _, digest = replay_rows(replayed)
        deals = len(replayed)
        dealers = {int(d) for d in replayed[:, 4]}
    builtin = scenario is None and seed is None and not overridden and replayed is None
    if seed is None:
        seed = 1 if builtin else 0 if replayed is not None else secrets.randbits(32)
    data, text = {}, ""
    if scenario is not None:
        _, text = load_scenario(scenario)  # checks the file, names what is wrong
        data = tomllib.loads(text)
    if overridden:
        data = with_overrides(data, dealer, fixed, constraints)
        parse_scenario(data, "the command line")
    if replayed is None:
        dealers = {data.get("dealer", DEFAULT_DEALER)}
        studied = parse_scenario(data).fixed_seats() if data else ()
        if declarers is None:
            declarers = studied or (0, 1, 2)
    try:
        seats = declaring_seats((0, 1, 2) if declarers is None else declarers, dealers)
    except SeatError as exc:
        raise OptionError(str(exc), "--declarers") from None
    return RunConfig(deals=deals, seed=seed, chunk_size=chunk_size, declarers=seats,
                     strains=studied_names(strains, tuple(s.name for s in Strain), "strain"),
                     modes=studied_names(modes, MODES, "mode"), scenario=data,
                     scenario_text=text, replay=digest, rules=str(run_rules(data, rules)))


def run_rules(scenario: dict, given: Rules | None) -> Rules:
    """The rules of a run: the scenario's ``[rules]`` or the command line's ``--rules``;
    both given, they must be the same (an ``OptionError`` names the rules that differ)."""
    own = parse_scenario(scenario).rules if "rules" in scenario else None
    if own is not None and given is not None and own != given:
        raise OptionError(f"--rules {given} contradicts the scenario's [rules] ({own}): "
                          f"{'; '.join(own.differences(given))}", "--rules")
    rules = given or own or DEFAULT_RULES
    if rules.first_deal != "dealer":
        raise OptionError(f"first_deal={rules.first_deal} chooses the dealer of a game's first "
                          "deal: the deals of a simulation have the scenario's dealer",
                          "--rules")
    return rules
