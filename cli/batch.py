"""Batch answering shared by ``solve``, ``auction`` and ``score --batch``: one answer line
per input line, bad lines as error objects, and the exit status."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import Any

import click

from prefa_sim.util.jsonl import answer_line, numbered_lines
from prefa_sim.util.words import counted

from .common import user_errors


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
