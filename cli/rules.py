"""``prefa rules``: the options of the game, their values and presets, or what a text of
rules means."""

from __future__ import annotations

import click

from prefa_sim.rules.variants import DEFAULT_RULES, PRESETS, RULE_NAMES, RULE_VALUES
from prefa_sim.util.jsonl import dumps

from .common import PrefaCommand
from .params import RulesText


@click.command(cls=PrefaCommand)
@click.argument("rules", type=RulesText(), required=False)
@click.option("--json", "as_json", is_flag=True, help="The rules as one JSON object.")
def rules(rules, as_json):
    """List the options of the game (docs/rules.md §7.6), or read RULES, e.g.

      prefa rules guide,ten_nt=11

    RULES is what --rules takes on every command: a preset and/or name=value pairs.
    """
    chosen = rules or DEFAULT_RULES
    if as_json:
        click.echo(dumps({"rules": str(chosen), **chosen.to_dict()}))
        return
    values = chosen.to_dict()
    defaults = DEFAULT_RULES.to_dict()
    click.echo(f"rules: {chosen}")
    width = max(map(len, RULE_NAMES))
    shown = {name: _text(values[name]) for name in RULE_NAMES}
    value_width = max(len("value"), *map(len, shown.values()))
    click.echo(f"{'option':<{width}}  {'value':<{value_width}}  meaning")
    for name in RULE_NAMES:
        mark = "" if values[name] == defaults[name] else "  (not the default)"
        click.echo(f"{name:<{width}}  {shown[name]:<{value_width}}  {RULE_VALUES[name]}{mark}")
    presets = ", ".join(name if preset.is_default else f"{name} ({preset})"
                        for name, preset in PRESETS.items())
    click.echo(f"presets: {presets}")


def _text(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
