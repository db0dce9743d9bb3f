"""Helpers shared by the commands: seat options and turning library errors into messages."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterable, Iterator

import click

from prefa_sim.batch import answer_json_line, numbered_lines


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


def run_json_batch(lines: Iterable[str], answer_fn: Callable[[dict], dict], command: str) -> None:
    """Answer JSON Lines one by one on standard output; a bad line becomes an error object,
    the others go on, and the exit status is 1 at the end if any line was bad."""
    failed = 0
    for number, text in numbered_lines(lines):
        ok, out = answer_json_line(number, text, answer_fn)
        click.echo(out)
        failed += not ok
    if failed:
        click.echo(f"prefa {command}: {failed} bad line(s), see their error objects", err=True)
        sys.exit(1)
