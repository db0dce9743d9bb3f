"""Score requests as JSON (``prefa score``): one deal's settlement, every field checked and
a wrong one named."""

from __future__ import annotations

from collections.abc import Mapping

from ..core.contracts import parse_contract
from ..rules.settlement import ROLES, SettlementError, defence_of, settle
from ..rules.variants import DEFAULT_RULES, Rules, RulesError
from ..util.jsonl import misspelt_field
from .rules import request_rules

SCORE_FIELDS = ("contract", "declarations", "tricks", "aces", "solo", "pot", "rules",
                "last_contract")
"""The fields a ``prefa score --batch`` request may set; others are echoed back."""


def settle_request(obj: Mapping, rules: Rules = DEFAULT_RULES) -> dict:
    """Settle a JSON request (see ``prefa score --batch``) and add its results.

    Every field is checked and a wrong one named: ``contract`` (text such as
    "7H"), ``declarations`` (a list of words), ``tricks`` (declarer, first and
    second to whole numbers 0-10), ``aces`` and ``solo`` (true or false), ``pot``
    (a whole number of kapíkia, 0 or more), ``rules`` (``requests.rules``; ``rules``
    when absent) and ``last_contract`` (one of the rules, kept as a field of its own).
    """
    if not isinstance(obj, Mapping):
        raise SettlementError("a request is a JSON object")
    misspelt = misspelt_field(obj, SCORE_FIELDS)
    if misspelt:
        raise SettlementError(misspelt)
    if not isinstance(obj.get("contract"), str):
        raise SettlementError("'contract' must be a contract such as \"7H\"")
    contract = parse_contract(obj["contract"])
    declarations = obj.get("declarations", [])
    if not isinstance(declarations, list) or not all(isinstance(d, str) for d in declarations):
        raise SettlementError("'declarations' must be a list such as [\"play\", \"pass\"]")
    tricks = obj.get("tricks")
    if tricks is not None and not isinstance(tricks, Mapping):
        raise SettlementError("'tricks' must map declarer, first, second to tricks")
    if tricks is not None and set(tricks) - set(ROLES):
        raise SettlementError(f"unknown role in 'tricks': {sorted(set(tricks) - set(ROLES))}")
    flags = {}
    for key in ("aces", "solo"):
        value = obj.get(key, False)
        if not isinstance(value, bool):
            raise SettlementError(f"'{key}' must be true or false")
        flags[key] = value
    pot = obj.get("pot", 1500)
    if not isinstance(pot, int) or isinstance(pot, bool) or pot < 0:
        raise SettlementError(f"'pot' must be a whole number of kapíkia, 0 or more, got {pot!r}")
    try:
        rules = request_rules(obj, rules)
    except RulesError as exc:
        raise SettlementError(str(exc)) from None
    if flags["solo"] and (declarations or tricks is not None):
        raise SettlementError("a solo is paid from its table at once: no declarations or "
                              "tricks with it")
    if not flags["solo"] and defence_of(declarations).players == () and tricks is not None \
            and dict(tricks) not in ({"declarer": 10}, {"declarer": 10, "first": 0,
                                                         "second": 0}):
        raise SettlementError("both defenders passed: no card is played and the declarer is "
                              "credited with all ten tricks; leave 'tricks' out")
    result = settle(contract, declarations, tricks, aces=flags["aces"], solo=flags["solo"],
                    pot=pot, rules=rules)
    stated = {} if rules.is_default or "rules" in obj else {"rules": str(rules)}
    return {**obj, **stated, "pot_delta": result.pot_delta, "net": result.net,
            "transfers": result.transfers,
            "result_thirds": {role: int(3 * v) for role, v in result.result.items()}}
