"""Site rule profiles: where a real site's logs consistently differ from docs/rules.md.

A :class:`RuleProfile` is plain data. The engine reads it and never branches on
a site's name; every option that differs from :data:`DEFAULT` must be proven
by a test on a real hand of that site (``tests/test_engine_profiles.py``).

Look a profile up with :func:`get_profile` (unknown names give :data:`DEFAULT`,
renamed for the site); add one with :func:`register`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Literal

from studbook.betting import RakeFrom
from studbook.read.memo import Memo

FirstSkipAllIn = Literal["next_clockwise", "best_active", "either"]
ShowOrderNoBet = Literal["unchecked", "first_to_act", "deal_order"]
OddChip = Literal["any", "deal_order"]
DealStart = Literal["lowest_seat", "after_button", "first_dealt"]
ShowOrderBet = Literal["last_aggressor", "first_bettor"]
ShowOrderAllIn = Literal["by_betting", "deal_order"]


@dataclass(frozen=True, slots=True)
class RuleProfile:
    """Options of one site's house rules and log habits. Defaults follow docs/rules.md."""

    name: str = "default"

    # bet.cap: bets a round allows (the bet or completion plus raises).
    cap_bets: int = 4
    # bet.cap: no cap once only two players are left in the hand (house rule).
    uncapped_heads_up: bool = False

    # order.first / showdown / deal.order: where dealing starts. Stud tables on
    # most sites have no button; "lowest_seat" deals from the lowest occupied
    # seat, "after_button" from the seat after the header's button when given,
    # "first_dealt" from the player the log deals to first on 3rd street (a site
    # whose button moves but is never logged).
    deal_start: DealStart = "lowest_seat"
    # deal.order: the log lists every street's deals in dealing order (so the
    # order of its lines can be checked).
    deals_in_order: bool = False
    # deal.pattern: the log prints every live player's up card on 3rd-6th street,
    # so a live player without one was not dealt.
    logs_every_up_card: bool = False

    # order.first: when the best board is all-in and cannot act.
    first_skip_all_in: FirstSkipAllIn = "either"

    # showdown.order: the log records the order hands were shown in (False: an XML
    # log that lists the hands with no order, so the rule cannot be checked).
    logs_show_order: bool = True
    # showdown.order: who shows first when the final round had a bet: the last
    # aggressor (docs/rules.md) or the player who made its first bet or completion.
    show_order_bet: ShowOrderBet = "last_aggressor"
    # showdown.order: who shows first when nobody bet the final round.
    show_order_no_bet: ShowOrderNoBet = "unchecked"
    # showdown.order: after an all-in run-out (at most one player could still bet),
    # the same rule as any showdown ("by_betting") or dealing order.
    show_order_all_in: ShowOrderAllIn = "by_betting"
    # showdown.order: after the first hand shown, the others follow clockwise from it
    # (docs/rules.md); True: pot by pot from the last side pot to the main pot, each pot's
    # players clockwise (a player all-in for less shows after those in a side pot).
    shows_side_pots_first: bool = False
    # cards.consistent: shown hands list cards in dealing order (down, down, up x4, down).
    shows_in_deal_order: bool = False

    # showdown.award: who receives the odd chip among tied hands
    # ("any": each tied winner gets the even share or one chip more).
    odd_chip_tie: OddChip = "any"

    # pot.uncalled: the log always returns an uncalled bet with its own line.
    # False: the log never does; the engine returns the unmatched bet itself.
    logs_uncalled: bool = True
    # pot.total: with logs_uncalled=False, the log keeps the uncalled bet in the
    # pot: the stated total and the bettor's collection include it (the engine
    # counts that part as the return).
    uncalled_in_pot: bool = False
    # pot.total: the log states the rake (a summary line, or no rake at all).
    # False: the rake is never written; it is whatever the pot holds beyond
    # what was collected (never negative).
    states_rake: bool = True
    # showdown.award: the log says who collected what. False: a format that may
    # not (PHH without ``winnings``); when a hand has no collection at all, the
    # engine awards each pot as the rules say (``expected_collections``).
    logs_collections: bool = True
    # pot.total: where the summary line has no rake field (a format version
    # that writes "Total Pot($150)" only), the rake is what the pot holds
    # beyond the collections, at most this share of the pot.
    unstated_rake_share: Decimal = Decimal(0)
    # pot.side: where the rake of a hand with side pots comes from: "main_pot" (the
    # main pot, then the next pots in turn where it holds less) or "each_pot" (every
    # pot its share by size, in whole chips; betting.after_rake). What the simulator
    # writes and what expected_collections() awards.
    rake_from: RakeFrom = "main_pot"


DEFAULT = RuleProfile()

# PokerStars: see tests/test_engine_profiles.py for the real hands behind each option.
POKERSTARS = RuleProfile(
    name="pokerstars",
    deal_start="lowest_seat",
    deals_in_order=True,
    logs_every_up_card=True,
    shows_in_deal_order=True,
    shows_side_pots_first=True,
    rake_from="each_pot",
)

# The other sites: tests/test_engine_profiles.py proves each option on the site's real hands.
FULLTILT = RuleProfile(name="fulltilt", deal_start="first_dealt", deals_in_order=True)
WINNING = RuleProfile(name="winning")  # ACR lists the hero's cards first: deals not in order
KINGSCLUB = RuleProfile(name="kingsclub", logs_uncalled=False)
ABSOLUTE = RuleProfile(name="absolute")
BOVADA = RuleProfile(name="bovada", show_order_no_bet="first_to_act", show_order_all_in="deal_order",
                     unstated_rake_share=Decimal("0.05"))  # 2014 ring hands: "Total Pot($150)", no rake field
PARTYPOKER = RuleProfile(name="partypoker", logs_uncalled=False, uncalled_in_pot=True, states_rake=False)
WINAMAX = RuleProfile(name="winamax", logs_uncalled=False, uncalled_in_pot=True, show_order_bet="first_bettor")
ONGAME = RuleProfile(name="ongame")
EVERLEAF = RuleProfile(name="everleaf", logs_uncalled=False, states_rake=False)
IPOKER = RuleProfile(name="ipoker", logs_show_order=False)
MERGE = RuleProfile(name="merge", shows_side_pots_first=True)  # the hero's cards come after everyone else's: deals not in order
# BetOnline: no real log to prove an option on (its reader is learned from other parsers' code): the book's rules
BETONLINE = RuleProfile(name="betonline")
# PHH (pokerkit's format) is not a site's log: no uncalled-bet lines, no rake, ``winnings`` optional,
# and ``sm`` lines name their player, so writers put them in any order (pokerkit's own, or the
# end of the hand where a log showed all-in hands early): the show order is not recorded.
PHH = RuleProfile(name="phh", logs_uncalled=False, states_rake=False, logs_collections=False,
                  logs_show_order=False)

_REGISTRY: dict[str, RuleProfile] = {
    p.name: p for p in (DEFAULT, POKERSTARS, FULLTILT, WINNING, KINGSCLUB, ABSOLUTE, BOVADA, PARTYPOKER,
                        WINAMAX, ONGAME, EVERLEAF, IPOKER, MERGE, BETONLINE, PHH)
}


def _profile_named(site: str) -> RuleProfile:
    """The profile of ``site`` (not empty), looked up by its lower-cased name."""
    return _REGISTRY.get(site.lower()) or replace(DEFAULT, name=site.lower())


_BY_SITE: Memo[str, RuleProfile] = Memo(_profile_named, 256)
""":func:`get_profile`'s answers by the site's name as asked (a reader's own, one of a dozen;
the project's bounded memo, :mod:`studbook.read.memo`): a look-up a hand where the answer was
a lower-cased copy of the name, hashed and looked up (some 1,000 instructions a hand).
Emptied by :func:`register`, so never older than the registry."""


def register(profile: RuleProfile) -> None:
    """Add or replace a site's profile."""
    _REGISTRY[profile.name] = profile
    _BY_SITE.clear()


def get_profile(site: str | None) -> RuleProfile:
    """The profile of ``site``; the default rules (named after the site) when unknown."""
    if not site:
        return DEFAULT
    return _BY_SITE.get(site) or _BY_SITE.remember(site)


def profiles() -> dict[str, RuleProfile]:
    """All registered profiles by name."""
    return dict(_REGISTRY)


__all__ = [
    "ABSOLUTE", "BETONLINE", "BOVADA", "DEFAULT", "EVERLEAF", "FULLTILT", "IPOKER", "KINGSCLUB", "MERGE", "ONGAME",
    "PARTYPOKER", "PHH", "POKERSTARS", "RuleProfile", "WINAMAX", "WINNING", "get_profile", "profiles", "register",
]
