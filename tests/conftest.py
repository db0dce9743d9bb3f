"""Shared fixtures: one solver per test session (its kernels compile once), and a cache
folder of the session's own."""

import os

import pytest

from prefa_sim.solve.solver import Solver


@pytest.fixture(scope="session")
def solver() -> Solver:
    return Solver(table_bits=16)


@pytest.fixture(scope="session", autouse=True)
def cache_folder(tmp_path_factory):
    """The 2-hand endgame table is built once in a folder of the session's own (the
    commands the tests run read it there too), never in the user's cache folder."""
    folder = tmp_path_factory.mktemp("cache")
    os.environ["PREFA_SIM_CACHE_DIR"] = str(folder)
    return folder
