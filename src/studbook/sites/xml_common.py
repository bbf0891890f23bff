"""Safe XML reading and betting normalisation shared by the XML formats (iPoker, Merge).

Reading: the stdlib expat parser, configured to refuse what a hand history
never holds: a document type declaration (DTD), entity declarations and
external entities. Without a DTD no entity can be declared, so entity
expansion ("billion laughs") and external entities (file or network reads)
cannot happen; an undeclared ``&name;`` is a plain expat error. No third-party
package is needed (defusedxml would add nothing here).

:func:`scan` reads a whole decoded file once: it wraps the text in a
synthetic root (Merge files have no single root element), collects the
file-level *context* elements (iPoker's session ``<general>``, Merge's
``<description>``) and one :class:`Element` tree per *record* (a hand's
``<game>``), each element carrying the file line of its start tag. A hand
whose XML is broken or cut short becomes an error item and scanning resumes
at the next record, so one bad hand never hides the others.

Betting: sites write different figures (chips put in by this action, or the
player's street total after it); a builder feeds each to the readers' one
:class:`~studbook.sites.ledger.Ledger` (``Ledger.act_as``, the line readers'
ledger too), which gives the :class:`~studbook.events.Action` fields of the
event model and, at the end, the uncalled bet, the pots and the stakes the
bets show. This module keeps the file-level part of the stakes: the ante
levels of a tournament file (:class:`StakesLevels`).
"""

from __future__ import annotations

import re
import xml.parsers.expat as expat
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Callable, Generator, Iterable, Iterator, Literal, Mapping

from studbook.money import Money
from studbook.events import Event, Hand, ParseResult, Seat
from studbook.read.limits import MAX_HAND_CHARS, MAX_TEXT_SHOWN, capped
from studbook.sites.base import HandText
from studbook.sites.ledger import Ledger
from studbook.sites.makers import make_note
from studbook.sites.noplay import carries_amount, carries_cards, names_player

ZERO = Decimal(0)

_ROOT = "studbook-xml-root"
_DECLARATION = re.compile(r"\A\s*<\?xml[^>]*\?>")
_UNSAFE = re.compile(r"<!(?:DOCTYPE|ENTITY)\b|<!\[CDATA\[.*?<!ENTITY", re.I | re.S)

UNSAFE_REASON = (
    "unsafe XML refused: a document type declaration (DTD) or entity declaration; "
    "hand histories have none, and entities could expand without bound or read external files"
)


class UnsafeXml(ValueError):
    """The XML declares a DTD, an entity or refers to an external entity."""


class BadRecord(ValueError):
    """Content of a hand record that does not make sense; carries its file line."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(reason)
        self.line = line


@dataclass(slots=True, eq=False)
class Element:
    """One XML element: tag, attributes, the file line of its start tag, children, text."""

    tag: str
    attrs: dict[str, str]
    line: int
    children: list[Element] = field(default_factory=list)
    text: str = ""

    def get(self, name: str, default: str = "") -> str:
        return self.attrs.get(name, default)

    def find(self, tag: str) -> Element | None:
        return next((child for child in self.children if child.tag == tag), None)

    def findall(self, tag: str) -> list[Element]:
        return [child for child in self.children if child.tag == tag]

    def texts(self) -> dict[str, str]:
        """Child tag -> stripped text (the last one wins): a header block as a dict."""
        return {child.tag: child.text.strip() for child in self.children}


class RecordBuilder:
    """Builds one hand record (a site's builder implements :meth:`build_record`).

    The builder keeps ``at``, the element it is reading, so that a value that
    does not convert (an amount, a seat number, a card) is reported at that
    element's line and tag rather than at the start of the hand.
    """

    at: Element
    file: str
    chunk: HandText
    events: list[Event]
    seats: list[Seat]

    def unknown_element(self, element: Element, where: str) -> None:
        """The line policy of the text sites (:mod:`studbook.sites.noplay`) for
        an element the site's reader does not know: one whose attributes and
        text name no seated player and carry no amount and no card is a Note;
        any other may be a play, and rejects the hand at its line."""
        written = written_source(self.chunk, element)
        names = [seat.player for seat in self.seats]
        if names_player(written, names) is None and not carries_amount(written) and not carries_cards(written, True):
            self.events.append(make_note(self.file, element.line, written))
            return
        raise BadRecord(element.line, f"unknown element <{element.tag}> in {where}")

    def build(self, record: Element) -> ParseResult:
        self.at = record
        try:
            return self.build_record(record)
        except BadRecord:
            raise
        except (ValueError, KeyError, ArithmeticError) as error:
            raise BadRecord(self.at.line, f"bad value in <{self.at.tag}>: {error}") from None

    def build_record(self, record: Element) -> ParseResult:
        raise NotImplementedError


def written_source(chunk: HandText, element: Element) -> str:
    """An element as the log wrote it, from its start tag to its end (its lines
    joined by blanks), text and children included (formats read without text too)."""
    lines = chunk.text.split("\n")
    first = element.line - chunk.first_line
    source = " ".join(line.strip() for line in lines[first:])
    start = source.find(f"<{element.tag}")
    if start < 0:
        return f"<{element.tag}>"
    opened = source.find(">", start)
    if opened >= 0 and source[opened - 1] == "/":
        return source[start : opened + 1]
    closing = f"</{element.tag}>"
    end = source.find(closing, start)
    return source[start : end + len(closing)] if end >= 0 else source[start : opened + 1]


@dataclass(frozen=True, slots=True)
class XmlHandText(HandText):
    """A hand of an XML file: its text, its parsed element and the file's context.

    ``element`` is None when the hand's XML could not be read (``error`` says
    why, ``error_line`` where). ``context`` holds the file-level facts the
    site's ``split`` gathered (session header, description, stakes seen).
    """

    element: Element | None = None
    context: Mapping[str, object] = field(default_factory=dict)
    error: str | None = None
    error_line: int = 0
    record: int = -1  # its number among the file's records (see records()), -1 when unknown


@dataclass(frozen=True, slots=True)
class Scanned:
    """What :func:`scan` yields: a context element, a record, or an error."""

    kind: Literal["context", "record", "error"]
    first_line: int
    text: str = ""
    element: Element | None = None
    reason: str = ""
    line: int = 0  # the error's line


class _Builder:
    """expat callbacks: trees for context and record elements, spans of records.

    The bytes are fed a block at a time (:meth:`feed`); ``window`` keeps
    those from the open record's start tag on (``base`` is the stream offset
    of its first byte), so a record's text can be cut out when it closes."""

    def __init__(self, parser: expat.XMLParserType, record: str,
                 context: frozenset[str], line0: int, with_text: bool) -> None:  # fmt: skip
        self.parser = parser
        self.window = bytearray()
        self.base = 0
        self.fed = 0  # bytes fed so far
        self.record = record
        self.context = context
        self.line0 = line0  # file line of the data's first line, minus one
        self.stack: list[Element] = []
        self.start = 0  # byte index of the open record's start tag
        self.items: list[Scanned] = []
        parser.StartElementHandler = self.start_element
        parser.EndElementHandler = self.end_element
        if with_text:  # else no call per run of text, indentation included
            parser.CharacterDataHandler = self.characters
        parser.StartDoctypeDeclHandler = _refuse
        parser.EntityDeclHandler = _refuse
        parser.UnparsedEntityDeclHandler = _refuse
        parser.ExternalEntityRefHandler = _refuse
        parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)

    def feed(self, data: bytes, final: bool = False) -> None:
        self.window += data
        self.fed += len(data)
        self.parser.Parse(data, final)
        keep = self.start if self.stack else self.fed
        if keep > self.base:
            del self.window[: keep - self.base]
            self.base = keep

    def span(self, start: int, end: int) -> bytes:
        """Bytes ``start:end`` of the stream (within the window)."""
        return bytes(self.window[max(start - self.base, 0) : max(end - self.base, 0)])

    def start_element(self, tag: str, attrs: dict[str, str]) -> None:
        stack = self.stack
        if stack:
            element = Element(tag, attrs, self.line0 + self.parser.CurrentLineNumber)
            stack[-1].children.append(element)
            stack.append(element)
        elif tag == self.record or tag in self.context:
            self.start = self.parser.CurrentByteIndex
            stack.append(Element(tag, attrs, self.line0 + self.parser.CurrentLineNumber))

    def end_element(self, tag: str) -> None:
        stack = self.stack
        if not stack:
            return
        element = stack.pop()
        if stack:
            return
        if element.tag == self.record:
            at = self.parser.CurrentByteIndex - self.base
            close = self.window.find(b">", at) + 1
            text = self.window[self.start - self.base : close].decode("utf-8")
            self.items.append(Scanned("record", element.line, text, element))
        else:
            self.items.append(Scanned("context", element.line, element=element))

    def characters(self, data: str) -> None:
        if self.stack:
            self.stack[-1].text += data

    def release(self) -> None:
        """Break the parser <-> builder cycle (its handlers are the builder's
        methods): with the handlers unset, both go with the reference count, not
        at the next collection (which may be paused for the whole file)."""
        parser = self.parser
        parser.StartElementHandler = parser.EndElementHandler = parser.CharacterDataHandler = None
        self.window = bytearray()

    @property
    def in_record(self) -> bool:
        return bool(self.stack) and self.stack[0].tag == self.record


def _refuse(*_args: object) -> int:
    raise UnsafeXml(UNSAFE_REASON)


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def scan(text: str, record: str, context: frozenset[str] = frozenset(), with_text: bool = True) -> Iterator[Scanned]:
    """Context elements, records and errors of a decoded XML file, in file order.

    ``with_text=False`` leaves every element's ``text`` empty (for formats
    that write everything in attributes: faster).

    A well-formed file is read in one pass. After the first fault, each
    remaining record is read on its own, from its start tag up to the next
    record's (and a context element after it, in that stretch, too), so a
    file with a fault in every hand costs one pass, not one pass per hand."""
    declaration = _DECLARATION.match(text)
    blank = declaration.end() if declaration else 0  # blanked as read: line numbers stay those of the file
    unsafe = _UNSAFE.search(text, blank)
    if unsafe:  # the records before it are read; it and all after it are refused, as one error
        line = _line_of(text, unsafe.start())
        refused = Scanned("error", line, _line_at(text, unsafe.start()),
                          reason=UNSAFE_REASON, line=line)
        yield from _records_before(text, _session_start(text, unsafe.start()), record, context, with_text, blank)
        yield refused
        return
    yield from _records_before(text, len(text), record, context, with_text, blank)


def _session_start(text: str, unsafe: int) -> int:
    """Where the session holding a DTD at ``unsafe`` starts: at its XML declaration, if any."""
    declaration = text.rfind("<?xml", 0, unsafe)
    return declaration if declaration > 0 and not text[text.find("?>", declaration) + 2 : unsafe].strip() else unsafe


def _records_before(text: str, limit: int, record: str, context: frozenset[str], with_text: bool,
                    blank: int) -> Iterator[Scanned]:  # fmt: skip
    """The items of ``text[:limit]``, read past faults record by record (see :func:`scan`)."""
    text = text[:limit] if limit < len(text) else text
    if "&" in text:  # a bare "&" (a table called "Cash & Carry") is text, not a broken entity
        text = _BARE_AMPERSAND.sub("&amp;", text)
    failed = yield from _scan_segment(text, 0, len(text), 1, record, context, True, with_text, blank)
    if failed is None or failed >= len(text):
        return
    resync = re.compile(rf"<{re.escape(record)}[\s>/]")
    contexts = re.compile(rf"<(?:{'|'.join(map(re.escape, sorted(context)))})[\s>/]") if context else None
    starts = [found.start() for found in resync.finditer(text, max(failed, 1))]
    line, counted = 1, 0  # the file line of offset ``counted``
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(text)
        line += text.count("\n", counted, start)
        counted = start
        items, stopped = _collected(_scan_segment(text, start, end, line, record, context, False, with_text))
        yield from items
        if stopped is None or contexts is None or any(item.kind == "error" for item in items):
            continue
        after = contexts.search(text, stopped, end)  # a new session's header after the record
        if after is not None:
            first = line + text.count("\n", start, after.start())
            more, _ = _collected(_scan_segment(text, after.start(), end, first, record, context, False, with_text))
            yield from (item for item in more if item.kind == "context")


def _collected(segment: Generator[Scanned, None, int | None]) -> tuple[list[Scanned], int | None]:
    """The items of one record's segment (a few elements), and where it stopped."""
    items: list[Scanned] = []
    while True:
        try:
            items.append(next(segment))
        except StopIteration as done:
            return items, done.value


_BARE_AMPERSAND = re.compile(r"&(?!(?:[A-Za-z_:][\w.:-]*|#[0-9]+|#x[0-9A-Fa-f]+);)")


_FEED = 1 << 16  # characters encoded and fed to expat at a time
_NON_SPACE = re.compile(r"\S")


def _scan_segment(text: str, pos: int, end: int, first_line: int, record: str, context: frozenset[str],
                  first_segment: bool, with_text: bool = True,
                  blank: int = 0) -> Generator[Scanned, None, int | None]:  # fmt: skip
    """The items of ``text[pos:end]`` (starting on file line ``first_line``),
    each yielded as soon as its end tag is read (so a caller holds one record
    at a time); returns, after an error, the offset it stopped at.
    ``text[:blank]`` (an XML declaration) is read as spaces. The text is
    encoded and fed a block at a time: no copy of the whole segment is made."""
    head = f"<{_ROOT}>".encode()
    parser = expat.ParserCreate(encoding="UTF-8")
    parser.buffer_text = True
    builder = _Builder(parser, record, context, first_line - 1, with_text)
    items = builder.items
    fed: list[tuple[int, int, bytes]] = []  # (text offset, stream offset, bytes) of the last blocks fed
    stopped: int | None = None
    run = pos  # where the text since the last "<" starts (see _bounded)
    try:
        builder.feed(head)
        for at in range(pos, end, _FEED):
            piece = text[at : min(at + _FEED, end)]
            if at < blank:
                piece = re.sub(r"[^\n]", " ", piece[: blank - at]) + piece[blank - at :]
            run = _bounded(piece, at, run, builder)
            data = piece.encode("utf-8")
            fed = [*fed[-1:], (at, builder.fed, data)]
            builder.feed(data)
            yield from _drained(items)
        builder.feed(f"</{_ROOT}>".encode(), True)
    except Overlong as over:
        stopped = _overlong(text, pos, first_line, builder, over)
    except UnsafeXml as error:
        line = builder.line0 + parser.CurrentLineNumber
        items.append(Scanned("error", line, "", reason=str(error), line=line))
        stopped = len(text)
    except expat.ExpatError as error:
        stopped = _fault(text, pos, end, first_line, record, first_segment, builder, fed, error)
    finally:
        builder.release()
    yield from _drained(items)
    return stopped


class Overlong(ValueError):
    """Text past the limits of a hand, met at text offset ``at`` (from ``start`` on)."""

    def __init__(self, reason: str, start: int, at: int) -> None:
        super().__init__(reason)
        self.start = start
        self.at = at


_LONG_NODE = (f"an attribute value or text of over {MAX_HAND_CHARS:,} characters (the limit of a whole hand); "
              "the hand is not read")  # fmt: skip
_LONG_RECORD = f"hand of over {MAX_HAND_CHARS:,} characters, over the limit of {MAX_HAND_CHARS:,}; not read"


def _bounded(piece: str, at: int, run: int, builder: _Builder) -> int:
    """Refuse what expat would hold whole before a hand could be rejected: a run of
    text with no ``<`` (one attribute value or text node; expat buffers a start tag
    whole) or an open record past :data:`MAX_HAND_CHARS`. ``piece`` starts at text
    offset ``at``; ``run`` is where the text since the last ``<`` starts. Returns
    the run's new start; raises :class:`Overlong`. Blank space between elements
    holds nothing and does not count (an open element's text would)."""
    end = at + len(piece)
    last = piece.rfind("<")
    if last >= 0:
        run = at + last + 1
    elif not builder.stack and piece.isspace():
        run = end
    if end - run > MAX_HAND_CHARS:
        raise Overlong(_LONG_NODE, run, end)
    # a UTF-8 character is 1 to 4 bytes: past 4 bytes a character, the record is surely over the limit
    if builder.in_record and builder.fed - builder.start > 4 * MAX_HAND_CHARS:
        raise Overlong(_LONG_RECORD, run, end)
    return run


def _overlong(text: str, pos: int, first_line: int, builder: _Builder, over: Overlong) -> int:
    """Note ``over`` as an error item (of the open record, or at the tag it is met in)
    and return the text offset to read on from (the records after it)."""
    line = first_line + text.count("\n", pos, over.start)
    if builder.stack:
        first = builder.stack[0].line
        shown = builder.span(builder.start, builder.start + 2 * MAX_TEXT_SHOWN).decode("utf-8", "ignore")
    else:
        tag = max(text.rfind("<", pos, over.start), pos)
        first = first_line + text.count("\n", pos, tag)
        shown = text[tag : tag + 2 * MAX_TEXT_SHOWN]
    builder.items.append(Scanned("error", first, capped(shown.split("\n")[0]), reason=str(over), line=line))
    return over.at


def _drained(items: list[Scanned]) -> Iterator[Scanned]:
    """The items the parser has completed, the list emptied (nothing else keeps them)."""
    if items:
        done = items[:]
        items.clear()
        yield from done


def _fault(text: str, pos: int, end: int, first_line: int, record: str, first_segment: bool,
           builder: _Builder, fed: list[tuple[int, int, bytes]], error: expat.ExpatError) -> int:  # fmt: skip
    """Note expat's ``error`` as an error item (the open record's, or the file's)
    and return the text offset where reading stopped."""
    parser = builder.parser
    failed = parser.ErrorByteIndex
    stopped = end
    for offset, stream, data in reversed(fed):
        if failed >= stream:
            stopped = min(offset + len(data[: failed - stream].decode("utf-8", "ignore")), end)
            break
    else:
        stopped = fed[0][0] if fed else pos
    at_end = _NON_SPACE.search(text, stopped, end) is None
    line = min(builder.line0 + (error.lineno or 1), first_line + text.count("\n", pos, end))
    message = f"malformed XML: {expat.ErrorString(error.code)}"
    if builder.in_record:
        opened = builder.stack[0]
        partial = builder.span(builder.start, failed).decode("utf-8", "ignore")
        if at_end:
            message = f"the hand ends early, truncated? (the XML stops inside <{record}>)"
        builder.items.append(Scanned("error", opened.line, partial, opened, message, line))
    elif not at_end and first_segment:
        builder.items.append(Scanned("error", line, _line_at(text, stopped), reason=message, line=line))
    return stopped


def _line_at(text: str, offset: int) -> str:
    """The line of ``text`` holding ``offset``."""
    start = text.rfind("\n", 0, offset) + 1
    stop = text.find("\n", offset)
    return text[start : stop if stop != -1 else len(text)]


def parse_fragment(chunk: HandText, record: str) -> Scanned:
    """Read one hand's XML text on its own (a plain :class:`HandText`)."""
    items = list(scan(chunk.text, record))
    shift = chunk.first_line - 1
    for item in items:
        if item.kind in ("record", "error"):
            element = item.element
            if element is not None and shift:
                _shift_lines(element, shift)
            return Scanned(item.kind, item.first_line + shift, item.text, element, item.reason,
                           item.line + shift if item.line else 0)  # fmt: skip
    return Scanned("error", chunk.first_line, chunk.text.split("\n")[0], reason=f"no <{record}> element",
                   line=chunk.first_line)  # fmt: skip


def hand_text(item: Scanned, context: Mapping[str, object], record: int | None = None) -> XmlHandText | None:
    """The hand a scanned record (number ``record``) or error stands for (None for a context element)."""
    if item.kind == "record":
        return XmlHandText(item.first_line, item.text, element=item.element, context=context,
                           record=-1 if record is None else record)
    if item.kind == "error":
        return XmlHandText(item.first_line, item.text, element=None, context=context,
                           error=item.reason, error_line=item.line)  # fmt: skip
    return None


def as_xml_hand(chunk: HandText, record: str) -> XmlHandText:
    """``chunk`` as an :class:`XmlHandText`, reading its XML when it is a plain :class:`HandText`."""
    if isinstance(chunk, XmlHandText):
        return chunk
    read = parse_fragment(chunk, record)
    return XmlHandText(read.first_line, chunk.text, element=read.element,
                       error=read.reason or None, error_line=read.line)  # fmt: skip


def _shift_lines(element: Element, shift: int) -> None:
    element.line += shift
    for child in element.children:
        _shift_lines(child, shift)


Level = tuple[Money, tuple[Money, Money]]  # ante -> (small bet, big bet)


Measure = Callable[[], "Level | None"]  # builds one record on its own: the ante level it shows


class StakesLevels:
    """Tournament stakes by ante level, as the hands of one file show them.

    For a hand whose own bets do not show the stakes: :meth:`get` reads on in
    the file (``ahead``: each record's number and how to measure it, from a
    second, lazy scan of the file) only until a record shows the ante level
    asked for, so the first hand in file order wins, as a full pass would
    give. The parse tells :meth:`note` the level of every record it builds
    (numbered as :func:`records` numbers them); a record noted is not
    measured again. Parsed in file order, nothing is kept but the levels
    found and one number: the records are built one at a time and released.
    """

    def __init__(self, ahead: Iterable[tuple[int, Measure]] = ()) -> None:
        self._ahead = iter(ahead)
        self._through = -1  # records up to this number are accounted for in _levels
        self._noted: dict[int, Level | None] = {}  # noted out of order, past _through
        self._levels: dict[Money, tuple[Money, Money]] = {}

    def note(self, record: int, level: Level | None) -> None:
        """What the parse found building record number ``record``: its ante level, or None."""
        if record == self._through + 1:
            self._account(record, level)
            while self._through + 1 in self._noted:
                self._account(self._through + 1, self._noted.pop(self._through + 1))
        elif record > self._through:
            self._noted[record] = level

    def _account(self, record: int, level: Level | None) -> None:
        self._through = record
        if level is not None:
            self._levels.setdefault(level[0], level[1])

    def get(self, ante: Money) -> tuple[Money, Money] | None:
        """The stakes of the first record at ``ante`` that shows them."""
        levels = self._levels
        while ante not in levels:
            following = next(self._ahead, None)
            if following is None:
                break
            record, measure = following
            if record > self._through:
                self._account(record, self._noted.pop(record) if record in self._noted else measure())
        return levels.get(ante)


def records(items: Iterable[Scanned]) -> Iterator[tuple[int | None, Scanned]]:
    """Each item with its record number (None for a context element or an
    error): the numbers :class:`StakesLevels` knows records by."""
    number = 0
    for item in items:
        if item.kind == "record" and item.element is not None:
            yield number, item
            number += 1
        else:
            yield None, item


def shown_level(result: ParseResult, ledger: Ledger) -> Level | None:
    """The ante level a built hand shows by its own bets (None when it shows none)."""
    ante = ledger.ante
    if ante is None or not isinstance(result, Hand):
        return None
    found = ledger.shown_stakes()
    return (ante, found) if found is not None else None


__all__ = [
    "BadRecord", "Element", "Level", "RecordBuilder", "Measure", "Scanned", "StakesLevels",
    "UNSAFE_REASON", "UnsafeXml", "records",
    "XmlHandText", "parse_fragment", "scan", "shown_level",
]
