"""Settlement of one deal with the common pot (docs/rules.md §6), as a pure function.

Roles: ``declarer``, ``first`` (the first defender, the declarer's right-hand
neighbour, who speaks first) and ``second``.  Money is in whole kapíkia.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..core.contracts import Contract
from .variants import DEFAULT_RULES, Rules

ROLES = ("declarer", "first", "second")
DEFENDERS = ("first", "second")

# Tricks credited by a solo concession, by level: (declarer, first, second).
SOLO_TRICKS = {6: (4, 3, 3), 7: (5, 3, 2), 8: (6, 2, 2), 9: (7, 2, 1), 10: (8, 1, 1)}


class SettlementError(ValueError):
    """A deal outcome that cannot be settled (impossible calls or trick counts)."""


@dataclass(frozen=True)
class Defence:
    """Who plays against the declarer and on whose account.

    ``players``: the defenders whose cards are in play.  ``caller``: under
    "together", the defender who bears the brought-in partner's result (else None).
    """

    players: tuple[str, ...]
    caller: str | None = None

    @property
    def partner(self) -> str | None:
        """The brought-in partner under "together"."""
        if self.caller is None:
            return None
        return "second" if self.caller == "first" else "first"


# The seven legal declaration sequences of docs/rules.md §4 (first defender, second, first again).
DEFENCES: dict[tuple[str, ...], Defence] = {
    ("play", "play"): Defence(("first", "second")),
    ("play", "pass", "together"): Defence(("first", "second"), caller="first"),
    ("play", "pass", "alone"): Defence(("first",)),
    ("pass", "together"): Defence(("first", "second"), caller="second"),
    ("pass", "play", "together"): Defence(("first", "second"), caller="first"),
    ("pass", "play", "pass"): Defence(("second",)),
    ("pass", "pass"): Defence(()),
}


def defence_of(declarations: Sequence[str]) -> Defence:
    """The defence for a sequence of declarations, or ``SettlementError``."""
    key = tuple(d.strip().lower() for d in declarations)
    if key not in DEFENCES:
        legal = "; ".join(" ".join(k) for k in DEFENCES)
        raise SettlementError(f"declarations {' '.join(key) or '(none)'} are not a legal "
                              f"sequence (legal: {legal})")
    return DEFENCES[key]


@dataclass(frozen=True)
class Settlement:
    """What one deal moves: into the pot, and between the players."""

    pot_delta: int
    """Kapíkia added to the pot (negative when the declarer takes from it)."""
    transfers: dict[str, int]
    """Kapíkia each role receives from the others (aces included); they sum to zero."""

    @property
    def net(self) -> dict[str, int]:
        """Each role's change, a pot withdrawal counting as the declarer's gain."""
        net = dict(self.transfers)
        net["declarer"] -= self.pot_delta
        return net

    @property
    def result(self) -> dict[str, Fraction]:
        """Each role's change of result (docs/rules.md §6.12) were the game to end after
        this deal: the payments between players, what the declarer took from the pot, and
        a third of the pot's change each (the pot left is shared in thirds).  The three
        sum to zero, so what one player gains the others lose: the measure the statistics
        and the players use."""
        share = Fraction(self.pot_delta, 3)
        result = {role: self.transfers[role] + share for role in ROLES}
        result["declarer"] -= self.pot_delta
        return result


def trick_value(contract: Contract, pot: int, rules: Rules, anyone_down: bool,
                aces: bool = False) -> int:
    """``v`` for this deal: the rules' value (§6.2, 10NT and the raising aces of §7.6),
    reduced to ``floor(pot / 10)`` for the last contract.

    "normal": reduced whenever the pot holds less than ``10 v``; "unbalanced":
    reduced only when nobody goes down; "fair" and the personal kása: never reduced.
    """
    v = rules.trick_value(contract, aces)
    mode = rules.last_contract
    if rules.kasa:
        return v
    if pot < 10 * v and (mode == "normal" or mode == "unbalanced" and not anyone_down):
        return max(pot, 0) // 10
    return v


def settle(contract: Contract, declarations: Sequence[str] = (),
           tricks: Mapping[str, int] | None = None, *, aces: bool = False, solo: bool = False,
           pot: int = 1500, rules: Rules = DEFAULT_RULES) -> Settlement:
    """Settle one deal (docs/rules.md §6) under ``rules``.

    ``tricks`` maps ``declarer``, ``first`` and ``second`` to the tricks each
    took; a seat out of play may be left out.  With ``solo`` the declarations and
    tricks are ignored (the solo table credits the tricks); with both defenders
    passing no tricks are needed.
    """
    if not rules.allows(contract):
        raise SettlementError(f"{contract} is not allowed under these rules (ten_nt=off)")
    if solo:
        if aces:
            raise SettlementError("no aces can be announced with a solo")
        d, f, s = SOLO_TRICKS[contract.level]
        return _settle_play(contract, Defence(DEFENDERS), {"declarer": d, "first": f,
                                                           "second": s}, False, pot, rules)
    defence = defence_of(declarations)
    if not defence.players:
        v = trick_value(contract, pot, rules, anyone_down=False, aces=aces)
        amount = rules.ace_payment(contract.level)
        payments = [("first", "declarer", amount),
                    ("second", "declarer", amount)] if aces else []
        return Settlement(-10 * v, _totals(payments))
    return _settle_play(contract, defence, _check_tricks(tricks, defence), aces, pot, rules)


def declarer_result(contract: Contract, declarations: Sequence[str], tricks: int, *,
                    aces: bool = False, pot: int = 1500,
                    rules: Rules = DEFAULT_RULES) -> Fraction:
    """The declarer's change of result (``Settlement.result``) taking ``tricks`` against
    the defenders who play after ``declarations`` (credited with all ten when both pass).
    How the defenders share the rest does not change it."""
    players = defence_of(declarations).players
    share = {"declarer": tricks, players[0]: 10 - tricks} if players else None
    return settle(contract, declarations, share, aces=aces, pot=pot,
                  rules=rules).result["declarer"]


def _check_tricks(tricks: Mapping[str, int] | None, defence: Defence) -> dict[str, int]:
    if tricks is None:
        raise SettlementError("tricks are needed when a defender plays")
    playing = ("declarer", *defence.players)
    out = {}
    for role in ROLES:
        n = tricks.get(role, 0)
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 10:
            raise SettlementError(f"'tricks' of {role} must be a whole number 0-10, got {n!r}")
        if role not in playing and n:
            raise SettlementError(f"the {role} defender did not play but took {n} tricks")
        out[role] = n
    if sum(out.values()) != 10:
        raise SettlementError(f"tricks add up to {sum(out.values())}, expected 10")
    return out


def _settle_play(contract: Contract, defence: Defence, tricks: dict[str, int], aces: bool,
                 pot: int, rules: Rules) -> Settlement:
    level = contract.level
    declarer_tricks = tricks["declarer"]
    first_quota, second_quota, lone_quota = rules.quotas(level)
    quota = {"first": first_quota, "second": second_quota}
    payments: list[tuple[str, str, int]] = []  # (payer, payee, kapíkia)
    if declarer_tricks < level:  # the declarer goes down
        factor = 1 if declarer_tricks == level - 1 else 2
        v = trick_value(contract, pot, rules, anyone_down=True, aces=aces)
        pot_delta = 10 * v * factor
        for role in defence.players:
            payments.append(("declarer", role, tricks[role] * v * factor))
    else:
        if len(defence.players) == 2:
            short = {r: _shortfall(r, tricks, quota) for r in DEFENDERS}
        else:
            (lone,) = defence.players
            short = {lone: max(0, lone_quota - tricks[lone])}
        if not any(short.values()):  # made
            v = trick_value(contract, pot, rules, anyone_down=False, aces=aces)
            pot_delta = -10 * v
            for role in defence.players:
                payments.append(("declarer", role, tricks[role] * v))
        else:  # the defence goes down: the pot does not change
            v = trick_value(contract, pot, rules, anyone_down=True, aces=aces)
            pot_delta = 0
            for role, n in short.items():
                if not n:
                    continue
                payments.append((role, "declarer", declarer_tricks * v * (2 if n >= 2 else 1)))
                partner = "second" if role == "first" else "first"
                if partner in short and not short[partner]:
                    payments.append((role, partner, tricks[partner] * v))
    if defence.caller is not None:
        payments = [(_account(p, defence), _account(q, defence), k) for p, q, k in payments]
    amount = rules.ace_payment(level) if aces else 0  # nothing under aces=raise
    if amount:  # personal, never doubled or reduced, not redirected under "together"
        for role in DEFENDERS:
            if declarer_tricks < level:
                payments.append(("declarer", role, amount))
            else:
                payments.append((role, "declarer", amount))
    return Settlement(pot_delta, _totals(payments))


def _shortfall(role: str, tricks: Mapping[str, int], quota: Mapping[str, int]) -> int:
    """Tricks ``role`` lacks after adding the partner's surplus."""
    partner = "second" if role == "first" else "first"
    surplus = max(0, tricks[partner] - quota[partner])
    return max(0, quota[role] - tricks[role] - surplus)


def _account(role: str, defence: Defence) -> str:
    return defence.caller if role == defence.partner else role


def _totals(payments: list[tuple[str, str, int]]) -> dict[str, int]:
    totals = dict.fromkeys(ROLES, 0)
    for payer, payee, amount in payments:
        if payer != payee:
            totals[payer] -= amount
            totals[payee] += amount
    return totals
