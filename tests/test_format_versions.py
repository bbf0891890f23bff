"""Format versions of each text site: what other years and clients of a site wrote.

Each test edits a real corpus hand with one class of change that another version of
its site made (header fields in another order, header lines in another order, an older
date or header spelling, a game code, the site's other word for an action the engine
knows, the currency written in another place, thousands separators) and checks that
the edited hand reads as the unedited one: the same events (lines and the text written
aside), the same header (the game and start time as written aside), the same status,
violations and net.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from samples import sample_files, sample_path
from studbook.check import check_hand
from studbook.events import Hand, Rejected, Skipped, Variant
from studbook.parse import parse_text, read_file
from studbook.read import decode, read_bytes
from studbook.sites import get_site, site_names
from studbook.sites.lines import LineFormat

TEXT_SITES = tuple(name for name in site_names() if isinstance(get_site(name), LineFormat))
# What a version writes aside from the play: left out of the comparison.
_AS_WRITTEN = {"file", "line", "text", "outcome", "description"}


def _event(event: Any) -> tuple[Any, ...]:
    return (type(event).__name__, *(getattr(event, f.name) for f in dataclasses.fields(event)
                                    if f.name not in _AS_WRITTEN))  # fmt: skip


def reading(result: Hand | Rejected | Skipped) -> tuple[Any, ...]:
    """What a hand says, whatever version wrote it."""
    assert isinstance(result, Hand), result
    check = check_hand(result)
    header = dataclasses.replace(result.header, game="", started="")
    return (header, tuple(_event(e) for e in result.events), tuple(_event(s) for s in result.seats),
            check.status, sorted((v.rule, v.line) for v in check.violations),
            {p.player: p.net for p in check.players})  # fmt: skip


def _text(corpus: Path, name: str) -> str:
    path = sample_path(corpus, name)
    if not path.is_file():
        pytest.skip(f"sample file {name} not found")
    return decode(read_bytes(path)).text


def _hands(text: str, site: str) -> list[Hand | Rejected | Skipped]:
    return [r for r in parse_text(text, file="edited.txt", site=site) if not isinstance(r, Skipped)]


# ---------------------------------------------------------------------------
# One case per class of change: (site, corpus file, pattern, what another version wrote)

PS = "PokerStars/7-Stud-USD-0.04-0.08-200911.txt"
PS_ALLIN = "PokerStars/7-StudHL-USD-0.98-0.12-202302.allin.ante.txt"
FT = "FullTilt/7-Stud-USD-3-6-20106.Steal.from.CO.Success.txt"
FT_ALLIN = "FullTilt/Razz-USD-HUSNG-200-201211.all.in.ante.txt"
BOV = "Bovada/7-StudHL-USD-0.25-0.50-201209.txt"
BOV_MTT = "Bovada/7-Stud-USD-MTT - $10-$1 - 201206.txt"
OG = "OnGame/7-StudHL-USD-0.25-0.50-201008.All.streets.txt"
PARTY = "PartyPoker/7-StudHL-USD-0.50-1.00-201008.txt"
EV = "Everleaf/7-Stud-USD-0.05-0.10.201107.txt"
KC = "KingsClub/7-Stud-USD-44-88-202010.txt"
WX = "Winamax/7-Stud-6max-EUR-25-50-201611._8games_.txt"
WIN = "WinningPoker/7Stud-8max-USD-0.04-0.08-201907.CASHID-TN-Gorham GAMETYPE.txt"
ABS = "Absolute/7-StudHL-USD-0.02-0.04-200903.River.with.mucked.txt"
BO = "handmade/betonline/7-Stud-USD-0.50-1.00-cash.txt"
PS_MIX = "PokerStars/Triple-Stud-USD-2.00-0.20-MTT-201301.txt"
PS_HOME = "PokerStars/8-Game-2max-STT-play-100-201306.homeGame.shootout.txt"
PARTY_MTT = "PartyPoker/7-Stud-USD-MTT-6.00-201205.txt"
WIN_OLD = "WinningPoker/7-Stud-8max-USD-1.00-2.00-201608.HH00000000 G0.txt"

CASES: dict[str, tuple[str, str, str, str]] = {
    # PokerStars: the hand word, the older date and zone spelling, the actions' other words
    "pokerstars hand word": ("pokerstars", PS, r"(?m)^PokerStars Game #", "PokerStars Hand #"),
    "pokerstars old date": ("pokerstars", PS, r"(?m)^(PokerStars .* - )(\d{4}/\d\d/\d\d) ([\d:]+) ET$",
                            r"\1\2 - \3 (ET)"),
    "pokerstars brings in": ("pokerstars", PS, r": brings in for ", ": brings in "),
    "pokerstars all in mark": ("pokerstars", PS_ALLIN, r" and is all-in$", ", and is all in"),
    "pokerstars stakes without code": ("pokerstars", PS, r"(?m)^(PokerStars Game .*) USD\) - ", r"\1) - "),
    # PokerStars.it: the regulator's id of the game after the stakes or the level
    "pokerstars regulator id": ("pokerstars", PS, r"(?m)^(PokerStars Game .* USD\)) - ", r"\1 [AAMS ID: 0D6C4B3A8F5E2F19] - "),
    "pokerstars regulator id adm": ("pokerstars", PS, r"(?m)^(PokerStars Game .* USD\)) - ", r"\1 [ADM ID: 7E21C09A] - "),
    "pokerstars regulator id level": ("pokerstars", PS_MIX, r"(?m)^(PokerStars Hand .* Level [IVXLC]+ \([0-9/]+\)) - ",
                                      r"\1 [ADM ID: 7E21C09A] - "),
    # Full Tilt: the site name as exported, the stakes after the game, Match, (partial),
    # the actions' other words
    "fulltilt site name": ("fulltilt", FT, r"(?m)^Full Tilt Poker Game #", "FullTiltPoker Game #"),
    "fulltilt stakes after game": ("fulltilt", FT, r"(?m)^(Full Tilt Poker Game #\d+: Table \w+) - ([^-]+?) - (Limit Stud Hi) - ",
                                   r"\1 - \3 - \2 - "),
    "fulltilt match": ("fulltilt", FT, r"(?m)^(Full Tilt Poker Game #\d+: )Table ", r"\1Match "),
    "fulltilt partial": ("fulltilt", FT, r"(?m)^(Full Tilt Poker Game #.*\d{4}/\d\d/\d\d)$", r"\1 (partial)"),
    "fulltilt completes to": ("fulltilt", FT, r" completes it to ", " completes to "),
    "fulltilt brings in": ("fulltilt", FT, r" brings in for ", " brings in "),
    "fulltilt all in mark": ("fulltilt", FT_ALLIN, r", and is all in$", " and is all-in"),
    "fulltilt ties for the pot": ("fulltilt", FT, r" wins the pot ", " ties for the pot "),
    # Bovada: the table as a Zone Poker id, the other game code, "Normal", "1 on 1",
    # the date and time apart, the actions' other words
    "bovada zone poker id": ("bovada", BOV, r" TBL#", " Zone Poker ID#"),
    "bovada game code": ("bovada", BOV, r" 7CARD HiLo ", " 7CARD_HL "),
    "bovada normal": ("bovada", BOV, r" Fixed Limit - ", " Fixed Limit Normal - "),
    "bovada one on one": ("bovada", BOV, r" Fixed Limit - ", " 1 on 1 Fixed Limit - "),
    "bovada date apart": ("bovada", BOV, r"(?m)^(Bovada Hand .* - \d{4}-\d\d-\d\d) ", r"\1 - "),
    "bovada bring in": ("bovada", BOV_MTT, r" : Big blind/Bring in", " : Bring in"),
    "bovada fold": ("bovada", BOV, r" : Folds$", " : Fold"),
    "bovada call": ("bovada", BOV, r" : Calls ", " : Call "),
    "bovada bets": ("bovada", BOV, r" : Bets ", " : bets "),
    "bovada raises": ("bovada", BOV_MTT, r" : Raises ", " : raises "),
    "bovada all-in raise timeout": ("bovada", BOV_MTT, r" : All-in\(raise\)", " : All-in(raise-timeout)"),
    "bovada side pot": ("bovada", BOV_MTT, r"-Side Pot ", "-Side pot "),
    "bovada hi/lo code": ("bovada", BOV, r" 7CARD HiLo ", " 7CARD Hi/Lo "),
    "bovada zone poker code": ("bovada", BOV, r" 7CARD HiLo ", " 7CARD HiLoZonePoker "),
    "bovada level stakes written": ("bovada", BOV_MTT, r" Level 1 \(0/0\) ", " Level 1 ($0/$0 USD) "),
    "bovada numbered seat": ("bovada", BOV, r"(?m)^Seat\+([0-9]+)( \[ME\])?: (\$[0-9.,]+) in chips$",
                             r"Seat \1: Seat+\1\2 (\3 in chips)"),
    "bovada tournament id M-": ("bovada", BOV_MTT, r" Tournament #(?=[0-9])", " Tournament #M-"),
    "bovada version tag": ("bovada", BOV, r" Fixed Limit - ", " Fixed Limit [MVS] - "),
    "bovada version tag tournament": ("bovada", BOV_MTT, r"(?m)^(Bovada Hand .*\)) - ", r"\1 [MVS] - "),
    "bovada numbered seat tournament": ("bovada", BOV_MTT, r"(?m)^Seat\+([0-9]+)( \[ME\])?: ([0-9.,]+) in chips$",
                                        r"Seat \1: Seat+\1\2 (\3 in chips)"),
    # OnGame: the limit in words, the table-info lines in another order, "in chips"
    "ongame limit words": ("ongame", OG, r"\(LIMIT SEVEN_CARD_STUD", "(Limit SEVEN_CARD_STUD"),
    "ongame info order": ("ongame", OG, r"(?m)^(User: .*)\n(Players in round: .*)$", r"\2\n\1"),
    "ongame seat in chips": ("ongame", OG, r"(?m)^(Seat \d+: [^\n]*) \((\$[0-9.,]+)\)$", r"\1 (\2 in chips)"),
    # PartyPoker: the table-info lines in another order, the bring-in's other word
    "partypoker info order": ("partypoker", PARTY, r"(?m)^(Table .*)\n(Seat \d+ is the button)\n(Total number .*)$",
                              r"\3\n\1\n\2"),
    "partypoker brings in": ("partypoker", PARTY, r" bring-ins ", " brings in "),
    "partypoker ante of": ("partypoker", PARTY, r" posts ante \[", " posts ante of ["),
    # Everleaf: the table and player-count lines swapped, the actions' other words
    "everleaf info order": ("everleaf", EV, r"(?m)^(Table .*)\n(Total number of players: .*)$", r"\2\n\1"),
    "everleaf brings in": ("everleaf", EV, r" posts bring-in ", " brings in for "),
    "everleaf completes it to": ("everleaf", EV, r" completes to ", " completes it to "),
    # Everleaf: a mark after a seat's stack, as FPDB's EverleafToFpdb.py reads seat lines
    "everleaf seat new player": ("everleaf", EV, r"(?m)^(Seat \d+: .*) \)$", r"\1 new player )"),
    "everleaf seat all-in": ("everleaf", EV, r"(?m)^(Seat \d+: .*) \)$", r"\1 All-in )"),
    "everleaf seat mark for the unit": ("everleaf", EV, r"(?m)^(Seat \d+: .*) USD \)$", r"\1 All-in )"),
    # KingsClub: the date and table lines swapped, the bring-in's other word
    "kingsclub info order": ("kingsclub", KC, r"(?m)^(\d{4}-\d\d-\d\d [\d:]+)\n(Table '.*')$", r"\2\n\1"),
    "kingsclub brings in": ("kingsclub", KC, r" brings in for ", " brings in "),
    # KingsClub's other table lines and award wording
    "kingsclub table id": ("kingsclub", KC, r"(?m)^Table '", "Table ID '"),
    "kingsclub table size and button": ("kingsclub", KC, r"(?m)^(Table '.*')$", r"\1 8-max (Play Money) Seat #1 is the button"),
    "kingsclub wins from pot": ("kingsclub", KC, r"(?m)^(.*) wins pot \((.*)\)$", r"\1 wins (\2) from pot"),
    # Winamax: the euro sign before the amount, the code instead of the sign, the bring-in
    "winamax euro before": ("winamax", WX, r"(\d[\d,]*(?:\.\d+)?)€", r"€\1"),
    "winamax euro code": ("winamax", WX, r"(\d)€", r"\1 EUR"),
    "winamax brings in for": ("winamax", WX, r" brings in ", " brings in for "),
    # knockout tournaments write each player's bounty on the seat line
    "winamax position mark": ("winamax", WX, r"(?m)^(Seat \d+: \S+) (showed|won|folded)", r"\1 (button) \2"),
    "winamax seat bounty": ("winamax", WX, r"(?m)^(Seat \d+: .* \([^()]+)\)$", r"\1, 29.25€ bounty)"),
    # Winning (the newer client): the actions' other words
    "winning brings in for": ("winning", WIN, r" brings in ", " brings in for "),
    "winning game hand": ("winning", WIN, r"(?m)^Hand #", "Game Hand #"),
    "winning position mark": ("winning", WIN, r"(?m)^(Seat \d+: \S+) (did not show|folded)", r"\1 (button) \2"),
    "winning old posts ante": ("winning", WIN_OLD, r"(?m)^(Player .*) ante \(", r"\1 posts ante ("),
    # Winning: the raise that reaches the cap, as FPDB's WinningToFpdb.py reads both clients' lines
    "winning old caps": ("winning", WIN_OLD, r"(?m)^(Player .*) raises \(", r"\1 caps ("),
    "winning old cap": ("winning", WIN_OLD, r"(?m)^(Player .*) raises \(", r"\1 cap ("),
    "winning caps to": ("winning", WIN, r"(?m)^(\S+) raises (\$[0-9.]+) to ", r"\1 caps \2 to "),
    "winning cap to": ("winning", WIN, r"(?m)^(\S+) raises (\$[0-9.]+) to ", r"\1 cap \2 to "),
    "winning pot note without rake": ("winning", WIN, r"(?m)^(Main pot \$[0-9.]+) \| Rake \$0\.00$", r"\1"),
    # Absolute: a game spelled outside Absolute's list, the bring-in's other spelling
    "absolute game words": ("absolute", ABS, r"Seven Card Hi/Lo  Normal", "7 Card Stud Hi-Lo  Normal"),
    "absolute bring in": ("absolute", ABS, r" - Bring-In ", " - Bring In "),
    "absolute stage id": ("absolute", ABS, r"(?m)^Stage #", "Stage #C"),
    "absolute position mark": ("absolute", ABS, r"(?m)^(Seat \d+: \S+) (won|Folded|HI:)", r"\1 (dealer) \2"),
    "absolute fraction of a second": ("absolute", ABS, r"(?m)^(Stage #.* \d\d:\d\d:\d\d) \(", r"\1.257 ("),
    # BetOnline (hand-made: no real log; what the other parsers read): the older ante words, the
    # other skins' names, the Title-Case skins' words, periods and seat lines, the unquoted table,
    # the stakes without brackets, a zone in Windows' words, deal brackets run together,
    # ten written "10", upper-case suits, a raise written as the chips it puts in
    "betonline posts the ante": ("betonline", BO, r": ante processed ", ": posts the ante "),
    "betonline other skin": ("betonline", BO, r"(?m)^BetOnline Poker Game #", "SportsBetting.ag Poker Game #"),
    "betonline title-case calls": ("betonline", BO, r": calls ", ": Calls "),
    "betonline title-case bets": ("betonline", BO, r": bets ", ": Bets "),
    "betonline closing period": ("betonline", BO, r"(?m)^(.*: (?:bets|calls|checks|folds|ante processed)(?: .*)?)$", r"\1."),
    "betonline in Chips": ("betonline", BO, r" in chips\)", " in Chips)"),
    "betonline unquoted table": ("betonline", BO, r"(?m)^Table '([^']*)'", r"Table \1"),
    "betonline stakes without brackets": ("betonline", BO, r"Limit \((\$[0-9.]+/\$[0-9.]+)\)", r"Limit, \1"),
    "betonline windows zone": ("betonline", BO, r"(?m) ET$", " Eastern Daylight Time"),
    "betonline brackets together": ("betonline", BO, r"(?m)^(Dealt to .*\]) \[", r"\1["),
    "betonline ten as 10": ("betonline", BO, r"\bT([cdhs])\b", r"10\1"),
    "betonline upper-case suits": ("betonline", BO, r"\[Ah Kd 5c", "[AH KD 5C"),
    "betonline raise as chips": ("betonline", BO, r"(?m)^(\S+): raises (\S+) to \S+$", r"\1: Raises \2"),
    "betonline reraises": ("betonline", BO, r"(?m)^Gus: raises ", "Gus: Reraises "),
    "betonline shows without brackets": ("betonline", BO, r"(?m)^(\S+): shows \[([^\]]*)\]", r"\1 shows \2"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_another_version_of_the_site_reads_the_same(corpus: Path, case: str) -> None:
    site, name, pattern, written = CASES[case]
    text = _text(corpus, name)
    edited, count = re.subn(pattern, written, text, flags=re.M)
    assert count, f"{case}: the corpus hand has no {pattern!r}"
    before, after = _hands(text, site), _hands(edited, site)
    assert len(after) == len(before)
    for old, new in zip(before, after):
        assert reading(new) == reading(old), case


def _outcome(result: Hand | Rejected | Skipped) -> tuple[Any, ...]:
    assert isinstance(result, Hand), result
    check = check_hand(result)
    return check.status, sorted((v.rule, v.line) for v in check.violations), {p.player: p.net for p in check.players}


@pytest.mark.parametrize("words", ["completes it to", "completes to"])
@pytest.mark.parametrize("name", ["PokerStars/7-StudHL-USD-400-800-201701.3bet.fix.txt",
                                  "PokerStars/8-Game-2max-STT-play-100-201306.homeGame.shootout.txt"])
def test_pokerstars_completion_in_its_other_words(corpus: Path, words: str, name: str) -> None:
    """PokerStars writes a completion as a raise over the bring-in ("raises $0.02 to
    $0.04"); its other versions write "completes it to $0.04": the hand checks the same."""
    from studbook.events import Action, ActionKind, StreetStart

    text = _text(corpus, name)
    lines = text.split("\n")
    hands = [h for h in _hands(text, "pokerstars") if isinstance(h, Hand)]
    done = 0
    for hand in hands:
        opened = False  # a bet or raise on 3rd street over the bring-in
        for e in hand.events:
            if isinstance(e, StreetStart) and e.street > 3:
                break
            if isinstance(e, Action) and e.kind in (ActionKind.RAISE, ActionKind.BET, ActionKind.COMPLETE):
                if e.kind is ActionKind.RAISE and not opened:
                    lines[e.line - 1] = f"{e.player}: {words} {lines[e.line - 1].rsplit(' to ', 1)[1]}"
                    done += 1
                opened = True
    assert done
    after = _hands("\n".join(lines), "pokerstars")
    assert [_outcome(h) for h in after] == [_outcome(h) for h in hands]
    assert sum(isinstance(e, Action) and e.kind is ActionKind.COMPLETE
               for h in after for e in h.events) == done  # type: ignore[union-attr]  # fmt: skip


def test_every_text_site_has_a_version_case() -> None:
    assert {site for site, *_ in CASES.values()} == set(TEXT_SITES)


def test_ongame_tournament_header(corpus: Path) -> None:
    """OnGame's tournament hands name the tournament on the first line; the rest reads as
    the cash hand does, in chips."""
    text = _text(corpus, OG)
    edited, count = re.subn(r"(?m)^(\*\*\*\*\* History for hand [A-Z0-9-]+) \*\*\*\*\*$",
                            r'\1 (TOURNAMENT: "Sunday Stud", T5-4242, buy-in: $10) *****', text)  # fmt: skip
    assert count
    [before], [after] = _hands(text, "ongame"), _hands(edited, "ongame")
    assert isinstance(after, Hand) and isinstance(before, Hand)
    assert after.header.tournament is not None and after.header.tournament.id == "T5-4242"
    assert after.header.tournament.buy_in == "$10" and after.header.currency is None
    assert reading(after)[1:] == reading(before)[1:]
    assert dataclasses.replace(after.header, tournament=None, currency="USD") == before.header


@pytest.mark.parametrize(("pattern", "written"), [(r", ante: \$0\.05, ", ", "), (r", Real money\)", ", TC)"),
                                                  (r", Real money\)", ")")])
def test_ongame_table_line_versions(corpus: Path, pattern: str, written: str) -> None:
    """OnGame's table line without the ante part, with the money kind "TC" (tournament
    chips) or none: the hand reads the same but for what the line no longer says."""
    text = _text(corpus, OG)
    edited, count = re.subn(pattern, written, text)
    assert count
    [before], [after] = _hands(text, "ongame"), _hands(edited, "ongame")
    assert isinstance(after, Hand) and isinstance(before, Hand)
    assert reading(after)[1:] == reading(before)[1:]
    header = after.header
    if "ante" in pattern:
        assert header.stakes.ante is None and header.currency == "USD"
        header = dataclasses.replace(header, stakes=before.header.stakes)
    else:
        assert header.currency == (None if "TC" in written else "USD") and not header.play_money
        header = dataclasses.replace(header, currency="USD")
    assert header == before.header


@pytest.mark.parametrize("prize_pool", ["", "$5,000 GTD ", "$1.5K GTD ", "10000 GTD "])
def test_winning_later_client_tournament_and_table_lines(corpus: Path, prize_pool: str) -> None:
    """Winning's later clients: "Game Hand #N - Tournament #T - ... - Level 8 (a/b)- date",
    with a guaranteed prize pool before it or not ("$5,000 GTD Tournament #T"), the table
    line "Table '2' 9-max Seat #2 is the button", a seat waiting for the button: a
    tournament hand in chips, otherwise the same hand."""
    text = _text(corpus, WIN)
    first = text.split("\n", 1)[0]
    head = re.match(r"Hand #(\d+) - (7Stud\(Fixed Limit\)) - (\$[0-9.]+/\$[0-9.]+) - (.*)$", first)
    assert head is not None
    hid, game, stakes, when = head.groups()
    edited = text.replace(first, f"Game Hand #{hid} - {prize_pool}Tournament #24139358 - {game} - Level 8 ({stakes})- {when}", 1)
    edited = re.sub(r"(?m)^(Gorham) 8-max$", r"Table '\1' 8-max Seat #4 is the button", edited)
    last_seat = max(i for i, line in enumerate(edited.split("\n")) if re.match(r"Seat \d+: .* \(\$", line))
    lines = edited.split("\n")
    lines.insert(last_seat + 1, "Seat 2: joeyv will be allowed to play after the button")
    [before] = _hands(text, "winning")
    [after] = _hands("\n".join(lines), "winning")
    assert isinstance(after, Hand) and isinstance(before, Hand)
    header = after.header
    assert header.tournament is not None and (header.tournament.id, header.tournament.level) == ("24139358", "8")
    assert (header.currency, header.table, header.button) == (None, "Gorham", 4)
    assert dataclasses.replace(header, tournament=None, currency="USD", button=None) == before.header
    assert _outcome(after) == _outcome(before)
    chatter = [e for e in after.events if type(e).__name__ == "Chatter"]
    assert len(chatter) == 1 + sum(type(e).__name__ == "Chatter" for e in before.events)
    assert [_event(e) for e in after.events if e not in chatter] == [
        _event(e) for e in before.events if type(e).__name__ != "Chatter"]


def test_other_games_of_another_version_are_still_skipped(corpus: Path) -> None:
    """The new header forms do not read another game as stud: a hold'em header in the
    game-first order of Full Tilt is skipped with its game named."""
    text = _text(corpus, FT)
    edited = re.sub(r"(?m)^(Full Tilt Poker Game #\d+: Table \w+) - ([^-]+?) - Limit Stud Hi - ",
                    r"\1 - Limit Hold'em - \2 - ", text)  # fmt: skip
    [skipped] = list(parse_text(edited, site="fulltilt"))
    assert isinstance(skipped, Skipped) and skipped.game == "Limit Hold'em"


# ---------------------------------------------------------------------------
# Classes with many members: every corpus hand of every text site


@pytest.fixture(scope="module")
def written_hands(corpus: Path) -> list[tuple[str, list[str], Hand]]:
    """(site, the hand's lines, the hand) for every hand of every text site's sample files."""
    out: list[tuple[str, list[str], Hand]] = []
    for _name, path in sample_files(corpus):
        parsed = read_file(path)
        if parsed.site not in TEXT_SITES or not parsed.hands:
            continue
        lines = decode(read_bytes(path)).text.split("\n")
        out.extend((hand.site, lines[hand.line - 1 : hand.end_line], hand)
                   for hand in parsed.results if isinstance(hand, Hand))  # fmt: skip
    return out


def _body(lines: list[str], hand: Hand) -> list[str]:
    """The hand's lines from its first seat on: what ``_edit_body`` rewrites (a tournament
    may write "$" in its header alone, as PartyPoker's buy-in does)."""
    return lines[hand.seats[0].line - hand.line:]


def _edit_body(lines: list[str], hand: Hand, pattern: re.Pattern[str], write: Any) -> tuple[str, int]:
    """The hand with every match of ``pattern`` after its header lines rewritten."""
    body = hand.seats[0].line - hand.line
    edited, total = list(lines), 0
    for i in range(body, len(lines)):
        edited[i], count = pattern.subn(write, lines[i])
        total += count
    return "\n".join(edited) + "\n", total


_DOLLARS = re.compile(r"\$([0-9][0-9,]*(?:\.[0-9]+)?)\b")
CURRENCY_FORMS = ("{n} USD", "USD {n}", "${n} USD")


@settings(max_examples=examples(80), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])  # fmt: skip
@given(data=st.data())
def test_the_currency_written_in_another_place_reads_the_same(
    written_hands: list[tuple[str, list[str], Hand]], data: st.DataObject
) -> None:
    """Every "$1" of a hand's body written "1 USD", "USD 1" or "$1 USD"."""
    dollar_hands = [h for h in written_hands if any(_DOLLARS.search(line) for line in _body(*h[1:]))]
    assert {site for site, *_ in dollar_hands} >= {"pokerstars", "fulltilt", "bovada", "ongame", "absolute",
                                                     "partypoker", "everleaf", "winning"}
    site, lines, hand = data.draw(st.sampled_from(dollar_hands))
    form = data.draw(st.sampled_from(CURRENCY_FORMS))
    text, count = _edit_body(lines, hand, _DOLLARS, lambda m: form.format(n=m.group(1)))
    assert count
    [after] = list(parse_text(text, file=hand.file, site=site))
    assert reading(after) == reading(hand), form


_BIG = re.compile(r"(?<![\w.,#/:+-])([0-9]{4,})(?=(?:\.[0-9]+)?(?![\w,/:]))")


@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])  # fmt: skip
@given(data=st.data())
def test_thousands_separators_read_the_same(
    written_hands: list[tuple[str, list[str], Hand]], data: st.DataObject
) -> None:
    """Every amount of 1000 or more in a hand's body written with separators, "1,500"."""
    big = [h for h in written_hands if any(_BIG.search(line) for line in _body(*h[1:]))]
    assert len({site for site, *_ in big}) >= 3
    site, lines, hand = data.draw(st.sampled_from(big))
    text, count = _edit_body(lines, hand, _BIG, lambda m: f"{int(m.group(1)):,}")
    assert count
    [after] = list(parse_text(text, file=hand.file, site=site))
    assert reading(after) == reading(hand)


def _sites_using(piece: str) -> set[str]:
    from studbook.read.grammar import grammar_dir

    return {site for site in TEXT_SITES if piece in (grammar_dir() / f"{site}.lark").read_text(encoding="utf-8")}


# The members of the shared action vocabularies of common.lark, as versions wrote them.
ALL_IN_FORMS = (" and is all-in", ", and is all in", " and has gone all-in", ", all-in", " (all-in)", " - All-in")
BRING_IN_FORMS = ("brings in for ", "brings in ", "brings-in low for ", "bring-in ", "brings in low ")
_VOCABULARY = {
    # piece: (how a line's words are found, the forms another version writes)
    "ALL_IN_MARK": (re.compile(r"(?:,? and is all[- ]in| - All-in| \(all-in\))$", re.I), ALL_IN_FORMS),
    "BRINGS_IN": (re.compile(r"(?<= )(?:brings in for |brings in |bring-in |brings-in low for )"), BRING_IN_FORMS),
}


@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])  # fmt: skip
@given(data=st.data())
def test_the_sites_other_words_for_an_action_read_the_same(
    written_hands: list[tuple[str, list[str], Hand]], data: st.DataObject
) -> None:
    """Every all-in mark or bring-in of a hand written in any other version's words, on
    every site whose grammar reads that vocabulary."""
    piece = data.draw(st.sampled_from(sorted(_VOCABULARY)))
    words, forms = _VOCABULARY[piece]
    sites = _sites_using(piece)
    marked = [h for h in written_hands if h[0] in sites and any(words.search(line) for line in h[1][1:])]
    assert {site for site, *_ in marked} >= {"pokerstars", "fulltilt"}, piece
    site, lines, hand = data.draw(st.sampled_from(marked))
    form = data.draw(st.sampled_from(forms))
    text, count = _edit_body(lines, hand, words, lambda m: form)
    assert count
    [after] = list(parse_text(text, file=hand.file, site=site))
    assert reading(after) == reading(hand), (piece, form)


def test_amounts_as_other_versions_write_them() -> None:
    from studbook.money import currency_in, parse_amount

    for written in ("$1,250.50", "1,250.50 USD", "USD 1,250.50", "$1,250.50 USD", "€1,250.50", "1,250.50€",
                    "1,250.50 €", "EUR 1,250.50"):
        assert parse_amount(written) == Decimal("1250.50"), written
    for written, figure in (("1.5K", "1500"), ("$1.5K", "1500"), ("$0.25K", "250"), ("2M", "2000000"),
                            ("$1.2345K", "1234.5")):  # fmt: skip
        assert str(parse_amount(written)) == figure, written
    for bad in ("K", "$K", "1.5KK"):
        with pytest.raises(ValueError):
            parse_amount(bad)
    assert [currency_in(w) for w in ("$5", "5 USD", "USD 5", "5€", "€5", "5 EUR", "5")] == [
        "USD", "USD", "USD", "EUR", "EUR", "EUR", None]


# ---------------------------------------------------------------------------
# The second round of versions: tournament headers, returned antes, suffixed amounts,
# the date in words, numbered seat lines, the all-in forms no corpus hand has


@pytest.mark.parametrize(("written", "buy_in", "level"), [
    ("buyIn: 4.50€ + 0.50€ level: 7", "4.50€ + 0.50€", "7"),
    ("buyIn: 4.50€ + 0.50€", "4.50€ + 0.50€", None),  # other versions: no level (FPDB's WinamaxToFpdb.py)
    ("buyIn: Ticket only level: 7", "Ticket only", "7"),  # a freeroll's words for the buy-in
    ("buyIn: Ticket only", "Ticket only", None),
])  # fmt: skip
def test_winamax_tournament_header(corpus: Path, written: str, buy_in: str, level: str | None) -> None:
    """Winamax's tournament hands: 'Tournament "name" buyIn: ... [level: N]' for the
    kind, the stakes in chips, the tournament id in the table's name: a tournament
    hand in chips, otherwise the same hand (without the level it was read as a cash
    hand before)."""
    text = _text(corpus, WX)
    edited, count = re.subn(r"(?m)^Winamax Poker - CashGame - ",
                            f'Winamax Poker - Tournament "Stud Party" {written} - ', text)  # fmt: skip
    edited = re.sub(r"(?m)^(Table: '[^'\n]*)'", r"\1(412345678)#004'", edited)
    edited = re.sub(r"(?m)^(?!Winamax)(.*)$", lambda m: m[1].replace("€", ""), edited)  # chips
    assert count
    before, after = _hands(text, "winamax"), _hands(edited, "winamax")
    assert len(after) == len(before)
    for old, new in zip(before, after):
        assert isinstance(new, Hand) and isinstance(old, Hand)
        header = new.header
        assert header.tournament is not None
        assert (header.tournament.id, header.tournament.buy_in, header.tournament.level) == (
            "412345678", buy_in, level)
        assert header.currency is None and not header.play_money
        assert dataclasses.replace(header, tournament=None, currency="EUR",
                                   table=old.header.table) == old.header  # fmt: skip
        assert reading(new)[1:] == reading(old)[1:]


def test_winamax_tournament_of_another_game_is_skipped(corpus: Path) -> None:
    text = _text(corpus, WX)
    edited = re.sub(r"(?m)^Winamax Poker - CashGame - (HandId: #[0-9-]+ - )7-Card Stud fixed limit",
                    r'Winamax Poker - Tournament "Hold Party" buyIn: 4.50€ + 0.50€ level: 7 - \1Holdem no limit',
                    text)  # fmt: skip
    results = list(parse_text(edited, site="winamax"))
    assert results and all(isinstance(r, Skipped) and r.game.startswith("Holdem no limit") for r in results)


def test_fulltilt_ante_returned(corpus: Path) -> None:
    """Full Tilt gives an ante back with "Ante of $0.50 returned to X": an amount back
    to the player (the uncalled-bet event), not a note, and the line has it."""
    from studbook.events import PostAnte, UncalledReturned

    text = _text(corpus, FT)
    [first, *_] = _hands(text, "fulltilt")
    assert isinstance(first, Hand)
    lines = text.split("\n")
    antes = [e for e in first.events if isinstance(e, PostAnte)]
    at = antes[-1].line
    lines.insert(at, f"Ante of $0.50 returned to {antes[0].player}")
    [after, *_] = _hands("\n".join(lines), "fulltilt")
    assert isinstance(after, Hand)
    returned = [e for e in after.events if isinstance(e, UncalledReturned) and e.line == at + 1]
    assert [(e.player, e.amount) for e in returned] == [(antes[0].player, Decimal("0.50"))]
    assert not any(type(e).__name__ == "Note" for e in after.events)


def test_fulltilt_written_date(corpus: Path) -> None:
    """Full Tilt's short-lived "12:22:17 ET - Friday, June 11, 2010", also without the
    seconds: the same start (but for the seconds left out), the same hand."""
    from datetime import datetime

    text = _text(corpus, FT)
    for seconds in (":ss", ""):
        def written(m: re.Match[str]) -> str:
            day = datetime.strptime(m[3], "%Y/%m/%d")
            return f"{m[1]}{m[2] if seconds else ''} ET - {day:%A, %B} {day.day}, {day.year}"

        edited, count = re.subn(r"(?m)^(Full Tilt Poker Game #.* - [0-9]{1,2}:[0-9]{2})(:[0-9]{2}) ET - "
                                r"([0-9]{4}/[0-9]{2}/[0-9]{2})$", written, text)  # fmt: skip
        assert count
        before, after = _hands(text, "fulltilt"), _hands(edited, "fulltilt")
        assert len(after) == len(before)
        for old, new in zip(before, after):
            assert isinstance(new, Hand) and isinstance(old, Hand) and old.header.started_utc
            assert "day, " in new.header.started
            start = old.header.started_utc if seconds else old.header.started_utc.replace(second=0)
            assert new.header.started_utc == start
            assert reading(new)[1:] == reading(old)[1:]


_OG_DOLLARS = re.compile(r"\$([0-9]+(?:\.[0-9]+)?)")


def test_ongame_amounts_with_a_suffix(corpus: Path) -> None:
    """OnGame writes big amounts with a suffix, "$1.5K": every amount of a hand
    written in thousands with "K" reads as the same hand with the figures written out."""
    for name in (OG, "OnGame/7-Stud-USD-1.00-2.00-201212.big.bring.txt"):
        text = _text(corpus, name)
        suffixed = _OG_DOLLARS.sub(lambda m: f"${m[1]}K", text)
        written = _OG_DOLLARS.sub(lambda m: f"${Decimal(m[1]) * 1000:f}".removesuffix(".000"), text)
        assert suffixed != text and written != text
        before, after = _hands(written, "ongame"), _hands(suffixed, "ongame")
        assert before and len(after) == len(before)
        for old, new in zip(before, after):
            assert reading(new) == reading(old)
            assert isinstance(new, Hand) and new.header.stakes.small_bet >= 250


def _all_in_on_the_last_call(text: str, site: str, mark: Any) -> int:
    """Every hand of ``text`` whose last chips go in on a call, with the caller's stack
    cut to what the caller puts in and the call written as the site's all-in (``mark``,
    a function of the call line): it reads as an all-in with the same outcome."""
    from studbook.events import Action, ActionKind

    lines = text.split("\n")
    done = 0
    for hand in _hands(text, site):
        assert isinstance(hand, Hand)
        actions = [e for e in hand.events if isinstance(e, Action)]
        money = [e for e in actions if e.kind not in (ActionKind.CHECK, ActionKind.FOLD)]
        call = money[-1] if money else None
        # the last chips in (no side pot to make); the caller's later checks go (all-in, no more acts)
        if call is None or call.kind is not ActionKind.CALL:
            continue
        later = [e for e in actions if e.player == call.player and e.line > call.line]
        if any(e.kind is not ActionKind.CHECK for e in later):
            continue
        player = {p.player: p for p in check_hand(hand).players}[call.player]
        seat = next(s for s in hand.seats if s.player == call.player)
        edited = list(lines)
        whole, _, part = f"{player.stack:f}".partition(".")
        stack = rf"{whole}\.{part.rstrip('0')}0*" if part.rstrip("0") else rf"{whole}(?:\.0+)?"
        edited[seat.line - 1], count = re.subn(rf"(?<=[$ (]){stack}(?![0-9])", f"{player.contributed:f}",
                                               lines[seat.line - 1])  # fmt: skip
        assert count == 1, lines[seat.line - 1]
        edited[call.line - 1] = mark(lines[call.line - 1])
        gone = {e.line for e in later}
        span = "\n".join(line for i, line in enumerate(edited[hand.line - 1 : hand.end_line], hand.line)
                         if i not in gone) + "\n"  # fmt: skip
        [after] = _hands(span, site)
        assert isinstance(after, Hand), after
        check = check_hand(after)
        assert {p.player: p for p in check.players}[call.player].all_in
        assert _outcome(after) == _outcome(hand)
        done += 1
    return done


@pytest.mark.parametrize(("site", "name", "pattern", "written"), [
    ("ongame", OG, r" calls (\S+)$", r" calls \1 and is all-in"),
    ("ongame", OG, r" calls (\S+)$", r" calls \1, and is all in"),
    ("partypoker", PARTY, r" calls ", " is all-In "),
    ("partypoker", PARTY, r" calls ", " is all-in "),
    ("absolute", ABS, r" - Calls ", " - All-In "),
])  # fmt: skip
def test_all_in_forms_no_corpus_hand_has(corpus: Path, site: str, name: str, pattern: str, written: str) -> None:
    """OnGame's " and is all-in", PartyPoker's "is all-in", Absolute's "All-In": no corpus
    hand goes all-in, so a real hand is edited to (the last caller's stack cut to the call)."""
    text = _text(corpus, name)
    assert _all_in_on_the_last_call(text, site, lambda line: re.sub(pattern, written, line, count=1))


@pytest.mark.parametrize("rake_part", ["", " | Rake $0.00"])
def test_winning_total_without_a_rake_part(corpus: Path, rake_part: str) -> None:
    """Winning's later versions write "Total pot 24800.00" with no rake part where no
    rake is taken: the corpus hand without its rake (the cent back to the winner) reads
    and checks the same with the rake part or without it (no rake stated: None)."""
    from studbook.events import PotSummary

    text = _text(corpus, WIN)
    edited, count = re.subn(r"(?m)^(Total|Main) pot \$0\.36 \| Rake \$0\.01$", rf"\1 pot $0.37{rake_part}", text)
    edited, won = re.subn(r" won \$0\.36$", " won $0.37", edited, flags=re.M)
    assert count == 2 and won == 1
    [hand] = _hands(edited, "winning")
    assert isinstance(hand, Hand)
    [summary] = [e for e in hand.events if isinstance(e, PotSummary)]
    assert summary.total == Decimal("0.37") and summary.rake == (Decimal(0) if rake_part else None)
    assert _outcome(hand)[:2] == ("ok", [])
    [original] = _hands(text, "winning")
    nets = {p: n for p, n in _outcome(original)[2].items()}
    assert _outcome(hand)[2] == {p: n + (Decimal("0.01") if p == "Player2" else 0) for p, n in nets.items()}


# The table-information lines of the sites whose versions wrote them in another order:
# every corpus hand of these sites, its run of such lines in every order, reads the same.
_INFO_LINES = {
    "ongame": ("OnGame", r"User: |Button: |Players in round: "),
    "partypoker": ("PartyPoker", r"Table |Seat \d+ is the button|Total number of players"),
    "everleaf": ("Everleaf", r"Table |Total number of players"),
    "kingsclub": ("KingsClub", r"\d{4}-\d\d-\d\d |Table '"),
}


def _info_runs(lines: list[str], pattern: re.Pattern[str]) -> list[tuple[int, int]]:
    """The (start, end) of each run of two or more table-information lines."""
    runs, at = [], 0
    while at < len(lines):
        end = at
        while end < len(lines) and pattern.match(lines[end]):
            end += 1
        if end - at >= 2:
            runs.append((at, end))
        at = max(end, at + 1)
    return runs


@pytest.mark.parametrize("site", sorted(_INFO_LINES))
def test_table_information_lines_in_any_order_read_the_same(corpus: Path, site: str) -> None:
    folder, info = _INFO_LINES[site]
    if not (corpus / folder).is_dir():
        pytest.skip(f"corpus folder {folder} not found")
    pattern = re.compile(rf"^(?:{info})")
    reordered = 0
    for path in sorted((corpus / folder).glob("*.txt")):
        text = decode(read_bytes(path)).text
        before = _hands(text, site)
        if not before or not all(isinstance(h, Hand) for h in before):
            continue  # a file of another game (2-7 razz): skipped either way
        lines = text.split("\n")
        runs = _info_runs(lines, pattern)
        assert len(runs) == len(before), path.name  # one run a hand
        longest = max(b - a for a, b in runs)
        for order in itertools.permutations(range(longest)):
            edited = list(lines)
            for a, b in runs:  # each hand's run in this order (its first b - a places)
                edited[a:b] = [lines[a + k] for k in order if k < b - a]
            after = _hands("\n".join(edited), site)
            assert len(after) == len(before)
            for old, new in zip(before, after):
                assert reading(new) == reading(old), (path.name, order)
            reordered += 1
    assert reordered, f"no {site} corpus hand with table-information lines"


# ---------------------------------------------------------------------------
# Lines other readers know (FPDB's readers for these sites) that no corpus hand has,
# each class on edited real hands: header parts that carry no play, the units of another
# room of a network, table messages about a tournament's money


def test_pokerstars_regulator_id_leaves_other_games_skipped(corpus: Path) -> None:
    """PokerStars.it's " [ADM ID: ...]" after every header's stakes or level: a mixed
    rotation's stud hands read the same and its other games are skipped as before."""
    text = _text(corpus, PS_HOME)
    edited, count = re.subn(r"(?m)^(PokerStars .*\)) - (\d{4}/)", r"\1 [ADM ID: 7E21C09A] - \2", text)
    assert count
    before = list(parse_text(text, file="edited.txt", site="pokerstars"))
    after = list(parse_text(edited, file="edited.txt", site="pokerstars"))
    assert [type(r) for r in after] == [type(r) for r in before] and any(isinstance(r, Skipped) for r in before)
    assert [r.game for r in after if isinstance(r, Skipped)] == [r.game for r in before if isinstance(r, Skipped)]
    assert [reading(r) for r in after if isinstance(r, Hand)] == [reading(r) for r in before if isinstance(r, Hand)]


def test_winning_guaranteed_tournament_of_another_game_is_skipped_with_its_game() -> None:
    """A hold'em hand of a guaranteed-prize tournament is skipped with its game named (not
    with the tournament's words as its game)."""
    header = "Game Hand #1296393662 - $5,000 GTD Tournament #27099516 - Holdem(No Limit) - Level 10 (3000.00/6000.00)- 2022/07/11 01:11:44 UTC\n"
    [skipped] = list(parse_text(header + "Table '1' 9-max Seat #3 is the button\n", site="winning"))
    assert isinstance(skipped, Skipped) and skipped.game == "Holdem(No Limit)"


def test_winning_play_money_table(corpus: Path) -> None:
    """A play-money table: "Gorham 8-max (Play Money)" and the amounts without "$": the
    same hand, in play chips (no currency)."""
    text = _text(corpus, WIN)
    edited, count = re.subn(r"(?m)^(Gorham 8-max)$", r"\1 (Play Money)", text.replace("$", ""))
    assert count == 1
    [before], [after] = _hands(text, "winning"), _hands(edited, "winning")
    assert isinstance(after, Hand) and isinstance(before, Hand)
    assert (after.header.play_money, after.header.currency) == (True, None)
    assert dataclasses.replace(after.header, play_money=False, currency="USD") == before.header
    assert reading(after)[1:] == reading(before)[1:]


def test_partypoker_player_count_without_the_table_size(corpus: Path) -> None:
    """"Total number of players : 7" (no "/8"): the same hand, its table size unknown."""
    text = _text(corpus, PARTY)
    edited, count = re.subn(r"(?m)^(Total number of players : \d+)/\d+", r"\1", text)
    assert count
    before, after = _hands(text, "partypoker"), _hands(edited, "partypoker")
    assert len(after) == len(before)
    for old, new in zip(before, after):
        assert isinstance(new, Hand) and isinstance(old, Hand) and new.header.max_seats is None
        assert reading(new)[1:] == reading(old)[1:]
        assert dataclasses.replace(new.header, max_seats=old.header.max_seats) == old.header


@pytest.mark.parametrize(("unit", "sign", "currency"), [("EURO", "€", "EUR"), ("GEL", "", "GEL"),
                                                        ("Chips", "", None)])
def test_everleaf_units_of_other_rooms(corpus: Path, unit: str, sign: str, currency: str | None) -> None:
    """Other rooms of the Everleaf network write their unit after the bracketed amounts
    ("[€ 0.01 EURO]", "[ 0.50 GEL]", tournament "[ 20 Chips]"): the same hands, in that
    currency (chips: none)."""
    text = _text(corpus, EV)
    edited = text.replace(" USD", f" {unit}").replace("$", sign)
    before, after = _hands(text, "everleaf"), _hands(edited, "everleaf")
    assert len(after) == len(before) > 10
    for old, new in zip(before, after):
        assert isinstance(new, Hand) and isinstance(old, Hand) and new.header.currency == currency
        assert reading(new)[1:] == reading(old)[1:]
        assert dataclasses.replace(new.header, currency="USD") == old.header


def _with_a_line_after_the_last_collect(text: str, site: str, write: Any) -> list[tuple[Hand, Hand, int]]:
    """Each hand of ``text`` with ``write(winner, loser)`` after its last collect line:
    (the hand, the edited hand, the new line's number in the edited hand)."""
    from studbook.events import Collect

    lines, edited = text.split("\n"), []
    for hand in _hands(text, site):
        assert isinstance(hand, Hand)
        collects = [e for e in hand.events if isinstance(e, Collect)]
        if not collects:
            continue
        losers = [s.player for s in hand.seats if s.player != collects[-1].player]
        span = lines[hand.line - 1 : hand.end_line]
        at = collects[-1].line - hand.line + 1
        [again] = _hands("\n".join(span[:at] + [write(collects[-1].player, losers[0])] + span[at:]) + "\n", site)
        assert isinstance(again, Hand), again
        edited.append((hand, again, at + 1))
    return edited


@pytest.mark.parametrize(("site", "name", "write", "kind"), [
    ("bovada", BOV_MTT, lambda winner, _: f"{winner} : BOUNTY PRIZE [$5]", "Chatter"),
    ("bovada", BOV_MTT, lambda winner, _: f"{winner} : BOUNTY PRIZE [$2.50]", "Chatter"),
    ("partypoker", PARTY_MTT, lambda _, loser: f"Player {loser} finished in 3 place and received $5.00 USD", "TournamentFinish"),
    ("partypoker", PARTY_MTT, lambda _, loser: f"Player {loser} finished in 4.", "TournamentFinish"),
    ("partypoker", PARTY_MTT, lambda winner, _: f"Congratulations to player {winner} for winning tournament 69784932.", "TournamentFinish"),
    ("kingsclub", KC, lambda winner, loser: f"{winner} wins the $0.27 bounty for eliminating {loser}", "Chatter"),
    ("kingsclub", KC, lambda winner, loser: f"{winner}, vecenta split the $50 bounty for eliminating {loser}", "Chatter"),
    ("kingsclub", KC, lambda winner, loser: f"{winner} wins $19.90 for eliminating {loser} and their own bounty increases by $19.89 to $155.32", "Chatter"),
    ("kingsclub", KC, lambda _, loser: f"{loser} finished the tournament in 3rd place and received $2.50.", "TournamentFinish"),
    ("kingsclub", KC, lambda _, loser: f"{loser} finished the tournament in 12th place", "TournamentFinish"),
    ("kingsclub", KC, lambda winner, _: f"{winner} wins the tournament and receives $230.36 - congratulations!", "TournamentFinish"),
])  # fmt: skip
def test_tournament_money_messages_read_as_table_messages(corpus: Path, site: str, name: str, write: Any,
                                                          kind: str) -> None:  # fmt: skip
    """Bovada's knockout "BOUNTY PRIZE [$5]", PartyPoker's and KingsClub's tournament
    finishes, KingsClub's knockout bounties (PokerStars' words), after a
    hand's last collect: the same hand with one table message more (a finish with its
    place and prize, as PokerStars' are)."""
    edited = _with_a_line_after_the_last_collect(_text(corpus, name), site, write)
    assert edited  # (PartyPoker's corpus files hold one hand each)
    for before, after, at in edited:
        [message] = [e for e in after.events if e.line == after.line + at - 1]
        assert type(message).__name__ == kind
        if kind == "TournamentFinish":
            place, prize = re.search(r"in (\d+)", message.text), re.search(r"(?:received|receives) \$([0-9.]+[0-9])", message.text)
            assert message.place == (int(place.group(1)) if place else 1)  # type: ignore[attr-defined]
            assert message.prize == (Decimal(prize.group(1)) if prize else None)  # type: ignore[attr-defined]
        assert reading(dataclasses.replace(after, events=tuple(e for e in after.events if e is not message))) == reading(before)


@pytest.mark.parametrize(("written", "buy_in"), [
    ("FL 7 Card Stud $6 USD Buy-in - ", "$6 USD"),  # the id, level and stakes only on their own lines
    ("FL 7 Card Stud $6 USD Buy-in + $0.60 Entry Fee Trny:69784932 Level:2  Stakes-Antes(60/120-10) - ", "$6 USD + $0.60"),
    ("FL 7 Card Stud Trny:69784932 Level:2  Stakes-Antes(60/120-10) - ", None),  # a freeroll
])  # fmt: skip
def test_partypoker_tournament_headers_of_other_versions(corpus: Path, written: str, buy_in: str | None) -> None:
    """PartyPoker's tournament header without the tournament's id and stakes (the
    "Trny:" and "Stakes-Antes(...)" lines after the seats say them), with the entry fee,
    or with no buy-in: the same tournament hand (it was skipped as another game before)."""
    text = _text(corpus, PARTY_MTT)
    edited, count = re.subn(r"(?m)^FL 7 Card Stud \$6 USD Buy-in Trny:69784932 Level:2  Stakes-Antes\(60/120-10\) - ",
                            lambda _: written, text)  # fmt: skip
    assert count == 1
    [before], [after] = _hands(text, "partypoker"), _hands(edited, "partypoker")
    assert isinstance(after, Hand) and isinstance(before, Hand) and before.header.tournament is not None
    assert after.header.tournament == dataclasses.replace(before.header.tournament, buy_in=buy_in)
    assert dataclasses.replace(after.header, tournament=before.header.tournament) == before.header
    assert reading(after)[1:] == reading(before)[1:]


@pytest.mark.parametrize("kind", ["Normal", "Single Tournament Normal", "Multi Normal Tournament Normal",
                                  "(1 on 1) Normal"])
def test_absolute_tournament_header(corpus: Path, kind: str) -> None:
    """Absolute's tournament hands: "Stage #N: Tourney ID T <game> <kind> 10/20 - ...", the
    kind in words before the limit, the amounts in chips: the same hand, a tournament's
    (it was skipped as a game named "Tourney" before)."""
    text = _text(corpus, ABS)
    edited, count = re.subn(r"(?m)^(Stage #\d+: )(Seven Card Hi/Lo) +Normal ", rf"\1Tourney ID 4455 \2 {kind} ",
                            text.replace("$", ""))  # fmt: skip
    assert count == 1
    [before], [after] = _hands(text, "absolute"), _hands(edited, "absolute")
    assert isinstance(after, Hand) and isinstance(before, Hand)
    assert after.header.tournament is not None and after.header.tournament.id == "4455"
    assert (after.header.currency, after.header.play_money) == (None, False)
    assert dataclasses.replace(after.header, tournament=None, currency="USD", game="", started="") == \
        dataclasses.replace(before.header, game="", started="")
    assert reading(after)[1:] == reading(before)[1:]


@pytest.mark.parametrize("sign", [" €", "€"])
def test_absolute_euro_tables(corpus: Path, sign: str) -> None:
    """Absolute's euro tables write " €" where the dollar tables write "$" (the stakes,
    the seats, every action, collect, total and summary figure: "Ante  €0.01",
    "( €0.17 in chips)"), or "€" alone: the same hand in euros (before, " €" was rejected
    at the header and "€" read as play money); a wrong figure is still caught by the engine."""
    text = _text(corpus, ABS)
    [before], [after] = _hands(text, "absolute"), _hands(text.replace("$", sign), "absolute")
    assert isinstance(after, Hand) and isinstance(before, Hand)
    assert (after.header.currency, after.header.play_money) == ("EUR", False)
    assert dataclasses.replace(after.header, currency="USD") == before.header
    assert reading(after)[1:] == reading(before)[1:]
    wrong, count = re.subn(r"(?m)^(\S+ Collects  ?€)([0-9.]+)", r"\g<1>9\2", text.replace("$", sign), count=1)
    assert count == 1
    [bad] = _hands(wrong, "absolute")
    assert isinstance(bad, Hand) and check_hand(bad).violations


@pytest.mark.parametrize(("written", "ante"), [
    (", $0.01 ante", Decimal("0.01")),
    (" Turbo", None),
    (", $0.01 ante Turbo", Decimal("0.01")),
    (",  €0.01 ante", Decimal("0.01")),  # the euro tables' sign
])  # fmt: skip
def test_absolute_header_ante_and_speed(corpus: Path, written: str, ante: Decimal | None) -> None:
    """Absolute's headers of other versions: the ante after the stakes ("$0.02/$0.04,
    $0.01 ante - ") and a tournament's speed ("Turbo"), as FPDB's AbsoluteToFpdb.py
    reads them: the same hand, the ante in its stakes (it was rejected at the header)."""
    text = _text(corpus, ABS)
    edited, count = re.subn(r"(?m)^(Stage #.* \$0\.02/\$0\.04) - ", rf"\1{written} - ", text)
    assert count == 1
    [before], [after] = _hands(text, "absolute"), _hands(edited, "absolute")
    assert isinstance(after, Hand) and isinstance(before, Hand)
    assert after.header.stakes.ante == ante
    assert dataclasses.replace(after.header, stakes=before.header.stakes) == before.header
    assert reading(after)[1:] == reading(before)[1:]


IP_CASH = "iPoker/7-StudL-USD-0.05-0.10-201009.txt"
IP_SNG = "iPoker/7-StudHi-USD-STT-5-201103.txt"


@pytest.mark.parametrize("space", [" ", "\u00a0"])
def test_ipoker_thousands_grouped_with_a_space(corpus: Path, space: str) -> None:
    """Other iPoker skins group thousands with a space ("1 440", FPDB's iPokerToFpdb.py)
    where the corpus writes "1,440": every stack, sum, win and bet so written reads the
    same (each hand was rejected at its first grouped figure before); a space that
    groups no thousands is still no amount."""
    text = _text(corpus, IP_SNG)
    edited, count = re.subn(r'="(-?[0-9]+),([0-9]{3})"', rf'="\1{space}\2"', text)
    assert count > 100
    before, after = _hands(text, "ipoker"), _hands(edited, "ipoker")
    assert len(after) == len(before) == 117
    assert [reading(new) for new in after] == [reading(old) for old in before]
    bad = re.sub(r'chips="1,440"', f'chips="14{space}40"', text, count=1)
    assert isinstance(_hands(bad, "ipoker")[0], Rejected)


@pytest.mark.parametrize(("name", "stakes", "written"), [
    (IP_CASH, "L $0.05/$0.10", "L $0.05/$0.10 Ante $0.01"),
    (IP_SNG, "L", "L Ante 8"),  # a tournament's gametype without stakes
])  # fmt: skip
def test_ipoker_gametype_with_the_ante(corpus: Path, name: str, stakes: str, written: str) -> None:
    """Other iPoker skins write the ante after the stakes in <gametype> (FPDB's
    iPokerToFpdb.py): the same hands, the ante as the ante actions state it (they were
    skipped as another game before)."""
    text = _text(corpus, name)
    edited, count = re.subn(rf"(<gametype>7 Card Stud ){re.escape(stakes)}</gametype>", rf"\g<1>{written}</gametype>", text)
    assert count == 1
    before, after = _hands(text, "ipoker"), _hands(edited, "ipoker")
    assert after and len(after) == len(before)
    assert [reading(new)[1:] for new in after] == [reading(old)[1:] for old in before]
    assert all(isinstance(new, Hand) and isinstance(old, Hand) and new.header.stakes == old.header.stakes
               for new, old in zip(after, before))  # fmt: skip


def test_ipoker_hilow_is_stud_hi_lo(corpus: Path) -> None:
    """"7 Card Stud HiLow", another skin's name for stud hi/lo (FPDB's iPokerToFpdb.py),
    reads as "7 Card Stud Hi-Lo" does (it was skipped as another game before)."""
    text = _text(corpus, IP_CASH)
    hilow, hi_lo = (_hands(text.replace("<gametype>7 Card Stud L", f"<gametype>7 Card Stud {name} L"), "ipoker")
                    for name in ("HiLow", "Hi-Lo"))  # fmt: skip
    assert hilow and all(isinstance(h, Hand) and h.header.variant is Variant.STUD8 for h in hilow)
    assert [reading(h) for h in hilow] == [reading(h) for h in hi_lo]


# Winning's action lines whose figure's meaning no log establishes: rejected at that line,
# named (the old client's "allin (N)" and bare "allin", a raise or cap without " to $Y").
_WINNING_UNREAD = {
    "old allin figure": (WIN_OLD, r"(?m)^(Player (.*)) raises \(([0-9.]+)\)", r"\1 allin (\3)"),
    "old bare allin": (WIN_OLD, r"(?m)^(Player (.*)) raises \(([0-9.]+)\)", r"\1 allin"),
    "raise without to": (WIN, r"(?m)^(\S+) raises (\$[0-9.]+) to \$[0-9.]+", r"\1 raises \2"),
    "cap without to": (WIN, r"(?m)^(\S+) raises (\$[0-9.]+) to \$[0-9.]+", r"\1 caps \2"),
}


@pytest.mark.parametrize("case", sorted(_WINNING_UNREAD))
def test_winning_action_figures_of_unknown_meaning_reject_at_their_line(corpus: Path, case: str) -> None:
    name, pattern, written = _WINNING_UNREAD[case]
    text = _text(corpus, name)
    found = re.search(pattern, text)
    assert found is not None
    edited = text[: found.start()] + found.expand(written) + text[found.end() :]
    line = text.count("\n", 0, found.start()) + 1
    results = list(parse_text(edited, file="edited.txt", site="winning"))
    rejected = [r for r in results if isinstance(r, Rejected)]
    assert len(rejected) == 1 and rejected[0].line == line and rejected[0].text == found.expand(written)
