"""The public parsing API: files and text to ``Hand | Skipped | Rejected``.

Like ``chess.pgn.read_game``, parsing is lazy and never raises on bad input:
a hand that cannot be read comes back as a :class:`~studbook.events.Rejected`
value that names the file, the line and the reason, and the hands after it
still come through. ``strict=True`` turns the first problem into a
:class:`ParseError` instead.

* :func:`parse_file` / :func:`parse_text` yield one result per hand.
* :func:`parse_paths` yields one :class:`FileResult` per file (encoding,
  warnings, counts, or a file-level error), which is what CLIs report.
"""

from __future__ import annotations

import itertools
import operator
import os
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, BinaryIO, Callable, Generator, Iterable, Iterator, cast

from studbook.complete import whole_last_hand
from studbook.events import Hand, ParseResult, Rejected, Skipped
from studbook.originals import HandSource, Sources
from studbook.read import HEAD_CHARS, decode, detect_format, files_in, normalise_newlines
from studbook.read import limits
from studbook.read.decode import Decoder
from studbook.read.limits import MAX_HAND_CHARS, MAX_TEXT_SHOWN, capped, overlong_hand, screen
from studbook.read.split import header_starts, last_header_start, split_at_headers, split_at_starts
from studbook.sites import HandText, SiteFormat, all_sites, get_site, sites_in_order
from studbook.sites.makers import make_skipped
from studbook.words import counted


class ParseError(ValueError):
    """Raised with ``strict=True``: the first problem, with file and line."""

    def __init__(self, file: str, line: int, reason: str, rejected: Rejected | None = None) -> None:
        super().__init__(f"{file}:{line}: {reason}")
        self.file = file
        self.line = line
        self.reason = reason
        self.rejected = rejected


@dataclass(slots=True)
class FileResult:
    """Everything a CLI reports about one file."""

    file: str
    site: str | None = None
    encoding: str | None = None
    warnings: list[str] = field(default_factory=list)
    error: str | None = None  # the file could not be read as hand histories
    note: str | None = None  # a recognised file that holds no hands (tournament summary)
    unreadable: bool = False  # the file could not be opened (OSError)
    repairs: list[str] = field(default_factory=list)  # the decoding repairs among the warnings
    results: list[ParseResult] = field(default_factory=list)
    passed: int = 0  # hands handed on as they were read and not kept in results (see tally)

    @property
    def hands(self) -> list[Hand]:
        return [r for r in self.results if isinstance(r, Hand)]

    @property
    def skipped(self) -> list[Skipped]:
        return [r for r in self.results if isinstance(r, Skipped)]

    @property
    def rejected(self) -> list[Rejected]:
        return [r for r in self.results if isinstance(r, Rejected)]

    @property
    def ok(self) -> bool:
        """Nothing rejected and no file-level error."""
        return self.error is None and not self.rejected

    def counts(self) -> dict[str, int]:
        return {"parsed": len(self.hands) + self.passed, "skipped": len(self.skipped),
                "rejected": len(self.rejected)}  # fmt: skip

    def summary(self) -> str:
        """One line: ``file: site, encoding: N hands: a parsed, b skipped (...), c rejected``."""
        if self.error is not None:
            return f"{self.file}: error: {self.error}"
        if self.note is not None:
            return f"{self.file}: skipped: {self.note}"
        counts = self.counts()
        games = Counter(s.game for s in self.skipped)
        skipped = f"{counts['skipped']} skipped"
        if games:
            skipped += " (" + ", ".join(f"{game} x{n}" for game, n in sorted(games.items())) + ")"
        total = sum(counts.values())
        return (f"{self.file}: {self.site}, {self.encoding}: {counted(total, 'hand')}: "
                f"{counts['parsed']} parsed, {skipped}, {counts['rejected']} rejected")  # fmt: skip

    def details(self) -> list[str]:
        """The summary, then warnings and one line per rejected hand."""
        lines = [self.summary()]
        lines += [f"  warning: {self.file}: {warning}" for warning in self.warnings]
        lines += [f"  rejected: {r.message()}" for r in self.rejected]
        return lines


def _site(site: str | SiteFormat | None) -> SiteFormat | None:
    if site is None or not isinstance(site, str):
        return site
    try:
        return get_site(site)
    except KeyError as error:
        raise ValueError(error.args[0]) from None


def _parse_decoded(text: str, file: str, site: SiteFormat | None, report: FileResult) -> Iterator[ParseResult]:
    """Detect, split and parse decoded text, filling the file-level report."""
    return _parse_pieces(iter((text,)), file, site, report)


def _parse_pieces(pieces: Iterator[str], file: str, site: SiteFormat | None,
                  report: FileResult) -> Iterator[ParseResult]:  # fmt: skip
    """Detect, split and parse decoded text arriving in pieces of whole lines."""
    return _results(_sourced_pieces(pieces, file, site, report, None))


Sourced = tuple[ParseResult, HandSource | None]
"""A parse result and, when asked for, its hand's original text (:mod:`studbook.originals`)."""
Chunk = HandText | list[ParseResult]
"""What a format's split gives: a hand's text, or the results of a run of hands it read."""


def _results(sourced: Iterator[Sourced]) -> Iterator[ParseResult]:
    """The results of ``sourced``, as lazily: taken by ``map`` in C, no Python
    step a hand (issue 34: a mixed log's skipped hands cost little else)."""
    return map(_RESULT, sourced)


_RESULT: Callable[[Sourced], ParseResult] = operator.itemgetter(0)


def _sourced_pieces(pieces: Iterator[str], file: str, site: SiteFormat | None, report: FileResult,
                    sources: Sources | None, line_after: Callable[[], int] | None = None) -> Iterator[Sourced]:  # fmt: skip
    """Detect, split and parse decoded text arriving in pieces of whole lines;
    with ``sources``, each result beside the chunk the split gave the parser.
    ``line_after`` (a :class:`~studbook.read.decode.Decoder`'s ``line``), when
    given, tells the line the pieces taken so far end on, so the windows'
    lines need not be counted again.

    Formats that split at hand headers (every text format) are split one
    window of about :data:`WINDOW` characters at a time, each window cut at
    a hand's header, so a file of any size holds one window in memory; the
    XML formats get the whole text."""
    head = ""
    for piece in pieces:
        head += piece
        if len(head) >= WINDOW and head.strip():
            break
    if not head.strip():
        report.error = "empty file"
        return
    head = _unindented(head)
    fmt = site or detect_format(head, sites_in_order())
    if fmt is None:
        notes = [getattr(f, "describe", lambda head: None)(head.lstrip()[:HEAD_CHARS]) for f in all_sites()]
        note = next((n for n in notes if n), None)
        if note:
            report.note = note
        else:
            report.error = "not a hand history of any known site (" + ", ".join(f.name for f in all_sites()) + ")"
        return
    report.site = fmt.name
    header = getattr(fmt, "header", None)
    text_format = isinstance(header, re.Pattern) and getattr(fmt, "splitter", None) in (split_at_headers,
                                                                                          split_at_starts)
    told: list[int] = []  # the line a cut window's split ends on, told back to _windows
    if text_format and isinstance(header, re.Pattern):
        windows = _windows(head, pieces, header, line_after, told)
    else:
        windows = iter(((1, "".join(itertools.chain((head,), pieces)), 0, False),))
    # the format's split, with the hands it reads on its way (a run of skipped hands, issue 34); a hand
    # so read is skipped, and a skipped hand's text is not asked for (below)
    hands: Callable[[str, str, int], Iterator[Chunk]] | None = getattr(fmt, "hands", None)
    first = True
    previous: Sourced | None = None  # held back: the last hand may have been cut (studbook.complete)
    end = ""  # the file's last window, to see whether the file stops inside a line
    for first_line, text, overlong, cut in windows:
        if overlong:
            first = False
            if previous is not None:
                yield previous
            previous = overlong_hand(HandText(first_line, text), overlong, file), None  # not held: no text
            continue
        shift = first_line - 1
        chunks = fmt.split(text) if hands is None else hands(text, file, shift)
        for chunk in _lines_told(chunks, told) if cut else chunks:
            if not isinstance(chunk, HandText):  # a run read by the format, as _parse_hand reads each (never a file's first)
                if previous is not None:
                    yield previous
                yield from zip(chunk[:-1], _NO_SOURCES)  # (no step of this loop a hand)
                previous = chunk[-1], None
                continue
            if first:
                first = False
                before = _before_first_hand(text, chunk.first_line, file, fmt) if text_format else None
                if isinstance(before, Rejected):  # held back as a hand would be: the file's first item
                    previous = before, None
                elif before is not None:
                    report.warnings.append(before)
            result = _parse_hand(fmt, HandText(chunk.first_line + shift, chunk.text, chunk.lines) if shift else chunk, file)
            if previous is not None and isinstance(result, Rejected) and _rejected_again(previous[0], result):
                continue  # a later fault of a hand already rejected (XML read on past a fault): one hand, one result
            if previous is not None:
                yield previous
            source = None
            if sources is not None:  # (asked of every chunk: an XML file's head is found from its first)
                source = sources.of(chunk.text, text)
                if isinstance(result, Skipped):  # no original of a skipped hand, as of one read in a run
                    source = None
            previous = result, source
        end = text
    if previous is not None:
        yield whole_last_hand(previous[0], end[-4096:]), previous[1]
    if first:
        report.error = f"no {fmt.name} hand found"


_NO_SOURCES = itertools.repeat(None)  # a run read by the format: no hand's text is asked for


def _lines_told(chunks: Iterator[Chunk], told: list[int]) -> Iterator[Chunk]:
    """``chunks``, a window's split, as they come; then the line after the window's last, which
    the split returns when it counted them hand by hand (``split_at_headers``,
    ``split_at_starts``), appended to ``told``: the next window's first line, without a count
    of the window's newlines again (issue 34: some 13 k instructions a hand of a long file)."""
    # (a format's split is typed as an iterator; the text formats return the split's generator itself)
    end = yield from cast(Generator[Chunk, None, "int | None"], chunks)
    if isinstance(end, int):
        told.append(end)


def _rejected_again(before: ParseResult, result: ParseResult) -> bool:
    """Whether ``result`` rejects the hand ``before`` rejected (the same first line)."""
    return isinstance(result, Rejected) and isinstance(before, Rejected) and result.hand_line == before.hand_line


WINDOW = 1 << 20  # characters of text split at a time
_MARGIN = 1 << 14  # a header this close to a window's end is left for the next (its line may be cut)


def _windows(head: str, pieces: Iterator[str], header: re.Pattern[str], line_after: Callable[[], int] | None = None,
             told: list[int] | None = None) -> Iterator[tuple[int, str, int, bool]]:  # fmt: skip
    """(first line, text, 0, cut) windows of a file, each cut just before a hand's header
    (``cut``: more text follows).

    A window cut from a longer text is split before the next is asked for: the line its
    split ends on, when ``told`` (:func:`_lines_told`), gives the next window's first line.

    A hand longer than a window is read on until the next header; one past
    :data:`~studbook.read.limits.MAX_HAND_CHARS` is passed over up to the
    next header without being held, and comes as (first line, its start,
    its size in characters)."""
    find = header_starts(header)
    buffer, line = head, 1
    skipped: list[Any] = []  # [first line, start, size] of an overlong hand being passed over
    for piece in itertools.chain(("",), pieces):
        buffer += piece
        if skipped:
            starts = [at for at in find(buffer) if at <= len(buffer) - _MARGIN]
            at = starts[0] if starts else max(len(buffer) - _MARGIN, 0)
            skipped[2] += at
            line += buffer.count("\n", 0, at)
            buffer = buffer[at:]
            if not starts:
                continue
            yield skipped[0], skipped[1], skipped[2], False
            skipped = []
        if len(buffer) < WINDOW:
            continue
        cut = last_header_start(header)(buffer, len(buffer) - _MARGIN)
        if not cut:
            if len(buffer) > MAX_HAND_CHARS + WINDOW:
                skipped = [line, buffer[: 2 * MAX_TEXT_SHOWN], len(buffer)]
                line += buffer.count("\n")
                buffer = ""
            continue
        window, buffer = buffer[:cut], buffer[cut:]
        yield line, window, 0, True
        # the next window's line: the line its split ended on, told back; else from the line the
        # text read ends on, the short rest counted (the decoder counted it all), else the window counted
        if told:
            line += told.pop() - 1
        elif line_after is not None:
            line = line_after() - buffer.count("\n")
        else:
            line += window.count("\n")
    if skipped:
        starts = find(buffer)
        at = starts[0] if starts else len(buffer)
        yield skipped[0], skipped[1], skipped[2] + at, False
        line += buffer.count("\n", 0, at)
        buffer = buffer[at:]
    if buffer:
        yield line, buffer, 0, False


def _parse_hand(fmt: SiteFormat, chunk: HandText, file: str) -> ParseResult:
    """One hand, screened against the limits of :mod:`studbook.read.limits`: one
    longer than :data:`MAX_HAND_CHARS` rejected unread; a hand kept, or a result
    the site named already (a line format's skipped hands), as it comes."""
    size = len(chunk.text)
    if size > limits.MAX_HAND_CHARS:  # the module's: the limit is read where it is set
        return overlong_hand(chunk, size, file)
    result = screen(fmt.parse_hand(chunk, file), chunk, file)
    if isinstance(result, Hand) or result.site is not None:  # the common cases: no call to name the site
        return result
    return _with_site(result, fmt.name)


def _with_site(result: ParseResult, site: str) -> ParseResult:
    """A rejected or skipped hand names the site whose format read it."""
    if isinstance(result, Skipped) and result.site is None:  # a skipped hand is common: no replace()
        return make_skipped(result.file, result.line, result.hand_id, result.game, result.reason, site)
    if isinstance(result, Rejected) and result.site is None:
        return replace(result, site=site)
    return result


def _unindented(head: str) -> str:
    """``head`` without the spaces and tabs in front of its first non-blank text on
    its line (blank lines kept: the lines keep their numbers)."""
    start = len(head) - len(head.lstrip())
    line_start = head.rfind("\n", 0, start) + 1
    return head[:line_start] + head[start:] if start > line_start else head


BEFORE_FIRST_HAND = "text before the first hand, not read as one (a hand's header must start its line)"


def _before_first_hand(text: str, first_line: int, file: str, fmt: SiteFormat) -> Rejected | str | None:
    """A text file's lines before its first hand: None when blank; a warning when
    every line carries no play by the site's line policy (a table notice, a timer);
    else rejected, as they may hold a hand whose header does not start its line
    (junk in front of it on the line, an archive's bytes): listed, never dropped unseen."""
    before = text[: _offset_of_line(text, first_line)]
    if not before.strip():
        return None
    line = 1 + before.count("\n", 0, len(before) - len(before.lstrip()))
    plays_nothing = getattr(fmt, "plays_nothing", None)
    if plays_nothing is not None and plays_nothing(before.strip()):
        return f"lines {line}-{first_line - 1}: text before the first hand carries no play: ignored"
    return Rejected(file, line, line, BEFORE_FIRST_HAND, capped(before.strip()))


def _offset_of_line(text: str, line: int) -> int:
    pos = 0
    for _ in range(line - 1):
        pos = text.index("\n", pos) + 1
    return pos


def _checked(results: Iterable[ParseResult], report: FileResult, strict: bool) -> Iterator[ParseResult]:
    for result in results:
        if strict and isinstance(result, Rejected):
            raise ParseError(result.file, result.line, result.reason, result)
        yield result
    if strict and report.error is not None:
        raise ParseError(report.file, 1, report.error)


def _error_result(report: FileResult) -> Iterator[ParseResult]:
    """A file-level error as a single Rejected, for the per-hand APIs."""
    if report.error is not None:
        yield Rejected(report.file, 1, 1, report.error)


def parse_text(
    text: str, *, file: str = "<text>", site: str | None = None, strict: bool = False
) -> Iterator[ParseResult]:
    """Parse decoded hand-history text; yields one result per hand.

    A file-level problem (empty, unknown format) comes back as one
    ``Rejected`` at line 1. ``site`` forces a format by name.
    """
    fmt = _site(site)
    report = FileResult(file)
    text = normalise_newlines(text.replace("\x00", ""))
    yield from _checked(_parse_decoded(text, file, fmt, report), report, strict)
    if not strict:
        yield from _error_result(report)


def parse_file(
    path: str | os.PathLike[str], *, site: str | None = None, strict: bool = False
) -> Iterator[ParseResult]:
    """Parse one file (any encoding); yields one result per hand, read as
    they are consumed (a block of the file and one hand at a time, as
    :func:`stream_file`).

    OSError propagates (the file cannot be opened); everything wrong with the
    content comes back as values, a file-level problem as one ``Rejected``.
    """
    report = FileResult(str(path))
    _site(site)  # an unknown site name is a ValueError before the file is opened
    results = _stream(open(path, "rb"), site, report)  # noqa: SIM115 - closed by _stream
    yield from _checked(results, report, strict)
    if not strict:
        yield from _error_result(report)


def _parse_bytes(data: bytes, file: str, fmt: SiteFormat | None, report: FileResult) -> Iterator[ParseResult]:
    decoded = decode(data)
    report.encoding = decoded.encoding
    report.warnings.extend(decoded.warnings)
    if decoded.binary:
        report.error = "binary file, not text"
        return iter(())
    return _parse_decoded(decoded.text, file, fmt, report)


def tally(report: FileResult, results: Iterable[ParseResult]) -> Iterator[Hand]:
    """The hands of ``results`` as they come, each counted in ``report.passed``
    and not kept; the skipped and rejected ones (what the report lists) go to
    ``report.results``. With :func:`stream_file`, a file of any size costs one
    hand plus its problems: what ``studbook parse`` does."""
    for result in results:
        if isinstance(result, Hand):
            report.passed += 1
            yield result
        else:
            report.results.append(result)


def read_file(path: str | os.PathLike[str], *, site: str | None = None) -> FileResult:
    """Parse one file completely into a :class:`FileResult`; never raises."""
    report, results = stream_file(path, site=site)
    report.results = list(results)
    return report


BLOCK = 1 << 20  # bytes read at a time


def stream_file(path: str | os.PathLike[str], *, site: str | None = None) -> tuple[FileResult, Iterator[ParseResult]]:
    """A file's report and its results, read as they are consumed: the file is
    read, decoded and split a block at a time, so a file of any size costs
    about one block and one hand (XML files: the whole text). The report's
    encoding, warnings and file-level error are complete once the results
    are exhausted; nothing raises (an unreadable file is a report with
    ``unreadable`` set and no results)."""
    report, sourced = _open_stream(path, site, None)
    return report, _results(sourced)


def stream_sourced(path: str | os.PathLike[str], *,
                   site: str | None = None) -> tuple[FileResult, Iterator[Sourced]]:  # fmt: skip
    """:func:`stream_file`, each result beside its hand's original text (a
    :class:`~studbook.originals.HandSource`: the chunk the site's split gave
    the parser, for an XML site with the file's head; None for a hand too
    big to hold and for a skipped hand, a hand of another game, which is
    read from its first line, as :func:`stream_file` reads it). The file is
    read once, one hand in flight: what ``studbook import`` stores as the
    originals."""
    return _open_stream(path, site, Sources())


def _open_stream(path: str | os.PathLike[str], site: str | None,
                 sources: Sources | None) -> tuple[FileResult, Iterator[Sourced]]:  # fmt: skip
    report = FileResult(str(path))
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed by the generator
    except OSError as error:
        report.error = f"cannot read: {error.strerror or error}"
        report.unreadable = True
        return report, iter(())
    return report, _stream_sourced(handle, site, report, sources)


def _stream(handle: BinaryIO, site: str | None, report: FileResult) -> Iterator[ParseResult]:
    return _results(_stream_sourced(handle, site, report, None))


def _stream_sourced(handle: BinaryIO, site: str | None, report: FileResult,
                    sources: Sources | None) -> Iterator[Sourced]:  # fmt: skip
    decoder = Decoder()
    file = report.file
    try:
        with handle:
            fmt = _site(site)
            pieces = _decoded(handle, decoder)
            first = next(pieces, "")
            report.encoding = decoder.encoding
            if decoder.binary:
                report.error = "binary file, not text"
            else:
                yield from _sourced_pieces(itertools.chain((first,), pieces), file, fmt, report, sources,
                                           lambda: decoder.line)
    except OSError as error:
        report.error = f"cannot read: {error.strerror or error}"
    except ValueError as error:
        report.error = str(error)
    report.encoding = decoder.encoding or report.encoding
    report.warnings[0:0] = decoder.warnings()
    report.repairs = decoder.repairs()


def _decoded(handle: BinaryIO, decoder: Decoder) -> Iterator[str]:
    while block := handle.read(BLOCK):
        text = decoder.feed(block)
        if text:
            yield text
    text = decoder.feed(b"", final=True)
    if text:
        yield text


def stream_data(handle: BinaryIO, name: str, *, site: str | None = None) -> tuple[FileResult, Iterator[ParseResult]]:
    """:func:`stream_file` for a stream already open (standard input), called
    ``name``: read, decoded and split a block at a time (the stream is closed
    when the results are exhausted)."""
    report = FileResult(name)
    return report, _results(_stream_sourced(handle, site, report, None))


def read_data(data: bytes, name: str, *, site: str | None = None) -> FileResult:
    """Parse bytes already read (standard input) as a file called ``name``; never raises."""
    report = FileResult(name)
    try:
        report.results = list(_parse_bytes(data, name, _site(site), report))
    except ValueError as error:
        report.error = str(error)
    return report


def not_a_hand_history(result: FileResult) -> str | None:
    """Why a file that was read is not a hand history (empty, binary, no known
    format, a tournament summary), or None. A file that could not be opened, or
    that looks like a site's hand history but holds no hand, is not counted here:
    that is an error wherever the file came from."""
    if result.unreadable or result.results or result.passed:
        return None
    if result.note is not None:
        return result.note
    if result.error is not None and result.site is None:
        return "no known site's format" if result.error.startswith("not a hand history") else result.error
    return None


def parse_paths(
    paths: Iterable[str | os.PathLike[str]], *, site: str | None = None
) -> Iterator[FileResult]:
    """One :class:`FileResult` per file; directories are searched recursively."""
    for path in paths:
        for file in files_in(path):
            yield read_file(file, site=site)


__all__ = ["FileResult", "ParseError", "not_a_hand_history", "parse_file", "parse_paths", "parse_text", "read_data",
           "read_file", "Sourced", "stream_data", "stream_file", "stream_sourced", "tally"]
