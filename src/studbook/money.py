"""Exact money.

Amounts are exact everywhere in events and the engine: what the log wrote,
never a float. An amount written as a whole number without a currency (tournament
chips, ``1500`` or ``1,500``) is an :class:`int`, every other one a :class:`decimal.Decimal`
(:data:`Money`): an int is exactly the Decimal of exponent 0 in every operation the
engine does but true division (``+ - < min max hash str``, and mixed with Decimals),
and int arithmetic costs a sixth of Decimal's, so a chip hand runs on ints. ``parse_amount`` accepts the forms sites
write: ``$0.04``, ``€1,250.50``, ``1.250,50`` is *not* accepted (ambiguous),
``1,250``, ``0.04 USD``, ``40``, ``1.5K`` (1500), ``2M``.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import cast

Money = Decimal | int
"""An amount: an int for one written as a whole number of chips, else a Decimal."""
ZERO = Decimal(0)

_CURRENCY_SYMBOLS = {"$": "USD", "€": "EUR", "£": "GBP"}
_STRIP = "$€£ \t"
_CODES = ("USD", "EUR", "GBP", "CAD")  # codes written before or after an amount
_SCALES = {"K": 3, "M": 6}  # a figure's suffix, in powers of ten: "1.5K", "2M"

MONEY_DIGITS = 2
"""Decimal places an amount may have: the store keeps amounts as whole hundredths
(cents, or hundredths of a chip), so a finer amount is refused when read."""
MAX_AMOUNT = Decimal(10) ** 12
"""Amounts must be below a million million (units or chips): far above any real stack
or pot, and low enough that sums of millions of them in minor units fit the store's
64-bit integers (2^63 is about 9.2e18). Past it, the hand is rejected when read."""
_CENT = Decimal(1).scaleb(-MONEY_DIGITS)
# The plain forms ("$0.04", "40", "€1250.50"): a sign or none, then figures no finer than
# MONEY_DIGITS and below MAX_AMOUNT by their length alone, so that the Decimal they make
# needs no check. ASCII digits only: Decimal, str.isdigit and \d read other scripts' too,
# and those go the long way, as before.
_WHOLE_DIGITS = len(str(MAX_AMOUNT)) - 1
_PLAIN = re.compile(
    f"[{re.escape(''.join(_CURRENCY_SYMBOLS))}]?([0-9]{{1,{_WHOLE_DIGITS}}}(?:\\.[0-9]{{1,{MONEY_DIGITS}}})?)"
).fullmatch

# Whole chips in other forms than plain digits: thousands grouped ("1,500"), or a comma after
# the figure that the grammar's amount took in (Full Tilt's "antes 6, and is all in"): no
# currency, no point, no scale
_GROUPED_CHIPS = re.compile("[0-9]{1,3}(?:,[0-9]{3})*,?").fullmatch


ZEROS: dict[type, Money] = {int: 0, Decimal: ZERO}
"""The zero of each kind of amount, by its type (``ZEROS[value.__class__]``): ``0`` for an int,
``Decimal(0)`` for a Decimal whatever its exponent; what a hand of such amounts counts from
(:attr:`~studbook.engine.table.Table.zero`)."""


def exact(value: Money) -> Decimal:
    """``value`` as a Decimal, for a true division (an int's ``/`` is a float's): the same
    Decimal, or the int's of exponent 0."""
    return value if value.__class__ is Decimal else Decimal(value)


def half(value: Money) -> Money:
    """Half of an amount, exact: an int's when it is an even number of chips (so a chip
    hand's figures stay ints), else the Decimal's (``exact(value) / 2``: never a float)."""
    if value.__class__ is int and not value % 2:
        return value // 2
    return exact(value) / 2


def exponent(value: Money) -> int:
    """The power of ten of a finite amount's last digit (``as_tuple``'s exponent,
    which is a letter only for NaN and the infinities; an int's is 0)."""
    return cast(int, exact(value).as_tuple().exponent)


def parse_amount(text: str) -> Money:
    """Parse an amount as written in a log into an exact amount (:data:`Money`); raise ValueError."""
    plain = _PLAIN(text)
    if plain is None:
        value = _parse_checked(text)
        # Chips with their thousands grouped ("1,500 in chips") are whole chips too, an int as
        # the plain digits are: a hand of both would mix (i34r18)
        return int(value) if _GROUPED_CHIPS(text) else value
    figure = plain[1]  # what _parse_checked makes of it, within the limits by its form
    # Chips (plain digits, no currency, no point) as an int: "$1" stays a Decimal, so a cash
    # hand ("$0.10" beside "$1") is all Decimals and never mixes (mixing costs a conversion
    # an operation); "1.5K" comes the long way, a Decimal. (No sign: the group is the text
    # itself, the same object in CPython, so a cash amount pays one identity test; where a
    # Python copies it, chips stay Decimals, as exact.)
    if figure is text and "." not in figure:
        return int(figure)
    return Decimal(figure)


def parse_money(text: str) -> Decimal:
    """Parse an amount of a cash game's money where its log names no currency (Kings Club's
    "44" beside "33.16"): a Decimal whatever its form, as "$44" reads, never whole chips
    (a cash hand's amounts are of one kind); raise ValueError as :func:`parse_amount` does."""
    return exact(parse_amount(text))


def _parse_checked(text: str) -> Decimal:
    """Any written amount, read and then checked against the limits."""
    try:  # the usual forms, "$0.04" or "40": a decimal literal, maybe after a symbol
        value = Decimal(text[1:] if text[:1] in _CURRENCY_SYMBOLS else text)
    except InvalidOperation:
        return _parse_written(text)
    if not value.is_finite():
        raise ValueError(f"not an amount: {text!r}")
    return within_limits(value, text)


def within_limits(value: Decimal, text: object) -> Decimal:
    """``value`` (read from ``text``), or ValueError when it is not below
    :data:`MAX_AMOUNT` or is finer than :data:`MONEY_DIGITS` decimal places:
    the one limit every reader applies, so every command sees the same hands."""
    if not -MAX_AMOUNT < value < MAX_AMOUNT:
        raise ValueError(f"amount {shortened(text)} is over the limit of {MAX_AMOUNT:,} (damaged or not a real amount)")
    if value != value.quantize(_CENT):  # (cheaper than reading the exponent: as_tuple builds a tuple)
        raise ValueError(f"amount {shortened(text)} is finer than 1/{10 ** MONEY_DIGITS} of a unit")
    return value


def shortened(text: object, unit: str = "characters") -> str:
    """A number as written (an amount, a count), cut to a readable length: the
    first 20 and last 8 of its characters, and its length in ``unit``."""
    written = str(text)
    return written if len(written) <= 40 else f"{written[:20]}...{written[-8:]} ({len(written)} {unit})"


def _parse_written(text: str) -> Decimal:
    """Amounts with codes, separators or blanks: "1,250 USD", "USD 1,250", "€ 5", "5€"."""
    cleaned = text.strip().strip(_STRIP)
    for code in _CODES:
        if cleaned.endswith(code):
            cleaned = cleaned[: -len(code)].strip(_STRIP)
        if cleaned.startswith(code):
            cleaned = cleaned[len(code) :].strip(_STRIP)
    cleaned = cleaned.replace(",", "")
    scale = _SCALES.get(cleaned[-1:])  # "1.5K": OnGame's thousands
    if scale:
        cleaned = cleaned[:-1]
    try:
        value = Decimal(cleaned)
        if scale:  # 1500 and 1234.5, as the figure would be written out (not 1.5E+3)
            value = value.scaleb(scale)
            value = value.quantize(Decimal(1)) if exponent(value) > 0 else value
    except InvalidOperation:
        raise ValueError(f"not an amount: {text!r}") from None
    if not value.is_finite():
        raise ValueError(f"not an amount: {text!r}")
    return within_limits(value, text)


def currency_of(symbol: str) -> str | None:
    """ISO code for a currency symbol (``$`` -> ``USD``), None when unknown."""
    return _CURRENCY_SYMBOLS.get(symbol)


def currency_in(written: str) -> str | None:
    """ISO code of an amount as written, by its sign or its code, wherever the
    log put them: ``$5``, ``5 USD``, ``USD 5``, ``5€`` (None when it names none)."""
    for char in written:
        if char in _CURRENCY_SYMBOLS:
            return _CURRENCY_SYMBOLS[char]
    return next((code for code in _CODES if code in written), None)


def format_amount(value: Money, symbol: str = "") -> str:
    """Write an amount the way PokerStars does: ``$0.04``, ``$1``, ``40``."""
    amount = exact(value)  # (an int: chips, written as they are)
    if amount == amount.to_integral_value():
        text = str(int(amount))
    elif exponent(amount) >= -2:
        text = format(amount.quantize(Decimal("0.01")), "f")
    else:
        text = format(amount, "f")
    return f"{symbol}{text}"


# ---------------------------------------------------------------------------
# Which money a figure is in: the one rule every money figure shown follows

CASH, TOURNAMENT, PLAY_MONEY = "cash", "tournament", "play-money"
"""The kinds of game (``studbook.filters.game_kind``): real money, tournament chips, play money."""

SITE_CURRENCY: dict[str, str] = {
    # KingsClub writes amounts without a sign or code; FPDB's KingsClubToFpdb.py
    # (determineGameType) takes every cash table as USD, and its regression logs
    # are named "...-USD-...".
    "kingsclub": "USD",
    # Winning Poker Network (Americas Cardroom): the older client ("Game started
    # at:") writes no currency; FPDB's WinningToFpdb.py (_determineGameType1) takes
    # its cash tables as USD (play money only at "PM " tables); the newer client
    # writes dollars.
    "winning": "USD",
}
"""The currency of a site's cash games where its logs name none, with its source.
A site not listed here whose log names no currency is in an unknown currency."""


def cash_currency(site: str, written: str | None) -> str | None:
    """The currency of a cash game: the log's (``written``), else the site's known
    one (:data:`SITE_CURRENCY`), else None (unknown)."""
    return written or SITE_CURRENCY.get(site)


def hand_money(site: str, currency: str | None, *, tournament: bool,
               play_money: bool) -> tuple[str, str | None]:
    """A hand's kind of game and the currency of its money (:func:`cash_currency`;
    None for tournament chips and play money), from its header's facts."""
    kind = TOURNAMENT if tournament else PLAY_MONEY if play_money else CASH
    return kind, cash_currency(site, currency) if kind == CASH else None


def money_label(kind: str, currency: str | None) -> str:
    """What a money figure of this kind of game is in: the currency's code, or
    'tournament chips', 'play money', 'unknown currency' (never plain 'chips' for
    a cash game)."""
    if kind == TOURNAMENT:
        return "tournament chips"
    if kind == PLAY_MONEY:
        return "play money"
    return currency or "unknown currency"


def money_text(value: Money, kind: str, currency: str | None) -> str:
    """A money figure with what it is in: ``27.44 USD``, ``35020 tournament chips``
    (chips whole where they are whole), ``-0.02 unknown currency``."""
    value = exact(value)
    if kind != CASH and value == value.to_integral_value():
        figure = str(int(value))
    elif kind != CASH:
        figure = format(value.normalize(), "f")
    else:
        figure = format(value.quantize(Decimal("0.01")), "f")
    return f"{figure} {money_label(kind, currency)}"
