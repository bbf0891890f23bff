"""The one limit on every amount read (``money.within_limits``) and a Decimal's
exponent (``money.exponent``), as properties over amounts of every scale."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from studbook.money import MAX_AMOUNT, exponent, parse_amount, within_limits

amounts = st.builds(lambda digits, power: Decimal(digits).scaleb(power),
                    st.integers(-(10**13), 10**13), st.integers(-6, 3))  # fmt: skip


@given(amounts)
def test_an_amount_is_refused_exactly_when_it_is_over_the_limit_or_finer_than_a_hundredth(value: Decimal) -> None:
    over = not -MAX_AMOUNT < value < MAX_AMOUNT
    finer = (value * 100) % 1 != 0
    if over or finer:
        with pytest.raises(ValueError, match="over the limit" if over else "finer than 1/100 of a unit"):
            within_limits(value, str(value))
    else:
        assert within_limits(value, str(value)) is value
        assert parse_amount(format(value, "f")) == value


@given(amounts)
def test_exponent_is_the_power_of_ten_of_the_last_digit(value: Decimal) -> None:
    assert exponent(value) == value.as_tuple().exponent
    assert value.scaleb(-exponent(value)) % 1 == 0


def test_trailing_zeros_past_the_hundredths_are_no_finer_amount() -> None:
    assert within_limits(Decimal("1.2500"), "1.2500") == Decimal("1.25")
    with pytest.raises(ValueError, match="finer than"):
        parse_amount("0.005")
