"""One deal as a state machine, from the auction to the settlement (docs/rules.md §2-§6).

Phases: ``auction`` → ``widow`` (discard two cards, or concede a solo) →
``contract`` → ``defence`` (declarations) → ``play`` (claims included) →
``settled``; a deal where all three pass ends ``void``.  ``current_player()``,
``legal_actions()``, ``apply(action)`` and ``is_terminal()`` drive it; an illegal
action raises ``IllegalActionError`` naming the action and the phase, and
leaves the state unchanged.  Seats are absolute (0-2), play order ``s, s+1 …``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from ..core.cards import (
    ACES_MASK,
    NUM_CARDS,
    Bitboard,
    format_card,
    format_discard,
    iter_cards,
    popcount,
)
from ..core.contracts import Contract
from ..core.position import Position
from ..core.seats import first_hand, opening_leader
from .auction import Auction, AuctionError, Call
from .exact import exact_match
from .settlement import DEFENCES, SOLO_TRICKS, Settlement, settle
from .variants import DEFAULT_RULES, Rules

Phase = Literal["auction", "widow", "contract", "defence", "play", "claim", "settled", "void"]


class IllegalActionError(ValueError):
    """An action that the rules do not allow in the current phase."""


@dataclass(frozen=True)
class Discard:
    """The declarer's two discards after taking the widow."""

    cards: tuple[int, int]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(sorted(self.cards)))

    def __str__(self) -> str:
        return "discard " + format_discard(self.cards)


@dataclass(frozen=True)
class Solo:
    """The solo concession: paid at once as two down at the minimum step."""

    def __str__(self) -> str:
        return "solo"


@dataclass(frozen=True)
class Name:
    """The contract named after the discard, with "and the aces" when announced."""

    contract: Contract
    aces: bool = False

    def __str__(self) -> str:
        return f"{self.contract}{' and the aces' if self.aces else ''}"


@dataclass(frozen=True)
class Declare:
    """A defence declaration: play, pass, together or alone."""

    word: Literal["play", "pass", "together", "alone"]

    def __str__(self) -> str:
        return self.word


@dataclass(frozen=True)
class Play:
    """A card played to the current trick."""

    card: int

    def __str__(self) -> str:
        return format_card(self.card)


@dataclass(frozen=True)
class Claim:
    """The declarer, on lead with two or more tricks left, claims the rest."""

    def __str__(self) -> str:
        return "claim"


@dataclass(frozen=True)
class Answer:
    """A playing defender's answer to a claim."""

    accept: bool

    def __str__(self) -> str:
        return "accept" if self.accept else "reject"


Action = Call | Discard | Solo | Name | Declare | Play | Claim | Answer
ACTION_TYPES = (Call, Discard, Solo, Name, Declare, Play, Claim, Answer)


def shown_action(action: object) -> str:
    """An action as text for an error message, whatever a player returned: an object
    that is not one of the engine's actions also names its type."""
    try:
        text = str(action)[:60]
    except Exception:  # noqa: BLE001 - a player's object may fail to print
        text = "?"
    return text if type(action) in ACTION_TYPES else f"{text} ({type(action).__name__})"


@dataclass
class Deal:
    """The state of one deal: cards, calls and play so far."""

    hands: list[Bitboard]
    widow: Bitboard
    dealer: int
    pot: int = 1500
    rules: Rules = DEFAULT_RULES
    auction: Auction = field(default_factory=Auction)
    phase: Phase = "auction"
    declarer: int | None = None
    discards: Bitboard = 0
    contract: Contract | None = None
    aces: bool = False
    solo: bool = False
    declarations: list[str] = field(default_factory=list)
    position: Position | None = None
    tricks: list[int] = field(default_factory=lambda: [0, 0, 0])
    claim_answers: list[bool] = field(default_factory=list)
    settlement: Settlement | None = None
    history: list[tuple[int, Action]] = field(default_factory=list)
    played: list[tuple[int, int]] = field(default_factory=list)
    """Every card played, in order: (seat, card)."""
    claim_refused_after: int | None = None
    """How many cards had been played when a claim was last refused: the declarer plays
    on before claiming again (docs/rules.md §5.5)."""
    hands_dealt: list[Bitboard] = field(init=False)

    def __post_init__(self) -> None:
        if not self.auction.calls and self.auction.ladder != self.rules.ladder:
            self.auction = Auction(ladder=self.rules.ladder)
        self.hands_dealt = list(self.hands)  # the hands as dealt, before the widow
        dealt = 0
        for mask in [*self.hands, self.widow]:
            if dealt & mask:
                raise IllegalActionError("a card is dealt twice")
            dealt |= mask
        if [popcount(h) for h in self.hands] != [10, 10, 10] or popcount(self.widow) != 2:
            raise IllegalActionError("a deal is three hands of 10 cards and a widow of 2")
        if dealt != (1 << NUM_CARDS) - 1:
            raise IllegalActionError("a deal uses all 32 cards")

    # -- seats ---------------------------------------------------------------------
    @property
    def first_hand(self) -> int:
        """The dealer's right-hand neighbour, who speaks and (if active) leads first."""
        return first_hand(self.dealer)

    def seat_of_role(self, role: str) -> int:
        """The seat of ``declarer``, ``first`` or ``second`` (defender)."""
        offset = {"declarer": 0, "first": 1, "second": 2}[role]
        return (self.declarer + offset) % 3

    @property
    def credited_tricks(self) -> list[int] | None:
        """Tricks by seat as the settlement counts them (docs/rules.md §5.6): the solo
        table for a solo, all ten to the declarer when both defenders pass, else the
        tricks played (a claim's tricks included).  None until the deal is settled."""
        if self.settlement is None:
            return None
        if self.solo:
            by_role = SOLO_TRICKS[self.contract.level]
        elif not DEFENCES[tuple(self.declarations)].players:
            by_role = (10, 0, 0)
        else:
            return list(self.tricks)
        credited = [0, 0, 0]
        for offset, n in enumerate(by_role):
            credited[(self.declarer + offset) % 3] = n
        return credited

    # -- the interface -------------------------------------------------------------
    def is_terminal(self) -> bool:
        """Settled or void."""
        return self.phase in ("settled", "void")

    def current_player(self) -> int | None:
        """The seat to act (None when the deal is over)."""
        if self.phase == "auction":
            return (self.first_hand + self.auction.to_speak) % 3
        if self.phase in ("widow", "contract"):
            return self.declarer
        if self.phase == "defence":
            return self._defence_speaker()
        if self.phase == "play":
            return self.position.to_move
        if self.phase == "claim":
            return self._claim_answerers()[len(self.claim_answers)]
        return None

    def legal_actions(self) -> list[Action]:
        """Every action the current player may take."""
        if self.phase == "auction":
            return list(self.auction.legal_calls())
        if self.phase == "widow":
            hand = self.hands[self.declarer]
            cards = list(iter_cards(hand))
            pairs = [Discard((a, b)) for i, a in enumerate(cards) for b in cards[i + 1:]]
            return [*pairs, Solo()]
        if self.phase == "contract":
            lowest = self.auction.min_contract.step
            twelve = self.hands[self.declarer] | self.discards
            may_aces = twelve & ACES_MASK == ACES_MASK
            steps = self.rules.ladder[lowest:]
            names = [Name(c) for c in steps]
            if may_aces:
                names += [Name(c, True) for c in steps]
            return names
        if self.phase == "defence":
            said = tuple(self.declarations)
            words = sorted({k[len(said)] for k in DEFENCES if len(k) > len(said)
                            and k[:len(said)] == said})
            return [Declare(w) for w in words]
        if self.phase == "play":
            actions: list[Action] = [Play(c) for c in iter_cards(self.position.legal_cards())]
            if self._may_claim():
                actions.append(Claim())
            return actions
        if self.phase == "claim":
            return [Answer(True), Answer(False)]
        return []

    def apply(self, action: Action, legal: Sequence[Action] | None = None) -> None:
        """Take ``action`` for the current player (``IllegalActionError`` if not allowed,
        judged by exact type and value: ``exact.exact_match``); ``legal``: this state's
        ``legal_actions()`` when the caller has them already."""
        match = exact_match(action, self.legal_actions() if legal is None else legal)
        if match is None:
            seat = "" if self.is_terminal() else f" for seat {self.current_player()}"
            raise IllegalActionError(f"{shown_action(action)} is not legal in the "
                                     f"{self.phase} phase{seat}")
        action = match  # the engine's own object, compared by exact type and value
        seat = self.current_player()
        self.history.append((seat, action))
        getattr(self, f"_apply_{self.phase}")(action)

    # -- phases --------------------------------------------------------------------
    def _apply_auction(self, call: Call) -> None:
        try:
            self.auction.apply(call)
        except AuctionError as exc:  # pragma: no cover - legal_actions already checked it
            raise IllegalActionError(str(exc)) from None
        if not self.auction.complete:
            return
        if self.auction.void:
            self.phase = "void"
            return
        self.declarer = (self.first_hand + self.auction.declarer) % 3
        self.hands[self.declarer] |= self.widow
        self.phase = "widow"

    def _apply_widow(self, action: Discard | Solo) -> None:
        if isinstance(action, Solo):
            self.solo = True
            self.contract = self.auction.min_contract
            self.hands[self.declarer] &= ~self.widow
            self._settle()
            return
        for card in action.cards:
            self.discards |= 1 << card
        self.hands[self.declarer] &= ~self.discards
        self.phase = "contract"

    def _apply_contract(self, action: Name) -> None:
        self.contract = action.contract
        self.aces = action.aces
        self.phase = "defence"

    def _apply_defence(self, action: Declare) -> None:
        self.declarations.append(action.word)
        said = tuple(self.declarations)
        if said not in DEFENCES:
            return
        defence = DEFENCES[said]
        if not defence.players:
            self._settle()
            return
        active = sorted({self.declarer, *(self.seat_of_role(r) for r in defence.players)})
        leader = opening_leader(self.dealer, active)
        self.position = Position(tuple(self.hands), self.contract.strain, leader,
                                 self.declarer, tuple(active), overtrump=self.rules.overtrump)
        self.phase = "play"

    def _apply_play(self, action: Play | Claim) -> None:
        if isinstance(action, Claim):
            self.claim_answers = []
            self.phase = "claim"
            return
        self.played.append((self.position.to_move, action.card))
        self.position, winner = self.position.play(action.card)
        if winner is not None:
            self.tricks[winner] += 1
            if self.position.tricks_left == 0:
                self._settle()

    def _apply_claim(self, action: Answer) -> None:
        self.claim_answers.append(action.accept)
        if not action.accept:
            self.phase = "play"
            self.claim_refused_after = len(self.played)
            return
        if len(self.claim_answers) == len(self._claim_answerers()):
            self.tricks[self.declarer] += self.position.tricks_left
            self._settle()

    # -- helpers -------------------------------------------------------------------
    def _defence_speaker(self) -> int:
        first, second = (self.declarer + 1) % 3, (self.declarer + 2) % 3
        return (first, second, first)[len(self.declarations)]

    def _may_claim(self) -> bool:
        pos = self.position
        return (not pos.trick and pos.to_move == self.declarer and pos.tricks_left >= 2
                and self.claim_refused_after != len(self.played))

    def _claim_answerers(self) -> list[int]:
        return [s for s in self.position.active if s != self.declarer]

    def _settle(self) -> None:
        tricks = {r: self.tricks[self.seat_of_role(r)] for r in ("declarer", "first", "second")}
        self.settlement = settle(self.contract, self.declarations, tricks, aces=self.aces,
                                 solo=self.solo, pot=self.pot, rules=self.rules)
        self.phase = "settled"
