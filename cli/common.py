"""Helpers shared by the commands: seat options and turning library errors into messages."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import click


@contextlib.contextmanager
def user_errors() -> Iterator[None]:
    """Report a library ``ValueError`` as a clean command-line error (exit status 1)."""
    try:
        yield
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None


class SeatList(click.ParamType):
    """A comma-separated list of seats, e.g. ``0,2``."""

    name = "seats"

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        try:
            seats = tuple(sorted({int(v) for v in str(value).replace(" ", "").split(",") if v}))
        except ValueError:
            self.fail(f"{value!r} is not a comma-separated list of seats 0-2", param, ctx)
        if not seats or any(s not in (0, 1, 2) for s in seats):
            self.fail(f"{value!r} is not a comma-separated list of seats 0-2", param, ctx)
        return seats


SEAT = click.IntRange(0, 2)
