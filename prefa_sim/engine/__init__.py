"""Numba kernels of the double-dummy engine: ints and arrays only, no Python objects."""
