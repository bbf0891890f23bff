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

import gc
import os
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Iterable, Iterator

from studbook.complete import whole_last_hand
from studbook.events import Hand, ParseResult, Rejected, Skipped
from studbook.gcpause import gc_paused
from studbook.read import decode, detect_format, files_in, normalise_newlines, read_bytes
from studbook.sites import HandText, SiteFormat, all_sites, get_site


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
    results: list[ParseResult] = field(default_factory=list)

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
        return {"parsed": len(self.hands), "skipped": len(self.skipped),
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
        return (f"{self.file}: {self.site}, {self.encoding}: {total} hand{'s' if total != 1 else ''}: "
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
    if not text.strip():
        report.error = "empty file"
        return
    fmt = site or detect_format(text, all_sites())
    if fmt is None:
        notes = [getattr(f, "describe", lambda head: None)(text[:8192]) for f in all_sites()]
        note = next((n for n in notes if n), None)
        if note:
            report.note = note
        else:
            report.error = "not a hand history of any known site (" + ", ".join(f.name for f in all_sites()) + ")"
        return
    report.site = fmt.name
    first = True
    previous: ParseResult | None = None
    for chunk in fmt.split(text):
        if first:
            first = False
            ignored = text.count("\n", 0, _offset_of_line(text, chunk.first_line))
            if ignored and text[: _offset_of_line(text, chunk.first_line)].strip():
                report.warnings.append(f"lines 1-{ignored}: text before the first hand ignored")
        if previous is not None:
            yield previous
        previous = _parse_hand(fmt, chunk, file)
    if previous is not None:
        yield whole_last_hand(previous)  # the last hand may have been cut (studbook.complete)
    if first:
        report.error = f"no {fmt.name} hand found"


def _parse_hand(fmt: SiteFormat, chunk: HandText, file: str) -> ParseResult:
    """One hand, with the cyclic GC paused (see :func:`studbook.gcpause.gc_paused`)."""
    if not gc.isenabled():  # the usual case: read_file paused it for the whole file
        return _with_site(fmt.parse_hand(chunk, file), fmt.name)
    with gc_paused():
        return _with_site(fmt.parse_hand(chunk, file), fmt.name)


def _with_site(result: ParseResult, site: str) -> ParseResult:
    """A rejected or skipped hand names the site whose format read it."""
    if isinstance(result, (Rejected, Skipped)) and result.site is None:
        return replace(result, site=site)
    return result


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
    """Parse one file (any encoding); yields one result per hand.

    OSError propagates (the file cannot be opened); everything wrong with the
    content comes back as values, a file-level problem as one ``Rejected``.
    """
    report = FileResult(str(path))
    fmt = _site(site)
    results = _parse_bytes(read_bytes(path), str(path), fmt, report)
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


def read_file(path: str | os.PathLike[str], *, site: str | None = None) -> FileResult:
    """Parse one file completely into a :class:`FileResult`; never raises."""
    report = FileResult(str(path))
    try:
        data = read_bytes(path)
    except OSError as error:
        report.error = f"cannot read: {error.strerror or error}"
        report.unreadable = True
        return report
    try:
        with gc_paused():
            report.results = list(_parse_bytes(data, str(path), _site(site), report))
    except ValueError as error:
        report.error = str(error)
    return report


def read_data(data: bytes, name: str, *, site: str | None = None) -> FileResult:
    """Parse bytes already read (standard input) as a file called ``name``; never raises."""
    report = FileResult(name)
    try:
        with gc_paused():
            report.results = list(_parse_bytes(data, name, _site(site), report))
    except ValueError as error:
        report.error = str(error)
    return report


def parse_paths(
    paths: Iterable[str | os.PathLike[str]], *, site: str | None = None
) -> Iterator[FileResult]:
    """One :class:`FileResult` per file; directories are searched recursively."""
    for path in paths:
        for file in files_in(path):
            yield read_file(file, site=site)


__all__ = ["FileResult", "ParseError", "parse_file", "parse_paths", "parse_text", "read_data",
           "read_file"]
