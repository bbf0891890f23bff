"""A fast driver for line-oriented Lark grammars.

Site grammars (``grammars/*.lark``) give every line kind its own terminal and
let Lark's LALR parser check the order of the line kinds. Lark's generic
parse loop costs about 10 us per token here (token objects, callbacks, the
contextual lexer's bookkeeping), which is too slow for tens of thousands of
hands. :class:`LineGrammar` compiles the grammar with Lark and then runs
*Lark's own* tables much more cheaply:

* the lexer: for each LALR state, one regex alternation of the terminals
  that state accepts, in Lark's order (priority, then width, then name) -
  exactly what Lark's contextual lexer does; the fields of a line are the
  regex groups of its terminal, read from the same match. When none of a
  scanner's terminals can look past the end of the line, what it reads
  depends on the rest of the line alone, so it remembers the token per rest
  of line: logs repeat the same lines ("Hero: folds", antes, calls) all the
  time, and a repeated line costs a dict lookup instead of a regex match;
* the parser: Lark's LALR action/goto table, with whole transitions
  (reductions then shift) memoised per (parser stack, terminal), so after
  warm-up a line costs one regex match (or one lookup) and one dict lookup.
  The grammar's language is finite-state in practice, so few distinct
  stacks occur.

On any error the text is handed to Lark's ordinary ``parse`` so the error is
Lark's own ``UnexpectedInput`` (and should the two ever disagree, Lark's
result wins). ``tests/test_read.py`` checks both give the same tokens.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Collection, Generic, Iterable, Iterator, Mapping, Optional, TypeVar

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput
from lark.load_grammar import eval_escaping
from lark.parsers.lalr_analysis import Shift

from studbook.diskmemo import DiskMemo
from studbook.read import regex as regex_module
from studbook.read.memo import TextMemo
from studbook.read.regex import OPS as _c
from studbook.read.regex import compiled, min_width, no_newline, regex_items

_ACCEPT = -1
_LOOKAHEAD_END = re.compile(r"\(\?=[^()]*\)$")
_MEMO_LIMIT = 4096  # tokens a scanner remembers, twice over (see _Scanner.read)
_SEEN_LIMIT = 1024  # rests of lines a scanner remembers having read once
_WEIGH_AFTER = 64  # lines a scanner notes before it weighs how many come back (see _Scanner._weigh_lines)
_LONE_TRIES = 64  # tries of a scanner's first alternative alone counted before they are kept or given up
_PLAY_AFTER = 16  # lines a scanner reads by its whole alternation before it compiles its lines of play's part
# How far a terminal's match looks (see _in_line): outside its line, in its line and
# at the one character before it (word boundaries), or in its line only
_OUT_OF_LINE, _IN_LINE_AFTER_CHAR, _IN_LINE = 0, 1, 2
# A terminal that reads any line, or the rest of one (as Lark writes /[^\n]*\n/, or escaped)
_ANY_LINE = frozenset({"[^\n]*\n", r"[^\n]*\n"})
_PASS_DEPTH = 16  # tokens a first line is read in, at most, by LineGrammar.first_line_pass

Fields = tuple[Optional[str], ...]
# One token as a scanner reads it: (terminal name, its regex groups, its
# length, whether it ends with the newline). Shared by every repeat of the line.
Scanned = tuple[str, Fields, int, bool]
# One token of a parsed text: (terminal name, its regex groups, 1-based line
# in the parsed text, start and end offsets). A plain tuple: thousands are made per second.
Line = tuple[str, Fields, int, int, int]
_Read = TypeVar("_Read")


class LineGrammarError(ValueError):
    """The text does not follow the grammar; ``error`` is Lark's exception."""

    def __init__(self, error: UnexpectedInput) -> None:
        super().__init__(str(error))
        self.error = error
        # the line numbers of the text Lark read in the hand's text, when it read
        # the hand without its noted lines (set by the builder that left them out)
        self.line_of: list[int] | None = None


class _Scanner:
    """One alternation of terminals, with where each terminal's groups are.

    The alternatives are Lark's, in Lark's order, so the first that matches
    is the terminal Lark's lexer would pick. Two rewrites make the match
    cheaper without changing it: each terminal's name is an empty group at
    its *end* (it still closes last, so ``lastgroup`` names the terminal, and
    character), an alternative that starts with a lazily matched name is
    guarded by a look-ahead for literal text it must contain on that line
    (see :func:`_line_guard`): a necessary condition, cheap to refute, and a
    lazy name followed by a literal character only stops where that character
    is (see :func:`_stepped_names`).

    ``memo`` holds the token read from each rest of line seen so far, when
    no alternative can look past the end of the line (see :func:`_in_line`);
    it stays empty otherwise, and while the scanner's lines come once (see
    :meth:`_weigh_lines`): an empty memo is not looked in.
    """

    __slots__ = ("match", "groups", "memo", "_older", "_seen", "_args", "_remembers", "_by_rest", "_keyed",
                 "_first", "_first_match", "_lone", "_line_enders", "_tries", "_fails", "_play", "_play_text", "_reads",
                 "_notes", "_note_limit", "_unweighed")

    def __init__(self, terminals: list[Any]) -> None:
        parts: list[str] = []
        self.groups: dict[str, tuple[int, ...]] = {}
        # What ``match.group`` is asked for a terminal's fields, and how many there are: its
        # groups, or for 0 or 1 field (where ``group`` gives a str) padded to two with its
        # own empty group, the padding sliced off. Never group 0, the whole match: copying
        # the line out twice more cost some 1.6 k instructions a line read for the first
        # time (issue 34: deal and seat lines, new every hand, some 20 a simulated hand).
        self._args: dict[str, tuple[tuple[int, ...], int]] = {}
        used = 0
        reach = _IN_LINE
        # The terminals whose every match ends at the newline that ends its line (see
        # _alternative): a token of theirs is its line and that newline, its length known
        # without asking the match (issue 34: ``m.end()``, a method's call, and its checks,
        # on every line read for the first time)
        enders: list[str] = []
        for t in terminals:
            part, count, stays, ends_line = _alternative(t.name, t.pattern.to_regexp())
            parts.append(part)
            reach = min(reach, stays)
            if ends_line:
                enders.append(t.name)
            self.groups[t.name] = fields = tuple(range(used + 1, used + 1 + count))
            used += count + 1  # (``used`` now numbers the terminal's own empty group, its alternative's last)
            self._args[t.name] = (fields if count > 1 else (*fields, used, used)[:2], count)
        self._line_enders = frozenset(enders)
        self.match = compiled("|".join(parts)).match
        # The first alternative alone: where it matches, the alternation's match is its
        # (the first alternative that matches wins), read with its own few groups rather
        # than all the scanner's (issue 34: a match object, and the matcher's state, hold
        # every group of the alternation: 79 where deal lines are read, new every hand).
        # Without its terminal's own group (the name is known), its groups are the fields:
        # ``m.groups()``, no group numbers to convert and no slice (issue 34).
        first = terminals[0].name if terminals else ""
        self._lone: Callable[[str, int], re.Match[str] | None] = (
            compiled(parts[0][: -len(f"(?P<{first}>)")]).match if parts else self.match)
        self._first = (first, first in self._line_enders)
        # ... but where the first alternative fails on most lines read (a line without fields
        # that comes once a hand at most: "Uncalled bet (", "No low hand qualified"; a cash
        # table's header read where a tournament's comes first), the lone try is a match's
        # fixed cost for nothing (issue 34: some 1.5 k instructions, 9 times a simulated hand).
        # So the scanner counts its first tries and then keeps or drops them (_count_lone_try):
        # ``_first_match`` is the counting try, the lone match, or None (the alternation alone,
        # which tries the first alternative first: the same token either way).
        self._first_match: Callable[[str, int], re.Match[str] | None] | None = self._count_lone_try
        # The lines of play's alternatives alone, tried before the whole alternation: those of
        # Lark's priority above 1, first in the order; the chatter (every site grammar gives it
        # 1 or less) comes after. Where the lines of play's part matches, its terminal is the
        # whole alternation's (the first alternative that matches wins), its groups numbered
        # alike; where it fails, the whole alternation reads the line (issue 34: a match object
        # is made with every group of its regex, 79 where actions are read, some 28 of them
        # the chatter's; an action, a show or a collect read for the first time, new every
        # hand by the player's name, is some 1 k cheaper so). None where there is no chatter,
        # or only chatter: the whole alternation alone. The part is compiled only once the
        # scanner has read :data:`_PLAY_AFTER` lines by the alternation (_count_alternation_read,
        # which reads none): a one-hand process would pay its compiling (some 10 M instructions,
        # 2% of its start-up) for a few lines.
        play = sum(t.priority > 1 for t in terminals)
        self._play_text = "|".join(parts[:play])
        self._play: Callable[[str, int], re.Match[str] | None] | None = (
            self._count_alternation_read if 0 < play < len(parts) else None)
        self._reads = 0
        self._tries = self._fails = 0
        # What a token depends on (see _in_line): the rest of its line; that and the one
        # character before it (a word boundary, ``\b``, looks at it); or more: then nothing
        # is remembered. The key of a remembered token is all it depends on.
        self._remembers = reach != _OUT_OF_LINE
        self._by_rest = reach == _IN_LINE
        self.memo: dict[str, Scanned] = {}  # by rest of line: what the callers look up first
        # where read remembers: ``memo``, or for a scanner that looks at the character
        # before, a memo by (that character, rest of line), ``memo`` staying empty
        self._keyed: dict[Any, Scanned] = self.memo if self._by_rest else {}
        self._older: dict[Any, Scanned] = {}  # the memo as it was when last full
        self._seen: set[Any] = set()  # keys read once, lately
        # How the scanner remembers, weighed on its first lines (_weigh_lines): each line
        # noted at its first sight and remembered at its second (``_notes``), or remembered
        # at once; or, where none came back, nothing for the next lines read, as many as
        # ``_unweighed`` gives (``_remembers`` False), then weighed again. ``_notes`` is False
        # where ``_remembers`` is: read tests ``_notes`` alone on the path of most lines read
        # the first time (issue 34: three steps less, some 28 reads a simulated hand). The
        # count is a countdown read by ``next``, a C call (``-= 1`` on an attribute made and
        # freed an int past 256: some 0.4 k instructions a line, 0.25 k so); a scanner that
        # never remembers counts without end.
        self._notes = self._remembers
        self._note_limit = _WEIGH_AFTER
        self._unweighed: Iterator[bool] = itertools.repeat(True)

    def read(self, text: str, pos: int, rest: str) -> Scanned | None:
        """The token at ``pos``, ``rest`` being ``text`` from there to the
        end of its line (without the newline that follows); None when no
        terminal matches, or when the match runs past the line.

        Only lines met twice lately are remembered: most lines that hold
        cards or stacks come once, and their tokens would only burden the
        garbage collector; but a scanner whose first lines mostly came back
        remembers each at once, and one whose first lines never did
        remembers nothing for a while (see :meth:`_weigh_lines`). A full
        memo becomes the older one: the lines read again before the new one
        fills up come back from there, the rest are forgotten, so memory
        stays bounded. (One method, the match inline: a line read for the
        first time comes here, tens of times a hand.)
        """
        key: Any
        if self._by_rest:
            key = rest  # the callers looked in ``memo`` already
        else:
            key = (text[pos - 1 : pos], rest)
            token = self._keyed.get(key)
            if token is not None:  # remembered already, not stored again (issue 34: a header's tokens
                return token  # after its first are read so, the rest of the line their key, every hand)
        older = self._older  # (empty until the memo first fills: no look-up then, issue 34)
        if not older or (token := older.get(key)) is None:  # (one test where it is empty)
            first = self._first_match
            m = first(text, pos) if first is not None else None
            if m is not None:
                name, ends = self._first
                fields = m.groups()
            else:
                play = self._play
                m = play(text, pos) if play is not None else None
                if m is None:
                    m = self.match(text, pos)  # chatter, or no token
                if m is None:
                    return None  # no token: a case for Lark's own parser
                name = m.lastgroup  # every alternative ends with its terminal's named group (see _alternative)
                assert name is not None
                args, count = self._args[name]
                fields = m.group(*args)[:count]
                ends = name in self._line_enders
            if ends:  # the line and its newline (see __init__)
                token = (name, fields, len(rest) + 1, True)
            else:
                length = m.end() - pos
                width = len(rest)
                if not 0 < length <= width + 1:
                    return None  # a token past its line: Lark's parser too
                token = (name, fields, length, length > width)  # (past the rest: its newline)
            if self._notes:  # the first sight of a key (lately) is noted, not remembered
                seen = self._seen
                if key not in seen:
                    if len(seen) < self._note_limit:
                        seen.add(key)
                        return token
                    if self._weigh_lines(key):  # (False: remembered at once, from this line on)
                        return token
            elif not self._remembers:
                if not next(self._unweighed, False):  # lines that come once (_weigh_lines): weighed again
                    self._note_again()
                return token
        keyed = self._keyed
        if len(keyed) >= _MEMO_LIMIT:
            self._older = keyed.copy()
            keyed.clear()
            if not self._notes:  # weighed again on the lines to come (lately's may be of other kinds)
                self._note_again()
        keyed[key] = token
        return token

    def _weigh_lines(self, key: Any) -> bool:
        """The lines noted are as many as the scanner notes, ``key`` read for the
        first time: False where it is to be remembered at once, True where not
        (noted, or nothing remembered). After its first
        :data:`_WEIGH_AFTER` lines, it weighs how many came back (were read a
        second time, and remembered then):

        * a quarter or more (actions and antes, which a table repeats): it
          remembers each line from its first sight on (issue 34: a noted line is
          matched again at its second sight, some 8 k instructions; a simulated
          hand's lines of play came back 6 times in 10, a line remembered that
          does not come back costs a dict entry);
        * none (a hand's number and time, a street's first card, a table's
          header pieces): it remembers nothing for the next :data:`_SEEN_LIMIT`
          lines, and its memo, empty, is not looked in (issue 34: each such line
          was hashed, looked up and noted for nothing, some 0.7 k instructions;
          8 a simulated hand), then notes and weighs again;
        * else it goes on noting, and every :data:`_SEEN_LIMIT` lines forgets
          them and counts its lone tries again (lately's lines may be of other
          kinds: a mixed log, a file of tournaments after one of cash tables).

        A table plays many hands, so its lines of play come back and the rest
        seldom does; lines that came once and then come back (a file read twice)
        are remembered again once the scanner weighs again."""
        seen = self._seen
        if self._note_limit < _SEEN_LIMIT:
            self._note_limit = _SEEN_LIMIT
            if 4 * len(self._keyed) >= len(seen):
                self._notes = False
                seen.clear()
                return False
            if not self._keyed and not self._older:
                self._remembers = self._notes = False
                self._unweighed = itertools.repeat(True, _SEEN_LIMIT - 1)  # (its last, the next line notes again)
                seen.clear()
                return True
        else:
            seen.clear()
            self._count_lone_tries_again()
        seen.add(key)
        return True

    def _note_again(self) -> None:
        """Back to noting each line's first sight, weighed again after :data:`_WEIGH_AFTER`."""
        self._remembers = self._notes = True
        self._note_limit = _WEIGH_AFTER
        self._seen.clear()
        self._count_lone_tries_again()

    def _count_lone_try(self, text: str, pos: int) -> re.Match[str] | None:
        """The first alternative alone at ``pos``, counted: after :data:`_LONE_TRIES`
        tries, the lone try is kept where it matched on half of them at least, else
        given up (see ``__init__``)."""
        m = self._lone(text, pos)
        self._tries += 1
        self._fails += m is None
        if self._tries >= _LONE_TRIES:
            self._first_match = self._lone if 2 * self._fails <= self._tries else None
        return m

    def _count_alternation_read(self, text: str, pos: int) -> re.Match[str] | None:
        """None, the line left to the whole alternation, counted: after :data:`_PLAY_AFTER`
        such lines the lines of play's part is compiled and tried first (see ``__init__``)."""
        self._reads += 1
        if self._reads >= _PLAY_AFTER:
            self._play = compiled(self._play_text).match
        return None

    def _count_lone_tries_again(self) -> None:
        self._first_match = self._count_lone_try
        self._tries = self._fails = 0


# Each terminal's alternative, kept between processes (this module's text names the memo)
_ALTERNATIVES = DiskMemo("alternatives", Path(__file__), Path(regex_module.__file__))
# Each grammar's first-line passes (LineGrammar.first_line_pass), kept between processes: deriving
# one reads every header terminal's regex (a tenth of a second), a one-hand check's start-up
_FIRST_LINES = DiskMemo("first-lines", Path(__file__), Path(regex_module.__file__))


@functools.cache
def _alternative(name: str, regexp: str) -> tuple[str, int, int, bool]:
    """A terminal as one alternative of a scanner: its text, the number of
    groups of ``regexp``, how far it looks (:func:`_in_line`), and whether
    every match of it ends at the newline that ends its line, and at nothing
    before it (its last item that newline, and it looks no further than its line).
    Memoised, and kept between processes: a terminal is in the scanners of
    many parser states, and reading a regex (``read/regex.py``) is most of
    the time it takes to build them."""
    return _ALTERNATIVES.get((str(name), str(regexp)), lambda: _derive_alternative(name, regexp))


def _derive_alternative(name: str, regexp: str) -> tuple[str, int, int, bool]:
    part = f"{_line_guard(regexp)}(?:{_optional_groups_as_branches(_stepped_names(regexp))})(?P<{name}>)"
    reach = _in_line(part)
    return part, compiled(regexp).groups, reach, reach != _OUT_OF_LINE and _ends_line(regexp)


def _line_guard(regexp: str) -> str:
    """``(?=[^\\n]*text)`` for the longest literal text every match of
    ``regexp`` contains before any newline, less its leading spaces, when the
    match may not start with literal text; else "".

    The look-ahead runs to the line's end and steps back to each place of the
    text's first character, trying the text there: from a space, it would be
    tried at every space of the line (issue 34: " collected " refuted on a show
    line, "X: shows [9s 7h 3d 3h 7s 2s 4s] (two pair, Sevens and Threes)", some
    1 k instructions more than "collected "). Less of a necessary text is
    still necessary."""
    parsed = regex_items(regexp)
    if parsed is None:  # a guard is only an optimisation
        return ""
    items = _flatten(parsed)
    if not items or items[0][0] in (_c.LITERAL, _c.IN):
        return ""
    best = _longest_literal(items).lstrip(" ")
    if len(best) < 3:
        return ""
    return "(?=[^\\n]*" + re.escape(best) + ")"


def required_text(regexp: str) -> str:
    """The longest literal text every match of ``regexp`` holds on its first line
    ("Dealt to ", " raises to "): what tells a line of a terminal's kind written in
    a form the terminal does not read (see ``sites.lines.LineFormat.explain``); "" if unknown."""
    parsed = regex_items(regexp)
    return "" if parsed is None else _longest_literal(_flatten(parsed))


def _longest_literal(items: list[tuple[Any, Any]]) -> str:
    """The longest run of literal characters of a flattened regex before any
    item that may match a newline."""
    best: list[int] = []
    run: list[int] = []
    for op, arg in items + [(None, None)]:
        if op is _c.LITERAL and arg != 10:
            run.append(arg)
            continue
        if len(run) > len(best):
            best = run
        run = []
        if not no_newline(op, arg):
            break  # later text may be on another line
    return "".join(map(chr, best))


_LAZY_NAME = ("([^\n]+?)", "([^\\n]+?)")  # common.lark's PLAYER, as Lark writes it
# The lazy runs _stepped_names rewrites, by their text: what the run's class leaves out, as
# class text and as the characters (a player's name; a header's field before " (")
_STEPPED_RUNS = {
    **{form: ("\\n", "\n") for form in _LAZY_NAME},
    **{form: ("()\\n", "()\n") for form in ("([^()\n]+?)", "([^()\\n]+?)")},
}
_QUANTIFIERS = "?*+{"


def _stepped_names(regexp: str) -> str:
    """``regexp`` with each top-level lazy name ``([^\\n]+?)`` that a literal
    character c follows rewritten as ``([^\\n][^\\nc]*+(?:|(?:c[^\\nc]*+)+?))``; the
    same for a lazy run of a class that leaves out more (:data:`_STEPPED_RUNS`),
    c not among what it leaves out: PokerStars' ``([^()\\n]+?)`` before " (" (a
    header's rest reads it on every hand, tried to its end: 1.7 k instructions).

    Both try the same ends for the name in the same order (the shortest
    first), but the lazy form tries every character (a backtracking jump
    each, the bulk of a line's match time) where the rewrite only stops
    before each c, the only places where the rest can match. The first end
    (before the first c after the name's first character) is read before the
    lazy repeat: a name without c (most) is one run, and the rest is tried
    once (issue 34: some 0.2 k instructions fewer a line read for the first
    time than ``([^\\n](?:[^\\nc]*+c)*?[^\\nc]*+)``, whose repeat ends each try
    with a run of its own). The name that ends at its first c is an empty branch
    before the lazy repeat, entered only for a name that holds c: ``x*?`` tries
    nothing, then ``x`` once and more, as ``(?:|x+?)`` does, but the regex engine
    allocates a record for each repeat it enters, where a branch only saves its
    place (issue 34: some 0.1 k instructions a seat line read for the first time,
    0.2 k a show line; ``(?:|xx*?)`` saved a deal line more, but its longer text,
    in every scanner's regex kept between processes, cost a one-hand check's
    start-up 0.06% more).
    """
    out: list[str] = []
    depth, i, n = 0, 0, len(regexp)
    while i < n:
        lazy = next((form for form in _STEPPED_RUNS if regexp.startswith(form, i)), None)
        if lazy is not None and depth == 0:
            follow = _literal_at(regexp, i + len(lazy))
            left_out, chars = _STEPPED_RUNS[lazy]
            if follow is not None and follow not in chars:
                c = re.escape(follow) if follow.isalnum() else "\\" + follow
                out.append(f"([^{left_out}][^{left_out}{c}]*+(?:|(?:{c}[^{left_out}{c}]*+)+?))")
                i += len(lazy)
                continue
        end = _atom_end(regexp, i)
        if end is not None:
            out.append(regexp[i:end])
            i = end
            continue
        ch = regexp[i]
        if ch == "|" and depth == 0:
            return regexp  # a top-level alternative: what follows a name is not known
        depth += (ch == "(") - (ch == ")")
        out.append(ch)
        i += 1
    return "".join(out)


def _name_field(regexp: str) -> int:
    """The index among ``regexp``'s groups of its first lazy name, or -1."""
    at = min((i for form in _LAZY_NAME if (i := regexp.find(form)) >= 0), default=-1)
    if at < 0:
        return -1
    return compiled(f"{regexp[:at]}(?P<_name>{regexp[at + 1:]}").groupindex["_name"] - 1


def _literal_at(regexp: str, i: int) -> str | None:
    """The literal character that must match at ``regexp[i]``, if there is one."""
    if i >= len(regexp):
        return None
    if regexp[i] == "\\":
        if i + 1 >= len(regexp) or regexp[i + 1].isalnum() or regexp[i + 1] == "\n":
            return None
        char, after = regexp[i + 1], i + 2
    elif regexp[i] in ".^$*+?{}[]|()\n":
        return None
    else:
        char, after = regexp[i], i + 1
    if after < len(regexp) and regexp[after] in _QUANTIFIERS:
        return None
    return char


# How a group may open: lookarounds and conditionals are copied as they are
_GROUP_OPENING = re.compile(r"\((?:\?(?:P<\w+>|[aiLmsux]*(?:-[imsx]+)?:|>))?")


def _optional_groups_as_branches(regexp: str) -> str:
    """``regexp`` with each greedy optional group ``(?:x)?`` written ``(?:x|)``, and
    ``(x)?`` (any other group) ``(?:(x)|)``, when x cannot match the empty text.

    Both try x first, then nothing, with the same groups (a group of x left unset
    when nothing is taken), so they match alike; but ``?`` is a repeat, for which
    the regex engine allocates and frees a record and saves the groups' marks at
    each try, where a branch only saves its place (issue 34: 0.4 to 0.5 k
    instructions fewer a deal or seat line read for the first time, whose
    optional parts, the cards of later streets, a bounty, "is sitting out", are
    tried on every such line). Groups within ``x`` are rewritten too; a group
    whose text cannot be read on its own (a back-reference) is left as it is.
    """
    out: list[str] = []
    i, n = 0, len(regexp)
    while i < n:
        ch = regexp[i]
        atom = _atom_end(regexp, i)
        if atom is not None:
            out.append(regexp[i:atom])
            i = atom
        elif ch == "(":
            end = _group_end(regexp, i)
            opening = _GROUP_OPENING.match(regexp, i)
            assert opening is not None  # "(" matches at least
            if opening.end() == i + 1 and regexp.startswith("(?", i):  # a lookaround, conditional or comment
                group = regexp[i:end]
            else:
                group = opening.group() + _optional_groups_as_branches(regexp[opening.end() : end - 1]) + ")"
            greedy_option = regexp[end : end + 1] == "?" and regexp[end + 1 : end + 2] not in ("?", "+")
            if greedy_option and min_width(group):
                inner = group[3:-1] if opening.group() == "(?:" else group
                out.append(f"(?:{inner}|)")
                end += 1
            else:
                out.append(group)
            i = end
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _group_end(regexp: str, i: int) -> int:
    """The index after the group that opens at ``regexp[i]``."""
    depth, j, n = 0, i, len(regexp)
    while j < n:
        atom = _atom_end(regexp, j)
        if atom is not None:
            j = atom
            continue
        ch = regexp[j]
        depth += (ch == "(") - (ch == ")")
        j += 1
        if depth == 0:
            return j
    raise ValueError(f"an unbalanced group in {regexp!r}")


def _atom_end(regexp: str, i: int) -> int | None:
    """The index after the escape or character class that starts at ``regexp[i]``
    (read whole: no group opens or closes inside one); None at any other character."""
    ch = regexp[i]
    if ch == "\\":
        return i + 2
    if ch == "[":
        return _class_end(regexp, i)
    return None


def _class_end(regexp: str, i: int) -> int:
    """The index after the character class that starts at ``regexp[i]``."""
    j = i + 1
    if j < len(regexp) and regexp[j] == "^":
        j += 1
    if j < len(regexp) and regexp[j] == "]":
        j += 1
    while j < len(regexp) and regexp[j] != "]":
        j += 2 if regexp[j] == "\\" else 1
    return j + 1


def _flatten(parsed: Any) -> list[tuple[Any, Any]]:
    """The top-level sequence of a parsed regex, groups without flags opened."""
    out: list[tuple[Any, Any]] = []
    for op, arg in parsed:
        if op is _c.SUBPATTERN and not arg[1] and not arg[2]:
            out.extend(_flatten(arg[3]))
        else:
            out.append((op, arg))
    return out


def _uncaptured(regexp: str) -> str:
    """``regexp`` with its groups made non-capturing (a group's name dropped);
    ValueError when one is referred to."""
    out: list[str] = []
    i, n = 0, len(regexp)
    while i < n:
        ch = regexp[i]
        if ch == "\\" and regexp[i + 1 : i + 2].isdigit():
            raise ValueError(f"a back-reference in {regexp!r}")
        atom = _atom_end(regexp, i)
        if atom is not None:
            out.append(regexp[i:atom])
            i = atom
        elif regexp.startswith("(?P=", i) or regexp.startswith("(?(", i):
            raise ValueError(f"a group referred to in {regexp!r}")
        elif regexp.startswith("(?P<", i):
            out.append("(?:")
            i = regexp.index(">", i) + 1
        elif ch == "(" and not regexp.startswith("(?", i):
            out.append("(?:")
            i += 1
        else:
            out.append(ch)
            i += 1
    uncaptured = "".join(out)
    if compiled(uncaptured).groups:
        raise ValueError(f"groups left in {uncaptured!r}")
    return uncaptured


def _ends_line(regexp: str) -> bool:
    """True when every match of ``regexp`` ends with a newline (its last item is one)."""
    parsed = regex_items(regexp)
    items = _flatten(parsed) if parsed is not None else []
    return bool(items) and items[-1] == (_c.LITERAL, 10)


def _in_line(regexp: str) -> int:
    """How far a match of ``regexp`` at any offset looks: :data:`_IN_LINE`
    when it depends only on the text from there to the end of that line (no
    item can match or look at a newline, save one final newline, and no
    anchor or look-behind looks outside); :data:`_IN_LINE_AFTER_CHAR` when
    its only look outside is a word boundary's at the one character before
    the offset (the line always ends with a newline, so one after the line
    sees the same); else :data:`_OUT_OF_LINE` (conservative: unknown
    constructs give it)."""
    parsed = regex_items(regexp)
    if parsed is None:  # then nothing is remembered
        return _OUT_OF_LINE
    items = _flatten(parsed)
    if items and items[-1] == (_c.LITERAL, 10):
        items = items[:-1]
    if all(_stays_in_line(op, arg, False) for op, arg in items):
        return _IN_LINE
    if all(_stays_in_line(op, arg, True) for op, arg in items):
        return _IN_LINE_AFTER_CHAR
    return _OUT_OF_LINE


_BOUNDARIES = (_c.AT_BOUNDARY, _c.AT_NON_BOUNDARY)


def _stays_in_line(op: Any, arg: Any, boundaries: bool) -> bool:
    """True when the item neither matches nor looks at a newline, nor looks
    before the match or at the ends of the text; with ``boundaries``, word
    boundaries (which look one character either side) pass."""
    if op is _c.ASSERT or op is _c.ASSERT_NOT:
        direction, items = arg
        return direction == 1 and all(_stays_in_line(o, a, boundaries) for o, a in items)
    if op is _c.AT:
        return boundaries and arg in _BOUNDARIES
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT):
        return all(_stays_in_line(o, a, boundaries) for o, a in arg[2])
    if op is _c.ATOMIC_GROUP:
        return all(_stays_in_line(o, a, boundaries) for o, a in arg)
    if op is _c.SUBPATTERN:
        added, removed, items = arg[1], arg[2], arg[3]
        return not (added | removed) & (re.S | re.M) and all(_stays_in_line(o, a, boundaries) for o, a in items)
    if op is _c.BRANCH:
        return all(_stays_in_line(o, a, boundaries) for branch in arg[1] for o, a in branch)
    return no_newline(op, arg)


@dataclass(frozen=True)
class FirstLinePass(Generic[_Read]):
    """A text's first line read as the fast scan reads it token by token (see
    :meth:`LineGrammar.first_line_pass`): its first token by the start stack's
    scanner, the rest of the line in one match of ``pattern``, whose groups
    ``fields`` gives, per terminal kept, at each place the line may read it (one
    place at most takes part in a match). What the rest reads depends on the
    rest of the line and the character before it alone, so it is remembered
    by those: a log's headers differ in their hand numbers, and the rest of a
    header repeats (the same game, table and level, hand after hand). What is
    remembered is what the caller makes of the rest's groups (``then``): a
    repeated rest costs the caller nothing more either."""

    first: str  # the terminal every first line starts with
    first_match: Callable[[str], Optional[re.Match[str]]]  # the start stack's scanner's regex
    # what the first token's match is asked for its fields, and how many there are (the
    # scanner's own: see _Scanner._args)
    first_args: tuple[tuple[int, ...], int]
    pattern: re.Pattern[str]
    fields: Mapping[str, tuple[tuple[int, ...], ...]]
    # by the rest of the line with the character before it (one string: no tuple a line to make,
    # hash and compare, issue 34)
    remembered: dict[str, Optional[_Read]]
    # what the caller makes of the rest's groups (group ``n`` at index ``n - 1``), never None
    then: Callable[[tuple[Optional[str], ...]], _Read]

    def match(self, text: str) -> tuple[Fields, _Read] | None:
        """The first token's fields and what ``then`` made of the groups of the
        rest's match, when the scan reads ``text``'s first line so: the rest's
        match ends just past the line's newline (a token holds no newline but
        the one that ends it, as the scanners read them)."""
        end = text.find("\n")
        token = self.first_match(text)  # matched, not remembered: a first line is read once
        if token is None or token.lastgroup != self.first:
            return None
        start = token.end()
        if not 0 < start <= end:
            return None
        key = text[start - 1 : end]
        read = self.remembered.get(key, _UNREAD)
        if read is _UNREAD:
            found = self.pattern.match(text, start)
            read = self.then(found.groups()) if found is not None and found.end() == end + 1 else None
            if len(self.remembered) >= _MEMO_LIMIT:
                self.remembered.clear()
            self.remembered[key] = read
        if read is None:
            return None
        args, count = self.first_args
        return token.group(*args)[:count], read


_UNREAD: Any = object()  # a rest of a line not read yet


# What LineGrammar._line_pass makes as it goes: the terminals whose fields are kept, the tags
# made (terminal, tag group's name, fields kept), numbers for the tags' names, how far each
# alternative looks (see _in_line)
_Made = tuple[frozenset[str], list[tuple[str, str, int]], Iterator[int], list[int]]

# What reading a terminal on a parser stack does: (the next stack, whether
# the token is kept, the next stack's scanner and its steps).
Step = tuple[int, bool, _Scanner, dict[str, Any]]


class LineGrammar:
    """A compiled line grammar: Lark for the definition, a lean loop to run it."""

    def __init__(self, path: str | Path, start: str = "start") -> None:
        # Lark's cache is keyed by the grammar's text, not by the files it imports: the
        # grammar's path in the key keeps two installs (or source trees) whose common.lark
        # differ from reading each other's compiled grammar out of the shared temp folder
        self._path = Path(path)
        self.lark = Lark.open(str(path), parser="lalr", lexer="contextual", cache=True, start=start,
                              source_path=str(Path(path).resolve()))  # fmt: skip
        table = self.lark.parser.parser._parse_table  # Lark's LALR tables (stable since 1.0)
        self._states: dict[Any, dict[str, tuple[Any, Any]]] = table.states
        self._end_state = table.end_states[start]
        self.terminals = {t.name: t for t in self.lark.terminals}
        # Each token is also matched on its own (fallback path, re-splitting
        # names): a trailing look-ahead then becomes an end anchor. Compiled
        # when first needed: most runs never take those paths.
        self.regex: TextMemo[re.Pattern[str]] = TextMemo(self._token_regex)
        # Per terminal that holds a lazily matched name (common.lark's PLAYER),
        # the index of the first one among its fields: where a builder finds
        # the player to re-read with the seated names.
        self.name_field = {
            name: index for name, t in self.terminals.items() if (index := _name_field(t.pattern.to_regexp())) >= 0
        }
        self._stacks: list[tuple[Any, ...]] = [(table.start_states[start],)]
        self._stack_ids: dict[tuple[Any, ...], int] = {self._stacks[0]: 0}
        # Per parser stack (interned as an int): its scanner, and for each
        # terminal met so far a Step: the next stack, whether the token is
        # kept, the next stack's scanner and steps.
        self._steps: dict[int, dict[str, Step]] = {}
        self._moves: dict[tuple[int, str], int | None] = {}
        self._scanner_of: dict[int, _Scanner] = {}
        self._scanner_by_terms: dict[frozenset[str], _Scanner] = {}
        self._takes_any_rest: dict[int, bool] = {}

    def _token_regex(self, name: str) -> re.Pattern[str]:
        return re.compile(_LOOKAHEAD_END.sub(r"\\Z", self.terminals[name].pattern.to_regexp()))

    # -- the fast path -------------------------------------------------------
    def lines(self, text: str) -> list[Line]:
        """The tokens of ``text`` (which must end with a newline), in order.

        Raises :class:`LineGrammarError` when the text does not parse.
        Terminals whose name starts with ``_`` are matched but not returned.
        """
        out: list[Line] = []
        if (text and text[-1] != "\n") or not self._scan_rest(text, 0, 0, out):
            return self._fallback(text)
        return out

    # -- stepping, for callers that build as they scan --------------------------
    def begin(self) -> tuple[int, _Scanner, dict[str, Step]]:
        """The start stack, its scanner and its memoised steps (see :meth:`lines`)."""
        return 0, self._scanner(0), self._steps[0]

    def step(self, sid: int, terminal: str) -> Step | None:
        """What reading ``terminal`` on stack ``sid`` does, or None if it is an error."""
        return self._step(sid, terminal)

    def scanner(self, sid: int) -> _Scanner:
        """The scanner of stack ``sid``: the terminals it accepts, as one alternation."""
        return self._scanner(sid)

    def accepts(self, sid: int) -> bool:
        """True when the text may end on stack ``sid``."""
        return self._move(sid, "$END") == _ACCEPT

    def accepts_rest(self, text: str, sid: int, pos: int) -> bool:
        """True when the fast scan of ``text`` (which ends with a newline), on
        stack ``sid`` at offset ``pos``, reads the rest of the text and
        the grammar accepts it, as :meth:`lines` would; False when it stops
        (then only Lark's parser can tell)."""
        return self._scan_rest(text, sid, pos, None)

    def _scan_rest(self, text: str, sid: int, pos: int, out: list[Line] | None) -> bool:
        """Scan ``text`` (which ends with a newline) from offset ``pos`` on
        stack ``sid``: True when every line reads and the grammar accepts the
        end, False when the scan stops. With ``out``, the kept tokens go to it,
        lines numbered from 1 at ``pos``; without, the scan ends as soon as
        the stack accepts any rest (see :meth:`_any_rest`)."""
        scanner, steps = self._scanner(sid), self._steps[sid]
        line = 1
        while pos < len(text):
            if out is None and self._any_rest(sid):
                return True
            rest = text[pos : text.index("\n", pos)]
            token = scanner.memo.get(rest) or scanner.read(text, pos, rest)
            if token is None:
                return False
            name, fields, length, newline = token
            step = steps.get(name) or self._step(sid, name)
            if step is None:
                return False
            sid, keep, scanner, steps = step
            if keep and out is not None:
                out.append((name, fields, line, pos, pos + length))
            pos += length
            line += newline
        return self.accepts(sid)

    def _any_rest(self, sid: int) -> bool:
        """True when stack ``sid`` may end and reads only a terminal that takes
        any (rest of a) line, onto a stack of which the same holds (``_OTHER_LINE*``
        in a hand of another game: the stacks after its header, the first lines
        after it and the loop): then it accepts any rest of a text that ends with
        a newline, and a hand of another game is passed over from its header on."""
        known = self._takes_any_rest.get(sid)
        if known is None:
            self._takes_any_rest[sid] = True  # a loop back onto ``sid`` reads line after line
            names = list(self._scanner(sid).groups)
            step = self._step(sid, names[0]) if len(names) == 1 else None
            known = self._takes_any_rest[sid] = (
                step is not None and step[0] != _ACCEPT and self.accepts(sid)
                and self.terminals[names[0]].pattern.to_regexp() in _ANY_LINE and self._any_rest(step[0])
            )  # fmt: skip
        return known

    def first_line_pass(self, through: str, kept: Collection[str],
                        then: Callable[[tuple[Optional[str], ...]], _Read]) -> FirstLinePass[_Read] | None:  # fmt: skip
        """The fast scan's reading of a text's first line from the start stack,
        when it reads the terminal ``through`` on the way and the line ends on a
        stack that accepts any rest (:meth:`_any_rest`): the header of a hand of
        another game, whose body the grammar reads as any lines. The fields of the
        terminals in ``kept`` are the rest's groups. None when the grammar has no
        such path, its first line may start with more than one terminal, its
        regexes cannot be read or may look past their line.

        The rest of the line after the first token is one regex: each stack's
        scanner one atomic group, its terminals in the scanner's order, so it
        reads the one token the scanner would (a backtracking match cannot pick
        another); a conditional on the terminal read takes the step the grammar's
        table takes, or fails where the scan would stop or cannot end so. A text
        it does not match may still read (a caller takes the general path). Only
        the groups asked for are kept: the regex engine saves and restores every
        group's marks as it tries alternatives. ``then`` makes of the rest's groups
        what the caller reads from them, remembered with the rest.
        """
        start = self._scanner(0)
        key = (self._source_digest(), through, tuple(sorted(kept)))
        derived = _FIRST_LINES.get(key, lambda: self._derive_first_line_pass(through, kept))
        if derived is None:
            return None
        first, body, tags = derived
        pattern = compiled(body)
        fields: dict[str, list[tuple[int, ...]]] = {}
        for terminal, tag, count in tags:
            at = pattern.groupindex[tag]
            if count:
                fields.setdefault(terminal, []).append(tuple(range(at - count, at)))
        places = {name: tuple(at) for name, at in fields.items()}
        return FirstLinePass(first, start.match, start._args[first], pattern, places, {}, then)

    def _source_digest(self) -> str:
        """A digest of the grammar's text and of the grammars beside it (what it imports)."""
        digest = hashlib.sha256(self._path.read_bytes())
        for imported in sorted(self._path.parent.glob("*.lark")):
            digest.update(imported.read_bytes())
        return digest.hexdigest()

    def _derive_first_line_pass(self, through: str, kept: Collection[str]) -> tuple[str, str, list[tuple[str, str, int]]] | None:
        """What :meth:`first_line_pass` makes, as kept between processes: (the first
        terminal, the rest's regex, its tags), or None."""
        start = self._scanner(0)
        if len(start.groups) != 1:
            return None
        (first,) = start.groups
        step = self._step(0, first)
        if step is None or step[0] == _ACCEPT or _ends_line(self.terminals[first].pattern.to_regexp()):
            return None
        tags: list[tuple[str, str, int]] = []  # (terminal, its tag group's name, its fields kept)
        reach = [_IN_LINE]  # how far the alternatives look: the rest is remembered only if within the line
        try:
            body = self._line_pass(step[0], through, first == through, 0, (frozenset(kept), tags, itertools.count(), reach))
        except ValueError:  # a terminal whose groups cannot be left out
            return None
        if body is None or min(reach) == _OUT_OF_LINE:
            return None
        return first, body, tags

    def _line_pass(self, sid: int, through: str, seen: bool, depth: int,
                   made: _Made) -> str | None:  # fmt: skip
        """The regex of the rest of the first line from a token's start on stack
        ``sid`` (``seen``: ``through`` read already), or None when no reading of it
        can end as :meth:`first_line_pass` asks. ``made``: the terminals whose
        fields are kept, the tags made so far, numbers for the tags' names, how
        far the alternatives look."""
        kept, tags, numbers, reach = made
        if depth > _PASS_DEPTH:
            return None
        steps: list[str] = []
        alternatives: list[str] = []
        for name in self._scanner(sid).groups:
            regexp = self.terminals[name].pattern.to_regexp()
            part, count, looks, _ = _alternative(name, regexp)
            reach.append(looks)
            part = part[: -len(f"(?P<{name}>)")]
            way = self._line_step(sid, name, regexp, through, seen, depth, made)
            if way is None:  # read here, the scan stops or cannot end as asked: its fields are not needed
                alternatives.append(_uncaptured(part))
                continue
            tag = f"_{name}_{next(numbers)}"  # a group's name is the pattern's once
            if name not in kept:
                part, count = _uncaptured(part), 0
            alternatives.append(f"{part}(?P<{tag}>)")
            tags.append((name, tag, count))
            steps.append(f"(?({tag}){way}|")
        if not steps:
            return None
        return f"(?>{'|'.join(alternatives)})" + "".join(steps) + "(?!)" + ")" * len(steps)

    def _line_step(self, sid: int, name: str, regexp: str, through: str, seen: bool, depth: int,
                   made: _Made) -> str | None:  # fmt: skip
        """The regex of the rest of the first line once ``name`` is read on stack
        ``sid``: the line ends there (its token took the newline) on a stack that
        accepts any rest, ``through`` read, or goes on to the next token."""
        step = self._step(sid, name)
        # an empty token stops the scan (see _Scanner.read): such a terminal's step is not taken here
        if step is None or step[0] == _ACCEPT or not min_width(regexp):
            return None
        nxt, read_it = step[0], seen or name == through
        ways = ["(?<=\n)"] if read_it and self._any_rest(nxt) else []
        # a terminal whose every match ends its line goes on to no other token of it
        more = None if _ends_line(regexp) else self._line_pass(nxt, through, read_it, depth + 1, made)
        if more is not None:
            ways.append(f"(?<!\n){more}")
        return f"(?:{'|'.join(ways)})" if ways else None

    def _scanner(self, sid: int) -> _Scanner:
        """The scanner of a parser stack: the terminals its top state accepts."""
        if sid in self._scanner_of:
            return self._scanner_of[sid]
        state = self._stacks[sid][-1]
        accepts = frozenset(name for name in self._states[state] if name in self.terminals)
        scanner = self._scanner_by_terms.get(accepts)
        if scanner is None:
            ordered = sorted(
                (self.terminals[name] for name in accepts),
                key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name),
            )
            scanner = self._scanner_by_terms[accepts] = _Scanner(ordered)
        self._scanner_of[sid] = scanner
        self._steps.setdefault(sid, {})
        return scanner

    def _step(self, sid: int, terminal: str) -> Step | None:
        """What reading ``terminal`` on stack ``sid`` does: memoised."""
        known = self._steps.setdefault(sid, {})
        if terminal not in known:
            nxt = self._move(sid, terminal)
            if nxt is None:
                return None
            scanner = self._scanner(nxt) if nxt != _ACCEPT else self._scanner(sid)
            known[terminal] = (nxt, not terminal.startswith("_"), scanner, self._steps.setdefault(nxt, {}))
        return known[terminal]

    def _move(self, sid: int, terminal: str) -> int | None:
        """Reduce as Lark would, then shift ``terminal``: the new stack's id."""
        if (sid, terminal) in self._moves:
            return self._moves[(sid, terminal)]
        self._moves[(sid, terminal)] = result = self._reduce_shift(sid, terminal)
        return result

    def _reduce_shift(self, sid: int, terminal: str) -> int | None:
        states = self._states
        stack = list(self._stacks[sid])
        while True:
            action = states[stack[-1]].get(terminal)
            if action is None:
                return None
            kind, arg = action
            if kind is Shift:
                stack.append(arg)
                key = tuple(stack)
                if key not in self._stack_ids:
                    self._stack_ids[key] = len(self._stacks)
                    self._stacks.append(key)
                return self._stack_ids[key]
            size = len(arg.expansion)
            if size:
                del stack[-size:]
            stack.append(states[stack[-1]][arg.origin.name][1])
            if terminal == "$END" and stack[-1] == self._end_state:
                return _ACCEPT

    # -- the reference path ----------------------------------------------------
    def _fallback(self, text: str) -> list[Line]:
        """Parse with Lark itself: its error, or its tokens if it disagrees."""
        try:
            tree = self.lark.parse(text)
        except UnexpectedInput as error:
            raise LineGrammarError(error) from None
        return self.from_tokens(_tokens(tree), text)

    def from_tokens(self, tokens: Iterable[Token], text: str) -> list[Line]:
        """Lines from Lark's own tokens (used by the reference path and tests)."""
        out: list[Line] = []
        offsets = _line_offsets(text)
        for token in tokens:
            match = self.regex[token.type].match(token)
            assert match is not None
            line = token.line or 1
            start = offsets[line - 1] + (token.column or 1) - 1
            out.append((token.type, match.groups(), line, start, start + len(token)))
        return out

    def reference_lines(self, text: str) -> list[Line]:
        """The tokens as Lark's own parser produces them."""
        return self.from_tokens(_tokens(self.lark.parse(text)), text)


def _tokens(tree: Tree[Token]) -> Iterator[Token]:
    """The tokens of Lark's parse tree in text order: what :meth:`LineGrammar.lines`
    reads. The site grammars inline their rules (``_rule``), so these are the
    tree's children; a rule a grammar kept would add a level, read through here."""
    return tree.scan_values(_is_token)


def _is_token(value: object) -> bool:
    return isinstance(value, Token)


def grammar_dir() -> Path:
    """Where the ``.lark`` files are: inside the installed package (a wheel
    ships them as ``studbook/grammars``), else the source tree's ``grammars/``."""
    package = Path(__file__).resolve().parents[1]
    for candidate in (package / "grammars", package.parents[1] / "grammars"):
        if (candidate / "common.lark").is_file():
            return candidate
    raise FileNotFoundError(f"no grammars/ directory beside or inside {package}")


def common_piece(name: str) -> str:
    """A regex piece of ``grammars/common.lark`` (``NAME: /regex/``) as Lark reads it, for
    the readers' own regexes of a shape the grammars read: the shape is written once. As
    Lark reads it, its escapes such as ``\\n`` made the characters they name: the text
    the terminals that import the piece hold (``sites/noplay.py`` looks for it there)."""
    text = (grammar_dir() / "common.lark").read_text(encoding="utf-8")
    found = re.search(rf"^{name}: /(.*)/$", text, re.M)
    if found is None:
        raise LookupError(f"no piece {name} in common.lark")
    return str(eval_escaping(found.group(1)))


@functools.cache
def load_grammar(name: str) -> LineGrammar:
    """The compiled grammar ``<name>.lark``, one per process."""
    return LineGrammar(grammar_dir() / f"{name}.lark")


def _line_offsets(text: str) -> list[int]:
    offsets = [0]
    offsets.extend(m.end() for m in re.finditer("\n", text))
    return offsets


__all__ = [
    "Fields", "FirstLinePass", "Line", "LineGrammar", "LineGrammarError", "Scanned", "Step", "common_piece", "grammar_dir", "load_grammar",
    "required_text",
]
