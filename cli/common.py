"""Helpers shared by the commands: the command classes, hands typed loosely, and errors."""

from __future__ import annotations

import contextlib
import re
import sys
import traceback
from collections.abc import Iterable, Iterator
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import click

from prefa_sim.core.cards import CardError, parse_card
from prefa_sim.util.words import counted
from prefa_sim.util.workers import WorkerDied

_VOID_FIRST_HAND = re.compile(r"^-(\.[^./\\\s]*){3}$")
"""A suit-grouped hand (or widow) whose first suit is void: ``-.AKQJ.AKQ.AKQ``."""


def hand_friendly(args: Iterable[str]) -> list[str]:
    """Arguments with a hand that starts with a void (``-.AKQJ.AKQ.AKQ``) written with an
    empty first group (``.AKQJ.AKQ.AKQ``, the same hand), so that it is not taken for an
    option; nothing after ``--`` is touched (Click reads it all as arguments)."""
    out = []
    args = list(args)
    for i, arg in enumerate(args):
        if arg == "--":
            return out + args[i:]
        out.append(arg[1:] if isinstance(arg, str) and _VOID_FIRST_HAND.match(arg) else arg)
    return out


EXCLUSIVE = ("--format", "--json", "--csv", "--markdown")
"""Options that each choose the output's form: at most one of them is given."""


def widow_as_one_word(args: list[str]) -> tuple[list[str], bool]:
    """``--widow 7S 8D`` (two words) read as the one word ``--widow 7S,8D``; and whether
    that was done, for a hint."""
    out, joined, i = [], False, 0
    while i < len(args):
        out.append(args[i])
        if args[i] == "--widow" and i + 2 < len(args) and _is_card(args[i + 1]) \
                and _is_card(args[i + 2]):
            out.append(f"{args[i + 1]},{args[i + 2]}")
            joined, i = True, i + 3
            continue
        i += 1
    return out, joined


def _is_card(token: str) -> bool:
    """Is ``token`` one card, as ``cards.parse_card`` reads cards?"""
    try:
        parse_card(token)
    except CardError:
        return False
    return True


def refuse_exclusive(args: list[str]) -> None:
    """Refuse two options that each choose the output's form (``--format json --csv``)."""
    used = []
    for arg in args:
        if arg == "--":
            break
        name = arg.split("=", 1)[0]
        if name in EXCLUSIVE and name not in used:
            used.append(name)
    if len(used) > 1:
        raise click.UsageError(f"{used[0]} and {used[1]} each choose the output's form: "
                               "give one of them, not both")


class PrefaCommand(click.Command):
    """A command that reads hands starting with a void as hands, not options, refuses two
    options that each choose the output's form, and reads ``--widow 7S 8D`` as
    ``--widow 7S,8D`` (with a hint)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        args = hand_friendly(args)
        refuse_exclusive(args)
        if any(p.name == "widow" for p in self.params):
            args, joined = widow_as_one_word(args)
            if joined:
                click.echo("prefa: --widow takes its two cards as one word, e.g. --widow "
                           "7S,8D; read so", err=True)
        return super().parse_args(ctx, args)


class PrefaGroup(click.Group):
    """The command group: Ctrl-C ends any command with status 130 and no traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("\ninterrupted", err=True)
            sys.exit(130)


COMPILE_SECONDS = 60
"""About how long the engine takes to compile on a first run: some 40 s in the README's
quickstart on two cores, 82-85 s for one worker on a busy machine (2026-12-07, 2026-12-08)."""


def say_if_compiling() -> None:
    """Before the first solve on a machine: say that the engine compiles, and for how long,
    so that a quiet first half minute is not taken for a hang."""
    from prefa_sim.engine.driver import compiled

    if not compiled():
        click.echo(f"compiling the engine (once, about {COMPILE_SECONDS} s)", err=True)


def solving_players(specs) -> bool:
    """Do any of the player specs solve positions (and so use the engine)?"""
    return any(name in spec for spec in specs for name in ("sampling", "oracle"))


def debugging() -> bool:
    """Was ``prefa --debug`` given?"""
    ctx = click.get_current_context(silent=True)
    return bool(ctx is not None and ctx.find_root().params.get("debug"))


def failure(exc: BaseException, message: str) -> click.ClickException:
    """The clean error for ``exc``; with ``prefa --debug`` its traceback is printed first
    (a worker's included)."""
    if debugging():
        traceback.print_exception(exc, file=sys.stderr)
    return click.ClickException(message)


@contextlib.contextmanager
def user_errors() -> Iterator[None]:
    """Report a library ``ValueError`` or an ``OSError`` as a clean command-line error
    (exit status 1).  A reader that stops reading (``| head``) is not an error to report:
    Click ends the command quietly."""
    try:
        yield
    except ValueError as exc:
        raise failure(exc, str(exc)) from None
    except BrokenPipeError:
        raise
    except OSError as exc:
        where = f" ({exc.filename})" if exc.filename else ""
        raise failure(exc, f"{exc.strerror or exc}{where}") from None
    except BrokenProcessPool as exc:
        raise failure(exc, f"{died(exc)}; the answers printed so far stand") from None


def died(exc: BrokenProcessPool) -> str:
    """What is known of a worker process that died: what it was doing when it said so
    (``workers.WorkerDied``), or the likely causes."""
    if isinstance(exc, WorkerDied):
        return str(exc)
    return "a worker process died (out of memory, or a player file that ended its process?)"


def say_notes(notes: Iterable[str], machine: bool = False) -> None:
    """A summary's notes on its data (``simulate.dataset_notes``): after the tables on
    standard output, or on standard error when the output is for machines (CSV, JSON)."""
    for note in notes:
        click.echo(f"({note})", err=machine)


def say_waiting(running: int) -> None:
    """What a first Ctrl-C does: the running jobs finish, a second Ctrl-C stops them."""
    click.echo(f"\nwaiting for {counted(running, 'job')} (Ctrl-C again to stop now)", err=True)
