"""Rejection messages name line kinds the way a reader of the log knows them.

A hand that breaks its site's grammar is rejected with "<kind> out of place
(expected ...)" or "hand ends early, truncated? (expected ...)", the kinds
taken from the site's ``kinds`` table; a terminal missing there would show
as its grammar name (``NEW_CHATTER``) instead.
"""

from __future__ import annotations

import pytest

from studbook.events import Rejected
from studbook.parse import parse_text
from studbook.sites import get_site, site_names
from studbook.sites.lines import LineFormat

TEXT_SITES = tuple(name for name in site_names() if isinstance(get_site(name), LineFormat))


@pytest.mark.parametrize("name", TEXT_SITES)
def test_every_line_kind_has_a_name(name: str) -> None:
    fmt = get_site(name)
    assert isinstance(fmt, LineFormat)
    terminals = fmt.grammar().terminals
    unnamed = [t for t in terminals if not t.startswith("_") and t != "CHATTER" and t not in fmt.kinds]
    assert unnamed == []


def test_truncated_winning_hand_lists_kinds_by_name() -> None:
    text = ("Game started at: 2016/8/2 11:17:19\n"
            "Game ID: 693977667 1/2 (PRR) Leyak (Seven Cards Stud)\n"
            "Seat 1: ChazDazzle (10).\n")  # fmt: skip
    (result,) = list(parse_text(text, site="winning"))
    assert isinstance(result, Rejected) and result.reason.startswith("hand ends early, truncated? (expected ")
    assert result.hand_id == "693977667"
    assert "seat line" in result.reason and "CHATTER" not in result.reason
