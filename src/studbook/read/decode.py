"""Bytes to text: encoding detection, newline normalisation, NUL bytes.

Sites write UTF-16 with a BOM (Full Tilt), UTF-8 with or without a BOM,
or a Windows code page. ``decode`` tries, in order: the UTF-16 LE/BE and
UTF-8 byte-order marks, UTF-16 without BOM (recognised by its NUL pattern),
strict UTF-8, then cp1252 (latin-1 for the five bytes cp1252 leaves
undefined). Line numbers are preserved: CRLF and bare CR become LF and
dropped NUL bytes never join or split lines.
"""

from __future__ import annotations

from dataclasses import dataclass, field

_BOMS = (
    (b"\xef\xbb\xbf", "utf-8-sig"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)
_SNIFF = 4096


@dataclass(frozen=True, slots=True)
class Decoded:
    """Decoded, normalised text and how it was obtained."""

    text: str
    encoding: str
    warnings: tuple[str, ...] = field(default=())
    binary: bool = False  # looks like a binary file rather than text


def decode(data: bytes) -> Decoded:
    """Decode a hand-history file's bytes; never raises."""
    encoding, text = _decode(data)
    binary = _looks_binary(text)
    warnings: list[str] = []
    nuls = text.count("\x00")
    if nuls:
        text = text.replace("\x00", "")
        warnings.append(f"{nuls} NUL byte{'s' if nuls != 1 else ''} dropped")
    if encoding == "latin-1":
        warnings.append("not valid UTF-8 or cp1252: read as latin-1")
    return Decoded(normalise_newlines(text), encoding, tuple(warnings), binary)


def normalise_newlines(text: str) -> str:
    """CRLF and bare CR to LF, and no BOM character at the start."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text[1:] if text.startswith("\ufeff") else text


def _decode(data: bytes) -> tuple[str, str]:
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return encoding, data[len(bom) :].decode(encoding.replace("-sig", ""), "replace")
    utf16 = _utf16_without_bom(data[:_SNIFF])
    if utf16:
        return utf16, data.decode(utf16, "replace")
    for encoding in ("utf-8", "cp1252"):
        try:
            return encoding, data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return "latin-1", data.decode("latin-1")


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
