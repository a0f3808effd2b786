"""Tool calls a model wrote into its message text, read as the tool calls they are.

Small local models served without a tool-call parser (or with one that misses
their format) write their calls as text. Measured on Qwen2.5-Coder-1.5B behind
``llama-server --jinja``: not one of ten everyday requests reached clockbot as a
tool call; each came back as text in one of these shapes, and was sent to the
person as the reply:

- a JSON object ``{"name": …, "arguments": {…}}`` alone, or in a ```` ```json ````
  fence (``"parameters"`` is taken for ``"arguments"``; a list of such objects too);
- the same inside ``<tool_call>…</tool_call>`` (Qwen's and Hermes' tags) or
  ``<tools>…</tools>``;
- the same with doubled braces, ``{{"name": …}}`` (a chat template's escaping);
- such an object inside prose, or after a stray tag (``<tools/> {{"name": …}}``,
  seen in the scenario eval, docs/eval.md).

`read_calls` finds them. A call whose name is one of ours becomes a real
`ToolCall` and runs; the text around the calls stays the message's content. A
call to a name we do not have runs nothing, and the message must not be shown
either (`TextCalls.unknown`): the agent answers with a plain sentence instead.
Text that merely mentions JSON is left alone: an object counts only when it has
a string ``name`` and nothing but ``name`` and ``arguments``/``parameters``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from bot.llm.types import Message, ToolCall

__all__ = ["TextCalls", "read_calls", "with_text_calls"]

_TAGGED = re.compile(r"<(tool_call|tools|function_call)>\s*(.*?)\s*</\1>", re.DOTALL)
_FENCED = re.compile(r"```(?:json|tool_call|tool_code)?\s*\n?(.*?)\n?```", re.DOTALL)
_MAX_CHARS = 20_000  # a longer message is prose, not a call


@dataclass(frozen=True, slots=True)
class TextCalls:
    """What `read_calls` found in one message's text.

    Attributes:
        calls: the calls to our tools, in the order written.
        text: the text without any call in it, stripped.
        unknown: names of calls to tools we do not have; the text must not be sent.
    """

    calls: tuple[ToolCall, ...]
    text: str
    unknown: tuple[str, ...]


def read_calls(content: str, known: Collection[str]) -> TextCalls:
    """The tool calls written in `content` (see the module docstring)."""
    if "name" not in content or len(content) > _MAX_CHARS:
        return TextCalls((), content.strip(), ())
    found: list[dict[str, Any]] = []
    rest = content
    for pattern in (_TAGGED, _FENCED):
        for match in list(pattern.finditer(rest)):
            objects = _objects(match.group(match.lastindex or 1))
            if objects:
                found.extend(objects)
                rest = rest.replace(match.group(0), " ", 1)
    if not found:
        whole = _objects(rest.strip())
        if whole:
            found, rest = whole, ""
    if not found:
        for start, end, obj in reversed(_embedded(rest)):
            found.insert(0, obj)
            rest = rest[:start] + " " + rest[end:]
        if found:
            rest = _STRAY_TAG.sub(" ", rest)
    calls, unknown = [], []
    for number, obj in enumerate(found, start=1):
        name = obj["name"]
        if name in known:
            arguments = obj.get("arguments", obj.get("parameters", {}))
            text = arguments if isinstance(arguments, str) else json.dumps(arguments)
            calls.append(ToolCall(f"text-call-{number}", name, text))
        else:
            unknown.append(name)
    text = " ".join(rest.split()) if found else rest.strip()
    return TextCalls(tuple(calls), text, tuple(unknown))


def with_text_calls(message: Message, known: Collection[str]) -> tuple[Message, tuple[str, ...]]:
    """`message` with the calls written in its text made real and taken out of its text;
    and the names of written calls to tools we do not have (taken out too).

    A message that already carries tool calls, or has none written, is returned as it is.
    """
    if message.tool_calls or not message.content:
        return message, ()
    found = read_calls(message.content, known)
    if not found.calls and not found.unknown:
        return message, ()
    return Message("assistant", found.text, tool_calls=found.calls), found.unknown


def _objects(text: str) -> list[dict[str, Any]]:
    """The call objects `text` holds whole (one, or a list), else []."""
    for candidate in (text, _undoubled(text)):
        try:
            value = json.loads(candidate)
        except (json.JSONDecodeError, RecursionError):
            continue
        items = value if isinstance(value, list) else [value]
        if items and all(_is_call(item) for item in items):
            return items
    return []


_STRAY_TAG = re.compile(r"</?(?:tool_call|tools|function_call)\s*/?>")
_DECODER = json.JSONDecoder()


def _embedded(text: str) -> list[tuple[int, int, dict[str, Any]]]:
    """Call objects inside prose: (start, end, object) for each, in order."""
    spans: list[tuple[int, int, dict[str, Any]]] = []
    start = text.find("{")
    while start != -1:
        end = _call_end(text, start)
        if end is None:
            start = text.find("{", start + 1)
            continue
        (obj,) = _objects(text[start:end])
        spans.append((start, end, obj))
        start = text.find("{", end)
    return spans


def _call_end(text: str, start: int) -> int | None:
    """Where a call object that begins at `start` ends, or None if none begins there."""
    try:
        value, end = _DECODER.raw_decode(text, start)
    except (json.JSONDecodeError, RecursionError):
        value, end = None, start
    if value is not None and _is_call(value):
        return end
    if text.startswith("{{", start):  # doubled braces: try each closing "}}"
        close = text.find("}}", start)
        while close != -1:
            if len(_objects(text[start : close + 2])) == 1:
                return close + 2
            close = text.find("}}", close + 1)
    return None


def _undoubled(text: str) -> str:
    """``{{"name": …}}`` as ``{"name": …}``: a template's escaped braces undone."""
    stripped = text.strip()
    if stripped.startswith("{{") and stripped.endswith("}}"):
        return stripped.replace("{{", "{").replace("}}", "}")
    return stripped


def _is_call(item: object) -> bool:
    if not isinstance(item, dict) or not isinstance(item.get("name"), str):
        return False
    extra = set(item) - {"name", "arguments", "parameters"}
    arguments = item.get("arguments", item.get("parameters", {}))
    return not extra and isinstance(arguments, dict | str)
