"""Option types and options shared by the commands: seats, the dealer, output folders,
deal counts, the Dask scheduler and the output format."""

from __future__ import annotations

import click

from prefa_sim.core.seats import DEFAULT_DEALER, SeatError, check_dealer, check_seat_spec


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


def check_where(ctx, param, value: str | None) -> str | None:
    """A ``--where`` filter: blank text is refused (it would keep every row unsaid)."""
    if value is not None and not value.strip():
        raise click.BadParameter("it is empty: leave --where out to keep every row")
    return value


RULES_HELP = ("The rules of the table (docs/rules.md §7.6): a preset (default, playelephant, "
              "guide, pagat) and/or name=value pairs, e.g. ten_nt=11,aces=each:25; "
              "prefa rules lists them.")


DATASET_RULES_HELP = ("The rules the dataset must have been made under (its own are read from "
                      "it; other rules are refused, naming what differs).")


class RulesText(click.ParamType):
    """Rules in their text form (``Rules.parse``): a bad name or value is named with the
    valid ones."""

    name = "rules"

    def convert(self, value, param, ctx):
        from prefa_sim.rules.variants import Rules, RulesError

        if isinstance(value, Rules):
            return value
        try:
            return Rules.parse(value)
        except RulesError as exc:
            self.fail(str(exc), param, ctx)


def rules_option(help: str = RULES_HELP):
    """``--rules RULES``: None when not given (the default rules, or a dataset's own)."""
    return click.option("--rules", type=RulesText(), default=None, metavar="RULES", help=help)


def rules_with_aliases(rules, **aliases):
    """``rules`` (None: the default) with the older flags of single rules applied, such as
    ``--last-contract fair`` and ``--kasa 31``; a flag that contradicts a rule ``--rules``
    sets otherwise than the default is a usage error naming both."""
    from prefa_sim.rules.variants import DEFAULT_RULES, RulesError

    base = DEFAULT_RULES if rules is None else rules
    out = base
    for name, value in aliases.items():
        if value is None:
            continue
        try:
            changed = out.with_values({name: value})
        except RulesError as exc:
            raise click.UsageError(str(exc)) from None
        if getattr(base, name) != getattr(DEFAULT_RULES, name) \
                and getattr(changed, name) != getattr(base, name):
            raise click.UsageError(f"--{name.replace('_', '-')} {value} contradicts --rules "
                                   f"{rules} ({name}={getattr(base, name)})")
        out = changed
    return out
