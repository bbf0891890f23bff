"""PartyPoker: 7 Card Stud and Stud Hi-Lo hand histories.

Party writes every figure in brackets as the chips the action puts in
("raises [$2 USD]" from a player with $1 in is a raise to $3); the shared
:class:`~studbook.sites.ledger.Ledger` turns that into events.py's increment
and total. Logs carry NUL bytes (dropped by the decoder), list the seats out
of order (sorted here), show only the hero's cards, have no showdown marker
and no summary, and date hands with a zone abbreviation ("EEST").
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime

from studbook.events import (
    ActionKind, ChatterKind, Event, HandHeader, Stakes, Street, Structure, Tournament,
)
from studbook.read import split_at_starts
from studbook.sites.bovada import FIRST_NUMBER
from studbook.read.split import NEXT_LINES
from studbook.sites.lines import (
    Fields, Head, LineBuilder, LineFormat, SkipHand, amount, cards, game_variant, local_to_utc, not_shown_as_mucks,
    pot_number, skip_reason, stud_structure,
)

# Zone abbreviations Party writes, as regions (daylight time follows the date).
ZONES = {
    "EDT": "America/New_York", "EST": "America/New_York", "ET": "America/New_York",
    "PDT": "America/Los_Angeles", "PST": "America/Los_Angeles", "GMT": "UTC", "UTC": "UTC",
    "BST": "Europe/London", "CET": "Europe/Paris", "CEST": "Europe/Paris",
    "EET": "Europe/Helsinki", "EEST": "Europe/Helsinki",
}  # fmt: skip
_MONTHS = {m: i for i, m in enumerate(
    ("January", "February", "March", "April", "May", "June", "July", "August", "September",
     "October", "November", "December"), start=1)}  # fmt: skip
_LIMIT_WORDS = {Structure.FIXED: "FL", Structure.POT: "PL", Structure.NO: "NL"}
_STREETS = {"Fourth street": Street.FOURTH, "Fifth street": Street.FIFTH,
            "Sixth street": Street.SIXTH, "River": Street.SEVENTH}  # fmt: skip
_CHATTER = {" has joined the table": ChatterKind.JOIN, " has left the table": ChatterKind.LEAVE,
            " is sitting out": ChatterKind.SIT_OUT, " has returned": ChatterKind.RETURN,
            " is disconnected": ChatterKind.DISCONNECT,
            " has been reconnected": ChatterKind.RECONNECT}  # fmt: skip

# A hand starts with its "Game #N starts." line when there is one (then a blank line, and any
# lines a log puts between: read.split.NEXT_LINES), else with its "#Game No" line.
HAND_START = re.compile(rf"^(?:Game #[0-9]+ starts\.{NEXT_LINES})?#Game No : ([0-9]+)", re.M)
# Detection: search for the header's literal text, then check that it starts a line
# (a lookbehind): ``^`` would be tried at every offset of other sites' files, ten times slower.
# A file holds a hand header exactly when a line starts "#Game No : <digit>".
_DETECT = re.compile(r"#Game No : (?<=^#Game No : )[0-9]", re.M)


# The header lines' fields (partypoker.lark): the limit, the game, the buy-in and the
# fee (either may be missing), [the tournament, its level, small bet, big bet, ante,]
# then the date's month, day, time, zone and year.
_TourneyHead = tuple[str, str, str | None, str | None, str, str, str, str, str]
_TourneyGame = tuple[str, str, str | None, str | None, str, str, str, str, str, str, str, str, str, str]


def party_started(month: str, day: str, clock: str, zone: str, year: str) -> tuple[str, datetime | None]:
    """The start time as written and in UTC."""
    written = f"{month} {day}, {clock} {zone} {year}"
    hour, minute, second = (int(x) for x in clock.split(":"))
    local = datetime(int(year), _MONTHS[month], int(day), hour, minute, second)
    return written, local_to_utc(local, ZONES.get(zone))


class _Head(Head, total=False):
    limit: str  # "FL", "PL" or "NL"


class PartyBuilder(LineBuilder):
    SITE = "partypoker"
    IMPLIED_SHOWDOWN = True
    STREETS = _STREETS
    HANDLERS = {
        "STARTS": "skip", "GAME_NO": "hand_number", "HISTORY": "skip", "STUD_GAME": "stud_game",
        "TOURNEY_GAME": "tourney_game", "TOURNEY_HEAD": "tourney_head", "OTHER_GAME": "other_game",
        "TABLE": "table", "BUTTON": "button", "INFO_PLAYERS": "players", "SEAT": "seat", "INFO_TRNY": "tourney_line",
        "STAKES_ANTES": "stakes_line", "ANTE": "player_ante", "DEALING": "third_street", "STREET": "street_named",
        "DEAL": "deal", "OPENS": "skip", "BRING_IN": "player_bring_in", "COMPLETE": "player_raise_by_chips",
        "BET": "bet", "CALL": "player_call", "RAISE": "player_raise_by_chips", "ALL_IN": "player_all_in", "CHECK": "player_check",
        "FOLD": "player_fold", "SHOW": "show", "MUCK": "muck", "NOSHOW": "noshow", "COLLECT": "collect",
        "NO_LOW": "no_low_marker", "CHATTER": "chatter", "FINISH": "tournament_finish",
    }  # fmt: skip
    head: _Head


    # -- header ------------------------------------------------------------

    def stud_game(self, kind: str, f: tuple[str, str, str, str, str, str, str, str, str], line: int) -> None:
        small, big, code, game, *when = f
        self.head.update({"small": small, "big": big, "currency": code, "game": game,
                          "limit": _LIMIT_WORDS[stud_structure(game)]})  # fmt: skip
        self.head["started"], self.head["started_utc"] = party_started(*when)

    def tourney_game(self, kind: str, f: _TourneyGame, line: int) -> None:
        limit, game, buy_in, fee, tournament, level, small, big, ante, month, day, clock, zone, year = f
        self.head.update({"small": small, "big": big, "ante": ante, "tournament_id": tournament, "level": level})
        self.tourney_head(kind, (limit, game, buy_in, fee, month, day, clock, zone, year), line)

    def tourney_head(self, kind: str, f: _TourneyHead, line: int) -> None:
        limit, game, buy_in, fee, *when = f
        self.head.update({"game": game, "limit": limit,
                          "buy_in": f"{buy_in} + {fee}" if buy_in and fee else buy_in or fee})  # fmt: skip
        self.head["started"], self.head["started_utc"] = party_started(*when)

    def tourney_line(self, kind: str, f: tuple[str, str], line: int) -> None:
        self.head["tournament_id"], self.head["level"] = f

    def stakes_line(self, kind: str, f: tuple[str, str, str | None], line: int) -> None:
        self.head["small"], self.head["big"], self.head["ante"] = f

    def other_game(self, kind: str, f: Fields, line: int) -> None:
        game = str(f[0])
        game = game.split(" - ")[0]
        raise SkipHand(game, skip_reason(game))

    def table(self, kind: str, f: tuple[str, str], line: int) -> None:
        name, money = f
        self.head["table"] = name
        self.head["play_money"] = money == "Play Money"

    def button(self, kind: str, f: tuple[str], line: int) -> None:
        self.head["button"] = int(f[0])

    def players(self, kind: str, f: tuple[str, str | None], line: int) -> None:
        if f[1]:  # a version that writes the table's size
            self.head["max_seats"] = int(f[1])

    def final_header(self) -> HandHeader:
        h = self.head
        game = h["game"]
        small, big = h["small"], h["big"]  # (a KeyError when no line gave them, before the start)
        written, utc = h["started"], h["started_utc"]
        tournament = h.get("tournament_id")
        ante = h.get("ante")
        play = h.get("play_money", False)
        return HandHeader(
            site=self.SITE, hand_id=h["hand_id"],
            variant=game_variant(game),
            structure={"FL": Structure.FIXED, "PL": Structure.POT}.get(h["limit"], Structure.NO),
            game=game, stakes=Stakes(amount(small), amount(big), ante=amount(ante) if ante else None),
            currency=None if tournament or play else h.get("currency") or "USD",
            play_money=play,
            tournament=Tournament(id=tournament, buy_in=h["buy_in"], level=h["level"]) if tournament else None,
            table=h["table"], max_seats=h.get("max_seats"),
            button=h.get("button") or None,
            started=written, started_utc=utc,
        )  # fmt: skip

    # -- seats, antes, cards -------------------------------------------------
    def seat(self, kind: str, f: tuple[str, str, str, str | None], line: int) -> None:
        seat, player, stack, _code = f
        self.add_seat(line, int(seat), str(player), amount(stack))

    def deal(self, kind: str, f: Fields, line: int) -> None:
        player, shown = f
        self.add_new_cards(line, str(player), cards(str(shown).strip()))

    # -- betting ---------------------------------------------------------------

    def bet(self, kind: str, f: Fields, line: int) -> None:
        player, _double, chips, _code = f
        self.add_action(line, str(player), ActionKind.BET, chips=amount(chips))


    # -- showdown and award ------------------------------------------------------
    def show(self, kind: str, f: Fields, line: int) -> None:
        player, shown, description = f
        self.add_show(line, str(player), cards(str(shown).replace(",", "")), (description or "").strip() or None)

    def muck(self, kind: str, f: Fields, line: int) -> None:
        player, shown, _description = f
        self.add_muck(line, str(player), cards(str(shown).replace(",", "")))

    def noshow(self, kind: str, f: Fields, line: int) -> None:
        # the winner of an uncontested pot, or a loser at showdown: settled in finish()
        self.add_noshow(line, str(f[0]))

    def collect(self, kind: str, f: Fields, line: int) -> None:
        player, chips, _code, pot, _rest = f
        self.add_collect(line, str(player), amount(str(chips)), pot_number(pot))

    def chatter(self, kind: str, f: Fields, line: int) -> None:
        player, what = f
        self.add_chatter(line, _CHATTER.get(str(what), ChatterKind.OTHER), player)

    def tournament_finish(self, kind: str, f: Fields, line: int) -> None:
        player, place, prize, winner = f
        self.add_finish(line, str(player or winner), place, prize)

    def finish(self) -> list[Event]:
        # a seated player who posts no ante while others do is sitting out
        posted = self.ledger.in_hand
        self.seats = sorted((s if s.player in posted or not posted else replace(s, sitting_out=True)
                             for s in self.seats), key=lambda s: s.seat)  # fmt: skip
        return not_shown_as_mucks(self.events, self.ledger.live())


KINDS = {
    "STARTS": "'Game # starts' line", "GAME_NO": "'#Game No' line", "HISTORY": "hand history line",
    "STUD_GAME": "game and stakes", "TOURNEY_GAME": "game and stakes", "TOURNEY_HEAD": "game", "OTHER_GAME": "game",
    "TABLE": "table line", "BUTTON": "button line", "INFO_PLAYERS": "number of players",
    "SEAT": "seat line", "INFO_TRNY": "tournament line", "STAKES_ANTES": "stakes line", "ANTE": "ante",
    "DEALING": "** Dealing **", "STREET": "street marker", "DEAL": "'Dealt to' line",
    "OPENS": "'opens' line", "BRING_IN": "bring-in", "COMPLETE": "completion", "BET": "bet",
    "CALL": "call", "RAISE": "raise", "ALL_IN": "all-in", "CHECK": "check", "FOLD": "fold",
    "SHOW": "shows", "MUCK": "doesn't show", "NOSHOW": "does not show", "COLLECT": "wins",
    "NO_LOW": "no low hand", "FINISH": "tournament finish", "$END": "end of hand",
}  # fmt: skip

FORMAT = LineFormat(
    name="partypoker", grammar_name="partypoker", builder=PartyBuilder, header=HAND_START, detector=_DETECT,
    kinds=KINDS, splitter=split_at_starts, hand_id_pattern=FIRST_NUMBER,
)

__all__ = ["FORMAT"]
