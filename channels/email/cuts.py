"""What of a mail is cut before it is parsed: the parts past `MAX_PARTS`, and each header
field, the mail's own and each MIME part's, past `MAX_HEADER_BYTES` (docs/SECURITY.md,
"Slow input")."""

from __future__ import annotations

import re

MAX_PARTS = 100
"""MIME parts read of one mail; the rest is cut before parsing, with a note. A mail of 5,000
one-byte attachments took the standard parser 2 s and the walk after it 2 more."""

MAX_HEADER_BYTES = 8_192
"""Bytes kept of each header field of a mail (its folded lines together); the rest is cut
before parsing, the mail's own and each MIME part's. The standard parser is quadratic in a
header's length: a Subject of encoded words of 280 KB took it 8 s (20 s on a busy machine),
8 KB takes milliseconds. References keep their first and latest ids (docs/SECURITY.md,
"Slow input")."""
_REFERENCES_HEAD = 1_024


_DELIMITER = re.compile(rb"^--(?![^\r\n]*--\r?$)", re.MULTILINE)  # not a closing one


def parts_capped(raw: bytes) -> tuple[bytes, bool]:
    """`raw` cut before its part past `MAX_PARTS`, and whether it was cut.

    Every MIME part begins on a line starting ``--`` (its boundary); so can a few
    lines of text, which only makes the cut come a little early. The cut mail
    lacks its closing boundaries, which the standard parser takes in its stride.
    """
    for count, line in enumerate(_DELIMITER.finditer(raw), start=1):
        if count > MAX_PARTS:
            return raw[: line.start()], True
    return raw, False


_HEADER_END = re.compile(rb"\r?\n\r?\n")


def part_headers_capped(raw: bytes) -> bytes:
    """`raw` with the header fields of each MIME part cut as the mail's own are.

    A part runs from its boundary line to the next; its header ends at its first blank line,
    as the mail's does. A line of text starting ``--`` (a signature's "-- ") is taken for a
    boundary too: then only a line of its paragraph over `MAX_HEADER_BYTES` is cut, which the
    text cap would cut anyway. Runs after `parts_capped`: at most `MAX_PARTS` + 1 parts.
    """
    starts = [match.end() for match in _DELIMITER.finditer(raw)]
    if not starts:
        return raw
    ends = [*(start - 2 for start in starts[1:]), len(raw)]  # each part stops before "--"
    pieces = [raw[: starts[0]]]
    for start, end in zip(starts, ends, strict=True):
        part = raw[start:end]
        capped = headers_capped(part)
        if capped is not part and part.endswith(b"\n") and not capped.endswith(b"\n"):
            capped += b"\r\n" if part.endswith(b"\r\n") else b"\n"  # the next boundary's line
        pieces.append(capped)
        pieces.append(raw[end : end + 2] if end < len(raw) else b"")
    return b"".join(pieces)


def headers_capped(raw: bytes) -> bytes:
    """`raw` with each of its header fields cut to `MAX_HEADER_BYTES`, at a space."""
    end = _HEADER_END.search(raw)
    split = end.start() if end else len(raw)
    head, rest = raw[:split], raw[split:]
    if len(head) <= MAX_HEADER_BYTES:
        return raw
    newline = b"\r\n" if b"\r\n" in head else b"\n"
    fields: list[list[bytes]] = []
    for line in head.splitlines(keepends=True):
        if line[:1] in (b" ", b"\t") and fields:
            fields[-1].append(line)
        else:
            fields.append([line])
    kept = [_field_capped(b"".join(lines), newline) for lines in fields]
    return b"".join(kept).rstrip(b"\r\n") + rest


def _field_capped(field: bytes, newline: bytes) -> bytes:
    if len(field) <= MAX_HEADER_BYTES:
        return field
    name = field.split(b":", 1)[0].strip().lower()
    if name == b"references":
        head = field[:_REFERENCES_HEAD]
        tail = field[-(MAX_HEADER_BYTES - _REFERENCES_HEAD) :]
        head = head[: max(head.rfind(b" "), head.rfind(b"\t"), len(b"references:"))]
        tail = tail[min(i for i in (tail.find(b" "), tail.find(b"\t"), len(tail)) if i >= 0) :]
        cut = head.rstrip(b"\r\n") + tail.rstrip(b"\r\n")
    else:
        cut = field[:MAX_HEADER_BYTES]
        space = max(cut.rfind(b" "), cut.rfind(b"\t"))
        cut = cut[:space] if space > len(name) + 1 else cut
        cut = cut.rstrip(b"\r\n")
    return cut + newline
