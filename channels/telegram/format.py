"""The agent's Markdown as Telegram HTML, cut into messages Telegram accepts.

Markdown is read into `Run`s: a piece of plain text and the stack of tags
around it (``b``, ``i``, ``s``, ``code``, ``pre``, ``a href``, ``blockquote``).
Everything else is text and is escaped. Splitting works on the runs, never on
HTML, and every part is rendered on its own, opening and closing its tags,
so each part is valid HTML whatever the cut. Parts are cut at paragraph
bounds first, then sentence ends, then line breaks or spaces, and only a
word longer than a whole message is cut inside.

Lengths are counted in UTF-16 code units of the HTML itself: Telegram's limit
is on the text after its tags are removed, so this is the stricter count.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = ["MAX_MESSAGE", "Run", "Tag", "markdown_runs", "render", "split_html", "to_html"]

MAX_MESSAGE = 4096
"""Telegram's longest message text."""


@dataclass(frozen=True, slots=True)
class Tag:
    """One HTML tag: its name and the attribute text (already escaped), if any."""

    name: str
    attrs: str = ""

    def open(self) -> str:
        """The start tag."""
        return f"<{self.name} {self.attrs}>" if self.attrs else f"<{self.name}>"

    def close(self) -> str:
        """The end tag."""
        return f"</{self.name}>"


@dataclass(frozen=True, slots=True)
class Run:
    """Plain `text` inside `tags`, outermost first."""

    text: str
    tags: tuple[Tag, ...] = ()


_B, _I, _S, _CODE, _PRE, _QUOTE = (Tag(n) for n in ("b", "i", "s", "code", "pre", "blockquote"))
_LINK_SCHEMES = ("http://", "https://", "mailto:", "tg://")

_FENCE = re.compile(r"^\s*```\s*(?P<lang>[\w+#.-]*)\s*$")
_HEADING = re.compile(r"^#{1,6}\s+(?P<text>.*?)\s*#*\s*$")
_BULLET = re.compile(r"^(?P<indent>\s*)[-*+]\s+(?P<text>.*)$")
_QUOTE_LINE = re.compile(r"^\s*>\s?(?P<text>.*)$")
_INLINE = re.compile(
    r"`(?P<code>[^`\n]+)`"
    r"|\[(?P<label>[^\]\n]+)\]\((?P<url>[^)\s]+)\)"
    r"|\*\*(?P<b1>\S(?:.*?\S)?)\*\*"
    r"|(?<!\w)__(?P<b2>\S(?:.*?\S)?)__(?!\w)"
    r"|~~(?P<s>\S(?:.*?\S)?)~~"
    r"|(?<![\w*])\*(?P<i1>[^*\s](?:[^*\n]*?[^*\s])?)\*(?![\w*])"
    r"|(?<![\w_])_(?P<i2>[^_\s](?:[^_\n]*?[^_\s])?)_(?![\w_])",
    re.DOTALL,
)


def markdown_runs(markdown: str) -> list[Run]:
    """Read the agent's Markdown into runs; unknown syntax stays as text."""
    blocks: list[list[Run]] = []
    lines = markdown.replace("\r\n", "\n").split("\n")
    paragraph: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        fence = _FENCE.match(line)
        if fence is not None:
            if paragraph:
                blocks.append(_paragraph(paragraph))
                paragraph = []
            end = index + 1
            while end < len(lines) and not _FENCE.match(lines[end]):
                end += 1
            blocks.append(_code_block(lines[index + 1 : end], fence["lang"]))
            index = end + 1
            continue
        if line.strip():
            paragraph.append(line)
        elif paragraph:
            blocks.append(_paragraph(paragraph))
            paragraph = []
        index += 1
    if paragraph:
        blocks.append(_paragraph(paragraph))
    runs: list[Run] = []
    for number, block in enumerate(b for b in blocks if b):
        if number:
            runs.append(Run("\n\n"))
        runs.extend(block)
    return runs


def _code_block(lines: Sequence[str], lang: str) -> list[Run]:
    body = "\n".join(lines)
    if not body.strip():
        return []
    if lang:
        return [Run(body, (_PRE, Tag("code", f'class="language-{_escape(lang, quote=True)}"')))]
    return [Run(body, (_PRE,))]


def _paragraph(lines: Sequence[str]) -> list[Run]:
    runs: list[Run] = []
    quoted_before = False
    for number, line in enumerate(lines):
        quote = _QUOTE_LINE.match(line)
        outer: tuple[Tag, ...] = (_QUOTE,) if quote else ()
        if number:
            runs.append(Run("\n", outer if quote and quoted_before else ()))
        quoted_before = quote is not None
        text = quote["text"] if quote else line
        if heading := _HEADING.match(text):
            runs += _inline(heading["text"], (*outer, _B))
        elif bullet := _BULLET.match(text):
            runs.append(Run(bullet["indent"] + "• ", outer))
            runs += _inline(bullet["text"], outer)
        else:
            runs += _inline(text, outer)
    return runs


def _inline(text: str, tags: tuple[Tag, ...]) -> list[Run]:
    runs: list[Run] = []
    position = 0
    for match in _INLINE.finditer(text):
        if match.start() > position:
            runs.append(Run(text[position : match.start()], tags))
        position = match.end()
        if match["code"] is not None:
            runs.append(Run(match["code"], (*tags, _CODE)))
        elif match["label"] is not None:
            url = match["url"]
            if url.lower().startswith(_LINK_SCHEMES):
                link = Tag("a", f'href="{_escape(url, quote=True)}"')
                runs += _inline(match["label"], (*tags, link))
            else:
                runs += _inline(match["label"], tags)
        else:
            tag, inner = _emphasis(match)
            runs += _inline(inner, (*tags, tag))
    if position < len(text):
        runs.append(Run(text[position:], tags))
    return runs


def _emphasis(match: re.Match[str]) -> tuple[Tag, str]:
    for group, tag in (("b1", _B), ("b2", _B), ("s", _S), ("i1", _I), ("i2", _I)):
        if match[group] is not None:
            return tag, match[group]
    raise AssertionError("the inline pattern matched no group")  # pragma: no cover


def _escape(text: str, *, quote: bool = False) -> str:
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace('"', "&quot;") if quote else text


def render(runs: Sequence[Run]) -> str:
    """Runs as Telegram HTML: each run's text escaped, tags opened and closed as they change."""
    out: list[str] = []
    stack: list[Tag] = []
    for run in runs:
        if not run.text:
            continue
        keep = 0
        while keep < len(stack) and keep < len(run.tags) and stack[keep] == run.tags[keep]:
            keep += 1
        out += [tag.close() for tag in reversed(stack[keep:])]
        out += [tag.open() for tag in run.tags[keep:]]
        stack = list(run.tags)
        out.append(_escape(run.text))
    out += [tag.close() for tag in reversed(stack)]
    return "".join(out)


def to_html(markdown: str) -> str:
    """The whole Markdown text as one piece of Telegram HTML."""
    return render(markdown_runs(markdown))


def _units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _slice(runs: Sequence[Run], starts: Sequence[int], begin: int, end: int) -> list[Run]:
    """The runs covering plain-text positions [begin, end)."""
    out: list[Run] = []
    for run, start in zip(runs, starts, strict=True):
        stop = start + len(run.text)
        if stop <= begin or start >= end:
            continue
        out.append(Run(run.text[max(begin - start, 0) : min(end, stop) - start], run.tags))
    return out


_Size = Callable[[int, int], int]
_PARAGRAPH_END = re.compile(r"\n\s*\n")
_SENTENCE_END = re.compile(r"[.!?…](?=\s)")
_LINE_END = re.compile(r"\n")
_SPACE = re.compile(r"\s")


def split_html(markdown: str, *, limit: int = MAX_MESSAGE) -> list[str]:
    """The Markdown as one or more Telegram HTML messages, each at most `limit` long.

    Raises:
        ValueError: `limit` is too small to hold any character with its tags.
    """
    runs = markdown_runs(markdown)
    plain = "".join(run.text for run in runs)
    starts: list[int] = []
    total = 0
    for run in runs:
        starts.append(total)
        total += len(run.text)

    def size(begin: int, end: int) -> int:
        return _units(render(_slice(runs, starts, begin, end)))

    levels = [
        sorted({m.start() for m in _PARAGRAPH_END.finditer(plain)}),
        sorted({m.end() for m in _SENTENCE_END.finditer(plain)}),
        sorted({m.start() for m in _LINE_END.finditer(plain)}),
        sorted({m.start() for m in _SPACE.finditer(plain)}),
    ]
    parts: list[str] = []
    begin = _skip_space(plain, 0)
    while begin < len(plain):
        if size(begin, len(plain)) <= limit:
            end = len(plain)
        else:
            end = _best_cut(levels, begin, limit, size)
        part = render(_slice(runs, starts, begin, end)).strip()
        if part:
            parts.append(part)
        begin = _skip_space(plain, end)
    return parts


def _skip_space(text: str, position: int) -> int:
    while position < len(text) and text[position].isspace():
        position += 1
    return position


def _best_cut(levels: Sequence[Sequence[int]], begin: int, limit: int, size: _Size) -> int:
    """Where to end the part starting at `begin`: the latest bound that fits, best kind first.

    A kind of bound is used only when it fills at least half a message, so a
    paragraph break near the start does not leave a tiny part.

    Raises:
        ValueError: not even one character fits in `limit`.
    """
    fallback = begin
    for bounds in levels:
        cut = _latest_fitting([b for b in bounds if b > begin], begin, limit, size)
        if cut is None:
            continue
        if size(begin, cut) * 2 >= limit:
            return cut
        fallback = max(fallback, cut)
    if fallback > begin:
        return fallback
    if size(begin, begin + 1) > limit:
        raise ValueError(f"limit {limit} cannot hold one character")
    low, high = begin + 1, begin + limit
    while low < high:
        middle = (low + high + 1) // 2
        if size(begin, middle) <= limit:
            low = middle
        else:
            high = middle - 1
    return low


def _latest_fitting(bounds: Sequence[int], begin: int, limit: int, size: _Size) -> int | None:
    """The largest bound in `bounds` (sorted) whose part from `begin` fits; None if none does."""
    low, high = 0, len(bounds) - 1
    found: int | None = None
    while low <= high:
        middle = (low + high) // 2
        if size(begin, bounds[middle]) <= limit:
            found = bounds[middle]
            low = middle + 1
        else:
            high = middle - 1
    return found
