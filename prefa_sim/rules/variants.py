"""The rules a table plays by, as one value: ``Rules`` (docs/rules.md §7.6).

Every option of the game is a field; ``Rules()`` is the default game of
docs/rules.md §1-§6.  The text form is a comma-separated list of ``name=value``
pairs, optionally after a preset name, and round-trips::

    >>> rules = Rules.parse("ten_nt=11,aces=each:25")
    >>> str(rules)
    'ten_nt=11,aces=each:25'
    >>> Rules.parse(str(rules)) == rules
    True

Only the fields that differ from the defaults are written, so ``str(Rules())`` is
``default``.  ``from_mapping`` reads the same fields from a TOML table or a JSON
object, where values may also be booleans and numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace

from ..core.cards import Strain
from ..core.contracts import LADDER, Contract, best_contract

LAST_CONTRACT_MODES = ("normal", "unbalanced", "fair")
TEN_NT_RULES = ("10", "11", "off")
FIRST_DEAL_RULES = ("dealer", "7d8d", "7d")
ACES_RULES = ("bonus", "raise", "each")
YES = ("yes", "true", "on", "1")
NO = ("no", "false", "off", "0")
MAX_KASA = 10_000
MAX_ACES_AMOUNT = 10_000


class RulesError(ValueError):
    """A rule name or value that does not exist, or options that contradict each other."""


@dataclass(frozen=True)
class Rules:
    """The options of the game; the defaults are the rules of docs/rules.md §1-§6."""

    last_contract: str = "normal"
    """How a pot smaller than the contract pays (§6.11): normal, unbalanced or fair."""
    kasa: int = 0
    """0: the common pot (§6); N: a personal kása of N units each (§7)."""
    ten_nt: str = "10"
    """10NT worth 10 (``10``), worth 11 (``11``), or not allowed (``off``)."""
    ten_as_nine: bool = False
    """The defenders of a 10 have the quotas of a 9."""
    aces: str = "bonus"
    """"And the aces": the bonus of §6.10 (``bonus``), the contract's value raised by
    ``aces_amount`` (``raise``), or ``aces_amount`` kapíkia from or to every player
    (``each``)."""
    aces_amount: int = 0
    """The amount of the ``raise`` and ``each`` aces rules (0 with ``bonus``)."""
    overtrump: bool = False
    """No under-trumping: a player void in the suit led must beat a trump already on the
    trick when they can (``Position.overtrump``)."""
    first_deal: str = "dealer"
    """Who deals a game's first deal: the dealer named (``dealer``), or the seat before
    the holder of the 7 of diamonds, who speaks first (``7d8d``: the 8 when the 7 is in the
    widow; ``7d``: the cards dealt again instead; ``game.first_dealer``)."""

    def __post_init__(self) -> None:
        _check_choice("last_contract", self.last_contract, LAST_CONTRACT_MODES)
        _check_choice("ten_nt", self.ten_nt, TEN_NT_RULES)
        _check_choice("aces", self.aces, ACES_RULES)
        _check_choice("first_deal", self.first_deal, FIRST_DEAL_RULES)
        for name, value, high in (("kasa", self.kasa, MAX_KASA),
                                  ("aces_amount", self.aces_amount, MAX_ACES_AMOUNT)):
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= high:
                raise RulesError(f"rule {name} must be a whole number 0-{high}, got {value!r}")
        for name in ("ten_as_nine", "overtrump"):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"rule {name} must be yes or no, got {getattr(self, name)!r}")
        if self.kasa and self.last_contract != "normal":
            raise RulesError(f"last_contract={self.last_contract} contradicts kasa={self.kasa}: "
                             "the last contract is a rule of the common pot, and a personal "
                             "kása never reduces the trick value")
        if self.aces == "bonus" and self.aces_amount:
            raise RulesError("aces=bonus has no amount (the bonus is 25 at level 6 and 50 "
                             "above); say aces=raise:N or aces=each:N")
        if self.aces != "bonus" and not self.aces_amount:
            raise RulesError(f"aces={self.aces} needs an amount above 0, e.g. "
                             f"aces={self.aces}:{4 if self.aces == 'raise' else 25}")

    # -- the text form -------------------------------------------------------------
    @classmethod
    def parse(cls, text: str) -> Rules:
        """Rules from their text form: ``[PRESET,]name=value,...`` (``default`` alone is
        the default rules)."""
        items = [item.strip() for item in str(text).split(",") if item.strip()]
        if not items:
            raise RulesError("no rules given (say default, a preset "
                             f"({', '.join(PRESETS)}) or name=value pairs)")
        base = DEFAULT_RULES
        if "=" not in items[0]:
            name = items.pop(0).lower()
            if name.replace("-", "_") in RULE_NAMES:
                raise RulesError(f"rule {name} needs a value: {name}=VALUE")
            if name not in PRESETS:
                raise RulesError(f"unknown preset {name!r} (presets: {', '.join(PRESETS)}; "
                                 "or give name=value pairs)")
            base = PRESETS[name]
        values: dict[str, str] = {}
        for item in items:
            name, sep, value = item.partition("=")
            name = name.strip().lower().replace("-", "_")
            if not sep:
                raise RulesError(f"{item!r} is not name=value (a preset comes first)")
            if name in values or name == "aces_amount":
                raise RulesError(f"rule {name} is given twice" if name in values else
                                 "give the amount with the aces rule: aces=raise:N or "
                                 "aces=each:N")
            values[name] = value.strip()
        return base.with_values(values)

    def with_values(self, values: Mapping[str, object]) -> Rules:
        """These rules with some fields changed; values as text, booleans or numbers."""
        changes: dict[str, object] = {}
        for name, value in values.items():
            key = str(name).strip().lower().replace("-", "_")
            if key == "aces":
                changes.update(_aces_value(value))
            elif key in _FIELD_NAMES and key != "aces_amount":
                changes[key] = _field_value(key, value)
            else:
                raise RulesError(f"unknown rule {name!r} (rules: {', '.join(RULE_NAMES)})")
        return replace(self, **changes)

    @classmethod
    def from_mapping(cls, values: Mapping[str, object]) -> Rules:
        """Rules from a TOML table or a JSON object; ``preset`` names the base."""
        values = dict(values)
        preset = values.pop("preset", "default")
        if not isinstance(preset, str) or preset.lower() not in PRESETS:
            raise RulesError(f"unknown preset {preset!r} (presets: {', '.join(PRESETS)})")
        return PRESETS[preset.lower()].with_values(values)

    def __str__(self) -> str:
        parts = []
        for name in RULE_NAMES:
            value = _text_value(self, name)
            if value != _text_value(DEFAULT_RULES, name):
                parts.append(f"{name}={value}")
        return ",".join(parts) or "default"

    def to_dict(self) -> dict[str, object]:
        """Every field, as JSON-ready values (``from_mapping`` reads it back)."""
        out: dict[str, object] = {name: _text_value(self, name) for name in RULE_NAMES}
        out["kasa"] = self.kasa
        out["ten_as_nine"] = self.ten_as_nine
        out["overtrump"] = self.overtrump
        return out

    @property
    def is_default(self) -> bool:
        return self == DEFAULT_RULES

    def differences(self, other: Rules) -> list[str]:
        """The rules in which ``other`` differs from these, as ``name=this/other``."""
        return [f"{name}={_text_value(self, name)} against {_text_value(other, name)}"
                for name in RULE_NAMES if _text_value(self, name) != _text_value(other, name)]

    # -- what the rules decide -----------------------------------------------------
    @property
    def ladder(self) -> tuple[Contract, ...]:
        """The steps of the auction, 6S up to 10NT (10H when ``ten_nt=off``)."""
        return LADDER[:-1] if self.ten_nt == "off" else LADDER

    def allows(self, contract: Contract) -> bool:
        """Is ``contract`` a step of the ladder under these rules?"""
        return contract.step < len(self.ladder)

    def best_contract(self, tricks: Mapping[Strain, int],
                      minimum: Contract = LADDER[0]) -> Contract | None:
        """``contracts.best_contract`` on these rules' ladder and trick values."""
        return best_contract(tricks, minimum, self.ladder, self.trick_value)

    def trick_value(self, contract: Contract, aces: bool = False) -> int:
        """``v`` for ``contract`` (raised by the aces under ``aces=raise``), before any
        reduction for the last contract."""
        v = 11 if contract.level == 10 and contract.strain == Strain.NT and self.ten_nt == "11" \
            else contract.trick_value
        return v + self.aces_amount if aces and self.aces == "raise" else v

    def quotas(self, level: int) -> tuple[int, int, int]:
        """Tricks the defence must take at ``level``: (first, second, lone defender)."""
        if level == 10 and self.ten_as_nine:
            level = 9
        return QUOTAS[level]

    def ace_payment(self, level: int) -> int:
        """What each player pays or receives for "and the aces" (0 under ``raise``)."""
        if self.aces == "raise":
            return 0
        if self.aces == "each":
            return self.aces_amount
        return 25 if level == 6 else 50

    @property
    def money(self) -> str:
        """How the game is scored, in words: ``common pot`` or ``personal kása of N``."""
        return f"personal kása of {self.kasa}" if self.kasa else "common pot"


# Tricks the defence must take, by level: (first, second, lone defender) (§4.4).
QUOTAS = {6: (2, 2, 2), 7: (2, 1, 2), 8: (1, 1, 1), 9: (1, 0, 1), 10: (0, 0, 0)}

RULE_NAMES = ("last_contract", "kasa", "ten_nt", "ten_as_nine", "aces", "overtrump",
              "first_deal")
"""The names of the text form, in the order it writes them."""
RULE_VALUES = {
    "last_contract": "normal, unbalanced or fair: how a pot smaller than the contract pays",
    "kasa": "0 for the common pot, or the units of a personal kása each",
    "ten_nt": "10, 11 or off: 10NT worth 10, worth 11, or not allowed",
    "ten_as_nine": "yes or no: the defenders of a 10 have the quotas of a 9",
    "aces": "bonus, raise:N or each:N: the bonus, v raised by N, or N from each player",
    "overtrump": "yes or no: no under-trumping (beat a trump on the trick when void)",
    "first_deal": "dealer, 7d8d or 7d: the first dealer named, or by the 7 of diamonds",
}
"""What each option's values mean, for help texts (docs/rules.md §7.6)."""
_FIELD_NAMES = {f.name for f in fields(Rules)}

def parse_rules(text: str | None) -> Rules:
    """``Rules.parse``, with None for the default rules."""
    return DEFAULT_RULES if text is None else Rules.parse(text)


def _check_choice(name: str, value: object, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise RulesError(f"rule {name} cannot be {value!r} (valid: {', '.join(choices)})")


def _field_value(name: str, value: object) -> object:
    if name in ("ten_as_nine", "overtrump"):
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in YES or text in NO:
            return text in YES
        raise RulesError(f"rule {name} cannot be {value!r} (valid: yes, no)")
    if name == "kasa":
        if isinstance(value, bool):
            raise RulesError(f"rule kasa must be a whole number 0-{MAX_KASA}, got {value!r}")
        text = str(value).strip().lower()
        if text in ("pot", "no", "off"):
            return 0
        try:
            return int(text)
        except ValueError:
            raise RulesError(f"rule kasa must be a whole number 0-{MAX_KASA} (0: the common "
                             f"pot), got {value!r}") from None
    text = str(value).strip().lower()
    if name == "ten_nt" and isinstance(value, bool) and not value:
        return "off"
    return text


def _aces_value(value: object) -> dict[str, object]:
    kind, sep, amount = str(value).strip().lower().partition(":")
    _check_choice("aces", kind, ACES_RULES)
    if kind == "bonus":
        if sep:
            raise RulesError("aces=bonus has no amount (the bonus is 25 at level 6 and 50 "
                             "above)")
        return {"aces": kind, "aces_amount": 0}
    try:
        number = int(amount)
    except ValueError:
        raise RulesError(f"aces={kind} needs a whole number of "
                         f"{'units' if kind == 'raise' else 'kapíkia'} after a colon, e.g. "
                         f"aces={kind}:{4 if kind == 'raise' else 25}; got {value!r}") from None
    return {"aces": kind, "aces_amount": number}


def _text_value(rules: Rules, name: str) -> str:
    value = getattr(rules, name)
    if name == "aces":
        return value if value == "bonus" else f"{value}:{rules.aces_amount}"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


DEFAULT_RULES = Rules()
PRESETS: dict[str, Rules] = {
    "default": DEFAULT_RULES,
    "playelephant": DEFAULT_RULES,
    "guide": Rules(kasa=40, aces="each", aces_amount=40),
    "pagat": Rules(kasa=31),
}
"""Named tables: ``default`` and ``playelephant``, the common pot of §6 as the public
server plays it; ``guide``, the Greek player's guide (a personal kása of 40, the aces
worth as many kapíkia as the kása has units from every player); ``pagat``, the
Russian text's own examples (a personal kása of 31)."""
