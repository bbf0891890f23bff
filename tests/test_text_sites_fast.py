"""The shortcuts of the text sites' fast path give what the slow path gave.

* a hand skipped as another game is still judged by the grammar first: the
  scan goes on from where the builder stopped (``LineGrammar.accepts_rest``),
  and an ungrammatical hand is rejected with Lark's own error;
* ``LineGrammar.accepts_rest`` accepts exactly the texts Lark's parser accepts;
* detection with the splitter's header search picks the same site as the
  regexes' own search, on every corpus file (and Winning's two line-start
  patterns detect what its one lookbehind regex did).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lark.exceptions import UnexpectedInput

from samples import sample_files
from studbook.events import Rejected, Skipped
from studbook.read import HEAD_CHARS, decode, read_bytes
from studbook.sites import all_sites, get_site, site_names
from studbook.sites.base import HandText
from studbook.sites.lines import LineFormat

TEXT_SITES = tuple(name for name in site_names() if isinstance(get_site(name), LineFormat))  # every grammar-driven site
WINNING_OLD = "WinningPoker/7-Stud-8max-USD-1.00-2.00-201608.HH00000000 G0.txt"


def corpus_texts(corpus: Path) -> list[tuple[Path, str]]:
    return [(path, decode(read_bytes(path)).text) for _name, path in sample_files(corpus)]


def line_format(name: str) -> LineFormat:
    fmt = get_site(name)
    assert isinstance(fmt, LineFormat)
    return fmt


def lark_verdict(fmt: LineFormat, chunk: HandText) -> tuple[int, str] | None:
    """The (line, reason) Lark's own parser rejects the hand with, or None when it accepts it."""
    try:
        fmt.grammar().lark.parse(chunk.text)
    except UnexpectedInput as error:
        return fmt.explain(error, chunk, chunk.text)
    return None


def first_hand(corpus: Path, name: str, site: str) -> HandText:
    path = corpus / name
    if not path.is_file():
        pytest.skip(f"corpus file absent: {path}")
    return next(iter(line_format(site).split(decode(read_bytes(path)).text)))


def as_deuce_razz(hand: HandText) -> HandText:
    """A Winning (older client) hand as a 2-7 razz hand: skipped at its game line,
    where the stud grammar still holds for the rest of the hand."""
    return HandText(hand.first_line, hand.text.replace("(Seven Cards Stud)", "(Razz 2-7)", 1))


def test_a_grammatical_hand_of_another_game_is_skipped(corpus: Path) -> None:
    hand = as_deuce_razz(first_hand(corpus, WINNING_OLD, "winning"))
    result = line_format("winning").parse_hand(hand, "x.txt")
    assert isinstance(result, Skipped)
    assert (result.game, result.hand_id) == ("Razz 2-7", "693977667")
    assert result.reason == "2-7 razz (deuce-to-seven low) is not replayed (A-5 razz only)"


@pytest.mark.parametrize(("line", "replacement"), [
    ("Player Nee folds\n", "Player Nee juggles\n"),  # an unknown line
    ("Player Nee folds\n", "------ Summary ------\n"),  # a line out of place
    ("Seat 5: Nee (50).\n", ""),  # a seat line missing: the grammar allows it, the hand is skipped
    ("Pot: 1.10. Rake 0\n", ""),  # the summary cut short
])  # fmt: skip
def test_a_hand_of_another_game_is_judged_by_the_grammar_first(corpus: Path, line: str, replacement: str) -> None:
    hand = as_deuce_razz(first_hand(corpus, WINNING_OLD, "winning"))
    assert line in hand.text
    changed = HandText(hand.first_line, hand.text.replace(line, replacement, 1))
    fmt = line_format("winning")
    result = fmt.parse_hand(changed, "x.txt")
    expected = lark_verdict(fmt, changed)
    if expected is None:
        assert isinstance(result, Skipped)
    else:
        assert isinstance(result, Rejected)
        assert (result.line, result.reason) == expected


def test_an_unknown_line_gives_larks_message_unless_the_game_is_another(corpus: Path) -> None:
    """A 2-7 razz header is another game's (common.lark's STUD_GAME_NAME leaves it out):
    its lines are read as opaque lines, as a hold'em hand's are; in a stud hand an
    unknown line naming a seated player rejects it with Lark's message."""
    stud = first_hand(corpus, WINNING_OLD, "winning")
    for hand, rejected in ((stud, True), (as_deuce_razz(stud), False)):
        changed = HandText(hand.first_line, hand.text.replace("Player Nee folds\n", "Player Nee juggles\n", 1))
        result = line_format("winning").parse_hand(changed, "x.txt")
        if not rejected:
            assert isinstance(result, Skipped) and result.game == "Razz 2-7"
            continue
        assert isinstance(result, Rejected)
        assert result.text == "Player Nee juggles"
        assert result.reason.startswith("unknown line (expected ")


@pytest.mark.parametrize("site", TEXT_SITES)
def test_accepts_rest_accepts_what_lark_accepts(corpus: Path, site: str) -> None:
    """From the start of each corpus hand of the site, and of the hand cut at
    each line: the fast scan's verdict is Lark's."""
    fmt = line_format(site)
    grammar = fmt.grammar()
    start = grammar.begin()[0]
    checked = 0
    for _path, text in corpus_texts(corpus):
        if not fmt.detect(text[:HEAD_CHARS]):
            continue
        for chunk in list(fmt.split(text))[:20]:
            lines = chunk.text.splitlines(keepends=True)
            for cut in {len(lines), len(lines) - 1, len(lines) // 2}:
                hand = HandText(chunk.first_line, "".join(lines[:cut]))
                if not hand.text:
                    continue
                assert grammar.accepts_rest(hand.text, start, 0) == (lark_verdict(fmt, hand) is None)
                checked += 1
    assert checked


# Winning's detector as it was: one regex, searched for the letter "a" both line starts share.
WINNING_BEFORE = re.compile(
    r"a(?:(?<=^Ga)me started at: [^\n]*\nGame ID: \d+ |(?<=^Ha)nd #\d+ - [^\n]*\) - [^\n]* - \d{4}/\d{2}/\d{2} )", re.M
)


def searched(fmt: LineFormat, head: str) -> bool:
    """Detection by the regexes' own search."""
    detector = fmt.detector or fmt.header
    return any(pattern.search(head) for pattern in (detector if isinstance(detector, tuple) else (detector,)))


def test_detection_matches_the_regex_search_on_every_corpus_file(corpus: Path) -> None:
    formats = [fmt for fmt in all_sites() if isinstance(fmt, LineFormat)]
    for path, text in corpus_texts(corpus):
        head = text[:HEAD_CHARS]
        for fmt in formats:
            assert fmt.detect(head) == searched(fmt, head), (path, fmt.name)
        assert line_format("winning").detect(head) == bool(WINNING_BEFORE.search(head)), path


@pytest.mark.parametrize("head", [
    "Game started at: 2016/8/2 11:17:19\nGame ID: 693977667 1/2 (PRR) Leyak (Seven Cards Stud)\n",
    "notes\nGame started at: 2016/8/2\nGame ID: 6 x",
    "Game started at: 2016/8/2\nGame ID: x",
    " Game started at: 2016/8/2\nGame ID: 6 x",
    "Hand #1 - 7Stud(Limit) - 1/2 - 2019/07/01 ",
    "x\nHand #1 - a) - b - 2019/07/01 \n",
    "Hand #1 - a - b - 2019/07/01 \n",
    "Bovada Hand #1 - a) - b - 2019/07/01 \n",
])  # fmt: skip
def test_winning_detection_is_as_before(head: str) -> None:
    assert line_format("winning").detect(head) == bool(WINNING_BEFORE.search(head))


@pytest.mark.parametrize(("head", "found"), [
    ("PokerStars Hand #1: ", True),
    ("notes\nPokerStars Hand #1: ", True),
    ("notes PokerStars Hand #1: \n", False),  # not at a line start
    ("PokerStars Hand #x\nPokerStars Game #2", True),
    ("PokerStars Hand #x\n", False),
])  # fmt: skip
def test_pokerstars_detection_wants_a_header_at_a_line_start(head: str, found: bool) -> None:
    assert line_format("pokerstars").detect(head) is found


@pytest.mark.parametrize("name", TEXT_SITES)
def test_a_skipped_hand_is_named_by_its_site_once(name: str) -> None:
    """A builder names the hands it skips by its site, the name its hands' headers carry
    (``LineBuilder.SITE``), so that parse.py need not make each skipped hand again to fill
    the site (issue 34): that name is the format's, as parse.py would have filled it."""
    fmt = get_site(name)
    assert isinstance(fmt, LineFormat)
    assert fmt.builder.SITE == fmt.name
    skipped = fmt.builder._skipped  # the builder's own Skipped, before parse.py sees it
    from studbook.sites.lines import SkipHand

    builder = fmt.builder("f.txt", HandText(3, "x\n"), "x\n", fmt.grammar())
    result = skipped(builder, SkipHand("Hold'em"))
    assert isinstance(result, Skipped) and result.site == name


def test_a_scan_starts_from_its_builders_plan_once_made(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where a scan starts (the start stack, its scanner, its steps) is looked up with the
    builder's plan, made once a builder class and grammar (issue 34: once a hand before);
    each builder class has its own plans, its handlers folded in, a subclass's apart."""
    from studbook.parse import parse_text
    from studbook.read.grammar import LineGrammar

    fmt = line_format("pokerstars")
    builder = fmt.builder
    begun: list[int] = []
    begin = LineGrammar.begin
    monkeypatch.setattr(LineGrammar, "begin", lambda self: begun.append(1) or begin(self))
    monkeypatch.setattr(builder, "_plans", {}, raising=False)
    hand = (Path(__file__).resolve().parents[1] / "histories").glob("**/*.txt")
    text = next(decode(read_bytes(path)).text for path in sorted(hand) if get_site("pokerstars").detect(
        decode(read_bytes(path)).text[:HEAD_CHARS]))
    results = list(parse_text(text, site="pokerstars"))
    assert len(results) > 1 and len(begun) == 1, (len(results), len(begun))

    class Other(builder):
        HANDLERS = builder.HANDLERS

    assert Other._plans == {} and Other._plans is not builder._plans


def _general(fmt: LineFormat, chunk: HandText, file: str) -> object:
    """What the format's builder makes of ``chunk``: parse_hand with no hand skipped
    from its first line alone (its reading of other games' headers left out)."""
    from unittest import mock

    with mock.patch.dict(fmt.__dict__, {"_other_games": None}):
        return fmt.parse_hand(chunk, file)


@pytest.mark.parametrize("name", TEXT_SITES)
def test_a_hand_skipped_from_its_header_is_skipped_as_the_builder_skips_it(name: str, corpus: Path) -> None:
    """Every hand of every text site's logs in the corpus comes out of ``parse_hand`` as
    its builder makes it; and every hand of another game a site declares (its builder's
    ``OTHER_GAME``) is skipped from its first line, no builder made (issue 34)."""
    from studbook.parse import _unindented

    fmt = line_format(name)
    fast = 0
    for path in sorted(corpus.rglob("*")):
        if not path.is_file():
            continue
        text = decode(read_bytes(path)).text
        if not text.strip() or not fmt.detect(_unindented(text)[:HEAD_CHARS]):
            continue
        for chunk in fmt.split(text):
            other = fmt._other_games
            if other is not None:
                other.running = True  # every hand tried from its first line, not only in a run of skipped ones
            result = fmt.parse_hand(chunk, path.name)
            assert result == _general(fmt, chunk, path.name), (path, chunk.first_line)
            if other is not None and other.first_line.match(chunk.text) is not None:
                fast += 1
            elif other is not None and isinstance(result, Skipped) and result.reason != "the hand was cancelled":
                pytest.fail(f"{path}:{chunk.first_line}: a hand of another game read by its builder")
    assert (fast > 0) == (name == "pokerstars")  # the one site that declares its other games so far


def test_a_hand_of_another_game_makes_no_builder(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hand of another game is skipped from its header line: no builder is made for it
    but for the first of a run (issue 34: a mixed log's other games are read by the
    hundred), and its read takes a few Python calls (34 a hand before)."""
    import sys

    from studbook.parse import parse_text
    from studbook.sites.pokerstars import FORMAT

    header = ("PokerStars Home Game Hand #{n}: {{Dazzle's Room}} Tournament #743144019, 100+9 8-Game (Hold'em Limit)"
              " - Match Round I, Level II (20/40) - 2013/06/05 23:40:{n:02d} ET\nTable '743144019 1' 2-max\n"
              "Seat 1: Player0 (890 in chips)\nPlayer0: posts small blind 10\n\n\n")
    log = "".join(header.format(n=n) for n in range(1, 41))
    list(parse_text(log))  # warm: the grammar, its first line's regex
    made: list[object] = []
    init = FORMAT.builder.__init__
    monkeypatch.setattr(FORMAT.builder, "__init__", lambda self, *a: made.append(self) or init(self, *a))
    calls = 0

    def profile(frame: object, event: str, arg: object) -> None:
        nonlocal calls
        calls += event == "call"

    sys.setprofile(profile)
    try:
        results = list(parse_text(log, file="mix.txt"))
    finally:
        sys.setprofile(None)
    assert [(r.hand_id, r.game, r.site) for r in results if isinstance(r, Skipped)] == [
        (str(n), "Hold'em Limit", "pokerstars") for n in range(1, 41)]
    assert len(made) <= 1  # the run's first, when the hand read before it was not skipped
    assert calls < 40 * 16, calls  # some 14 a hand (34 before), the split's and parse.py's generators among them


def test_a_skipped_hand_read_as_check_reads_it_takes_few_python_steps(tmp_path: Path) -> None:
    """A hand of another game read from a file as ``studbook check`` reads it
    (:func:`~studbook.parse.stream_file`): some 5 Python calls a hand (6 before i34r15,
    whose split yields a run's results in one list; 12 before i34r10:
    a generator step to take each result out of its pair, a call to name the game; 10
    before i34r11: a ``HandText``, ``_parse_hand``, ``parse_hand``, ``screen`` a hand),
    and the split's loops some 100 steps a hand (116 before i34r10; 90 before i34r11,
    whose split offers each hand to the format's reader, some 12 steps, in place of
    some 80 a hand elsewhere). Issue 34: a mixed log's other games are read by the
    hundred, each costs its checked hands."""
    import sys
    from types import FrameType
    from typing import Any

    from studbook.parse import stream_file

    header = ("PokerStars Home Game Hand #{n}: {{Dazzle's Room}} Tournament #743144019, 100+9 8-Game (Hold'em Limit)"
              " - Match Round I, Level II (20/40) - 2013/06/05 23:40:{s:02d} ET\nTable '743144019 1' 2-max\n"
              "Seat 1: Player0 (890 in chips)\nPlayer0: posts small blind 10\n\n\n")

    def steps(hands: int) -> tuple[int, int, list[tuple[str | None, str]]]:
        path = tmp_path / f"mix{hands}.txt"
        path.write_text("".join(header.format(n=1000 + n, s=n % 60) for n in range(hands)), encoding="utf-8")
        list(stream_file(path)[1])  # warm: the grammar, its first line's regex, the games named
        calls = split = 0

        def trace(frame: FrameType, event: str, arg: Any) -> Any:
            nonlocal calls, split
            if event == "call":
                calls += 1
                frame.f_trace_opcodes = frame.f_code.co_filename.endswith("split.py")
            elif event == "opcode":
                split += 1
            return trace

        sys.settrace(trace)
        try:
            results = list(stream_file(path)[1])
        finally:
            sys.settrace(None)
        return calls, split, [(r.hand_id, r.game) for r in results if isinstance(r, Skipped)]

    calls20, split20, skipped = steps(20)
    calls60, split60, skipped60 = steps(60)
    assert skipped60 == [(str(1000 + n), "Hold'em Limit") for n in range(60)]
    assert (calls60 - calls20) / 40 <= 5.5, (calls60 - calls20) / 40
    assert (split60 - split20) / 40 <= 104, (split60 - split20) / 40
