"""A small, safe expression language for constraints on hands (never Python ``eval``).

Examples::

    first.hearts >= 5 and first.aces >= 2
    longest(dealer) >= 6 or top(second, H, 3) == 3
    first.spades + first.clubs <= 4 and not widow.aces >= 1

Names: the hands ``first`` (first hand), ``second``, ``dealer`` and ``widow``,
with attributes ``spades clubs diamonds hearts`` (suit lengths), ``cards``,
``longest``, ``shortest``, ``aces kings queens jacks``.  Functions:
``longest(h)``, ``shortest(h)``, ``length(h, S)``, ``top(h, S, n)`` (how many of
the top ``n`` cards of suit ``S`` the hand holds), ``count(h, A)`` (cards of a
rank: ``A K Q J T 9 8 7``).  Integers, ``+ - *``, comparisons
``< <= > >= == !=``, ``and or not`` and parentheses.  A constraint is a
comparison, or comparisons joined by ``and``, ``or`` and ``not``; a bare number
(``1``, ``first.hearts``) is refused.  Inside arithmetic a comparison counts 1
or 0, so ``first.aces + (second.aces >= 2) >= 3`` works.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from ..core.cards import RANK_LETTERS, SUIT_LETTERS, Bitboard, popcount

HAND_NAMES = ("first", "second", "dealer", "widow")
SUIT_NAMES = {"spades": 0, "clubs": 1, "diamonds": 2, "hearts": 3}
RANK_COUNTS = {"aces": 7, "kings": 6, "queens": 5, "jacks": 4}


MAX_DEPTH = 50
"""How deeply parentheses, ``not`` and unary minus may nest."""
MAX_TOKENS = 400
"""How long an expression may be, in tokens (a constraint is a line, not a program)."""


class ConstraintError(ValueError):
    """An expression that cannot be parsed, with the place of the problem."""


@dataclass(frozen=True)
class Token:
    kind: str  # "int", "name", "op", "end"
    text: str
    pos: int


_TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_][A-Za-z_0-9]*)|(<=|>=|==|!=|[-+*()<>.,]))")


def tokenize(text: str) -> list[Token]:
    """Split an expression into tokens, or name the first character that is not one."""
    tokens = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if not m:
            pos += len(text[pos:]) - len(text[pos:].lstrip())
            raise ConstraintError(_where(text, pos, "unexpected character"))
        start = m.start(m.lastindex)
        if m.group(1):
            tokens.append(Token("int", m.group(1), start))
        elif m.group(2):
            tokens.append(Token("name", m.group(2), start))
        else:
            tokens.append(Token("op", m.group(3), start))
        pos = m.end()
    tokens.append(Token("end", "", len(text)))
    return tokens


def _where(text: str, pos: int, message: str) -> str:
    """The message, then the expression and a caret under ``pos`` on lines of their own
    (so that the caret stays aligned whatever prefix the message gets)."""
    return f"{message} at column {pos + 1}:\n    {text}\n    {' ' * pos}^"


class Expression:
    """A parsed expression; ``evaluate(hands)`` gives its integer value."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._tokens = tokenize(text)
        if len(self._tokens) > MAX_TOKENS:
            raise ConstraintError(_where(text, self._tokens[MAX_TOKENS].pos,
                                         f"an expression of more than {MAX_TOKENS} tokens"))
        self._i = 0
        self._depth = 0
        self.tree = self._or()
        if self._peek().kind != "end":
            self._fail("unexpected text")

    # -- parsing (recursive descent) -----------------------------------------------
    def _peek(self) -> Token:
        return self._tokens[self._i]

    def _take(self) -> Token:
        tok = self._tokens[self._i]
        self._i += 1
        return tok

    def _fail(self, message: str, tok: Token | None = None):
        tok = tok or self._peek()
        shown = f" {tok.text!r}" if tok.text else " (end of text)"
        raise ConstraintError(_where(self.text, tok.pos, message + shown))

    def _expect(self, op: str) -> None:
        if self._peek().text != op:
            self._fail(f"expected {op!r}, found")
        self._take()

    def _condition(self, parse, tok: Token):
        """Parse an operand of ``and``, ``or``, ``not``: it must be a condition."""
        node = parse()
        if not _is_condition(node):
            self._fail("and, or, not join comparisons (such as 'first.aces >= 2'), not "
                       "numbers: found", tok)
        return node

    def _or(self):
        start = self._peek()
        node = self._and()
        while self._peek().text == "or":
            self._take()
            left = self._checked(node, start)
            start = self._peek()
            node = ("or", left, self._condition(self._and, start))
        return node

    def _and(self):
        start = self._peek()
        node = self._not()
        while self._peek().text == "and":
            self._take()
            left = self._checked(node, start)
            start = self._peek()
            node = ("and", left, self._condition(self._not, start))
        return node

    def _checked(self, node, tok: Token):
        if not _is_condition(node):
            self._fail("and, or, not join comparisons (such as 'first.aces >= 2'), not "
                       "numbers: found", tok)
        return node

    def _nested(self, tok: Token) -> None:
        """Count one more level of nesting at ``tok``; refuse an absurdly deep expression."""
        self._depth += 1
        if self._depth > MAX_DEPTH:
            self._fail(f"nested more than {MAX_DEPTH} deep at", tok)

    def _not(self):
        if self._peek().text == "not":
            self._nested(self._take())
            node = ("not", self._condition(self._not, self._peek()))
            self._depth -= 1
            return node
        return self._compare()

    def _compare(self):
        node = self._sum()
        if self._peek().text in ("<", "<=", ">", ">=", "==", "!="):
            op = self._take().text
            node = ("cmp", op, node, self._sum())
            if self._peek().text in ("<", "<=", ">", ">=", "==", "!="):
                self._fail("comparisons do not chain; use 'and' before")
        return node

    def _sum(self):
        node = self._product()
        while self._peek().text in ("+", "-"):
            op = self._take().text
            node = (op, node, self._product())
        return node

    def _product(self):
        node = self._unary()
        while self._peek().text == "*":
            self._take()
            node = ("*", node, self._unary())
        return node

    def _unary(self):
        if self._peek().text == "-":
            self._nested(self._take())
            node = ("neg", self._unary())
            self._depth -= 1
            return node
        return self._primary()

    def _primary(self):
        tok = self._peek()
        if tok.kind == "int":
            if len(tok.text) > 6:
                self._fail("a number of at most six digits is expected, found", tok)
            self._take()
            return ("int", int(tok.text))
        if tok.text == "(":
            self._nested(self._take())
            node = self._or()
            self._expect(")")
            self._depth -= 1
            return node
        if tok.kind == "name" and tok.text in HAND_NAMES:
            self._take()
            if self._peek().text != ".":
                self._fail("a hand needs an attribute such as .hearts or .aces after", tok)
            self._take()
            attr = self._take()
            if attr.kind != "name" or attr.text not in _ATTRIBUTES:
                self._fail(f"unknown attribute (known: {', '.join(_ATTRIBUTES)})", attr)
            return ("attr", tok.text, attr.text)
        if tok.kind == "name" and tok.text in _FUNCTIONS:
            return self._call()
        self._fail("expected a number, a hand (first, second, dealer, widow) or a function, "
                   "found")

    def _call(self):
        name = self._take()
        kinds = _FUNCTIONS[name.text]
        self._expect("(")
        args = []
        for k, kind in enumerate(kinds):
            if k:
                self._expect(",")
            tok = self._take()
            if kind == "hand" and tok.text not in HAND_NAMES:
                self._fail(f"{name.text}() needs a hand (first, second, dealer, widow), found",
                           tok)
            if kind == "suit" and tok.text.upper() not in SUIT_LETTERS:
                self._fail(f"{name.text}() needs a suit S, C, D or H, found", tok)
            if kind == "rank" and tok.text.upper() not in RANK_LETTERS:
                self._fail(f"{name.text}() needs a rank A K Q J T 9 8 7, found", tok)
            if kind == "int" and tok.kind != "int":
                self._fail(f"{name.text}() needs a number, found", tok)
            if kind == "int" and not (len(tok.text) == 1 and 1 <= int(tok.text) <= 8):
                self._fail(f"{name.text}() counts the top 1 to 8 cards of a suit, found", tok)
            args.append(tok.text.upper() if kind in ("suit", "rank") else
                        int(tok.text) if kind == "int" else tok.text)
        self._expect(")")
        return ("call", name.text, tuple(args))

    # -- evaluation ----------------------------------------------------------------
    def evaluate(self, hands: Mapping[str, Bitboard]) -> int:
        """The value of the expression for ``hands`` (``first second dealer widow`` → mask)."""
        return _eval(self.tree, hands)

    def holds(self, hands: Mapping[str, Bitboard]) -> bool:
        """Is the constraint true (non-zero) for ``hands``?"""
        return _eval(self.tree, hands) != 0

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.text!r})"


class Constraint(Expression):
    """An expression that is true or false: a comparison, or comparisons joined by
    ``and``, ``or``, ``not``."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        if not _is_condition(self.tree):
            raise ConstraintError(_where(text, _start(self._tokens), "a constraint must be a "
                                         "comparison such as 'first.hearts >= 5', or several "
                                         "joined by and, or, not; this is a number"))


def _is_condition(node) -> bool:
    """Is the node true-or-false (a comparison, or and/or/not of them)?"""
    return node[0] in ("cmp", "and", "or", "not")


def _start(tokens: list[Token]) -> int:
    return tokens[0].pos if tokens else 0


def _suit_length(mask: int, suit: int) -> int:
    return popcount((mask >> (8 * suit)) & 0xFF)


def _attribute(mask: int, name: str) -> int:
    if name in SUIT_NAMES:
        return _suit_length(mask, SUIT_NAMES[name])
    if name in RANK_COUNTS:
        return popcount(mask & (0x01010101 << RANK_COUNTS[name]))
    if name == "longest":
        return max(_suit_length(mask, s) for s in range(4))
    if name == "shortest":
        return min(_suit_length(mask, s) for s in range(4))
    return popcount(mask)  # "cards"


_ATTRIBUTES = (*SUIT_NAMES, *RANK_COUNTS, "longest", "shortest", "cards")
_FUNCTIONS = {  # name: the kinds of its arguments
    "longest": ("hand",),
    "shortest": ("hand",),
    "length": ("hand", "suit"),
    "top": ("hand", "suit", "int"),
    "count": ("hand", "rank"),
}


def _call(name: str, args: tuple, hands: Mapping[str, int]) -> int:
    mask = hands[args[0]]
    if name in ("longest", "shortest"):
        return _attribute(mask, name)
    suit = SUIT_LETTERS.index(args[1]) if name in ("length", "top") else 0
    if name == "length":
        return _suit_length(mask, suit)
    if name == "top":
        n = max(0, min(args[2], 8))
        top = (0xFF << (8 - n)) & 0xFF
        return popcount(mask & (top << (8 * suit)))
    rank = RANK_LETTERS.index(args[1])
    return popcount(mask & (0x01010101 << rank))


def _eval(node, hands: Mapping[str, int]) -> int:
    kind = node[0]
    if kind == "int":
        return node[1]
    if kind == "attr":
        return _attribute(hands[node[1]], node[2])
    if kind == "call":
        return _call(node[1], node[2], hands)
    if kind == "neg":
        return -_eval(node[1], hands)
    if kind == "not":
        return int(not _eval(node[1], hands))
    if kind == "and":
        return int(bool(_eval(node[1], hands)) and bool(_eval(node[2], hands)))
    if kind == "or":
        return int(bool(_eval(node[1], hands)) or bool(_eval(node[2], hands)))
    if kind == "cmp":
        a, b = _eval(node[2], hands), _eval(node[3], hands)
        return int({"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b,
                    "!=": a != b}[node[1]])
    a, b = _eval(node[1], hands), _eval(node[2], hands)
    return a + b if kind == "+" else a - b if kind == "-" else a * b
