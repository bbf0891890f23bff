"""PokerStars: 7 Card Stud, Stud Hi/Lo and Razz hand histories.

The grammar (``grammars/pokerstars.lark``) has one terminal per line kind
and rules that fix the order of sections, so the LALR parser both classifies
the lines and checks the structure of the hand in one pass, without a tree
(every rule is inlined: a parse is the hand's flat list of line tokens).
:class:`~studbook.sites.lines.LineBuilder` runs Lark's tables with a lean
loop and calls :class:`_Builder`'s handler for each line, the line's fields
being the regex groups of its terminal. PokerStars writes its figures in
events.py's terms already, so the handlers make the events directly (no
ledger), with the fast record makers: this is the bulk-import path.
"""

from __future__ import annotations

import functools
import re
from decimal import Decimal

from studbook.cards import Card
from studbook.events import COMPLETE, RAISE, SAID, SEVENTH, THIRD, HandHeader, Stakes, Street, Tournament
from studbook.money import Money, currency_of
from studbook.read.grammar import Fields, LineGrammar, load_grammar
from studbook.read.limits import within_count
from studbook.read.memo import Memo, TextMemo
from studbook.sites.lines import (
    ACTION_TERMINALS, AMOUNTS, CARDS, CHATTER_TERMINALS, COMMON_KINDS, OUTCOMES, STREET_TERMINALS, ZONES, Head,
    LineBuilder, LineFormat, OtherGame, PlayerAmount, PlayerOnly,
    amount, cards, pot_number, stud_structure, to_utc, WRITTEN_AMOUNT,
)
from studbook.sites.lines import game_variant as lines_game_variant
from studbook.sites.makers import (
    make_action, make_ante, make_capped, make_chatter, make_collect, make_deal, make_deal_community,
    make_header, make_muck, make_no_low, make_no_show, make_open_pair, make_pot_summary, make_seat,
    make_seat_summary, make_show, make_showdown, make_stakes, make_street, make_tournament, make_uncalled,
)

HEADER_START = re.compile(r"^PokerStars (?:Home Game )?(?:Zoom )?(?:Hand|Game) #(\d+)", re.M)
_TOURNEY_SUMMARY = re.compile(r"^PokerStars Tournament #\d+", re.M)

# What each line kind is called in messages.
KINDS: dict[str, str] = {
    "HAND_NO": "hand header", "CLUB": "home-game club", "TOURNEY": "tournament id",
    "STUD_CASH": "game and stakes", "STUD_MIX": "game and stakes", "STUD_TOURNEY": "game",
    "OTHER_GAME": "game", "LEVEL": "tournament level", "TIME": "start time",
    "TABLE": "table line", "SEAT": "seat line", "ANTE": "ante",
    "THIRD": "*** 3rd STREET ***", "FOURTH": "*** 4th STREET ***", "FIFTH": "*** 5th STREET ***",
    "SIXTH": "*** 6th STREET ***", "RIVER": "*** RIVER ***", "DEAL": "'Dealt to' line",
    "BRING_IN": "bring-in", "COMPLETE": "completion", "BET": "bet", "CALL": "call",
    "RAISE": "raise", "CHECK": "check", "FOLD": "fold", "CAPPED": "'Betting is capped'",
    "PAIR_ON_BOARD": "'Pair on board' notice", "UNCALLED": "uncalled bet returned",
    "SHOWDOWN": "*** SHOW DOWN ***", "SHOW": "shows", "MUCK": "mucks", "NOSHOW": "doesn't show",
    "COLLECT": "collected", "NO_LOW": "'No low hand qualified'", "SUMMARY": "*** SUMMARY ***",
    "TOTAL": "'Total pot' line", "BOARD": "'Board' line", "SEAT_SUMMARY": "summary seat line",
    "SAID": "chat", "JOIN": "join", "LEAVE": "leave", "SIT_OUT": "sitting out",
    "RETURN": "return", "DISCONNECT": "disconnect", "RECONNECT": "reconnect",
    "TIMEOUT": "timeout", "CHATTER_OTHER": "table message", "FINISH": "tournament finish",
    "HAND_CANCELLED": COMMON_KINDS["HAND_CANCELLED"], "$END": "end of hand",
}

_STREET_OF = STREET_TERMINALS
_ACTION_OF = ACTION_TERMINALS
_CHATTER_OF = CHATTER_TERMINALS
_REAL_BUY_IN = re.compile(r"[$€£]|Freeroll|[A-Z]{2}")
# whether a buy-in is real money (a currency named, or a freeroll), by its text: a log's hands repeat
# their tournament's buy-in (issue 34: a regex's search was some 2.5 k instructions every hand)
_REAL_BUY_INS: TextMemo[bool] = TextMemo(lambda buy_in: _REAL_BUY_IN.search(buy_in) is not None, 256)
# a header's tournament and stakes, by what the header writes of them: a log's hands repeat
# them, read once each (issue 34: two objects and two amounts made every hand)
_TOURNAMENTS: Memo[tuple[str, str | None, str | None, str | None], Tournament] = Memo(
    lambda written: make_tournament(*written), 256)
_STAKES: Memo[tuple[str, str, str | None], Stakes] = Memo(
    lambda written: make_stakes(amount(written[0]), amount(written[1]), None, None), 256)
# a summary line's seat number by its text, held to the one limit for counts once a text (issue 34:
# a summary seat line a player, each a Python call to within_count)
_SUMMARY_SEATS: TextMemo[int] = TextMemo(lambda seat: within_count(int(seat), "seat number"), 256)
# a seat line's seat, a table's size and button (screened with the hand), by their text
_NUMBERS: TextMemo[int] = TextMemo(int, 256)
_POTS: TextMemo[int] = TextMemo(pot_number, 256)  # a collect line's pot ("pot", "side pot-2")
# The amount and card memos' look-up and store, bound once: a method of a memo (a dict's
# subclass) is looked up the generic way at each call, never specialised (issue 34). A hit by
# the bound ``get`` is some 60 instructions cheaper than by ``amount`` (the bound ``__getitem__``,
# flagged METH_COEXIST, which the specialiser never keeps): the lines read most, antes and bets
# (some 19 a simulated hand), read their amounts so
_known_amount, _new_amount = AMOUNTS.get, AMOUNTS.remember
_known_cards, _new_cards = CARDS.get, CARDS.remember
_known_outcome, _new_outcome = OUTCOMES.get, OUTCOMES.remember
_SIDE_POT = re.compile(rf"Side pot(?:-[0-9]+)? ({WRITTEN_AMOUNT})\.")

# The fields of each line kind: its terminal's groups in pokerstars.lark, None
# where the group is optional (the lines' own types; ``Fields`` where a handler
# reads no field or many kinds).
_Seat = tuple[str, str, str, str | None, str | None]  # seat, player, stack, bounty, status
_Deal = tuple[str, str, str | None, str | None]  # player, [cards], [cards or hidden], bare cards
_Raise = tuple[str, str, str, str | None]  # player, by, to, all-in mark
_Uncalled = tuple[str, str]  # amount, player
_Show = tuple[str, str, str | None]  # player, cards, description
_Muck = tuple[str, str | None]  # player, cards
_Collect = tuple[str, str, str]  # player, amount, pot
_SeatSummary = tuple[str, str, str]  # seat, player, outcome
_Stakes = tuple[str, str, str | None]  # small and big bet as written, currency code
_Level = tuple[str | None, str, str, str, str | None]  # match round, level, stakes
_Time = tuple[str, str | None, str | None, str | None]  # start, zone, the other clock's start and zone
_Table = tuple[str, str | None, str | None, str | None]  # name, max seats, play money mark, button


class _Head(Head, total=False):
    """The header as PokerStars writes it: a tournament's level gives the stakes."""

    stakes: _Stakes  # the game line's
    level_stakes: _Stakes  # the level's


def grammar() -> LineGrammar:
    """The compiled grammar, one per process."""
    return load_grammar("pokerstars")


# the game's words, read once per game name (sites/lines.py)
game_variant = functools.lru_cache(maxsize=256)(lines_game_variant)
game_structure = functools.lru_cache(maxsize=256)(stud_structure)


class _Builder(LineBuilder):
    """Turns the lines of one hand into a Hand (or a Skipped)."""

    SITE = "pokerstars"
    NO_HEADER = "no table line"
    HANDLERS = {
        "HAND_NO": "hand_no", "CLUB": "club", "TOURNEY": "tourney", "STUD_CASH": "stud_cash",
        "STUD_MIX": "stud_mix", "STUD_TOURNEY": "stud_tourney", "OTHER_GAME": "other_game",
        "LEVEL": "level", "TIME": "time", "TABLE": "table", "SEAT": "seat", "ANTE": "ante",
        "DEAL": "deal", **dict.fromkeys(_STREET_OF, "street_start"),
        "BRING_IN": "bet", "BET": "bet", "CALL": "bet", "COMPLETE": "complete", "RAISE": "raise_",
        "CHECK": "check_fold", "FOLD": "check_fold", "CAPPED": "capped", "PAIR_ON_BOARD": "pair_on_board",
        "UNCALLED": "uncalled", "SHOWDOWN": "showdown", "SHOW": "show", "MUCK": "muck",
        "NOSHOW": "noshow", "COLLECT": "collect", "NO_LOW": "no_low", "SUMMARY": "skip",
        "TOTAL": "total", "BOARD": "board", "SEAT_SUMMARY": "seat_summary", "SAID": "said",
        **dict.fromkeys(_CHATTER_OF, "chatter"), "FINISH": "tournament_finish",
    }  # fmt: skip

    FIRST_STREET = Street.THIRD
    # "8-Game (Hold'em No Limit)", "Omaha Pot Limit": OTHER_GAME's fields are the mix, the game in the
    # mix, the game (not in a mix). Skipped at its game, the level and time not made (a skipped hand
    # records neither); a header read in one match is skipped so with no builder made (LineFormat).
    OTHER_GAME = OtherGame("OTHER_GAME", (1, 2), ("HAND_NO", 1))
    head: _Head
    street: Street  # never None here: a hand starts on 3rd street
    # (a class default, not set in an __init__ of this class's own: one Python call less a hand,
    # issue 34; read and set on the rare lines with a community card only)
    community: Card | None = None

    # -- header ------------------------------------------------------------
    def hand_no(self, kind: str, f: tuple[str | None, str], line: int) -> None:
        self.head["hand_id"] = f[1]  # (the first field: "Home Game ")

    def club(self, kind: str, f: tuple[str], line: int) -> None:
        self.head["club"] = f[0]

    def tourney(self, kind: str, f: tuple[str, str | None], line: int) -> None:
        head = self.head
        head["tournament_id"], head["buy_in"] = f

    def stud_cash(self, kind: str, f: tuple[str, str, str, str | None], line: int) -> None:
        game, small, big, code = f
        head = self.head
        head["game"] = game
        head["stakes"] = (small, big, code)

    def stud_mix(self, kind: str, f: tuple[str, str, str | None, str | None, str | None], line: int) -> None:
        mix, game, small, big, code = f
        head = self.head
        head["mix"] = mix
        head["game"] = game
        if small is not None and big is not None:  # (the grammar's STAKES: both or neither)
            head["stakes"] = (small, big, code)

    def stud_tourney(self, kind: str, f: tuple[str], line: int) -> None:
        self.head["game"] = f[0]

    def level(self, kind: str, f: _Level, line: int) -> None:
        _round, level, small, big, code = f
        head = self.head
        head["level"] = level
        head["level_stakes"] = (small, big, code)

    def time(self, kind: str, f: _Time, line: int) -> None:
        when, zone, other_when, other_zone = f
        written = when + (f" {zone}" if zone else "")
        if other_when:
            written += f" [{other_when}" + (f" {other_zone}" if other_zone else "") + "]"
        utc = to_utc(other_when, other_zone) if other_when else None
        head = self.head
        head["started"] = written
        head["started_utc"] = utc or to_utc(when, zone)

    def table(self, kind: str, f: _Table, line: int) -> None:
        name, max_seats, play_money, button = f
        self.header = _header(self.head, name, max_seats, play_money is not None, button)

    # -- seats, antes, streets ---------------------------------------------
    def seat(self, kind: str, f: _Seat, line: int) -> None:
        seat, player, stack, _bounty, status = f
        self.seat_name(player)
        sitting_out = status == " is sitting out"
        # A stack is mostly new (it moves with every pot: 6.2 of a simulated hand's 7.6), so it
        # is looked up and remembered without the memo's __missing__ (see read/memo.py); an
        # amount of nought reads again, as the same amount
        stack_amount = _known_amount(stack) or _new_amount(stack)
        self.seats.append(make_seat(self.file, line, _NUMBERS[seat], player, stack_amount,
                                sitting_out, status is not None and not sitting_out))  # fmt: skip

    def ante(self, kind: str, f: PlayerAmount, line: int) -> None:
        player, value, all_in = f
        chips = _known_amount(value) or _new_amount(value)  # (a hit by get: see _known_amount)
        self.events.append(make_ante(self.file, line, player, chips, all_in is not None))

    def street_start(self, kind: str, f: Fields, line: int) -> None:
        self.street = street = _STREET_OF[kind]
        self.events.append(make_street(self.file, line, street))
        if f and f[0]:
            self.community = Card.parse(f[0])
            self.events.append(make_deal_community(self.file, line, self.community))

    def deal(self, kind: str, f: _Deal, line: int) -> None:
        player, first, second, bare = f
        # the cards before are new once a street (a run the last street's line read, and its
        # new card): looked up and remembered as a seat's stack is (above)
        shown = _known_cards(first) or _new_cards(first)
        written = second or bare
        hidden = False
        try:
            new = cards(written) if written else ()
        except ValueError:  # "[of]": a card PokerStars printed but did not show
            new, hidden = (), True
        street = self.street
        if street is THIRD:  # "[a b] [c]", "[c]" or "[a b c]" (events' module names, tested with is)
            if new or hidden:
                down, up = shown, new
            elif len(shown) == 1:
                down, up = (), shown
            else:
                down, up = shown[:2], shown[2:]
            self.events.append(make_deal(self.file, line, player, street, down, up, ()))
        elif street is SEVENTH:  # "[before] [down]"
            self.events.append(make_deal(self.file, line, player, street, new, (), shown))
        else:  # 4th to 6th street: "[before] [up]"
            self.events.append(make_deal(self.file, line, player, street, (), new, shown))

    # -- betting -------------------------------------------------------------
    def bet(self, kind: str, f: PlayerAmount, line: int) -> None:
        """Bring-in, bet, call: one figure, the chips put in."""
        player, value, all_in = f
        chips = _known_amount(value) or _new_amount(value)  # (a hit by get: see _known_amount)
        self.events.append(make_action(self.file, line, player, _ACTION_OF[kind], chips, None, all_in is not None))

    def complete(self, kind: str, f: PlayerAmount, line: int) -> None:
        player, value, all_in = f
        to = amount(value)
        self.events.append(make_action(self.file, line, player, COMPLETE, to, to,
                                   all_in is not None))  # fmt: skip

    def raise_(self, kind: str, f: _Raise, line: int) -> None:
        player, value, to, all_in = f
        self.events.append(make_action(self.file, line, player, RAISE, amount(value),
                                   amount(to), all_in is not None))  # fmt: skip

    def check_fold(self, kind: str, f: PlayerOnly, line: int) -> None:
        self.events.append(make_action(self.file, line, f[0], _ACTION_OF[kind], None, None, False))

    def capped(self, kind: str, f: Fields, line: int) -> None:
        self.events.append(make_capped(self.file, line))

    def pair_on_board(self, kind: str, f: Fields, line: int) -> None:
        self.events.append(make_open_pair(self.file, line))

    def uncalled(self, kind: str, f: _Uncalled, line: int) -> None:
        value, player = f
        self.events.append(make_uncalled(self.file, line, player, amount(value)))

    # -- showdown and award --------------------------------------------------
    def showdown(self, kind: str, f: Fields, line: int) -> None:
        self.events.append(make_showdown(self.file, line))

    def show(self, kind: str, f: _Show, line: int) -> None:
        player, shown, description = f
        # a shown hand is a new run of cards: looked up and remembered as a deal's are
        self.events.append(make_show(self.file, line, player, _known_cards(shown) or _new_cards(shown), description))

    def muck(self, kind: str, f: _Muck, line: int) -> None:
        player, shown = f
        self.events.append(make_muck(self.file, line, player, cards(shown) if shown else ()))

    def noshow(self, kind: str, f: PlayerOnly, line: int) -> None:
        self.events.append(make_no_show(self.file, line, f[0]))

    def collect(self, kind: str, f: _Collect, line: int) -> None:
        player, value, pot = f
        self.events.append(make_collect(self.file, line, player, amount(value), _POTS[pot], None))

    def no_low(self, kind: str, f: Fields, line: int) -> None:
        self.events.append(make_no_low(self.file, line))

    # -- summary ---------------------------------------------------------------

    def total(self, kind: str, f: Fields, line: int) -> None:
        total, main, sides, rake, _extra = f
        pots: tuple[Money, ...] = ()
        if main is not None:
            pots = (amount(main), *(amount(side) for side in _SIDE_POT.findall(sides or "")))
        self.events.append(make_pot_summary(self.file, line, amount(total), amount(rake), pots))

    def board(self, kind: str, f: Fields, line: int) -> None:
        if self.community is None or cards(f[0]) != (self.community,):
            raise ValueError(f"board [{f[0]}] does not match the river's community card")

    def seat_summary(self, kind: str, f: _SeatSummary, line: int) -> None:
        seat, player, outcome = f
        # a winner's or a shown hand's outcome is mostly new: looked up and remembered as a stack is
        shown, won = _known_outcome(outcome) or _new_outcome(outcome)
        self.events.append(make_seat_summary(self.file, line, _SUMMARY_SEATS[seat], player, outcome, shown, won))

    # -- chatter -----------------------------------------------------------------
    def said(self, kind: str, f: Fields, line: int) -> None:
        player, message = f
        self.events.append(make_chatter(self.file, line, SAID, message or "", player))

    def chatter(self, kind: str, f: Fields, line: int) -> None:
        self.events.append(make_chatter(self.file, line, _CHATTER_OF[kind], self.line_text(line).rstrip(), f[0]))

    def tournament_finish(self, kind: str, f: Fields, line: int) -> None:
        player, place, received, receives = f
        self.add_finish(line, str(player), place, received or receives)


def _header(head: _Head, table: str, max_seats: str | None, play_money: bool, button: str | None) -> HandHeader:
    """The HandHeader from the header's pieces and the table line."""
    game = head["game"]
    level = head.get("level")
    buy_in = head.get("buy_in")
    club = head.get("club")
    tournament_id = head.get("tournament_id")
    stakes = head.get("level_stakes") if level is not None else head.get("stakes")
    if stakes is None:
        raise ValueError("the header gives no stakes")
    small, big, code = stakes
    currency = None
    if level is None:  # chips in tournaments, money at cash tables
        currency = code or currency_of(small[0])
    is_play = play_money or (level is None and currency is None)
    if buy_in is not None and not _REAL_BUY_INS[buy_in]:
        is_play = True  # a buy-in without a currency: play-money chips
    tournament = None
    if tournament_id is not None or level is not None or club is not None:
        tournament = _TOURNAMENTS[(tournament_id or "", buy_in, level, club)]
    return make_header(
        "pokerstars", head["hand_id"], game_variant(game), game_structure(game), game,
        _STAKES[stakes], currency, is_play, tournament,
        head.get("mix"), table, _NUMBERS[max_seats] if max_seats else None,
        _NUMBERS[button] if button else None, head["started"], head["started_utc"],
    )


FORMAT = LineFormat(
    name="pokerstars", grammar_name="pokerstars", builder=_Builder, header=HEADER_START, kinds=KINDS,
    starts=re.compile("PokerStars "), summary=_TOURNEY_SUMMARY,
    summary_note="a PokerStars tournament summary, not a hand history", title="PokerStars",
)

__all__ = ["FORMAT", "HEADER_START", "KINDS", "ZONES", "game_structure", "game_variant", "grammar", "to_utc"]
