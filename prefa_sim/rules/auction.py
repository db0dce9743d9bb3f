"""The auction (docs/rules.md §2): the 25-step ladder, holds, "if they stay", the declarer.

Inside the auction, players are counted from first hand: 0 is first hand (the
dealer's right-hand neighbour), 1 second hand, 2 the dealer; with the default
dealer (seat 2) these are also the seat numbers.  Calls are tokens:
``pass``, ``hold`` ("I have": take the same step), ``stay`` ("if they stay")
and a step name (``6S`` … ``10NT``) for a raise, which is always exactly the
next step.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from ..core.contracts import LADDER, Contract, ContractError, parse_contract
from ..core.seats import POSITION_NAMES, POSITIONS
from .exact import exact_match

CallKind = Literal["pass", "hold", "stay", "raise"]

FIRST_HAND, SECOND_HAND, DEALER = 0, 1, 2
OPENING_DECLARATIONS = 3
"""The first three declarations (passes and "if they stay" included) can only raise."""


class AuctionError(ValueError):
    """A call that is not legal at this point of the auction."""


@dataclass(frozen=True)
class Call:
    """One declaration: its kind, and the step for a raise."""

    kind: CallKind
    contract: Contract | None = None

    def __str__(self) -> str:
        return str(self.contract) if self.kind == "raise" else self.kind


PASS = Call("pass")
HOLD = Call("hold")
STAY = Call("stay")


def parse_call(token: str) -> Call:
    """Parse a call token: ``pass``, ``hold``, ``stay`` or a step such as ``6S``."""
    text = token.strip().lower()
    if text in ("pass", "hold", "stay"):
        return Call(text)  # type: ignore[arg-type]
    try:
        return Call("raise", parse_contract(text))
    except ContractError:
        raise AuctionError(f"unknown call {token!r} (expected pass, hold, stay or a step "
                           "such as 6S)") from None


@dataclass
class Auction:
    """The state of one auction; ``apply`` checks each call against the rules."""

    calls: list[tuple[int, Call]] = field(default_factory=list)
    passed: set[int] = field(default_factory=set)
    stay_seat: int | None = None
    high_step: int = -1
    high_seat: int | None = None
    last_kind: CallKind | None = None  # the last raise or hold ("pass" never changes it)
    to_speak: int | None = FIRST_HAND
    void: bool = False
    ladder: tuple[Contract, ...] = LADDER
    """The steps of the ladder (``Rules.ladder``: without 10NT when the rules say so)."""

    # -- the state -----------------------------------------------------------------
    @property
    def complete(self) -> bool:
        """Has the auction ended (with a declarer or void)?"""
        return self.to_speak is None

    @property
    def declarer(self) -> int | None:
        """The declarer once the auction is complete and not void."""
        if not self.complete or self.void:
            return None
        return self.high_seat if self.high_seat is not None else self.stay_seat

    @property
    def min_contract(self) -> Contract | None:
        """The lowest contract the declarer may name (6S after "if they stay")."""
        if self.declarer is None:
            return None
        return self.ladder[max(self.high_step, 0)]

    def legal_calls(self) -> list[Call]:
        """The calls the seat to speak may make, pass first."""
        if self.complete:
            return []
        seat = self.to_speak
        legal = [PASS]
        opening = len(self.calls) < OPENING_DECLARATIONS
        if (self.high_step < 0 and self.stay_seat is None
                and (seat == FIRST_HAND and not self.calls
                     or seat == SECOND_HAND and self.calls == [(FIRST_HAND, PASS)])):
            legal.append(STAY)
        if not opening and self.last_kind == "raise" and self.high_seat != seat:
            legal.append(HOLD)
        elif self.high_step + 1 < len(self.ladder) and (opening or self.last_kind != "raise"):
            legal.append(Call("raise", self.ladder[self.high_step + 1]))
        return legal

    # -- moves ---------------------------------------------------------------------
    def apply(self, call: Call | str) -> None:
        """Make the next call; an illegal call raises ``AuctionError`` and changes nothing."""
        if isinstance(call, str):
            call = parse_call(call)
        if self.complete:
            raise AuctionError(f"the auction is over: no call {call} is possible")
        seat = self.to_speak
        legal = self.legal_calls()
        match = exact_match(call, legal)
        if match is None:
            options = ", ".join(str(c) for c in legal)
            who = POSITION_NAMES[POSITIONS[seat]]
            raise AuctionError(f"{call} is not legal for {who} now (legal: {options})")
        call = match  # the auction's own object, compared by exact type and value
        self.calls.append((seat, call))
        if call.kind == "pass":
            self.passed.add(seat)
        elif call.kind == "stay":
            self.stay_seat = seat
        else:
            if call.kind == "raise":
                self.high_step += 1
                if self.stay_seat is not None:
                    # A bid of 6S turns "if they stay" into a pass.
                    self.passed.add(self.stay_seat)
                    self.stay_seat = None
            self.high_seat = seat
            self.last_kind = call.kind
        self.to_speak = self._next_speaker(seat, call)

    def _next_speaker(self, seat: int, call: Call) -> int | None:
        if len(self.passed) == 3:
            self.void = True
            return None
        if call.kind == "hold" and self.high_step == len(self.ladder) - 1:
            return None  # a hold of the top step ends the auction at once
        in_play = [s for s in range(3) if s not in self.passed]
        if self.high_step < 0:
            if self.stay_seat is not None and len(in_play) == 1:
                return None  # "if they stay" stands and the other two passed
        elif len(in_play) == 1:
            return None
        for step in (1, 2):
            nxt = (seat + step) % 3
            if nxt not in self.passed and nxt != self.stay_seat:
                return nxt
        return None  # pragma: no cover - every ending is caught above


def run_auction(calls: Iterable[Call | str], ladder: tuple[Contract, ...] = LADDER) -> Auction:
    """Apply ``calls`` in order from a fresh auction on ``ladder`` (raises ``AuctionError``
    on the first illegal call, its message naming the call and its index)."""
    auction = Auction(ladder=ladder)
    for i, call in enumerate(calls):
        try:
            auction.apply(call)
        except AuctionError as exc:
            raise AuctionError(f"call {i} ({call}): {exc}") from None
    return auction
