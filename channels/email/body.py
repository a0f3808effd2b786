"""What a mail says for a person: its plain or HTML part as text, quotes cut, attachments noted.

Pure functions, no I/O, each bounded (`MAX_HTML_CHARS`, `MAX_TEXT_CHARS`) so that no
mail holds the reader long (docs/SECURITY.md, "Slow input").
"""

from __future__ import annotations

import re
from email.message import EmailMessage, Message
from html.parser import HTMLParser

from mailparser_reply import EmailReplyParser  # type: ignore[import-untyped]

__all__ = [
    "CONTROL",
    "MAX_HTML_CHARS",
    "MAX_TEXT_CHARS",
    "attachment_notes",
    "body_text",
    "html_text",
    "kb",
    "one_line",
]

MAX_TEXT_CHARS = 16_000
"""Longest text handed to the gateway; the rest is cut with a note."""
MAX_HTML_CHARS = 200_000
"""HTML turned into text; the rest is cut before parsing (an HTML-only mail of 937 KB took
BeautifulSoup 5.7 s, and the garbage collections its tree set off held every thread)."""
_REPLY_SCAN_CHARS = 32_000  # the quote/signature cutter sees this much; more is cut anyway
_REPLY_LANGUAGES = ("en", "de", "fr", "es", "it", "nl")
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
"""Control characters a person's text never keeps (tab and line feed aside)."""


def body_text(message: EmailMessage) -> str:
    """What the person wrote: text/plain preferred, HTML as text; quotes and signature cut."""
    try:
        part = message.get_body(preferencelist=("plain", "html"))
    except (KeyError, TypeError, ValueError, AttributeError):
        # AttributeError: a multipart whose parts the parser left as text (a boundary
        # reused inside itself), found by tests/channels/email/test_mime_fuzz.py.
        part = None
    if part is None:
        return ""
    text = _part_text(part)
    if part.get_content_type() == "text/html":
        text = html_text(text[:MAX_HTML_CHARS])
    text = _cut_history(text.replace("\r\n", "\n").replace("\r", "\n"))
    text = CONTROL.sub("", text).strip()
    if len(text) > MAX_TEXT_CHARS:
        text = text[:MAX_TEXT_CHARS].rstrip() + "\n[… the rest of this mail was cut]"
    return text


class _TextOf(HTMLParser):
    """The text of an HTML document as it reads: a line break at each block, scripts dropped.

    The standard library's parser, streaming: no tree is built (BeautifulSoup's tree of a
    1 MB mail was hundreds of thousands of objects), and a broken document still yields its
    text.
    """

    _HIDDEN = frozenset({"script", "style", "template", "head", "noscript", "title"})
    _BLOCKS = frozenset(
        {
            "address",
            "article",
            "aside",
            "blockquote",
            "br",
            "dd",
            "div",
            "dl",
            "dt",
            "fieldset",
            "figcaption",
            "figure",
            "footer",
            "form",
            "h1",
            "h2",
            "h3",
            "h4",
            "h5",
            "h6",
            "header",
            "hr",
            "li",
            "main",
            "nav",
            "ol",
            "p",
            "pre",
            "section",
            "table",
            "td",
            "th",
            "tr",
            "ul",
        }
    )

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self._HIDDEN:
            self._hidden += 1
        elif tag in self._BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self._HIDDEN:
            self._hidden = max(0, self._hidden - 1)
        elif tag in self._BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)


_SPACES = re.compile(r"[ \t\f\v\xa0]+")


def html_text(html: str) -> str:
    """What an HTML part says, as plain lines (`_TextOf`)."""
    reader = _TextOf()
    reader.feed(html)
    reader.close()
    lines = (_SPACES.sub(" ", line).strip() for line in "".join(reader.parts).split("\n"))
    return "\n".join(line for line in lines if line)


def _part_text(part: Message) -> str:
    """A text part's content, whatever its declared charset and transfer encoding claim."""
    try:
        content = part.get_content()  # type: ignore[attr-defined]
    except (LookupError, UnicodeError, ValueError, AssertionError, KeyError):
        content = None
    if isinstance(content, str):
        return content
    payload = part.get_payload(decode=True)
    if isinstance(payload, bytes):
        return payload.decode("utf-8", errors="replace")
    return ""


def _cut_history(text: str) -> str:
    """The newest part of a reply: quoted mail and signature cut (only the head is scanned)."""
    reply = EmailReplyParser(languages=list(_REPLY_LANGUAGES)).read(text[:_REPLY_SCAN_CHARS])
    latest = reply.replies[0].body if reply.replies else text
    lines = latest.split("\n")
    while lines and lines[-1].lstrip().startswith(">"):  # a bottom quote the parser left
        lines.pop()
    return "\n".join(lines)


def attachment_notes(message: EmailMessage) -> list[str]:
    """One ``[attachment: name, size, not read]`` line per attachment, in order."""
    notes: list[str] = []
    for part in message.walk():
        if part.is_multipart():
            continue
        filename = _filename(part)
        disposition = (part.get_content_disposition() or "").lower()
        if disposition != "attachment" and filename is None:
            continue
        payload = part.get_payload(decode=True)
        size = len(payload) if isinstance(payload, bytes) else 0
        name = one_line(filename or part.get_content_type())[:120]
        notes.append(f"[attachment: {name}, {kb(size)}, not read]")
    return notes


def _filename(part: Message) -> str | None:
    try:
        name = part.get_filename()
    except (TypeError, ValueError, LookupError):
        return None
    return str(name) if name else None


def one_line(value: str) -> str:
    """CR, LF and other control characters become spaces: header values never carry a line break."""
    return " ".join(CONTROL.sub(" ", value.replace("\r", " ").replace("\n", " ")).split())


def kb(size: int) -> str:
    """A size as people read it: whole kilobytes, at least 1."""
    return f"{max(1, round(size / 1024)):,} KB"
