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
MAX_PENDING = 1 << 22  # bytes of one line held before it is cut


@dataclass(frozen=True, slots=True)
class Decoded:
    """Decoded, normalised text and how it was obtained."""

    text: str
    encoding: str
    warnings: tuple[str, ...] = field(default=())
    binary: bool = False  # looks like a binary file rather than text


def decode(data: bytes) -> Decoded:
    """Decode a hand-history file's bytes; never raises."""
    decoder = Decoder()
    text = decoder.feed(data, final=True)
    return Decoded(text, decoder.encoding, tuple(decoder.warnings()), decoder.binary)


def normalise_newlines(text: str, lf_cr: bool | None = None) -> str:
    """CRLF, CR CR LF (a CRLF written through a text-mode CRLF conversion), LF CR
    (the two written the wrong way round, when the text's first line ends so:
    ``lf_cr`` None) and bare CR to LF, and no BOM character at the start."""
    if "\r" in text:
        if lf_cr if lf_cr is not None else ends_lf_cr(text):
            text = text.replace("\n\r", "\n")
        text = text.replace("\r\r\n", "\n").replace("\r\n", "\n").replace("\r", "\n")
    return text[1:] if text.startswith("\ufeff") else text


def ends_lf_cr(text: str) -> bool:
    """The first line of ``text`` ends LF CR (not CR LF, nor a CRLF then a bare CR)."""
    at = text.find("\n")
    return at != -1 and text.startswith("\r", at + 1) and not text.startswith("\r", at - 1)


def lines_named(lines: list[int]) -> str:
    """``line 3`` / ``lines 3, 7, 9 and 12 more``: where a repair happened."""
    shown = ", ".join(str(n) for n in lines[:SHOW_LINES])
    more = f" and {len(lines) - SHOW_LINES} more" if len(lines) > SHOW_LINES else ""
    return f"line{'s' if len(lines) > 1 else ''} {shown}{more}"


class Decoder:
    """Decodes a file block by block: :meth:`feed` returns the text of the
    complete lines received so far (normalised, NUL bytes dropped), so a file
    of any size is decoded with one block in memory. The encoding is decided
    by the first block (byte-order mark, UTF-16 NUL pattern); for 8-bit text,
    UTF-8 or cp1252 is decided per block and per undecodable run of bytes."""

    def __init__(self) -> None:
        self.encoding = ""  # the name reported: utf-8, utf-8-sig, utf-16-le, cp1252, latin-1
        self.binary = False
        self._utf16: str | None = None
        self._pending = b""
        # The file line the pending bytes start on is 1 + the newlines of the text fed out, counted
        # when asked (``line``): most files fit one window, and their lines are counted by the
        # splitter only (issue 34: the decoder's count was a third pass over every hand's text).
        self._counted = 1  # the line after the text counted so far
        self._uncounted: list[str] = []  # text fed out since, not yet counted
        self._newline_fed = False  # a newline was fed out (the first line is done)
        self._started = False
        self._lf_cr: bool | None = None  # lines end LF CR (decided by the first line end)
        self._after_lf = False  # the last piece ended with an LF
        self._nuls = 0
        self._utf8_seen = False  # a well-formed multi-byte UTF-8 character was read
        self._cp1252: list[int] = []  # lines of bytes read as cp1252 in a UTF-8 file
        self._cp1252_blocks: list[int] = []  # first lines of blocks read wholly as cp1252
        self._cut: list[int] = []
        self._latin1 = False
        self._damaged16: list[int] = []
        self._replaced16: list[int] = []

    def feed(self, data: bytes, final: bool = False) -> str:
        """The text of the complete lines of ``data`` (after what earlier calls
        kept back); with ``final``, everything left."""
        if not self._started:
            data = self._start(self._pending + data if self._pending else data, final)
            if not self._started:
                return ""
        else:
            data = self._pending + data if self._pending else data
        cut = len(data) if final else self._cut_at(data)
        piece, self._pending = data[:cut], data[cut:]
        if not piece:
            return ""
        if self._utf16:
            text = self._utf16_piece(piece)
            nul = "\x00" in text
        else:  # a NUL character comes from a NUL byte only; bytes are searched with memchr
            text = self._eight_bit_piece(piece)
            nul = b"\x00" in piece
        if not self._newline_fed and not self.binary:
            self.binary = _looks_binary(text)
        if nul:
            self._nuls += text.count("\x00")
            text = text.replace("\x00", "")
        if self._lf_cr is None and "\n" in text:
            self._lf_cr = ends_lf_cr(text)
        if self._lf_cr and self._after_lf and text.startswith("\r"):
            text = text[1:]  # the CR of an LF CR cut between two pieces
        self._after_lf = text.endswith("\n")
        if not self._newline_fed:
            text = normalise_newlines(text, bool(self._lf_cr))
        elif "\r" in text:
            if self._lf_cr:
                text = text.replace("\n\r", "\n")
            text = text.replace("\r\r\n", "\n").replace("\r\n", "\n").replace("\r", "\n")
        self._uncounted.append(text)
        if len(self._uncounted) > 2:  # (texts not split into windows, XML's: not held twice)
            self._count()
        self._newline_fed = self._newline_fed or "\n" in text
        return text

    @property
    def line(self) -> int:
        """The file line the text still to come starts on: 1 + the newlines fed out so far."""
        if self._uncounted:
            self._count()
        return self._counted

    def _count(self) -> None:
        self._counted += sum(text.count("\n") for text in self._uncounted)
        self._uncounted.clear()

    def _start(self, data: bytes, final: bool) -> bytes:
        if len(data) < _SNIFF and not final:
            self._pending = data
            return b""
        self._started = True
        for bom, encoding in _BOMS:
            if data.startswith(bom):
                self.encoding = encoding
                self._utf16 = encoding if encoding.startswith("utf-16") else None
                return data[len(bom) :]
        self._utf16 = _utf16_without_bom(data[:_SNIFF])
        self.encoding = self._utf16 or "utf-8"
        return data

    def _cut_at(self, data: bytes) -> int:
        """Where the complete lines of ``data`` end (0: keep it all back). A
        line longer than :data:`MAX_PENDING` bytes is cut anyway (at a
        character boundary), so one endless line never fills the memory."""
        if self._utf16:
            at = data.rfind("\n".encode(self._utf16))
            cut = at + 2 if at != -1 else 0
            return cut or (len(data) & ~1 if len(data) > MAX_PENDING else 0)
        at = data.rfind(b"\n")
        if at == -1:
            at = data.rfind(b"\r", 0, len(data) - 1)  # old Mac line ends; a CR LF is never split
        if at == -1 and len(data) > MAX_PENDING:
            cut = len(data)
            while cut > len(data) - 4 and data[cut - 1] >= 0x80:  # not inside a UTF-8 character
                cut -= 1
            return cut if cut > len(data) - 4 else len(data)
        return at + 1

    def _eight_bit_piece(self, piece: bytes) -> str:
        try:
            text = piece.decode("utf-8")
        except UnicodeDecodeError:
            pass
        else:
            if not self._utf8_seen and len(text) != len(piece):
                self._utf8_seen = True
            return text
        if self._utf8_seen or _UTF8_MULTI.search(piece):  # UTF-8 text with some damage or a stray byte
            self._utf8_seen = True
            return self._mixed_piece(piece)
        if self.encoding in ("utf-8", "cp1252"):  # keeps utf-8-sig and latin-1
            self.encoding = "cp1252"
        self._cp1252_blocks.append(self.line)
        try:
            return piece.decode("cp1252")
        except UnicodeDecodeError:
            self._latin1 = True
            self.encoding = "latin-1"
            return piece.decode("latin-1")

    def _mixed_piece(self, piece: bytes) -> str:
        repairs = _Repairs()
        _current.append(repairs)
        try:
            text = piece.decode("utf-8", _MIXED)
        finally:
            _current.pop()
        if self.encoding == "cp1252":
            self.encoding = "utf-8"
        self._cp1252 += _lines_at(piece, repairs.foreign, self.line)
        self._cut += _lines_at(piece, repairs.cut, self.line)
        return text

    def _utf16_piece(self, piece: bytes) -> str:
        assert self._utf16 is not None
        text, damaged, replaced = _utf16(piece, self._utf16)
        self._damaged16 += [self.line + n - 1 for n in damaged]
        self._replaced16 += [self.line + n - 1 for n in replaced]
        return text

    def warnings(self) -> list[str]:
        """What was changed, with the lines (call after the final feed)."""
        nuls = [f"{self._nuls} NUL byte{'s' if self._nuls != 1 else ''} dropped"] if self._nuls else []
        return nuls + self.repairs()

    def repairs(self) -> list[str]:
        """The bytes that could not be read as the file's encoding, with their
        lines: read as cp1252 in a UTF-8 file, replaced by U+FFFD, a UTF-16
        line garbled, a file read as latin-1."""
        warnings: list[str] = []
        foreign = sorted(set(self._cp1252 + (self._cp1252_blocks if self._utf8_seen else [])))
        if foreign and self._utf8_seen:
            warnings.append(f"{lines_named(foreign)}: not UTF-8, read as cp1252 (the file mixes encodings)")
        if self._cut:
            warnings.append(f"{lines_named(self._cut)}: a multi-byte UTF-8 character cut short, replaced by U+FFFD")
        if self._damaged16:
            warnings.append(f"{lines_named(self._damaged16)}: UTF-16 with a byte missing or extra; "
                            "the line is garbled")  # fmt: skip
        if self._replaced16:
            warnings.append(f"{lines_named(self._replaced16)}: bytes that are not UTF-16 replaced by U+FFFD")
        if self._latin1 and not self._utf8_seen:
            warnings.append("not valid UTF-8 or cp1252: read as latin-1")
        return warnings


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


def _lines_at(data: bytes, offsets: list[int], first_line: int = 1) -> list[int]:
    """The distinct line numbers of byte offsets (ascending) in ``data``, which starts on ``first_line``."""
    lines: list[int] = []
    line, pos = first_line, 0
    for offset in offsets:
        line += data.count(b"\n", pos, offset)
        pos = offset
        if not lines or lines[-1] != line:
            lines.append(line)
    return lines


# -- UTF-16 ----------------------------------------------------------------------

def _utf16(data: bytes, encoding: str) -> tuple[str, list[int], list[int]]:
    """UTF-16 text, and the lines (from 1) garbled by a byte missing or extra, and
    with bytes replaced; a line with a byte missing is garbled alone."""
    newline = "\n".encode(encoding)
    text = data.decode(encoding, "replace")
    if "\ufffd" not in text and data.count(newline) == text.count("\n"):
        return text, [], []
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
    return "".join(parts), damaged, replaced


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
    even = head[0 : pairs * 2 : 2].count(0)  # (counted in C: a Python loop over the bytes and
    odd = head[1 : pairs * 2 : 2].count(0)  # _looks_binary's over the characters cost 1.9 M a file, issue 34)
    if odd > 0.4 * pairs and even < 0.05 * pairs:
        return "utf-16-le"
    if even > 0.4 * pairs and odd < 0.05 * pairs:
        return "utf-16-be"
    return None


# The control characters of a text that are no layout: below " ", save "\n\r\t\f".
_CONTROL = re.compile("[\x00-\x08\x0b\x0e-\x1f]")


def _looks_binary(text: str) -> bool:
    head = text[:_SNIFF]
    if not head:
        return False
    control = len(_CONTROL.findall(head)) + head.count("\ufffd")  # (a regex, not a Python loop a character)
    return control > 0.1 * len(head)
