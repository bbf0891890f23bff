"""The policy for lines a site's grammar does not read: what a line could change.

A text site's grammar reads every line kind the site writes at its place in a
hand. Real logs also hold lines no grammar lists: timers, table presence,
chat, connection and table notices, in every site's own words, at any place.
Such a line is judged by what it could change, never by its wording alone:

* a line of the shared no-play vocabulary (``grammars/common.lark``, read
  through ``grammars/noplay.lark``) that carries no amount and no card is a
  :class:`~studbook.events.Note`, even when it names a seated player (who
  "sits out", "has timed out", ...); one saying a seated player sits out
  before the deal marks that seat sitting out;
* any other line that names no seated player and carries no amount and no
  card is a Note too;
* a line that names a seated player or carries an amount or a card may be a
  play: it rejects the hand at that line, as does a line one of the grammar's
  nameless markers (street and section markers) reads, out of its place;
* a header-information line of the grammar (a terminal named ``INFO_...``,
  which reads no amount: a tournament's id and level, the table, the date)
  out of its place is a Note: its numbers are ids, not chips;
* a line that names seven-card stud, stud hi/lo or razz where the grammar
  reads the hand's game is never a Note: it is the game line in a form the
  grammar does not know, an "unknown stud header" (:meth:`LinePolicy.unknown_stud_header`).

A line the grammar does not read that holds the literal text of one of the
grammar's line kinds ("Dealt to ", " raises to ") is that kind's line in a
form the grammar does not know (:meth:`LinePolicy.form_of`): what a rejection
at it says.

:class:`LinePolicy` is made once per grammar; :meth:`LinePolicy.judge` is
called only on the lines the grammar does not read, so it costs nothing on
the hands that read.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Collection

from studbook.read.grammar import LineGrammar, common_piece, load_grammar, required_text

# An amount: a number, with a currency mark or not. What is not one: a
# duration ("15 seconds"), a clock time, a date, a number after "#" (an id).
_NUMBER = re.compile(r"[$€£]\s?[0-9]|[0-9][0-9,]*(?:\.[0-9]+)?")
_NOT_AMOUNT = re.compile(
    r"[0-9]+ ?(?:seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h)\b"  # a duration
    r"|[0-9]{1,2}:[0-9]{2}(?::[0-9]{2})?"  # a clock time
    r"|[0-9]{4}[-/.][0-9]{1,2}[-/.][0-9]{1,2}|[0-9]{1,2}[-/.][0-9]{1,2}[-/.][0-9]{4}"  # a date
    r"|#[0-9]+"  # an id
    r"|\b[0-9]+-max\b",  # a table size
    re.I,
)
# A card as logs write one: rank then suit, a word of its own ("As", "10h", "[Kd]").
_CARD = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9TJQKA])[cdhs](?![A-Za-z0-9])")
_SUIT_FIRST_CARD = re.compile(r"(?<![A-Za-z0-9])[CDHS](?:10|[2-9TJQKA])(?![A-Za-z0-9])")  # XML logs: "H6", "SA"
_ANY_LINE = "\x01~\n"  # a line no marker of any site reads: a terminal that reads it reads any line
# Terminals named so read header information that carries no play (a tournament's id and
# level, the number of players, the table's name, the date) and no AMOUNT: one written out
# of its place is a Note. A line that reads an amount (stakes, antes) is never one of them.
INFO_PREFIX = "INFO_"
_SITS_OUT = re.compile(r"\bsit(?:s|ting)? out\b|\bsat out\b", re.I)
# A game by its words (common.lark): another game's (a site's OTHER_... terminals hold this
# piece, as do its stud terminals, which exclude it: the terminals that read the hand's game),
# and seven-card stud's, stud hi/lo's or razz's in any form.
_OTHER_GAME_WORD = common_piece("OTHER_GAME_WORD")
OTHER_GAME_WORD = re.compile(_OTHER_GAME_WORD)
STUD_WORD = re.compile(common_piece("STUD_WORD"))
# What a line of a kind must hold to be told by it: a word, not a separator (": ", " (")
_FORM_TEXT = re.compile(r"[A-Za-z*#]")
_MIN_FORM_TEXT = 4
_NOT_WORDS = " :([{"  # what a kind's text may end with that its other forms may not write


def names_stud(text: str) -> bool:
    """True when ``text`` names seven-card stud, stud hi/lo or razz (in any form) and no other game."""
    return STUD_WORD.search(text) is not None and OTHER_GAME_WORD.search(text) is None


def carries_amount(text: str) -> bool:
    """True when ``text`` holds a number that may be an amount."""
    rest = _NOT_AMOUNT.sub(" ", text)
    return _NUMBER.search(rest) is not None


def carries_cards(text: str, suit_first: bool = False) -> bool:
    """True when ``text`` holds a card ("As", "10h"; with ``suit_first`` also "SA", "H10")."""
    return _CARD.search(text) is not None or (suit_first and _SUIT_FIRST_CARD.search(text) is not None)


def names_player(text: str, names: Collection[str]) -> str | None:
    """The seated name ``text`` holds as a word of its own (longest first), if any."""
    for name in sorted(names, key=len, reverse=True):
        at = text.find(name)
        while at >= 0:
            before = text[at - 1] if at else " "
            after = text[at + len(name)] if at + len(name) < len(text) else " "
            if not (before.isalnum() and name[:1].isalnum()) and not (after.isalnum() and name[-1:].isalnum()):
                return name
            at = text.find(name, at + 1)
    return None


@dataclass(frozen=True, slots=True)
class Verdict:
    """A line the policy lets pass as a Note; ``player`` is the seated player a
    vocabulary line names, ``sits_out`` True when it says that player sits out."""

    player: str | None = None
    sits_out: bool = False


class LinePolicy:
    """The line policy for one site grammar (see the module's doc)."""

    def __init__(self, grammar: LineGrammar) -> None:
        vocabulary = load_grammar("noplay")
        # the site's cancel line, when its grammar reads one (common.lark's HAND_CANCELLED)
        self.cancel = grammar.regex["HAND_CANCELLED"] if "HAND_CANCELLED" in grammar.terminals else None
        self.vocabulary = [(name, vocabulary.regex[name]) for name in sorted(vocabulary.terminals)]
        # the grammar's terminals that name no player, save those that read any line: markers;
        # header information that carries no play (named INFO_..., reading no AMOUNT) is no marker
        self.markers = [
            grammar.regex[name] for name in grammar.terminals
            if name not in grammar.name_field and not grammar.regex[name].match(_ANY_LINE)
            and not name.startswith(INFO_PREFIX)
        ]  # fmt: skip
        self.info = [grammar.regex[name] for name in grammar.terminals if name.startswith(INFO_PREFIX)]
        # the terminals that read the hand's game (a stud game's or another's)
        self.game_lines = frozenset(
            name for name, terminal in grammar.terminals.items() if _OTHER_GAME_WORD in terminal.pattern.to_regexp()
        )
        self.grammar = grammar
        self.forms = _forms(grammar)

    def unknown_stud_header(self, text: str, accepted: Collection[str]) -> bool:
        """True when ``text``, read where the grammar accepts the terminals ``accepted``,
        is a stud game's line in a form the grammar does not know: the grammar reads the
        hand's game there and the line names stud (and no other game)."""
        return not self.game_lines.isdisjoint(accepted) and names_stud(text)

    def reads_any(self, terminal: str) -> bool:
        """True when ``terminal`` reads any line (another game's lines), or is none of the
        grammar's: it tells nothing of a line."""
        return terminal not in self.grammar.terminals or self.grammar.regex[terminal].match(_ANY_LINE) is not None

    def form_of(self, text: str, among: Collection[str]) -> str | None:
        """The line kind (terminal) among ``among`` (those the grammar reads where ``text``
        is) whose literal text ``text`` holds but whose form it does not follow, the longest
        such text first. A text that several of them hold ("Seat", "Player") tells none."""
        written = text.rstrip() + "\n"
        for literal, names in self.forms:
            kinds = [name for name in names if name in among]
            if kinds and literal.search(text):
                if len(kinds) == 1 and not self.grammar.regex[kinds[0]].match(written):
                    return kinds[0]
        return None

    def cancellation(self, text: str) -> tuple[str | None, ...] | None:
        """The fields of the site's cancel line when ``text`` (without its
        newline) is one, at whatever place: the hand ends there, skipped."""
        found = self.cancel.match(text.rstrip("\r") + "\n") if self.cancel is not None else None
        return None if found is None else found.groups()

    def judge(self, text: str, names: Collection[str]) -> Verdict | None:
        """A Verdict when the line ``text`` (without its newline) is a Note;
        None when it may be a play, which rejects the hand."""
        line = text.rstrip()
        if not line.strip():
            return Verdict()
        if carries_cards(line):
            return None
        written = line + "\n"
        for name, regex in self.vocabulary:
            found = regex.match(written)
            if found is None:
                continue
            said = found.group(1) if regex.groups else None
            rest = line[found.end(1):] if said else line
            player = said.strip() if said and said.strip() in names else None
            if player is None and names_player(line, names) is not None:
                continue  # a seated name, but not where the vocabulary names a player
            if name != "NO_PLAY_CHAT" and carries_amount(rest):
                continue  # "Bob sits down with $50" may change a stack: not a no-play line
            return Verdict(player, player is not None and _SITS_OUT.search(rest) is not None)
        if any(regex.match(written) for regex in self.info):
            return Verdict()  # header information out of its place: its ids and numbers change no money
        if any(regex.match(written) for regex in self.markers):
            return None  # a marker of the grammar out of its place
        if names_player(line, names) is not None or carries_amount(line):
            return None
        return Verdict()


def _forms(grammar: LineGrammar) -> list[tuple[re.Pattern[str], tuple[str, ...]]]:
    """Per literal text of a word or more that every line of a line kind (terminal) of
    ``grammar`` holds: that text, as words of a line, and the terminals whose text it is,
    the longest text first."""
    found: dict[str, list[str]] = {}
    for name, terminal in grammar.terminals.items():
        text = required_text(terminal.pattern.to_regexp()).strip(_NOT_WORDS)
        if not name.startswith("_") and len(text) >= _MIN_FORM_TEXT and _FORM_TEXT.search(text):
            found.setdefault(text, []).append(str(name))
    return [(re.compile(r"(?<!\w)" + re.escape(text) + (r"(?!\w)" if text[-1].isalnum() else "")), tuple(names))
            for text, names in sorted(found.items(), key=lambda item: (-len(item[0]), item[0]))]  # fmt: skip


@functools.cache
def policy_for(grammar: LineGrammar) -> LinePolicy:
    """The policy of a compiled grammar, made once."""
    return LinePolicy(grammar)


__all__ = [
    "INFO_PREFIX", "OTHER_GAME_WORD", "STUD_WORD", "LinePolicy", "Verdict", "carries_amount", "carries_cards",
    "names_player", "names_stud", "policy_for",
]
