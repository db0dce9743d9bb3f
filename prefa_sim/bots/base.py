"""The player interface: one object decides for one seat at every decision point."""

from __future__ import annotations

import numpy as np

from ..rules.deal import Action
from ..solve.solver import Solver, worker_solver
from .observation import Observation


class PlayerError(ValueError):
    """A player that cannot be loaded, or that chose an action the rules do not allow."""


def error_text(exc: BaseException) -> str:
    """One line for an error of a player's code: its type and the start of its text (an
    error whose text cannot be made, whatever that raises, by its type alone)."""
    if isinstance(exc, SystemExit):
        return f"it called sys.exit({exc.code!r})"
    try:
        text = str(exc).splitlines()[0][:200] if str(exc) else ""
    except BaseException:  # noqa: BLE001 - an error that cannot print itself
        text = ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class Player:
    """Decides for a seat: calls, discard or solo, the contract (and the aces), the defence
    declarations, cards, claims and answers to claims.

    ``act`` receives the seat's ``Observation`` (never the deal itself) and a random
    generator of the deal's own stream, so that the same seed gives the same games
    whatever the number of workers; it returns one of ``observation.legal``.  A player
    keeps no memory between calls: everything it may know is in the observation.
    ``sees_all_cards`` players (the oracle) also get ``observation.all_cards``.
    """

    name = "player"
    sees_all_cards = False

    def act(self, observation: Observation, rng: np.random.Generator) -> Action:
        raise NotImplementedError


class RandomPlayer(Player):
    """Uniformly among the legal actions: a baseline and a fuzzer of the rules engine."""

    name = "random"

    def act(self, observation: Observation, rng: np.random.Generator) -> Action:
        return observation.legal[int(rng.integers(len(observation.legal)))]


class SolvingPlayer(Player):
    """A player that solves positions double-dummy, by default with the thread's own
    solver (``solver.worker_solver``), which the players of one table share."""

    def __init__(self, solver: Solver | None = None) -> None:
        self._solver = solver

    @property
    def solver(self) -> Solver:
        if self._solver is None:
            self._solver = worker_solver()
        return self._solver
