"""Every hand of a real log reads: lines that carry no play never cost a hand.

The line policy (``studbook.sites.noplay``) on every text site's corpus hands,
as properties (any no-play line anywhere inside a hand changes nothing but the
notes; a line naming a seated player with an amount rejects the hand at that
line), then one test per class of real-log variation on an edited corpus hand:
game names, a garbled showdown description, an extra table-info line, presence
lines of a seated player who sits out, a format without a rake field, the
currency of every site, and stale rejects in the store.
"""

from __future__ import annotations

import re
import string
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from samples import sample_files
from studbook.check import check_hand
from studbook.engine.result import HandCheck
from studbook.events import Chatter, Hand, Note, PotSummary, Rejected, Skipped, Variant
from studbook.parse import parse_text, read_file
from studbook.read import decode, read_bytes
from studbook.sites import get_site, site_names
from studbook.sites.base import NO_PLAY_BETWEEN_HANDS
from studbook.sites.lines import LineFormat
from studbook.read.grammar import grammar_dir, load_grammar
from studbook.cli.unknown import shape as shape_of
from studbook.sites.noplay import LinePolicy, Verdict, carries_amount, carries_cards, names_player

SAMPLES = Path(__file__).resolve().parents[1] / "histories"
TEXT_SITES = tuple(name for name in site_names() if isinstance(get_site(name), LineFormat))
D = Decimal


@pytest.fixture(scope="module")
def text_hands(corpus: Path) -> list[tuple[str, str, HandCheck]]:
    """(site, the hand's text, its check) for every hand of every text site's sample files."""
    out: list[tuple[str, str, HandCheck]] = []
    for _name, path in sample_files(corpus):
        parsed = read_file(path)
        if parsed.site not in TEXT_SITES or not parsed.hands:
            continue
        lines = decode(read_bytes(path)).text.split("\n")
        for hand in parsed.results:
            if isinstance(hand, Hand):
                text = "\n".join(lines[hand.line - 1 : hand.end_line]) + "\n"
                out.append((hand.site, text, check_hand(hand)))
    assert {site for site, _, _ in out} == set(TEXT_SITES), "every text site has hands in its samples"
    return out


def _one(text: str, site: str) -> Hand | Rejected | Skipped:
    results = list(parse_text(text, file="edited.txt", site=site))
    assert len(results) == 1, results
    return results[0]


def _summary(check: HandCheck) -> tuple[str, list[str], dict[str, Decimal]]:
    return check.status, sorted(v.rule for v in check.violations), {p.player: p.net for p in check.players}


def _count(hand: Hand, kind: type) -> int:
    return sum(type(e) is kind for e in hand.events)


def _insert(text: str, at: int, line: str) -> str:
    lines = text.split("\n")
    return "\n".join(lines[:at] + [line] + lines[at:])


def _places(text: str, hand: Hand) -> st.SearchStrategy[int]:
    """Where a line may go: from after the hand's first line (inside the header's
    lines, among the seat lines) to after the last written line (0-based index of
    the line it precedes)."""
    return st.integers(1, len(text.rstrip("\n").split("\n")))


VOCABULARY = (
    "5 seconds left to act", "{p} has 15 seconds left to act", "{p} has timed out",
    "{p} is disconnected", "{p} has reconnected", "{p} is using the time bank",
    '{p} said, "nh 2 all, 5 bucks"', '{p} said "nh 2 all, 5 bucks"', "{p} has returned",
    "The table is closing after this hand", "Dealer: shuffle up and deal", "Time bank activated",
    "Server: the server restarts in 5 minutes", "{p} has requested TIME",
)
# One line of each kind of no-play line: the shared vocabulary's timers, presence, connection,
# chat and table notices, a dealer's and a server's line (which some grammars read as chat),
# and a line of no kind that names nobody and carries no amount and no card.
NO_PLAY_KINDS = {
    "timer": "{p} has 15 seconds left to act", "presence": "{p} is back", "connection": "{p} is disconnected",
    "chat": '{p} said, "nh 2 all, 5 bucks"', "notice": "The table is closing after this hand",
    "dealer": "Dealer: shuffle up and deal", "server": "Server: the server restarts in 5 minutes",
    "other": "Time bank activated",
}
_SAFE = string.ascii_lowercase + " ,.'!?-"


@settings(max_examples=examples(120), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])  # fmt: skip
@given(data=st.data())
def test_a_no_play_line_anywhere_changes_nothing_but_the_notes(
    text_hands: list[tuple[str, str, HandCheck]], data: st.DataObject
) -> None:
    site, text, before = text_hands[data.draw(st.integers(0, len(text_hands) - 1))]
    names = [s.player for s in before.hand.seats]
    at = data.draw(_places(text, before.hand))
    if data.draw(st.booleans()):
        line = data.draw(st.sampled_from(VOCABULARY)).format(p=data.draw(st.sampled_from(names)))
        random = False
    else:
        line = data.draw(st.text(_SAFE, min_size=1, max_size=40).map(str.strip).filter(
            lambda t: bool(t) and names_player(t, names) is None))  # fmt: skip
        random = True
    after = _one(_insert(text, at, line), site)
    assert isinstance(after, Hand), (line, at, after)
    checked = check_hand(after)
    assert _summary(checked) == _summary(before)
    notes = _count(after, Note) - _count(before.hand, Note)
    if random:
        assert notes == 1
    else:  # the site's own grammar may read it as chatter
        assert notes + _count(after, Chatter) - _count(before.hand, Chatter) == 1


def _site_hand(text_hands: list[tuple[str, str, HandCheck]], site: str) -> tuple[str, HandCheck]:
    """A hand of ``site``'s sample with three seats or more (the first such)."""
    return next((text, check) for name, text, check in text_hands if name == site and len(check.hand.seats) >= 3)


@pytest.mark.parametrize("site", TEXT_SITES)
def test_every_kind_of_no_play_line_at_every_place_of_a_hand(text_hands: list[tuple[str, str, HandCheck]],
                                                           site: str) -> None:  # fmt: skip
    """Each kind of no-play line, at every place of a hand: before its first line (the
    file's first line: the site is still detected), between the header's lines, among
    the seat lines, ..., after its last line. The hand reads as it did, the line a note
    (or the grammar's chatter); near the header the site is detected too."""
    text, before = _site_hand(text_hands, site)
    player = before.hand.seats[-1].player
    count = len(text.rstrip("\n").split("\n"))
    for kind, written in NO_PLAY_KINDS.items():
        line = written.format(p=player)
        for at in range(count + 1):
            edited = _insert(text, at, line)
            for forced in ((None, site) if at <= 3 else (site,)):  # detection looks past the line
                results = list(parse_text(edited, file="edited.txt", site=forced))
                assert len(results) == 1 and isinstance(results[0], Hand), (kind, at, forced, results)
                after = results[0]
                assert _summary(check_hand(after)) == _summary(before), (kind, at, forced)
                assert after.site == site and len(after.seats) == len(before.hand.seats), (kind, at)
                added = (_count(after, Note) + _count(after, Chatter)
                         - _count(before.hand, Note) - _count(before.hand, Chatter))  # fmt: skip
                assert added == (0 if at == 0 else 1), (kind, at, forced)  # before the hand: not the hand's line


def test_full_tilt_a_dealer_line_between_seat_lines_keeps_the_seats(corpus: Path) -> None:
    """Read as chat (Full Tilt's "name: text"), a dealer's line between two seat lines
    no longer ends the seat list: the later seats were lost and their antes flagged."""
    text = _corpus_text(corpus, "FullTilt/7-Stud-USD-3-6-20106.Steal.from.CO.Success.txt")
    before = _one(text, "fulltilt")
    assert isinstance(before, Hand)
    hand = _one(_insert(text, 3, "Dealer: shuffle up and deal"), "fulltilt")
    assert isinstance(hand, Hand)
    assert [s.player for s in hand.seats] == [s.player for s in before.seats]
    assert check_hand(hand).status == "ok"


def test_kingsclub_a_line_between_the_headers_first_lines_is_still_kingsclub(corpus: Path) -> None:
    text = _corpus_text(corpus, "KingsClub/7-Stud-USD-44-88-202010.txt")
    results = list(parse_text(_insert(text, 1, "Time bank activated"), file="edited.txt"))
    assert len(results) == 1 and isinstance(results[0], Hand) and results[0].site == "kingsclub"
    assert [n.text for n in results[0].events if isinstance(n, Note)] == ["Time bank activated"]


def test_everleaf_a_no_play_line_where_the_game_line_goes_is_a_note(corpus: Path) -> None:
    """Everleaf's game line comes third: a no-play line before it was read as another
    game's line, and the stud hand skipped ("not a stud ... hand: Time bank activated")."""
    text = _corpus_text(corpus, "Everleaf/7-Stud-USD-0.05-0.10.201107.txt")
    first = next(r for r in parse_text(text, site="everleaf") if isinstance(r, Hand))
    lines = text.split("\n")
    edited = "\n".join(lines[: first.line + 1] + ["Time bank activated"] + lines[first.line + 1 :])
    hand = next(r for r in parse_text(edited, site="everleaf") if r.line == first.line)
    assert isinstance(hand, Hand), hand
    assert [(n.line, n.text) for n in hand.events if isinstance(n, Note)] == [(first.line + 2, "Time bank activated")]


@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])  # fmt: skip
@given(data=st.data())
def test_an_unknown_line_naming_a_seated_player_with_an_amount_rejects_at_that_line(
    text_hands: list[tuple[str, str, HandCheck]], data: st.DataObject
) -> None:
    site, text, before = text_hands[data.draw(st.integers(0, len(text_hands) - 1))]
    player = data.draw(st.sampled_from([s.player for s in before.hand.seats]))
    verb = data.draw(st.sampled_from(["zaps", "tops up with", "moves", "is owed"]))
    amount = data.draw(st.sampled_from(["$5", "40", "0.25", "1,200", "€3"]))
    at = data.draw(_places(text, before.hand))
    line = f"{player} {verb} {amount}"
    after = _one(_insert(text, at, line), site)
    assert isinstance(after, Rejected), (line, at)
    assert after.line == at + 1 and after.text == line


def test_the_policy_reads_what_a_line_could_change() -> None:
    assert carries_amount("Bob bets $5") and carries_amount("adds 1,250") and carries_amount("is owed 0.25")
    assert not carries_amount("5 seconds left to act") and not carries_amount("Table #12 6-max at 12:30:01")
    assert carries_cards("shows [As Kd]") and not carries_cards("Ask the dealer")
    assert names_player("Seat+3 [ME] : Seat sit out", ["Seat+3", "Seat+1"]) == "Seat+3"
    assert names_player("Bobby sits out", ["Bob"]) is None
    policy = LinePolicy(load_grammar("fulltilt"))
    seated = {"Bob", "Seat+3"}
    for quiet in ("Bob returns.", "Bob has been disconnected and is given 30 seconds to reconnect.",
                  "Seat+3 [ME] : Seat sit out", "Bob is using his time bank", "Table 'Hagan' 6-max (deep)"):
        assert policy.judge(quiet, seated) is not None, quiet
    for play in ("Bob has gone all-in because of connection problems.", "Bob adds $50", "Bob sits down with 40",
                 "Carol shows [As Kd]", "*** 3RD STREET ***", "Bob: discards 2 cards"):
        assert policy.judge(play, seated) is None, play
    assert policy.judge("Bob sits out", seated) == Verdict("Bob", True)


# ---------------------------------------------------------------------------
# One test per class, on an edited corpus hand


def _corpus_text(corpus: Path, name: str) -> str:
    return decode(read_bytes(corpus / name)).text


def test_full_tilt_timer_line_with_no_name_before_third_street(corpus: Path) -> None:
    text = _corpus_text(corpus, "FullTilt/7-Stud-USD-3-6-20106.Steal.from.CO.Success.txt")
    before = check_hand(_one(text, "fulltilt"))  # type: ignore[arg-type]
    at = text.split("\n").index("*** 3RD STREET ***")
    hand = _one(_insert(text, at, "5 seconds left to act"), "fulltilt")
    assert isinstance(hand, Hand)
    assert [(n.line, n.text) for n in hand.events if isinstance(n, Note)] == [(at + 1, "5 seconds left to act")]
    assert _summary(check_hand(hand)) == _summary(before)


def test_an_extra_table_info_line_is_a_note(corpus: Path) -> None:
    text = _corpus_text(corpus, "FullTilt/7-StudHL-USD-2-4-201103.Underscore.in.tablename.txt")
    hand = _one(_insert(text, 1, "Table 'Hagan' 8-max Seat #1 is the button (deep, cap)"), "fulltilt")
    assert isinstance(hand, Hand) and _count(hand, Note) == 1
    assert check_hand(hand).status == "ok"


GAME_HEADERS = {
    # site: (corpus file, the game as written there, the variants as other versions write them)
    "partypoker": ("PartyPoker/7-StudHL-USD-0.50-1.00-201008.txt", "7 Card Stud Hi-Lo",
                   ["FL 7 Card Stud Hi-Lo", "Fixed Limit Stud Hi/Lo", "7 Card Stud H/L Limit"]),
    "fulltilt": ("FullTilt/7-StudHL-USD-2-4-201103.Underscore.in.tablename.txt", "Limit Stud H/L",
                 ["FL 7 Card Stud Hi/Lo", "Stud Hi-Lo Fixed Limit", "L Seven Card Stud 8 or Better"]),
    "everleaf": ("Everleaf/7-Stud-USD-0.05-0.10.201107.txt", "7 Card Stud",
                 ["FL 7 Card Stud", "Seven Card Stud Limit", "Fixed Limit 7-Card Stud"]),
    "pokerstars": ("PokerStars/7-Stud-USD-0.04-0.08-200911.txt", "7 Card Stud Limit",
                   ["Stud Fixed Limit", "Limit 7-Card Stud", "Seven Card Stud FL"]),
    "winamax": ("Winamax/7-StudHL-6max-EUR-25-50-201611._8games_.txt", "7-Card Stud Hi/Lo fixed limit",
                ["fixed limit 7-Card Stud Hi/Lo", "7stud hilo FL", "Stud H/L Limit"]),
    "winning": ("WinningPoker/7Stud-8max-USD-0.04-0.08-201907.CASHID-TN-Gorham GAMETYPE.txt", "7Stud",
                ["Seven Card Stud", "7 Card Stud", "Stud"]),
    "kingsclub": ("KingsClub/7-StudHL-USD-44-88-202203.fixed.streets.txt", "Limit Seven Card Stud Hi-Lo",
                  ["FL Seven Card Stud Hi/Lo", "7 Card Stud H/L Fixed Limit", "Stud Eight or Better"]),
}


@pytest.mark.parametrize("site", sorted(GAME_HEADERS))
def test_game_names_with_any_limit_prefix_and_word_order(corpus: Path, site: str) -> None:
    name, written, variants = GAME_HEADERS[site]
    text = _corpus_text(corpus, name)
    first = next(r for r in parse_text(text, site=site) if isinstance(r, Hand))
    header_line = next(line for line in text.split("\n")[first.line - 1 : first.line + 5] if written in line)
    for game in variants:
        edited = text.replace(header_line, header_line.replace(written, game, 1), 1)
        hand = next(r for r in parse_text(edited, site=site) if r.line == first.line)
        assert isinstance(hand, Hand), (game, hand)
        assert hand.header.variant is first.header.variant, game
    for game, reason in (("FL 5 Card Stud", "5-card stud"), ("Limit 2-7 Razz", "2-7 razz")):
        edited = text.replace(header_line, header_line.replace(written, game, 1), 1)
        skipped = next(r for r in parse_text(edited, site=site) if r.line == first.line)
        assert isinstance(skipped, Skipped) and skipped.reason.startswith(reason), (game, skipped)


# How other versions of a client may write a game's name: the case, the spacing, the
# punctuation between the words, their order (never " - ", which separates a header's fields)
REWRITES = {
    "upper": lambda words: " ".join(words).upper(), "lower": lambda words: " ".join(words).lower(),
    "two spaces": "  ".join, "no spaces": "".join, "hyphens": "-".join, "underscores": "_".join,
    "slashes": "/".join, "commas": ", ".join, "dots": ". ".join, "reversed": lambda words: " ".join(reversed(words)),
    "rotated": lambda words: " ".join(words[1:] + words[:1]), "reversed lower": lambda words: "-".join(reversed(words)).lower(),
}


def _header_games(text_hands: list[tuple[str, str, HandCheck]]) -> dict[tuple[str, str], tuple[str, int]]:
    """Per (site, game as written), a hand's text and the index of the line that writes the game."""
    found: dict[tuple[str, str], tuple[str, int]] = {}
    for site, text, check in text_hands:
        game = check.hand.header.game
        lines = text.split("\n")
        at = next((i for i, line in enumerate(lines[:4]) if game and game in line), None)
        if at is not None:
            found.setdefault((site, game), (text, at))
    return found


def test_a_stud_header_is_never_skipped_however_its_game_is_written(
    text_hands: list[tuple[str, str, HandCheck]],
) -> None:
    """Every corpus header with its game's name rewritten (case, spacing, punctuation, word
    order) reads, or is rejected at its line as an unknown stud header (a header whose words
    no longer name stud, "Card Seven", as an unrecognised one): never skipped as another game."""
    from studbook.sites.base import UNKNOWN_STUD_HEADER, UNRECOGNISED_HEADER
    from studbook.sites.noplay import names_stud

    games = _header_games(text_hands)
    assert {site for site, _ in games} == set(TEXT_SITES), "every text site writes its game in its header"
    rejected = 0
    for (site, game), (text, at) in sorted(games.items()):
        lines = text.split("\n")
        for how, rewrite in REWRITES.items():
            written = rewrite(game.split(" "))
            edited = lines[:at] + [lines[at].replace(game, written, 1)] + lines[at + 1 :]
            result = _one("\n".join(edited), site)
            assert not isinstance(result, Skipped), (site, game, how, written, result)
            if isinstance(result, Rejected):
                rejected += 1
                reason = UNKNOWN_STUD_HEADER if names_stud(edited[at]) else UNRECOGNISED_HEADER
                assert (result.reason, result.line, result.text) == (reason, at + 1, edited[at].rstrip()), (site, how)
    assert rejected > 0  # some rewrites are no form a grammar reads: rejected, not skipped


@pytest.mark.parametrize("site", TEXT_SITES)
def test_the_policy_knows_every_terminal_that_reads_the_game(site: str) -> None:
    """The terminals a site's grammar file defines with the game's words (common.lark's
    OTHER_GAME_... or STUD_GAME_... pieces) are the policy's game lines, whatever escapes
    those pieces are written with (Lark reads ``\\n`` as a newline: a game word written
    with one was missed, and a header in an unknown form said "unknown line")."""
    fmt = get_site(site)
    assert isinstance(fmt, LineFormat)
    grammar = fmt.grammar()
    text = (grammar_dir() / f"{fmt.grammar_name}.lark").read_text(encoding="utf-8")
    bodies = dict(re.findall(r"^([A-Z][A-Z0-9_]*)(?:\.[0-9]+)?:(.*)$", text, re.M))
    words = {"OTHER_GAME_WORD", "OTHER_GAME_NAME", "OTHER_GAME_LINE", "STUD_GAME_WRITTEN", "STUD_GAME_NAME"}
    while grown := {name for name, body in bodies.items() if name not in words and words & set(re.findall(r"\w+", body))}:
        words |= grown  # a terminal made of one that reads the game reads it too
    reading = words & set(grammar.terminals)
    assert reading and reading <= LinePolicy(grammar).game_lines, (site, reading)


def _header_lines(text_hands: list[tuple[str, str, HandCheck]]) -> dict[str, list[str]]:
    """Per text site, the first lines of its hands (the headers: game, stakes, table),
    each distinct line once."""
    found: dict[str, dict[str, None]] = {site: {} for site in TEXT_SITES}
    for site, text, check in text_hands:
        game = check.hand.header.game or "\0"
        for line in text.split("\n")[:4]:
            # the line, and as another game's header: words a word boundary starts or ends
            found[site].update(dict.fromkeys([line] + [line.replace(game, other) for other in _OTHER_GAMES if game in line]))
    return {site: [line for line in lines if line] for site, lines in found.items()}


_OTHER_GAMES = ("5 Card Stud", "Five Card Draw", "2-7 Razz", "Limit 27 Lowball", "Hold'em", "Omaha Hi/Lo", "Badugi")


def _case_and_spacing(line: str) -> st.SearchStrategy[str]:
    """``line`` with some letters' case flipped and some spaces changed (doubled,
    dropped, or a hyphen, underscore, slash or tab)."""
    def edit(flips: list[bool], spaces: list[str]) -> str:
        out, space = [], iter(spaces)
        for char, flip in zip(line, flips):
            out.append(next(space, " ") if char == " " else char.swapcase() if flip else char)
        return "".join(out)
    return st.builds(edit, st.lists(st.booleans(), min_size=len(line), max_size=len(line)),
                     st.lists(st.sampled_from([" ", " ", "  ", "", "-", "_", "/", "\t"]), max_size=len(line)))


def _as_regex_reads(scanner: Any, text: str, pos: int, rest: str) -> Any:
    """The token the scanner's regex reads at ``pos`` (what ``read`` gives a line it
    has not remembered): its terminal, fields, length and whether it ends the line;
    None when nothing matches or the match runs past the line."""
    m = scanner.match(text, pos)
    if m is None or not pos < m.end() <= pos + len(rest) + 1:
        return None
    fields = m.group(*scanner.groups[m.lastgroup]) if scanner.groups[m.lastgroup] else ()
    return (m.lastgroup, fields if isinstance(fields, tuple) else (fields,), m.end() - pos, text[m.end() - 1] == "\n")


@settings(max_examples=examples(20), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_scanner_that_remembers_reads_what_its_regex_reads(
    text_hands: list[tuple[str, str, HandCheck]], data: st.DataObject
) -> None:
    """Every scanner of every site's grammar (those its hands built, their memos as the
    hands left them) gives, for any rest of a header line in any case and spacing, after
    any character, what its regex gives there: a memo keyed by what the token depends on
    (the rest of the line, and the character before where a word boundary looks at it)."""
    headers = _header_lines(text_hands)
    befores = data.draw(st.lists(st.sampled_from(["", " ", "x", "X", "_", "5", "(", "é", "\n"]), min_size=2, max_size=5))
    for site in TEXT_SITES:
        fmt = get_site(site)
        assert isinstance(fmt, LineFormat)
        scanners = list(fmt.grammar()._scanner_by_terms.values())
        line = data.draw(_case_and_spacing(data.draw(st.sampled_from(headers[site]))))
        # the rests from each word's start (where a word boundary looks at the character before) and one more
        starts = [i for i in range(len(line)) if i == 0 or not line[i - 1].isalnum() and line[i].isalnum()]
        for rest in [line[i:] for i in starts] + [line[data.draw(st.integers(0, len(line))) :]]:
            for scanner in scanners:
                for before in befores * 3:  # a rest of line is remembered on its second sight
                    text = f"{before}{rest}\nnext line\n"
                    assert scanner.read(text, len(before), rest) == _as_regex_reads(scanner, text, len(before), rest), (site, before, rest)


def test_another_games_header_in_another_case_is_still_skipped(corpus: Path) -> None:
    """What is skipped is another game by its words, in any case or spacing."""
    seen = set()
    for name, path in sample_files(corpus):
        for result in read_file(path).results:
            if isinstance(result, Skipped) and result.site in TEXT_SITES and (result.site, result.game) not in seen:
                seen.add((result.site, result.game))
                text = decode(read_bytes(path)).text
                lines = text.split("\n")
                at = next(i for i in range(result.line - 1, result.line + 3) if result.game in lines[i])
                for written in (result.game.upper(), result.game.lower(), result.game.replace(" ", "  ")):
                    edited = lines[:at] + [lines[at].replace(result.game, written, 1)] + lines[at + 1 :]
                    again = next(r for r in parse_text("\n".join(edited), site=result.site) if r.line == result.line)
                    assert isinstance(again, Skipped), (name, result.game, written, again)
    assert len({site for site, _ in seen}) >= 4


def test_a_known_kind_in_an_unknown_form_says_so(text_hands: list[tuple[str, str, HandCheck]]) -> None:
    """A 'Dealt to' line (a deal line of any site) in a form the grammar does not read
    rejects its hand saying so, where it said "unknown line" or named another kind."""
    from studbook.sites.base import UNKNOWN_FORM

    said = set()
    for site in TEXT_SITES:
        text, _ = _site_hand(text_hands, site)
        fmt = get_site(site)
        assert isinstance(fmt, LineFormat)
        tokens = fmt.grammar().lines(text)
        deal = next((t for t in tokens if t[0] in ("DEAL", "NEW_DEAL", "OLD_DEAL")), None)
        if deal is None or "[" not in text[deal[3] : deal[4]]:
            continue
        lines = text.split("\n")
        lines[deal[2] - 1] = lines[deal[2] - 1].replace("[", "{").replace("]", "}")
        result = _one("\n".join(lines), site)
        assert isinstance(result, Rejected), (site, result)
        kind = fmt.kinds.get(deal[0], deal[0])
        assert result.reason.endswith(f"{kind} {UNKNOWN_FORM}") and result.line == deal[2], (site, result.reason)
        said.add(site)
    assert len(said) >= 6, said


def test_partypoker_fixed_limit_stud_hi_lo_header(corpus: Path) -> None:
    text = _corpus_text(corpus, "PartyPoker/7-StudHL-USD-0.50-1.00-201008.txt")
    hand = _one(text.replace("$0.50/$1 USD 7 Card Stud Hi-Lo", "$10/$20 USD FL 7 Card Stud Hi-Lo"), "partypoker")
    assert isinstance(hand, Hand) and hand.header.variant is Variant.STUD8
    assert (hand.header.stakes.small_bet, hand.header.stakes.big_bet) == (D(10), D(20))


def test_winning_garbled_low_description_at_showdown(corpus: Path) -> None:
    text = _corpus_text(corpus, "WinningPoker/7-Stud-8max-USD-1.00-2.00-201608.HH00000000 G0.txt")
    shown = "*Player ChazDazzle shows: Two pairs. Qs and 7s [Qc 10s 7d 9c 6c Qd 7h]. Bets: 4.55."
    garbled = "*Player ChazDazzle shows: High card A [Qc 10s 7d 9c 6c Qd 7h] Low hand (A A 2 4 6 7 ).Bets: 4.55."
    assert shown in text
    before = [check_hand(r) for r in parse_text(text) if isinstance(r, Hand)]
    after = [check_hand(r) for r in parse_text(text.replace(shown, garbled)) if isinstance(r, Hand)]
    assert [_summary(c) for c in after] == [_summary(c) for c in before]


@pytest.mark.parametrize("sits_out", ["Seat sit out", "Sit out"])  # the later and the older client
def test_bovada_presence_lines_of_a_seated_player_who_sits_out(corpus: Path, sits_out: str) -> None:
    """Read by the grammar as table talk or by the line policy as a note, a seated
    player's sitting out before the deal marks the seat sitting out."""
    text = _corpus_text(corpus, "Bovada/7-StudHL-USD-0.25-0.50-201209.txt")
    before = _one(text, "bovada")
    assert isinstance(before, Hand)
    seated = {s.seat for s in before.seats}
    free = min(set(range(1, 9)) - seated)
    lines = text.split("\n")
    last_seat = max(i for i, line in enumerate(lines) if line.startswith("Seat+") and "in chips" in line)
    lines[last_seat + 1 : last_seat + 1] = [f"Seat+{free}: $10 in chips", f"Seat+{free} : {sits_out}"]
    first_deal = next(i for i, line in enumerate(lines) if "Card dealt to a spot" in line)
    lines[first_deal:first_deal] = [f"Seat+{free} : Seat stand", f"Seat+{free} : Table leave user"]
    hand = _one("\n".join(lines), "bovada")
    assert isinstance(hand, Hand), hand
    out = next(s for s in hand.seats if s.seat == free)
    assert out.sitting_out
    check = check_hand(hand)
    assert check.status == check_hand(before).status
    assert {p.player: p.net for p in check.players if p.player != out.player} == {
        p.player: p.net for p in check_hand(before).players}


def test_format_without_a_rake_field(corpus: Path) -> None:
    text = _corpus_text(corpus, "Bovada/7-StudHL-USD-0.25-0.50-201209.txt")
    assert "Total Pot($4.85) | Rake ($0.20)" in text
    hand = _one(text.replace("Total Pot($4.85) | Rake ($0.20)", "Total Pot($4.85)"), "bovada")
    assert isinstance(hand, Hand)
    assert next(e for e in hand.events if isinstance(e, PotSummary)).rake is None
    check = check_hand(hand)
    assert check.status == "ok" and check.rake == D("0.20")  # what the pot holds beyond the collections
    # more than the profile's share of the pot is not rake: pot.total
    greedy = _one(text.replace("Total Pot($4.85) | Rake ($0.20)", "Total Pot($4.85)")
                  .replace("Hand result $2.33", "Hand result $1.33"), "bovada")  # fmt: skip
    assert isinstance(greedy, Hand)
    assert "pot.total" in {v.rule for v in check_hand(greedy).violations}


# Logs that name no currency: KingsClub's, Winning's older client ("Game ID: 693977667 1/2 (PRR) ..."),
# and BetOnline's skins whose stakes carry no sign ("Razz Limit (1.00/2.00)").
NO_CURRENCY = ("KingsClub/", "WinningPoker/7-Stud-8max-USD-1.00-2.00-201608", "handmade/betonline/Razz-StudHL-no-currency")


# What each corpus file's hands are written in: the log's own currency, chips (None) for
# tournaments, play money and logs that name no currency.
def _expected_currency(name: str, hand: Hand) -> str | None:
    if hand.header.tournament is not None or hand.header.play_money or name.startswith(NO_CURRENCY):
        return None
    return "EUR" if "-EUR-" in name else "USD"


def test_currency_of_every_corpus_hand(corpus: Path) -> None:
    seen: dict[str, set[str | None]] = {}
    for name, path in sample_files(corpus):
        parsed = read_file(path)
        if not parsed.hands:
            continue
        for hand in parsed.results:
            if isinstance(hand, Hand):
                assert hand.header.currency == _expected_currency(name, hand), (name, hand.hand_id)
                seen.setdefault(hand.site, set()).add(hand.header.currency)
    assert set(seen) == set(site_names()) - {"phh"}  # PHH is an interchange format: no sample holds it
    assert {c for cs in seen.values() for c in cs} == {"USD", "EUR", None}
    assert any(h.header.play_money for h in read_file(
        corpus / "Winamax/7-Stud-6max-play-0.5-0.10-201606.export.txt").results if isinstance(h, Hand))


def test_ipoker_table_currency_is_the_hands_currency(corpus: Path) -> None:
    text = _corpus_text(corpus, "iPoker/7-StudL-USD-0.05-0.10-201009.txt")
    assert "<currency>USD</currency>" in text
    edited = text.replace("<currency>USD</currency>", "<currency>USD</currency><tablecurrency>EUR</tablecurrency>", 1)
    hands = [r for r in parse_text(edited, site="ipoker") if isinstance(r, Hand)]
    assert hands and {h.header.currency for h in hands} == {"EUR"}


def test_a_hand_that_reads_later_leaves_the_rejects(corpus: Path, tmp_path: Path) -> None:
    from studbook.check import check_paths
    from studbook.store import import_results, read_frames

    text = _corpus_text(corpus, "PokerStars/7-Stud-USD-0.04-0.08-200911.txt")
    log = tmp_path / "session.txt"
    log.write_text(text[: text.rindex("*** SUMMARY ***")], encoding="utf-8")  # the last hand cut
    db = tmp_path / "s.db"
    import_results(db, [r for f in check_paths([log]) for r in f.results])
    assert len(read_frames(db).rejects) == 1
    log.write_text(text, encoding="utf-8")  # the whole file, later
    import_results(db, [r for f in check_paths([log]) for r in f.results])
    frames = read_frames(db)
    assert len(frames.rejects) == 0 and len(frames.hands) == 11


def test_notes_are_counted_stored_and_listed(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from studbook.check import check_paths
    from studbook.cli import main
    from studbook.store import import_results, read_frames

    text = _corpus_text(corpus, "FullTilt/7-Stud-USD-3-6-20106.Steal.from.CO.Success.txt")
    at = text.split("\n").index("*** 3RD STREET ***")
    log = tmp_path / "ft.txt"
    log.write_text(_insert(text, at, "5 seconds left to act"), encoding="utf-8")
    db = tmp_path / "s.db"
    import_results(db, [r for f in check_paths([log]) for r in f.results])
    frames = read_frames(db)
    assert frames.hands["notes"].tolist() == [1]
    assert frames.notes[["line", "text"]].values.tolist() == [[at + 1, "5 seconds left to act"]]
    assert main(["check", "--notes", str(log)]) == 0
    out = capsys.readouterr().out
    assert f"{log}:{at + 1}: hand 21536266313: note: 5 seconds left to act" in out and ", 1 note\n" in out
    assert main(["check", str(log)]) == 0
    assert "note:" not in capsys.readouterr().out


def test_unknown_lists_line_shapes(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from studbook.cli import main

    text = _corpus_text(corpus, "FullTilt/7-Stud-USD-3-6-20106.Steal.from.CO.Success.txt")
    lines = text.split("\n")
    at = lines.index("*** 3RD STREET ***")
    noted = _insert(_insert(text, at, "5 seconds left to act"), at, "7 seconds left to act")
    (tmp_path / "a.txt").write_text(noted, encoding="utf-8")
    assert main(["unknown", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [f"2\tnote\tfulltilt\t<n> seconds left to act\t{tmp_path / 'a.txt'}:{at + 1}"]
    (tmp_path / "b.txt").write_text(_insert(text, at, "Hero zaps $5"), encoding="utf-8")
    assert main(["unknown", str(tmp_path)]) == 1
    out = capsys.readouterr().out.splitlines()
    # a rejected hand has no seats read: its names stay as written
    assert f"1\treject\tfulltilt\tHero zaps <amount>\t{tmp_path / 'b.txt'}:{at + 1}" in out


def test_unknown_lists_known_kinds_in_unknown_forms_and_headers(corpus: Path, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """A line of a known kind in a form the grammar does not know, and a header naming stud
    in such a form, are listed too (abstracted, counted, one example each): each rejected
    hand has its line."""
    from studbook.cli import main

    text = _corpus_text(corpus, "FullTilt/7-Stud-USD-3-6-20106.Steal.from.CO.Success.txt")
    lines = text.split("\n")
    deal = next(i for i, line in enumerate(lines) if line.startswith("Dealt to Hero"))
    for name in ("a.txt", "b.txt"):  # two hands with the deal line in braces: one shape, counted twice
        edited = lines[:deal] + [lines[deal].replace("[", "{").replace("]", "}")] + lines[deal + 1 :]
        (tmp_path / name).write_text("\n".join(edited), encoding="utf-8")
    header = lines[0].replace("Limit Stud Hi", "Limit Stud (Hi)")
    (tmp_path / "c.txt").write_text("\n".join([header] + lines[1:]), encoding="utf-8")
    assert main(["unknown", str(tmp_path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert f"2\tform\tfulltilt\tDealt to Hero {{<card> <card>}} {{<card>}}\t{tmp_path / 'a.txt'}:{deal + 1}" in out
    assert (f"1\theader\tfulltilt\t{shape_of(header)}\t{tmp_path / 'c.txt'}:1") in out
    assert len(out) == 2


def test_check_counts_unknown_stud_headers(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from studbook.cli import main

    text = _corpus_text(corpus, "FullTilt/7-Stud-USD-3-6-20106.Steal.from.CO.Success.txt")
    log = tmp_path / "ft.txt"
    log.write_text(text.replace("Limit Stud Hi", "Limit Stud (Hi)", 1), encoding="utf-8")
    assert main(["check", str(log)]) == 1
    out = capsys.readouterr().out
    assert f"{log}:1: hand 21536266313: rejected: unknown stud header: 'Full Tilt Poker Game #21536266313" in out
    assert "1 rejected (1 unknown stud header), 0 skipped" in out
    assert main(["check", "--format", "jsonl", str(log)]) == 1
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert records[0]["status"] == "rejected" and records[0]["reason"] == "unknown stud header"
    assert records[-1]["summary"]["rejected"] == 1 and records[-1]["summary"]["unknown_stud_headers"] == 1


XML_CASES = {
    # site: (corpus file, the element the edit goes before)
    "ipoker": ("iPoker/7-StudL-USD-0.05-0.10-201009.txt", '<round no="1">'),
    "merge": ("Merge/7-StudHL-USD-0.25-0.50-201307.no.null.xml", '<round id="BLINDS"'),
}


@pytest.mark.parametrize("site", sorted(XML_CASES))
def test_xml_unknown_elements_follow_the_line_policy(corpus: Path, site: str) -> None:
    name, anchor = XML_CASES[site]
    text = _corpus_text(corpus, name)
    before = [r for r in parse_text(text, site=site) if isinstance(r, Hand)][0]
    at = text.index(anchor)
    line = text.count("\n", 0, at) + 1
    quiet = text[:at] + "<tablenotice>the table closes soon</tablenotice>" + text[at:]
    hand = next(r for r in parse_text(quiet, site=site) if r.line == before.line)
    assert isinstance(hand, Hand), hand
    assert [(n.line, n.text) for n in hand.events if isinstance(n, Note)] == [
        (line, "<tablenotice>the table closes soon</tablenotice>")]
    assert _summary(check_hand(hand)) == _summary(check_hand(before))
    player = before.seats[0].player if site == "ipoker" else "5"
    loud = text[:at] + f'<bonus player="{player}" sum="$1"/>' + text[at:]
    rejected = next(r for r in parse_text(loud, site=site) if isinstance(r, Rejected) or r.line == before.line)
    assert isinstance(rejected, Rejected) and rejected.line == line
    assert rejected.reason.startswith("unknown element <bonus>")


def test_a_bad_line_is_reported_at_its_line_despite_a_later_note(corpus: Path) -> None:
    """A handler's error stops the build; the grammar's check of the rest of the hand
    still lets a no-play line pass, so the rejection names the bad line, not the note."""
    text = _corpus_text(corpus, "WinningPoker/7-Stud-8max-USD-1.00-2.00-201608.HH00000000 G0.txt")
    lines = text.split("\n")
    bad = next(i for i, line in enumerate(lines) if line.startswith("*Player ChazDazzle shows"))
    lines[bad] = lines[bad].replace("ChazDazzle", "Nobody")
    ended = next(i for i in range(bad, len(lines)) if lines[i].startswith("Game ended"))
    lines.insert(ended, "the table is being watched")
    [rejected] = [r for r in parse_text("\n".join(lines), site="winning") if isinstance(r, Rejected)]
    assert rejected.line == bad + 1
    assert rejected.reason == "summary line for 'Nobody', who has no seat line"


# ---------------------------------------------------------------------------
# Header-information lines out of their place: a terminal named INFO_... reads
# ids and names, no amount, so a copy written anywhere else is a Note; a header
# line that reads an amount (PartyPoker's stakes and antes) still rejects there.

_INFO_HANDS = {
    "partypoker": ("PartyPoker/7-Stud-USD-MTT-6.00-201205.txt", r"Trny:|Total number of players"),
    "kingsclub": ("KingsClub/7-Stud-USD-44-88-202010.txt", r"Table |\d{4}-\d\d-\d\d "),
}


def _reading(hand: Hand) -> tuple[object, ...]:
    """What a hand says, its notes left out (lines and the text as written too)."""
    check = check_hand(hand)
    return (hand.header, tuple(e for e in hand.events if not isinstance(e, Note)), hand.seats,
            _summary(check), sorted((v.rule, v.line) for v in check.violations))  # fmt: skip


def _shifted(hand: Hand, at: int) -> Hand:
    """``hand`` as it reads with one line inserted after its line ``at`` (1-based in the hand)."""
    import dataclasses

    def move(x: object) -> object:
        line = getattr(x, "line")
        return dataclasses.replace(x, line=line + 1) if line > hand.line + at - 1 else x  # type: ignore[type-var]

    return dataclasses.replace(hand, end_line=hand.end_line + 1, seats=tuple(move(s) for s in hand.seats),  # type: ignore[misc]
                               events=tuple(move(e) for e in hand.events))


def test_info_terminals_read_no_amount() -> None:
    from studbook.sites.lines import WRITTEN_AMOUNT
    from studbook.sites.noplay import INFO_PREFIX

    found = 0
    for site in TEXT_SITES:
        fmt = get_site(site)
        assert isinstance(fmt, LineFormat)
        grammar = load_grammar(fmt.grammar_name)
        for name, terminal in grammar.terminals.items():
            if name.startswith(INFO_PREFIX):
                found += 1
                assert WRITTEN_AMOUNT not in terminal.pattern.to_regexp(), (site, name)
    assert found >= 4


@pytest.mark.parametrize("site", sorted(_INFO_HANDS))
def test_a_header_info_line_after_any_line_is_a_note(corpus: Path, site: str) -> None:
    name, info = _INFO_HANDS[site]
    path = corpus / name
    if not path.is_file():
        pytest.skip(f"corpus file {name} not found")
    text = decode(read_bytes(path)).text
    hand = next(r for r in parse_text(text, file="edited.txt", site=site) if isinstance(r, Hand))
    lines = text.split("\n")[hand.line - 1 : hand.end_line]
    infos = [line for line in lines if re.match(info, line)]
    assert len(infos) >= 2, infos
    noted = 0
    first = hand.seats[0].line - hand.line  # after the header's lines (a line where Party's game line goes is a game)
    for copy in infos:
        for at in range(first, len(lines) + 1):  # ... after the last line
            after = _one("\n".join(lines[:at] + [copy] + lines[at:]) + "\n", site)
            assert isinstance(after, Hand), (copy, at, after)
            assert _reading(after) == _reading(_shifted(hand, at)), (copy, at)
            notes = [e for e in after.events if isinstance(e, Note)]
            # one note: the copy, or the line it copies where the grammar reads the copy in its place
            assert len(notes) <= 1 and all(n.text == copy.rstrip() for n in notes), (copy, at, notes)
            noted += len(notes)
    assert noted > len(lines)


def test_a_header_line_that_reads_an_amount_still_rejects_out_of_its_place(corpus: Path) -> None:
    name = "PartyPoker/7-Stud-USD-MTT-6.00-201205.txt"
    path = corpus / name
    if not path.is_file():
        pytest.skip(f"corpus file {name} not found")
    text = decode(read_bytes(path)).text
    hand = next(r for r in parse_text(text, file="edited.txt", site="partypoker") if isinstance(r, Hand))
    lines = text.split("\n")[hand.line - 1 : hand.end_line]
    stakes = next(line for line in lines if line.startswith("Stakes"))
    place = next(i for i, line in enumerate(lines) if line.startswith("*** 3RD") or "Dealing" in line) + 2
    after = _one("\n".join(lines[:place] + [stakes] + lines[place:]) + "\n", "partypoker")
    assert isinstance(after, Rejected) and after.line == hand.line + place and after.text == stakes


def _between_two_hands(first: str, second: str, block: str) -> list[Hand | Rejected | Skipped]:
    return [r for r in parse_text(f"{first.rstrip()}\n\n\n{block}\n\n\n{second.rstrip()}\n\n", file="two.txt")
            if not (isinstance(r, Skipped) and r.reason != NO_PLAY_BETWEEN_HANDS)]


def _no_play_blocks(player: str) -> dict[str, str]:
    """Each kind of no-play line alone, and all of them as one block of lines."""
    lines = {kind: written.format(p=player) for kind, written in NO_PLAY_KINDS.items()}
    return {**lines, "all": "\n".join(lines.values())}


def _reads_between(first: str, second: str, player: str) -> None:
    plain = _between_two_hands(first, second, "")
    assert [type(r) for r in plain] == [Hand, Hand], plain
    for kind, block in _no_play_blocks(player).items():
        results = _between_two_hands(first, second, block)
        if len(results) == 2:  # a site that splits at headers alone: the lines are the first hand's notes
            assert [type(r) for r in results] == [Hand, Hand], (kind, results)
            added = sum(_count(r, Note) + _count(r, Chatter) for r in results) - sum(
                _count(r, Note) + _count(r, Chatter) for r in plain)  # type: ignore[arg-type]
            assert added == len(block.split("\n")), (kind, added)
        else:
            assert [type(r) for r in results] == [Hand, Skipped, Hand], (kind, results)
            assert results[1].reason == NO_PLAY_BETWEEN_HANDS and results[1].game == repr(block.split("\n")[0])
            results = [results[0], results[2]]
        assert [_summary(check_hand(r)) for r in results] == [
            _summary(check_hand(r)) for r in plain], kind  # type: ignore[arg-type]
    # a line between the hands that may be a play (an amount, a card) still rejects, at its line
    for line in (f"{player} collected $5 from pot", f"{player} shows [As Kd]"):
        results = _between_two_hands(first, second, line)
        rejected = [r for r in results if isinstance(r, Rejected)]
        assert len(rejected) == 1 and rejected[0].text == line and isinstance(results[-1], Hand), (line, results)


def test_no_play_lines_between_two_shipped_hands_are_skipped_not_rejected() -> None:
    """A block of no-play lines between two hands (after the first's blank line, before
    the next header: a table notice, chat, a timer) carries no play: it is skipped with
    its reason, the two hands read as before; a line that may be a play still rejects."""
    results = read_file(SAMPLES / "planted-violations.txt").results
    texts = (SAMPLES / "planted-violations.txt").read_text(encoding="utf-8").split("\n")
    first, second = [r for r in results if isinstance(r, Hand)][:2]
    _reads_between("\n".join(texts[first.line - 1:first.end_line]), "\n".join(texts[second.line - 1:second.end_line]),
                   first.seats[0].player)


@pytest.mark.parametrize("site", TEXT_SITES)
def test_no_play_lines_between_two_hands_of_every_text_site(text_hands: list[tuple[str, str, HandCheck]],
                                                           site: str) -> None:  # fmt: skip
    text, check = _site_hand(text_hands, site)
    _reads_between(text, text, check.hand.seats[-1].player)


def test_a_long_run_of_spaces_in_a_line_is_judged_at_once() -> None:
    """A line of 20,000 spaces then text, inside a hand (found by the fuzz driver): the
    no-play vocabulary's name part once had three ways to match a run of spaces, and
    took minutes a line; it is judged like any unknown line (issue 28)."""
    text = (SAMPLES / "planted-violations.txt").read_text(encoding="utf-8").split("\n\n\n")[0]
    lines = text.split("\n")
    edited = "\n".join([*lines[:5], " " * 20_000 + "PokerStars Hand #1: 7 Card Stud", *lines[5:]]) + "\n\n"
    policy = LinePolicy(load_grammar("pokerstars"))
    assert policy.judge(" " * 20_000 + "Bob has timed out", ()) is not None
    [result] = parse_text(edited, file="spaces.txt")
    assert isinstance(result, Rejected) and result.line == 6
