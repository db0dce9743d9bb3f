"""The ``rules`` field of a JSON request: text such as ``"ten_nt=11"`` or an object such
as ``{"ten_nt": "11"}`` (docs/rules.md §7.6)."""

from __future__ import annotations

from collections.abc import Mapping

from ..rules.variants import DEFAULT_RULES, LAST_CONTRACT_MODES, Rules, RulesError


def request_rules(obj: Mapping, default: Rules = DEFAULT_RULES) -> Rules:
    """The rules a request names, ``default`` (the command line's) when it names none.

    The older field ``last_contract`` is read as the rule of that name; given with
    ``rules`` it must agree with them.
    """
    value = obj.get("rules")
    try:
        if value is None:
            rules = default
        elif isinstance(value, str):
            rules = Rules.parse(value)
        elif isinstance(value, Mapping):
            rules = Rules.from_mapping(value)
        else:
            raise RulesError('must be text such as "ten_nt=11" or an object such as '
                             '{"ten_nt": "11"}')
    except RulesError as exc:
        raise RulesError(f"'rules': {exc}") from None
    if "last_contract" not in obj:
        return rules
    mode = obj["last_contract"]
    if mode not in LAST_CONTRACT_MODES:
        raise RulesError(f"'last_contract' must be one of {', '.join(LAST_CONTRACT_MODES)}, "
                         f"got {mode!r}")
    try:
        changed = rules.with_values({"last_contract": mode})
    except RulesError as exc:
        raise RulesError(f"'last_contract': {exc}") from None
    if value is not None and changed != rules:
        raise RulesError(f"'last_contract' {mode} contradicts 'rules' "
                         f"(last_contract={rules.last_contract})")
    return changed
