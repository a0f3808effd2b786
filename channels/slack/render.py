"""Text both ways: the agent's Markdown as Slack mrkdwn parts, and Slack's text as plain text.

Slack's mrkdwn is not Markdown: bold is ``*b*``, italic ``_i_``, strike
``~s~``, links ``<url|text>``, and ``&``, ``<``, ``>`` must be sent as
``&amp;``, ``&lt;``, ``&gt;`` (they start Slack's own markup). Code spans and
fences keep their text, escaped only. `split_markdown` cuts long replies at
paragraph, line, sentence or word bounds, closing and reopening a code fence
it has to cut through, so every part renders on its own.
"""

from __future__ import annotations

import re

__all__ = [
    "PART_LIMIT",
    "escape",
    "from_slack",
    "split_markdown",
    "to_mrkdwn",
    "to_parts",
]

PART_LIMIT = 3_500
"""Markdown characters per posted part; escaping may add a little, well under Slack's 4,000."""

_HARD_LIMIT = 4_000  # Slack's advice for chat.postMessage text; longer is truncated.
_FENCE = "```"
_BOLD = "\x01"  # stands for mrkdwn's "*" until italics are done

_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)
_LINK = re.compile(r"\[([^\]\n]+)\]\((\S+?)\)")
_AUTOLINK = re.compile(r"&lt;(https?://[^\s&]+|mailto:[^\s&]+)&gt;")
_BOLD_ITALIC_MD = re.compile(r"\*\*\*(?=\S)(.+?)(?<=\S)\*\*\*")
_BOLD_MD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*|__(?=\S)(.+?)(?<=\S)__")
_ITALIC_MD = re.compile(
    r"(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])|(?<!\w)_(?=\S)([^_\n]+?)(?<=\S)_(?!\w)"
)
_STRIKE_MD = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~")
_HEADING = re.compile(r"^ {0,3}#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)
_BULLET = re.compile(r"^([^\S\n]*)[-*+]\s+", re.MULTILINE)  # indent within its line: linear
_RULE = re.compile(r"^ {0,3}(?:[-*_]\s*){3,}$", re.MULTILINE)

_SLACK_LINK = re.compile(r"<([^<>|]+)(?:\|([^<>]*))?>")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def escape(text: str) -> str:
    """`text` with Slack's three control characters as entities."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def to_mrkdwn(markdown: str) -> str:
    """The agent's Markdown as Slack mrkdwn; text that is not Markdown comes out escaped only."""
    pieces = markdown.split(_FENCE)
    out: list[str] = []
    for index, piece in enumerate(pieces):
        if index % 2 == 1 and index < len(pieces) - 1:  # inside a closed fence
            body = piece.split("\n", 1)
            # A language tag ("```python") means nothing to Slack: drop it.
            if len(body) == 2 and re.fullmatch(r"[\w+#.-]*", body[0]):
                piece = body[1]
            out.append(_FENCE + escape(piece) + _FENCE)
        else:
            out.append(_inline(piece if index % 2 == 0 else _FENCE + piece))
    return "".join(out)


def _inline(text: str) -> str:
    """Mrkdwn for text outside code fences, code spans kept verbatim (escaped)."""
    parts: list[str] = []
    last = 0
    for match in _CODE_SPAN.finditer(text):
        parts.append(_styled(text[last : match.start()]))
        parts.append("`" + escape(match.group(2)) + "`")
        last = match.end()
    parts.append(_styled(text[last:]))
    return "".join(parts)


def _styled(text: str) -> str:
    links: list[str] = []

    def keep_link(match: re.Match[str]) -> str:
        label, url = match.group(1), match.group(2)
        links.append(f"<{escape(url)}|{escape(label).replace('|', '/')}>")
        return f"\x02{len(links) - 1}\x02"

    text = _LINK.sub(keep_link, text)
    text = escape(text)
    text = _AUTOLINK.sub(r"<\1>", text)
    text = _RULE.sub("――――", text)
    text = _HEADING.sub(lambda m: f"{_BOLD}{m.group(1)}{_BOLD}", text)
    text = _BULLET.sub(r"\1• ", text)
    text = _BOLD_ITALIC_MD.sub(lambda m: f"{_BOLD}_{m.group(1)}_{_BOLD}", text)
    text = _BOLD_MD.sub(lambda m: f"{_BOLD}{m.group(1) or m.group(2)}{_BOLD}", text)
    text = _ITALIC_MD.sub(lambda m: f"_{m.group(1) or m.group(2)}_", text)
    text = _STRIKE_MD.sub(r"~\1~", text)
    text = text.replace(_BOLD, "*")
    return re.sub("\x02(\\d+)\x02", lambda m: links[int(m.group(1))], text)


def split_markdown(markdown: str, limit: int = PART_LIMIT) -> list[str]:
    """`markdown` in parts of at most `limit` characters, cut at the widest bound that fits.

    Paragraphs first, then lines, sentences, words, and only then mid-word. A
    code fence open at a cut is closed at the end of the part and reopened at
    the start of the next. Empty text gives no parts.
    """
    text = markdown.strip()
    if not text:
        return []
    limit = max(limit, 20)
    parts: list[str] = []
    reopen = False
    while text:
        if reopen:
            text = _FENCE + "\n" + text
        if len(text) <= limit:
            parts.append(text)
            break
        cut = _cut_at(text, limit - len(_FENCE) - 1)
        head, text = text[:cut].rstrip(), text[cut:].lstrip("\n ")
        reopen = head.count(_FENCE) % 2 == 1
        if reopen:
            head += "\n" + _FENCE
        parts.append(head)
    return [part for part in parts if part.strip()]


def _cut_at(text: str, limit: int) -> int:
    """Where to cut `text` so the head is at most `limit` characters (and not empty)."""
    window = text[: limit + 1]
    for bound in ("\n\n", "\n"):
        at = window.rfind(bound)
        if at > limit // 4:
            return at + len(bound)
    sentences = [m.end() for m in _SENTENCE_END.finditer(window) if m.end() <= limit]
    if sentences and sentences[-1] > limit // 4:
        return sentences[-1]
    at = window.rfind(" ")
    if at > limit // 4:
        return at + 1
    return limit


def to_parts(markdown: str, limit: int = PART_LIMIT) -> list[str]:
    """The mrkdwn parts to post for `markdown`, each under Slack's 4,000-character advice."""
    parts: list[str] = []
    for chunk in split_markdown(markdown, limit):
        rendered = to_mrkdwn(chunk)
        if len(rendered) > _HARD_LIMIT and limit > 200:
            parts.extend(to_parts(chunk, limit // 2))  # escaping grew it: cut finer
        else:
            parts.append(rendered)
    return parts


def from_slack(text: str, *, bot_user_id: str | None = None) -> str:
    """What a person wrote, as plain text: the bot's own mention dropped, Slack's markup unwrapped.

    ``<https://x|label>`` becomes ``label (https://x)``, ``<#C1|general>``
    ``#general``, ``<@U1>`` ``@U1``, ``<!here>`` ``@here``; entities are
    decoded last, so ``&lt;`` a person typed stays a ``<``.
    """
    if bot_user_id:
        text = re.sub(rf"<@{re.escape(bot_user_id)}(?:\|[^>]*)?>\s*", "", text)

    def unwrap(match: re.Match[str]) -> str:
        target, label = match.group(1), match.group(2)
        if target.startswith("#"):
            return "#" + (label or target[1:])
        if target.startswith("@"):
            return "@" + (label or target[1:])
        if target.startswith("!"):
            name = target[1:].split("^", 1)[0]
            return "@" + (label or name)
        if target.startswith("mailto:"):
            return label or target[len("mailto:") :]
        if label and label != target:
            return f"{label} ({target})"
        return target

    text = _SLACK_LINK.sub(unwrap, text)
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&").strip()
