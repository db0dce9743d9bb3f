"""prefa-sim: double-dummy solver, simulator and statistics for Greek prefa."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("prefa-sim")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0.0.0"
