"""The constraint language: values, precedence, errors with their column, no eval."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from prefa_sim.core.cards import parse_hand
from prefa_sim.dealing.constraints import Constraint, ConstraintError, Expression

HANDS = {"first": parse_hand("AKQJ9.-.A7.K98"), "second": parse_hand("T87.AK.KQ.QJ7"),
         "dealer": parse_hand("6.QJT98.JT9.T".replace("6", "-")), "widow": parse_hand("-.7.8.-")}


@pytest.mark.parametrize("text, value", [
    ("first.spades", 5), ("first.clubs", 0), ("first.hearts", 3), ("first.cards", 10),
    ("first.aces", 2), ("second.kings", 2), ("second.queens", 2), ("first.jacks", 1),
    ("first.longest", 5), ("first.shortest", 0), ("longest(dealer)", 5), ("shortest(second)", 2),
    ("length(second, C)", 2), ("top(first, S, 4)", 4), ("top(second, H, 3)", 1),
    ("count(second, K)", 2), ("count(widow, 7)", 1), ("widow.cards", 2),
    ("1 + 2 * 3", 7), ("(1 + 2) * 3", 9), ("-2 + 5", 3), ("10 - 3 - 2", 5),
    ("first.spades >= 5 and first.aces >= 2", 1), ("first.spades > 5 or second.aces == 1", 1),
    ("not first.hearts == 3", 0), ("not not first.aces == 2", 1),
    ("first.aces + (second.aces >= 1)", 3),
    ("first.spades > 5 or first.hearts > 5 and 1 == 0", 0), ("1 == 1 or 0 == 1 and 1 == 0", 1),
])
def test_values(text, value):
    assert Expression(text).evaluate(HANDS) == value
    if value in (0, 1) and any(op in text for op in ("<", ">", "=")):
        assert Constraint(text).holds(HANDS) == bool(value)


@pytest.mark.parametrize("text, column", [
    ("1", 1), ("first.hearts", 1), ("first.aces + 1", 1), ("(2)", 1),
    ("first.aces >= 1 and 2", 21), ("not first.aces", 5), ("first.aces or second.aces >= 1", 1),
    ("top(first, H, 9) >= 1", 15), ("top(first, H, 0) >= 1", 15),
])
def test_a_constraint_must_be_a_condition(text, column):
    with pytest.raises(ConstraintError) as info:
        Constraint(text)
    assert f"at column {column}:" in str(info.value)


@pytest.mark.parametrize("text, message, column", [
    ("first.spade > 1", "unknown attribute", 7),
    ("first.spades >> 2", "expected a number", 15),
    ("top(first, X, 2)", "needs a suit", 12),
    ("top(first, S)", "expected ','", 13),
    ("first.aces > 1 > 0", "comparisons do not chain", 16),
    ("__import__('os')", "unexpected character", 12),
    ("first.aces ; 1", "unexpected character", 12),
    ("first.aces >=", "(end of text)", 14),
    ("(first.aces", "expected ')'", 12),
    ("first", "needs an attribute", 1),
    ("first.aces 2", "unexpected text", 12),
])
def test_errors_name_the_place(text, message, column):
    with pytest.raises(ConstraintError) as info:
        Constraint(text)
    assert message in str(info.value)
    assert f"at column {column}:" in str(info.value)
    # The caret stands under the culprit, on the line below the expression, whatever
    # prefix the message is given later.
    _, shown, caret = (f"scenario: constraint 1: {info.value}").split("\n")
    assert shown.endswith(text)
    assert caret.index("^") == shown.index(text) + column - 1


@given(st.integers(-50, 50), st.integers(-50, 50), st.integers(-50, 50))
def test_arithmetic_and_comparisons_match_python(a, b, c):
    text = f"{a} + {b} * {c} >= {a} - {c}"
    assert Constraint(text.replace("- -", "+ ").replace("+ -", "- ")).evaluate(HANDS) == \
        int(a + b * c >= a - c)
