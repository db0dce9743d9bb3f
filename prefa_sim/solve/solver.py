"""The double-dummy solver: exact tricks, per-card values, play lines and the widow.

The declarer maximises their own tricks; the active defenders together
minimise them.  ``Solver`` owns a transposition table and scratch arrays and
calls the numba kernels of ``prefa_sim.engine``.  Table entries are keyed by
relative ranks together with the strain (no-trumps once no trumps are left),
declarer and active seats, so they stay valid across positions, deals and
strains: one solver can serve a whole batch.
A solver is not thread-safe; use one per thread or process.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, compress

import numpy as np

from ..core.cards import (
    Bitboard,
    CardCountError,
    DuplicateCardError,
    Strain,
    card_count,
    format_card,
    format_discard,
    iter_cards,
)
from ..core.contracts import LADDER, Contract
from ..core.position import Position, PositionError
from ..engine import driver
from ..engine.endgame import EMPTY_ENDGAME
from ..engine.endgame_build import endgame_table
from ..engine.layout import (
    CTX_SIZE,
    FLAG_OVERTRUMP,
    GENERATION_MASK,
    MAX_MOVES,
    MAX_PLY,
    STATS_SIZE,
    TABLE_COLUMNS,
    WAYS,
    WORK_COLUMNS,
)
from ..engine.lookup import EQUAL_CARD_REPRESENTATIVES, RELATIVE_RANKS
from ..rules.variants import DEFAULT_RULES, Rules

DEFAULT_TABLE_BITS = 15

DISCARD_PAIRS = tuple(combinations(range(12), 2))
"""The 66 discards as indices ``(i, j)``, ``i < j``, into a 12-card hand's cards in
ascending order, in the kernel's order (``driver.widow_search``)."""

_worker = threading.local()


@dataclass(frozen=True)
class WidowResult:
    """The best tricks over all 66 discards, and every discard that reaches them."""

    strain: Strain
    best_tricks: int
    best_discards: tuple[tuple[int, int], ...]

    def discard_names(self) -> list[str]:
        """The best discards as ``"C1 C2"`` strings."""
        return [format_discard(pair) for pair in self.best_discards]


class CardValues(dict):
    """Declarer's tricks by card index (``Solver.card_values``), a plain ``dict`` whose
    text names the cards: ``{AS: 7, 8S: 4}``."""

    def __repr__(self) -> str:
        return "{" + ", ".join(f"{format_card(c)}: {v}" for c, v in self.items()) + "}"

    __str__ = __repr__


class PlayLine(list):
    """``(seat, card index)`` pairs (``Solver.play_line``), a plain ``list`` whose text
    names the cards: ``[(1, AS), (2, 7S)]``."""

    def __repr__(self) -> str:
        return "[" + ", ".join(f"({seat}, {format_card(c)})" for seat, c in self) + "]"

    __str__ = __repr__


class Solver:
    """Double-dummy solver with its own transposition table of ``2**table_bits`` entries.

    With ``endgame`` (the default) 2-hand positions of six tricks or fewer are read from
    the 2-hand endgame table (``prefa_sim.engine.endgame``) instead of searched; the
    answers are the same either way.  A solver serves one thread at a time (its batch
    kernels run without the GIL): each thread has its own (``worker_solver``).
    """

    def __init__(self, table_bits: int = DEFAULT_TABLE_BITS, *, endgame: bool = True) -> None:
        if not 10 <= table_bits <= 28:
            raise ValueError("table_bits must be between 10 and 28")
        self.table = np.zeros(((1 << table_bits) // WAYS, TABLE_COLUMNS), dtype=np.int64)
        self._work = np.zeros((MAX_PLY, WORK_COLUMNS), dtype=np.int64)
        self._moves = np.zeros((MAX_PLY, MAX_MOVES), dtype=np.int64)
        self.stats = np.zeros(STATS_SIZE, dtype=np.int64)
        self._generation = 1
        self._endgame = endgame

    # -- table management ----------------------------------------------------------
    def clear(self) -> None:
        """Forget every stored result (cheaply: entries of older generations never match)."""
        self._generation += 1
        if self._generation > GENERATION_MASK:
            self.table[:] = 0
            self._generation = 1

    def _context(self, trump: int, declarer: int, active_mask: int,
                 overtrump: bool = False) -> np.ndarray:
        ctx = np.zeros(CTX_SIZE, dtype=np.int64)
        ctx[:] = (int(trump), declarer, active_mask, bin(active_mask).count("1"),
                  self._generation, FLAG_OVERTRUMP if overtrump else 0)
        return ctx

    def _kernel_args(self, two_hands: bool):
        """The kernels' common arguments; the 2-hand endgame table (read from the cache
        folder, or built, on a process's first use) only when some position to solve has
        two hands in play."""
        endgame = endgame_table() if two_hands and self._endgame else EMPTY_ENDGAME
        return (self.table, RELATIVE_RANKS, EQUAL_CARD_REPRESENTATIVES, endgame, self._work,
                self._moves, self.stats)

    @staticmethod
    def _hands_array(position: Position) -> np.ndarray:
        return np.array([position.hand(s) for s in range(3)], dtype=np.int64)

    @staticmethod
    def _trick_array(position: Position) -> np.ndarray:
        trick = np.zeros(3, dtype=np.int64)
        trick[: len(position.trick)] = position.trick
        return trick

    # -- solving -------------------------------------------------------------------
    def solve(self, position: Position) -> int:
        """The declarer's tricks from here on with best play, the current trick included."""
        ctx = self._context(position.trump, position.declarer, position.active_mask,
                            position.overtrump)
        return int(driver.solve_position(
            self._hands_array(position), self._trick_array(position), len(position.trick),
            position.leader, 0, ctx, *self._kernel_args(len(position.active) == 2)))

    def solve_deals(self, deals: np.ndarray, *, fresh_table: bool = False,
                    overtrump: bool = False) -> np.ndarray:
        """Solve many positions at a trick start in one kernel call.

        ``deals`` is an int64 array with rows ``[h0, h1, h2, trump, leader,
        declarer, active_mask]``.  The rows are not checked: build them from
        checked positions.  ``fresh_table`` gives each deal an empty table, as a
        solver that clears its table per deal would have; ``overtrump``: no
        under-trumping (``Position.overtrump``).
        """
        deals = np.ascontiguousarray(deals, dtype=np.int64)
        out = np.zeros(len(deals), dtype=np.int64)
        if self._generation + len(deals) > GENERATION_MASK:
            self.table[:] = 0
            self._generation = 1
        ctx = self._context(0, 0, 7, overtrump)
        two_hands = bool(np.any(deals[:, 6] != 7))
        driver.solve_many(deals, ctx, *self._kernel_args(two_hands), out, fresh_table)
        if fresh_table:
            self._generation += len(deals)
        return out

    def card_values(self, position: Position) -> CardValues:
        """For each legal card of the player to move, the declarer's tricks (current
        trick included) after playing it, with best play afterwards (card indices as
        keys, printed as card names: ``{AS: 7, 8S: 4}``)."""
        cards = np.array(list(iter_cards(position.legal_cards())), dtype=np.int64)
        out = np.zeros(len(cards), dtype=np.int64)
        ctx = self._context(position.trump, position.declarer, position.active_mask,
                            position.overtrump)
        driver.card_values(self._hands_array(position), self._trick_array(position),
                           len(position.trick), position.leader, ctx,
                           *self._kernel_args(len(position.active) == 2), cards, out)
        return CardValues({int(c): int(v) for c, v in zip(cards, out, strict=True)})

    def play_line(self, position: Position) -> PlayLine:
        """An optimal line of play to the end: ``(seat, card)`` pairs (printed with card
        names: ``[(1, AS), (2, 7S), ...]``).

        Each player picks a card that is best for their side; among equally good
        cards, the lowest.
        """
        line = PlayLine()
        while True:
            values = self.card_values(position)
            seat = position.to_move
            target = max(values.values()) if seat == position.declarer else min(values.values())
            card = min(c for c, v in values.items() if v == target)
            line.append((seat, card))
            position, _ = position.play(card)
            if position.tricks_left == 0:
                return line

    # -- the widow -----------------------------------------------------------------
    def solve_widow(self, hands: tuple[Bitboard, Bitboard, Bitboard] | list[Bitboard],
                    widow: Bitboard, trump: Strain, leader: int, declarer: int,
                    active: tuple[int, ...] = (0, 1, 2), *,
                    overtrump: bool = False) -> WidowResult:
        """Best declarer tricks in ``trump`` after taking the widow and discarding two cards.

        ``hands[declarer]`` holds the declarer's 10 cards before the widow; ``overtrump``:
        no under-trumping (``Position.overtrump``).
        """
        hand12 = _widow_hand(hands, widow, declarer, active)
        # Checks the seats and hands as they are before the widow is taken.
        Position(tuple(int(h) for h in hands), trump, leader, declarer, active)
        work_hands = np.array([hands[s] if s in active and s != declarer else 0 for s in range(3)],
                              dtype=np.int64)
        ctx = self._context(trump, declarer, sum(1 << s for s in active), overtrump)
        reaches = np.zeros(66, dtype=np.int64)
        best = driver.widow_search(work_hands, hand12, leader, ctx,
                                   *self._kernel_args(len(set(active)) == 2), reaches)
        pairs = _discard_pairs(hand12)
        discards = tuple(pairs[k] for k in np.flatnonzero(reaches))
        return WidowResult(Strain(trump), int(best), discards)

    def solve_widows(self, cells: np.ndarray, *,
                     overtrump: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """``solve_widow`` for many cells in one kernel call.

        ``cells`` is an int64 array with rows ``[h0, h1, h2, hand12, trump, leader,
        declarer, active_mask]`` (the declarer's twelve cards in ``hand12``; its own entry
        among the hands is ignored).  The rows are not checked: build them from checked
        requests.  Returns the best tricks of each cell and, per cell, the 66 discard pairs
        (over the twelve cards in ascending order, ``(i, j)`` with ``i < j``) that reach it.
        """
        cells = np.ascontiguousarray(cells, dtype=np.int64)
        best = np.zeros(len(cells), dtype=np.int64)
        reaches = np.zeros((len(cells), 66), dtype=np.int64)
        two_hands = bool(np.any(cells[:, 7] != 7))
        driver.widow_many(cells, self._context(0, 0, 7, overtrump),
                          *self._kernel_args(two_hands), best, reaches)
        return best, reaches

    def widow_results(self, hands: Sequence[Bitboard], widow: Bitboard,
                      cells: Sequence[tuple[Strain, int, int, tuple[int, ...]]], *,
                      overtrump: bool = False) -> list[WidowResult]:
        """``solve_widow`` for many (strain, leader, declarer, active seats) of one deal,
        in one kernel call; each declarer and set of seats is checked once."""
        rows = np.zeros((len(cells), 8), dtype=np.int64)
        checked: dict[tuple[int, tuple[int, ...]], int] = {}
        for k, (trump, leader, declarer, active) in enumerate(cells):
            if (declarer, active) not in checked:
                checked[declarer, active] = _widow_hand(hands, widow, declarer, active)
                Position(tuple(int(h) for h in hands), trump, leader, declarer, active)
            for s in active:
                if s != declarer:
                    rows[k, s] = hands[s]
            rows[k, 3:] = (checked[declarer, active], int(trump), leader, declarer,
                           sum(1 << s for s in active))
        best, reaches = self.solve_widows(rows, overtrump=overtrump)
        pairs = {hand12: _discard_pairs(hand12) for hand12 in set(checked.values())}
        return [WidowResult(Strain(cell[0]), tricks, tuple(compress(pairs[hand12], flags)))
                for cell, tricks, hand12, flags in zip(cells, best.tolist(), rows[:, 3].tolist(),
                                                       reaches.tolist(), strict=True)]

    def widow_table(self, hands: tuple[Bitboard, Bitboard, Bitboard] | list[Bitboard],
                    widow: Bitboard, leader: int, declarer: int,
                    active: tuple[int, ...] = (0, 1, 2), *,
                    overtrump: bool = False) -> dict[Strain, WidowResult]:
        """``solve_widow`` for all five strains."""
        return {s: self.solve_widow(hands, widow, s, leader, declarer, active,
                                    overtrump=overtrump) for s in Strain}


def _discard_pairs(hand12: Bitboard) -> list[tuple[int, int]]:
    """The 66 discards of a 12-card hand, in the kernel's order: ``(i, j)``, ``i < j``,
    over the cards in ascending order."""
    cards = list(iter_cards(hand12))
    return [(cards[i], cards[j]) for i, j in DISCARD_PAIRS]


def worker_solver() -> Solver:
    """This thread's own solver, made on first use (for pool and cluster workers)."""
    if not hasattr(_worker, "solver"):
        _worker.solver = Solver()
    return _worker.solver


def recommended_contract(table: dict[Strain, WidowResult], minimum: Contract = LADDER[0],
                         rules: Rules = DEFAULT_RULES) -> Contract | None:
    """The most valuable contract the widow table shows the declarer can make, among those
    ``rules`` allow (at their trick values)."""
    return rules.best_contract({s: r.best_tricks for s, r in table.items()}, minimum)


def _widow_hand(hands, widow: Bitboard, declarer: int, active: tuple[int, ...]) -> Bitboard:
    hand = int(hands[declarer])
    held = bin(hand).count("1")
    if held != 10:
        raise CardCountError(f"the declarer holds {card_count(held)} before the widow, "
                             "expected 10")
    in_widow = bin(int(widow)).count("1")
    if in_widow != 2:
        raise CardCountError(f"the widow holds {card_count(in_widow)}, expected 2")
    others = 0
    for s in active:
        if s != declarer:
            others |= int(hands[s])
    both = (hand | others) & int(widow)
    if both:
        card = format_card(both.bit_length() - 1)
        raise DuplicateCardError(f"widow card {card} is also in a hand")
    if declarer not in active:
        raise PositionError(f"declarer seat {declarer} is not an active seat")
    return hand | int(widow)
