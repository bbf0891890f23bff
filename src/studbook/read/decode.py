"""Bytes to text: encoding detection, newline normalisation, NUL bytes.

Sites write UTF-16 with a BOM (Full Tilt), UTF-8 with or without a BOM,
or a Windows code page. ``decode`` tries, in order: the UTF-16 LE/BE and
UTF-8 byte-order marks, UTF-16 without BOM (recognised by its NUL pattern),
strict UTF-8, then cp1252 (latin-1 for the five bytes cp1252 leaves
undefined). Line numbers are preserved: CRLF, CR CR LF and bare CR become LF
and dropped NUL bytes never join or split lines.

Damage stays where it is (the encoding is decided per run of bytes, not per
file), and every repair is a warning naming the lines:

* a UTF-8 file holding a few bytes that are not UTF-8 (a stray cp1252 ``é``
  pasted in) keeps its UTF-8; only those bytes are read as cp1252 ("the file
  mixes encodings");
* a multi-byte UTF-8 character cut short (a ``€`` missing its last byte)
  becomes U+FFFD on its own line, and the hands around it read as before;
* a UTF-16 file missing a byte (or with one too many) is read line by line,
  each line aligned on its own newline, so only the damaged line is garbled.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field

_BOMS = (
    (b"\xef\xbb\xbf", "utf-8-sig"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)
_SNIFF = 4096
# A well-formed multi-byte UTF-8 character (what cp1252 text almost never holds).
_UTF8_MULTI = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}")
_LEAD = range(0xC2, 0xF5)
_CONTINUATION = range(0x80, 0xC0)
# Lines named in one warning before "and N more".
SHOW_LINES = 5
_MIXED = "studbook-mixed-utf8"


@dataclass(frozen=True, slots=True)
class Decoded:
    """Decoded, normalised text and how it was obtained."""

    text: str
    encoding: str
    warnings: tuple[str, ...] = field(default=())
    binary: bool = False  # looks like a binary file rather than text


def decode(data: bytes) -> Decoded:
    """Decode a hand-history file's bytes; never raises."""
    encoding, text, warnings = _decode(data)
    binary = _looks_binary(text)
    nuls = text.count("\x00")
    if nuls:
        text = text.replace("\x00", "")
        warnings.insert(0, f"{nuls} NUL byte{'s' if nuls != 1 else ''} dropped")
    if encoding == "latin-1":
        warnings.append("not valid UTF-8 or cp1252: read as latin-1")
    return Decoded(normalise_newlines(text), encoding, tuple(warnings), binary)


def normalise_newlines(text: str) -> str:
    """CRLF, CR CR LF (a CRLF written through a text-mode CRLF conversion) and
    bare CR to LF, and no BOM character at the start."""
    if "\r" in text:
        text = text.replace("\r\r\n", "\n").replace("\r\n", "\n").replace("\r", "\n")
    return text[1:] if text.startswith("\ufeff") else text


def lines_named(lines: list[int]) -> str:
    """``line 3`` / ``lines 3, 7, 9 and 12 more``: where a repair happened."""
    shown = ", ".join(str(n) for n in lines[:SHOW_LINES])
    more = f" and {len(lines) - SHOW_LINES} more" if len(lines) > SHOW_LINES else ""
    return f"line{'s' if len(lines) > 1 else ''} {shown}{more}"


def _decode(data: bytes) -> tuple[str, str, list[str]]:
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            body = data[len(bom) :]
            if encoding.startswith("utf-16"):
                text, warnings = _utf16(body, encoding)
                return encoding, text, warnings
            text, warnings = _utf8(body)
            return encoding, text, warnings
    utf16 = _utf16_without_bom(data[:_SNIFF])
    if utf16:
        text, warnings = _utf16(data, utf16)
        return utf16, text, warnings
    try:
        return "utf-8", data.decode("utf-8"), []
    except UnicodeDecodeError:
        pass
    if _UTF8_MULTI.search(data):  # UTF-8 text with some damage or a stray byte
        text, warnings = _utf8(data)
        return "utf-8", text, warnings
    try:
        return "cp1252", data.decode("cp1252"), []
    except UnicodeDecodeError:
        return "latin-1", data.decode("latin-1"), []


# -- UTF-8 with damage ---------------------------------------------------------

class _Repairs:
    """What the mixed decoder did, by byte offset (one decode at a time)."""

    def __init__(self) -> None:
        self.foreign: list[int] = []  # bytes read as cp1252
        self.cut: list[int] = []  # cut multi-byte characters replaced by U+FFFD


_current: list[_Repairs] = []


def _mixed(error: UnicodeError) -> tuple[str, int]:
    """The codec error handler: a cut UTF-8 character (a lead byte and some of
    its continuation bytes) becomes U+FFFD; any other byte is read as cp1252."""
    assert isinstance(error, UnicodeDecodeError)
    repairs = _current[-1]
    data, start, end = error.object, error.start, error.end
    if data[start] in _LEAD and end - start >= 2 and all(b in _CONTINUATION for b in data[start + 1 : end]):
        repairs.cut.append(start)
        return "\ufffd", end
    repairs.foreign.append(start)
    byte = data[start : start + 1]
    try:
        return byte.decode("cp1252"), start + 1
    except UnicodeDecodeError:
        return byte.decode("latin-1"), start + 1


codecs.register_error(_MIXED, _mixed)


def _utf8(data: bytes) -> tuple[str, list[str]]:
    """UTF-8 text, each undecodable run of bytes repaired on its own, with warnings."""
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError:
        pass
    repairs = _Repairs()
    _current.append(repairs)
    try:
        text = data.decode("utf-8", _MIXED)
    finally:
        _current.pop()
    warnings = []
    if repairs.foreign:
        lines = _lines_at(data, repairs.foreign)
        warnings.append(f"{lines_named(lines)}: not UTF-8, read as cp1252 (the file mixes encodings)")
    if repairs.cut:
        lines = _lines_at(data, repairs.cut)
        warnings.append(f"{lines_named(lines)}: a multi-byte UTF-8 character cut short, replaced by U+FFFD")
    return text, warnings


def _lines_at(data: bytes, offsets: list[int]) -> list[int]:
    """The distinct 1-based line numbers of byte offsets (ascending) in ``data``."""
    lines: list[int] = []
    line, pos = 1, 0
    for offset in offsets:
        line += data.count(b"\n", pos, offset)
        pos = offset
        if not lines or lines[-1] != line:
            lines.append(line)
    return lines


# -- UTF-16 ----------------------------------------------------------------------

def _utf16(data: bytes, encoding: str) -> tuple[str, list[str]]:
    """UTF-16 text; a line with a byte missing or too many is garbled alone."""
    newline = "\n".encode(encoding)
    text = data.decode(encoding, "replace")
    if "\ufffd" not in text and data.count(newline) == text.count("\n"):
        return text, []
    parts: list[str] = []
    damaged: list[int] = []
    replaced: list[int] = []
    for number, line in enumerate(_utf16_lines(data, newline), start=1):
        if len(line) % 2:
            damaged.append(number)
            parts.append("\ufffd" + line[1:].decode(encoding, "replace"))
        else:
            piece = line.decode(encoding, "replace")
            if "\ufffd" in piece:
                replaced.append(number)
            parts.append(piece)
    warnings = []
    if damaged:
        warnings.append(f"{lines_named(damaged)}: UTF-16 with a byte missing or extra; the line is garbled")
    if replaced:
        warnings.append(f"{lines_named(replaced)}: bytes that are not UTF-16 replaced by U+FFFD")
    return "".join(parts), warnings


def _utf16_lines(data: bytes, newline: bytes) -> list[bytes]:
    """``data`` cut after each encoded newline wherever it falls (even or odd offset)."""
    lines: list[bytes] = []
    start = 0
    while start < len(data):
        at = data.find(newline, start)
        if at == -1:
            lines.append(data[start:])
            break
        lines.append(data[start : at + 2])
        start = at + 2
    return lines


def _utf16_without_bom(head: bytes) -> str | None:
    """UTF-16 text of mostly ASCII has a NUL in every other byte."""
    pairs = len(head) // 2
    if pairs < 8:
        return None
    even = sum(1 for b in head[0 : pairs * 2 : 2] if b == 0)
    odd = sum(1 for b in head[1 : pairs * 2 : 2] if b == 0)
    if odd > 0.4 * pairs and even < 0.05 * pairs:
        return "utf-16-le"
    if even > 0.4 * pairs and odd < 0.05 * pairs:
        return "utf-16-be"
    return None


def _looks_binary(text: str) -> bool:
    head = text[:_SNIFF]
    if not head:
        return False
    control = sum(1 for ch in head if ch < " " and ch not in "\n\r\t\f") + head.count("\ufffd")
    return control > 0.1 * len(head)
