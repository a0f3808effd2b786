"""Constrained steps (`llm.mode: constrained`): each model step is one JSON schema.

A server that constrains its output to a JSON schema (llama.cpp's server, vLLM,
Ollama: OpenAI's ``response_format: {"type": "json_schema", "json_schema": {"name",
"schema"}}``) cannot write a call a parser misses, nor a call in prose. Each step is
either ``{"reply": "<words to the person>"}`` or ``{"tool": "<one of our tools>",
"arguments": {<that tool's arguments schema>}}``; `step_schema` is that choice,
`tools_note` tells the model the same in its system prompt (a server uses the
schema for its grammar and need not show it to the model), and `read_step` turns
the answer back into a reply or a call. docs/configuration.md, "Constrained".
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from itertools import count
from typing import Any

from bot.llm.types import Message, ToolCall, ToolSpec

__all__ = ["STEP_NAME", "read_step", "response_format", "step_schema", "tools_note"]

STEP_NAME = "clockbot_step"
_ids = count(1)


def step_schema(tools: Sequence[ToolSpec]) -> dict[str, Any]:
    """One step: a reply, or one call to one of `tools` with its arguments' schema."""
    reply = {
        "type": "object",
        "properties": {"reply": {"type": "string"}},
        "required": ["reply"],
        "additionalProperties": False,
    }
    calls = [
        {
            "type": "object",
            "properties": {"tool": {"const": spec.name}, "arguments": spec.schema()},
            "required": ["tool", "arguments"],
            "additionalProperties": False,
        }
        for spec in tools
    ]
    return {"anyOf": [reply, *calls]}


def response_format(tools: Sequence[ToolSpec]) -> dict[str, Any]:
    """The chat-completions ``response_format`` that asks for one step."""
    return {"type": "json_schema", "json_schema": {"name": STEP_NAME, "schema": step_schema(tools)}}


def tools_note(tools: Sequence[ToolSpec]) -> str:
    """The step's form and the tools, for the end of the system prompt."""
    lines = [
        'Answer with exactly one JSON object: {"reply": "<your words to the person>"}, or '
        '{"tool": "<tool name>", "arguments": {…}} to call one tool. The tools:'
    ]
    for spec in tools:
        arguments = json.dumps(spec.schema(), separators=(",", ":"), ensure_ascii=False)
        lines.append(f"- {spec.name}: {spec.description} Arguments: {arguments}")
    return "\n".join(lines)


def read_step(content: str, tools: Sequence[ToolSpec]) -> Message:
    """The assistant message a step's JSON stands for: its reply, or its one call; a text
    that is no such step stays as it is (the agent's checks read it as any reply)."""
    try:
        step = json.loads(content)
    except json.JSONDecodeError:
        return Message("assistant", content)
    if isinstance(step, dict) and isinstance(step.get("reply"), str) and len(step) == 1:
        return Message("assistant", step["reply"])
    names = {spec.name for spec in tools}
    if (
        isinstance(step, dict)
        and step.get("tool") in names
        and isinstance(step.get("arguments"), dict)
    ):
        arguments = json.dumps(step["arguments"], ensure_ascii=False)
        call = ToolCall(f"step-{next(_ids)}", str(step["tool"]), arguments)
        return Message("assistant", "", tool_calls=(call,))
    return Message("assistant", content)
