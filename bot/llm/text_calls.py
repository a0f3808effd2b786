"""Tool calls a model wrote into its message text: run only when the whole reply is the call.

Small local models served without a tool-call parser (or with one that misses
their format) write their calls as text (docs/eval.md): a JSON object
``{"name": …, "arguments": {…}}`` (``"parameters"`` for ``"arguments"``, a list
of such objects, doubled braces as a chat template escapes them), alone, in a
```` ``` ```` fence, or in ``<tool_call>``/``<tools>``/``<function_call>`` tags.

**Only a reply that is nothing but calls is read as calls** (`read_calls`):
blocks of those shapes with only whitespace (and stray empty tags such as
``<tools/>``) between them. A call written inside prose ("I could cancel it:
{…} – shall I?") is the model *showing* a call, not making it: it never runs
(docs/SECURITY.md, the review of December 2026, row 6), and it is cut from the
text so the person does not read it either (`TextCalls.not_run`). Where the
provider is not set to read text calls (`llm.text_calls`, off for hosted APIs
that return structured calls), a whole-reply call is not run either, only cut.

A call to a name we do not have runs nothing, and the message must not be shown
(`TextCalls.unknown`). Text that merely mentions JSON is left alone: an object
counts only when it has a string ``name`` and nothing but ``name`` and
``arguments``/``parameters``.

Every step is linear in the text, which is read only up to `MAX_CHARS`:
``str.find`` forward from where the last block ended, one pass over the braces,
and each candidate object decoded once (a scan that tried every closing brace
took 466 s on 8 KB of doubled braces, on the event loop).
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from bot.llm.types import Message, ToolCall

__all__ = ["MAX_CHARS", "TextCalls", "read_calls", "with_text_calls"]

MAX_CHARS = 16_000
"""A longer message is prose, not a call, and is not scanned."""

_TAGS = ("tool_call", "tools", "function_call")
_FENCE_INFO = re.compile(r"(?:json|tool_call|tool_code)?[ \t]*\n?")
_STRAY_TAG = re.compile(r"</?(?:tool_call|tools|function_call)[ \t]*/?>")
_EMPTY_TAG = re.compile(r"<(?:tool_call|tools|function_call)[ \t]*/>")
_EMPTY_BLOCK = re.compile(r"```[a-z_]*\s*```|<(tool_call|tools|function_call)>\s*</\1>")


@dataclass(frozen=True, slots=True)
class TextCalls:
    """What `read_calls` found in one message's text.

    Attributes:
        calls: the calls to our tools, in the order written, to run.
        text: the text without any call in it, stripped.
        unknown: names of calls to tools we do not have; the text must not be sent.
        not_run: names of calls shown in prose (or written where text calls are off):
            cut from `text`, never run.
    """

    calls: tuple[ToolCall, ...]
    text: str
    unknown: tuple[str, ...]
    not_run: tuple[str, ...] = ()


def read_calls(content: str, known: Collection[str], *, run: bool = True) -> TextCalls:
    """The tool calls written in `content` (see the module docstring).

    `run`: whether a reply that is wholly calls is read as calls to make; False cuts them
    like calls in prose.
    """
    if "name" not in content or len(content) > MAX_CHARS:
        return TextCalls((), content.strip(), ())
    whole = _whole(content)
    if whole:
        if not run:
            return TextCalls((), "", (), tuple(obj["name"] for obj in whole))
        calls, unknown = [], []
        for number, obj in enumerate(whole, start=1):
            name = obj["name"]
            if name in known:
                arguments = obj.get("arguments", obj.get("parameters", {}))
                text = arguments if isinstance(arguments, str) else json.dumps(arguments)
                calls.append(ToolCall(f"text-call-{number}", name, text))
            else:
                unknown.append(name)
        return TextCalls(tuple(calls), "", tuple(unknown))
    shown = _shown(content)
    if not shown:
        return TextCalls((), content.strip(), ())
    pieces, at = [], 0
    for start, end, _ in shown:
        pieces.append(content[at:start])
        at = end
    pieces.append(content[at:])
    rest = _EMPTY_BLOCK.sub(" ", _STRAY_TAG.sub(" ", " ".join(pieces)))
    names = tuple(obj["name"] for _, _, obj in shown)
    return TextCalls((), " ".join(rest.split()), (), names)


def with_text_calls(
    message: Message, known: Collection[str], *, run: bool = True
) -> tuple[Message, tuple[str, ...]]:
    """`message` with a whole-reply call made real, calls shown in prose cut from its text;
    and the names of calls taken out that did not run (to tools we do not have, or shown).

    A message that already carries tool calls, or has none written, is returned as it is.
    """
    if message.tool_calls or not message.content:
        return message, ()
    found = read_calls(message.content, known, run=run)
    if not found.calls and not found.unknown and not found.not_run:
        return message, ()
    return (
        Message("assistant", found.text, tool_calls=found.calls),
        (*found.unknown, *found.not_run),
    )


def _whole(text: str) -> list[dict[str, Any]]:
    """The call objects of a reply that is nothing but calls, else [].

    The reply is one bare object (or list), or a sequence of fenced or tagged blocks
    each holding calls, with whitespace between; one forward pass.
    """
    text = _EMPTY_TAG.sub(" ", text).strip()
    bare = _objects(text)
    if bare:
        return bare
    found: list[dict[str, Any]] = []
    at, size = 0, len(text)
    while at < size:
        if text[at].isspace():
            at += 1
            continue
        inner, at = _block(text, at)
        objects = _objects(inner) if inner is not None else []
        if not objects:
            return []
        found.extend(objects)
    return found


def _block(text: str, at: int) -> tuple[str | None, int]:
    """The inside of the fenced or tagged block that begins at `at`, and where it ends;
    (None, at) when no whole block begins there."""
    for tag in _TAGS:
        opening = f"<{tag}>"
        if text.startswith(opening, at):
            close = text.find(f"</{tag}>", at)
            if close == -1:
                return None, at
            return text[at + len(opening) : close], close + len(tag) + 3
    if text.startswith("```", at):
        close = text.find("```", at + 3)
        if close == -1:
            return None, at
        info = _FENCE_INFO.match(text, at + 3)
        begin = info.end() if info else at + 3
        return text[begin:close], close + 3
    return None, at


def _shown(text: str) -> list[tuple[int, int, dict[str, Any]]]:
    """Call objects inside prose: (start, end, object) for each, in order.

    One pass over the text finds the outermost balanced ``{…}`` spans (braces inside
    JSON strings do not count); each is decoded once. Then each of the first
    `_MOST_STARTS` places where an object opens with ``"name"`` and lies in no span found
    is decoded from there (a stray ``{`` earlier in the prose leaves the braces unbalanced).
    """
    spans: list[tuple[int, int, dict[str, Any]]] = []
    depth, start, in_string, escaped = 0, 0, False, False
    for index, char in enumerate(text):
        if depth == 0:
            if char == "{":
                depth, start, in_string = 1, index, False
            continue
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                objects = _objects(text[start : index + 1])
                if len(objects) == 1:
                    spans.append((start, index + 1, objects[0]))
    for start in _name_starts(text):
        if any(begin <= start < end for begin, end, _ in spans):
            continue
        try:
            value, end = _DECODER.raw_decode(text, start)
        except (json.JSONDecodeError, RecursionError):
            continue
        if _is_call(value):
            spans.append((start, end, value))
    return sorted(spans, key=lambda span: span[0])


_MOST_STARTS = 8
_NAME_START = re.compile(r'\{\s*"name"\s*:')
_DECODER = json.JSONDecoder()


def _name_starts(text: str) -> list[int]:
    """Where objects that open with ``"name"`` begin, the first `_MOST_STARTS`."""
    starts = []
    for match in _NAME_START.finditer(text):
        starts.append(match.start())
        if len(starts) == _MOST_STARTS:
            break
    return starts


def _objects(text: str) -> list[dict[str, Any]]:
    """The call objects `text` holds whole (one, or a list), else []."""
    text = text.strip()
    if not text.startswith(("{", "[")):
        return []
    for candidate in (text, _undoubled(text)):
        try:
            value = json.loads(candidate)
        except (json.JSONDecodeError, RecursionError):
            continue
        items = value if isinstance(value, list) else [value]
        if items and all(_is_call(item) for item in items):
            return items
    return []


def _undoubled(text: str) -> str:
    """``{{"name": …}}`` as ``{"name": …}``: a template's escaped braces undone."""
    if text.startswith("{{") and text.endswith("}}"):
        return text.replace("{{", "{").replace("}}", "}")
    return text


def _is_call(item: object) -> bool:
    if not isinstance(item, dict) or not isinstance(item.get("name"), str):
        return False
    extra = set(item) - {"name", "arguments", "parameters"}
    arguments = item.get("arguments", item.get("parameters", {}))
    return not extra and isinstance(arguments, dict | str)
