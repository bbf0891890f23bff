"""Site rule profiles: where a real site's logs consistently differ from RULES.md.

A :class:`RuleProfile` is plain data. The engine reads it and never branches on
a site's name; every option that differs from :data:`DEFAULT` must be proven
by a test on a real hand of that site (``tests/test_engine_profiles.py``).

Look a profile up with :func:`get_profile` (unknown names give :data:`DEFAULT`,
renamed for the site); add one with :func:`register`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

FirstSkipAllIn = Literal["next_clockwise", "best_active", "either"]
ShowOrderNoBet = Literal["unchecked", "first_to_act", "deal_order"]
OddChip = Literal["any", "deal_order"]
DealStart = Literal["lowest_seat", "after_button"]


@dataclass(frozen=True, slots=True)
class RuleProfile:
    """Options of one site's house rules and log habits. Defaults follow RULES.md."""

    name: str = "default"

    # bet.cap: bets a round allows (the bet or completion plus raises).
    cap_bets: int = 4
    # bet.cap: no cap once only two players are left in the hand (house rule).
    uncapped_heads_up: bool = False

    # order.first / showdown / deal.order: where dealing starts. Stud tables on
    # most sites have no button; "lowest_seat" deals from the lowest occupied
    # seat, "after_button" from the seat after the header's button when given.
    deal_start: DealStart = "lowest_seat"
    # deal.order: the log lists every street's deals in dealing order (so the
    # order of its lines can be checked).
    deals_in_order: bool = False
    # deal.pattern: the log prints every live player's up card on 3rd-6th street,
    # so a live player without one was not dealt.
    logs_every_up_card: bool = False

    # order.first: when the best board is all-in and cannot act.
    first_skip_all_in: FirstSkipAllIn = "either"

    # showdown.order: who shows first when nobody bet the final round.
    show_order_no_bet: ShowOrderNoBet = "unchecked"
    # cards.consistent: shown hands list cards in dealing order (down, down, up x4, down).
    shows_in_deal_order: bool = False

    # showdown.award: who receives the odd chip among tied hands
    # ("any": each tied winner gets the even share or one chip more).
    odd_chip_tie: OddChip = "any"

    # pot.uncalled: the log always returns an uncalled bet with its own line.
    logs_uncalled: bool = True


DEFAULT = RuleProfile()

# PokerStars: see tests/test_engine_profiles.py for the real hands behind each option.
POKERSTARS = RuleProfile(
    name="pokerstars",
    deal_start="lowest_seat",
    deals_in_order=True,
    logs_every_up_card=True,
    shows_in_deal_order=True,
)

_REGISTRY: dict[str, RuleProfile] = {"default": DEFAULT, "pokerstars": POKERSTARS}


def register(profile: RuleProfile) -> None:
    """Add or replace a site's profile."""
    _REGISTRY[profile.name] = profile


def get_profile(site: str | None) -> RuleProfile:
    """The profile of ``site``; the default rules (named after the site) when unknown."""
    if not site:
        return DEFAULT
    found = _REGISTRY.get(site.lower())
    if found is not None:
        return found
    return replace(DEFAULT, name=site.lower())


def profiles() -> dict[str, RuleProfile]:
    """All registered profiles by name."""
    return dict(_REGISTRY)


__all__ = ["DEFAULT", "POKERSTARS", "RuleProfile", "get_profile", "profiles", "register"]
