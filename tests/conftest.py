"""Shared fixtures: one solver per test session (its kernels compile once)."""

import pytest

from prefa_sim.solver import Solver


@pytest.fixture(scope="session")
def solver() -> Solver:
    return Solver(table_bits=16)
