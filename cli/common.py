"""Helpers shared by the commands: the command class, seat options, batch answers and errors."""

from __future__ import annotations

import contextlib
import re
import sys
import traceback
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import click

from prefa_sim.core.cards import CardError, parse_card
from prefa_sim.core.seats import DEFAULT_DEALER, SeatError, check_dealer, check_seat_spec
from prefa_sim.util.jsonl import answer_line, numbered_lines
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
"""About how long the engine takes to compile on a first run: some 50 s in the README's
quickstart on two cores, 82-85 s for one worker on a busy machine (2026-12-07)."""


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


class Seat(click.ParamType):
    """A seat 0-2 or a role (``first``, ``second``, ``dealer``), placed later with the dealer."""

    name = "seat"

    def convert(self, value, param, ctx):
        try:
            return check_seat_spec(value)
        except SeatError as exc:
            self.fail(str(exc), param, ctx)


class SeatList(click.ParamType):
    """A comma-separated list of seats or roles, e.g. ``0,2`` or ``first,dealer``."""

    name = "seats"

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        items = [v for v in str(value).split(",") if v.strip()]
        if not items:
            self.fail(f"{value!r} names no seat", param, ctx)
        try:
            seats = tuple(check_seat_spec(v) for v in items)
        except SeatError as exc:
            self.fail(f"{value!r}: {exc}", param, ctx)
        if len(set(seats)) != len(seats):
            self.fail(f"{value!r} names a seat twice", param, ctx)
        return seats


SEAT = Seat()


class OutFolder(click.Path):
    """An output folder: not empty text, and not a file."""

    def __init__(self) -> None:
        super().__init__(file_okay=False)

    def convert(self, value, param, ctx):
        if not str(value).strip():
            self.fail("an output folder is needed", param, ctx)
        return super().convert(value, param, ctx)

MAX_DEALS = 10**12
"""The most deals a command takes: a trillion, far beyond any run, so that a number typed
wrong (thirty digits) is refused at once instead of starting a run that never ends."""


def deal_count(low: int = 1) -> click.IntRange:
    """A number of deals, ``low`` to ``MAX_DEALS``."""
    return click.IntRange(low, MAX_DEALS)
DEALER_HELP = ("The dealing seat, 0-2 (default 2, so that seat 0 is first hand); roles "
               "(first, second, dealer) are placed from it.")


class Dealer(click.ParamType):
    """The dealing seat: a number 0-2 (roles are placed from the dealer, so none names it)."""

    name = "0|1|2"

    def convert(self, value, param, ctx):
        try:
            return check_dealer(value)
        except SeatError as exc:
            self.fail(f"{exc} (first, second and dealer are placed from the dealer)", param,
                      ctx)


def dealer_option(default: int | None = DEFAULT_DEALER, help: str = DEALER_HELP):
    return click.option("--dealer", type=Dealer(), default=default,
                        show_default=default is not None, help=help)


def scheduler_options(what: str):
    """``--scheduler ADDRESS`` and ``--scheduler-timeout SECONDS`` for a run's chunks."""
    from prefa_sim.util.workers import DEFAULT_SCHEDULER_TIMEOUT

    def decorate(command):
        command = click.option(
            "--scheduler-timeout", type=click.FloatRange(min=0.1, max=3600),
            default=DEFAULT_SCHEDULER_TIMEOUT, show_default=True, metavar="SECONDS",
            help="How long to wait for the scheduler to answer before giving up.")(command)
        return click.option(
            "--scheduler", default=None, metavar="ADDRESS",
            help=f"{what} on this Dask distributed scheduler, tcp://HOST:PORT (OUT must be on "
                 "a file system its workers share; needs pip install 'prefa-sim[dask]').")(
            command)
    return decorate


def batch_option(what: str):
    return click.option("--batch", type=click.File("rb"), default=None,
                        help=f"{what} from FILE ('-' for standard input).")


def refuse_with_batch(names: Iterable[str]) -> None:
    """Options for one deal are refused beside --batch: each line carries its own."""
    ctx = click.get_current_context()
    given = [n for n in names
             if ctx.get_parameter_source(n) == click.core.ParameterSource.COMMANDLINE]
    if given:
        options = {p.name: p.opts[-1] for p in ctx.command.params}
        shown = ", ".join(options.get(n, n) for n in given)
        raise click.UsageError(f"{shown}: with --batch every line gives its own settings "
                               "(see the request fields)")


def run_json_batch(lines: Iterable[bytes], answer_fn: Callable[[Any], dict]) -> None:
    """Answer JSON Lines one by one on standard output, a blank line too (in its place);
    a bad line becomes an error object, the others go on, and the exit status is 1 at the
    end if any line was bad."""
    with user_errors():
        report_batch(answer_line(line, answer_fn)
                     for line in numbered_lines(lines, blanks=True))


def report_text_batch(blocks: Iterable[tuple[int, str]]) -> None:
    """``report_batch`` for answers that come as blocks of lines with their count of bad
    lines."""
    failed = 0
    for bad, text in blocks:
        sys.stdout.write(text)
        failed += bad
    sys.stdout.flush()
    _bad_lines(failed)


def report_batch(answers: Iterable[tuple[bool, str]]) -> None:
    """Print batch answers as they come; exit 1 at the end when a line was bad.

    Lines go straight to standard output: ``click.echo`` costs more per line than
    reading and checking a request."""
    failed = 0
    write = sys.stdout.write
    for ok, text in answers:
        write(text + "\n")
        failed += not ok
    sys.stdout.flush()
    _bad_lines(failed)


def _bad_lines(failed: int) -> None:
    """Say how many lines were bad, and exit 1, when any was."""
    if failed:
        name = click.get_current_context().command_path
        click.echo(f"{name}: {counted(failed, 'bad line')}, see their error objects", err=True)
        sys.exit(1)


def say_notes(notes: Iterable[str], machine: bool = False) -> None:
    """A summary's notes on its data (``simulate.dataset_notes``): after the tables on
    standard output, or on standard error when the output is for machines (CSV, JSON)."""
    for note in notes:
        click.echo(f"({note})", err=machine)


def format_options(help_suffix: str = ""):
    """``--format table|csv|json|markdown`` with the shorthands ``--json`` and ``--csv``
    (as ``prefa solve --json``), all setting one parameter, ``fmt``."""
    from prefa_sim.stats.output import FORMATS

    def decorate(command):
        command = click.option("--csv", "fmt", flag_value="csv", help="Same as --format csv.")(
            command)
        command = click.option("--json", "fmt", flag_value="json",
                               help="Same as --format json.")(command)
        return click.option("--format", "fmt", type=click.Choice(FORMATS), default="table",
                            show_default=True, help=f"Output format.{help_suffix}")(command)
    return decorate
