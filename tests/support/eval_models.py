"""The eval's fake models: a scenario's ``oracle`` or ``clumsy`` script played over OpenAI's API.

`ScriptedModel` is a `tests.support.fake_llm.FakeLLMServer` responder. It reads
each request to know what it answers, so no state of the runner is shared:

- a summary request (the compaction's prompt) gets a short summary;
- a proactive turn ("… is due now: …") gets the next entry of the advance
  steps' scripts, in order (none left: the job's text, sent as written);
- a conversation turn is found by the person's line (the newest user
  message, runtime block or not), and the round by how many answers follow
  it in the request: entry `round` of that step's script (none left: "OK.");
- asked about a change its reply claimed (`bot.agent.claims`), it says the same again.

In a script, ``{{id:words}}`` stands for the id of the item whose text has
`words`, read from the request (tool results, or the runtime block's
``(id N)``), as a model reads it: ids the store hands out are not known in
advance.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

from bot.agent import SUMMARY_PROMPT
from bot.evaluation.scenario import Scenario, ScriptEntry
from clockcore import RUNTIME_BLOCK_END
from tests.support.fake_llm import ModelCall, Reply, ScriptedToolCall

__all__ = ["ScriptedModel"]

_PLACEHOLDER = re.compile(r"\{\{id:([^}]+)\}\}")


class ScriptedModel:
    """Answers as the scenarios' `which` script ("oracle" or "clumsy") says.

    Several scenarios may share one model when no line of theirs is the same
    with another script; their proactive entries are used in the order given.
    """

    def __init__(self, *scenarios: Scenario, which: str = "oracle") -> None:
        self._lines: dict[str, tuple[ScriptEntry, ...]] = {}
        self._proactive: list[ScriptEntry] = []
        for scenario in scenarios:
            for step in scenario.steps:
                script = step.oracle if which == "oracle" or step.clumsy is None else step.clumsy
                if step.say is None:
                    self._proactive.extend(script)
                elif self._lines.setdefault(step.say.strip(), script) != script:
                    raise ValueError(f"two scripts for one line: {step.say!r}")
        self.unmatched: list[str] = []
        self._previous = ""

    def plan(self, body: Any, now: float) -> tuple[Reply, ModelCall | None]:
        reply = self._answer(body)
        # Usage as a server would count it (four characters a token, as the fake's window
        # does), so the agent's budget follows it the way it follows a real model's; cached,
        # what a server with one prefix cache (llama.cpp's one slot) reuses from the request
        # before: the tools (rendered first, as Qwen's template does), then the messages up
        # to the first character that changed.
        prompt = json.dumps([body.get("tools"), body.get("messages")])
        same = _common_prefix(self._previous, prompt)
        self._previous = prompt
        usage = {"prompt_tokens": len(prompt) // 4, "cached_tokens": same // 4}
        return dataclasses.replace(reply, **usage), None

    def _answer(self, body: Any) -> Reply:
        messages = body.get("messages", []) if isinstance(body, dict) else []
        if messages and SUMMARY_PROMPT in _text(messages[-1]):
            return Reply.text("The person and clockbot talked about their plans.")
        last_user = max(
            (i for i, m in enumerate(messages) if m.get("role") == "user"), default=None
        )
        if last_user is None:
            return Reply.text("OK.")
        content = _text(messages[last_user])
        if "is due now: " in content:
            if not self._proactive:
                return Reply.text(content.split("is due now: ", 1)[1].split("\n")[0])
            return self._reply(self._proactive.pop(0), messages)
        line = content.split(RUNTIME_BLOCK_END, 1)[-1].strip()
        if line.startswith(("(clockbot: your reply says", "(clockbot: your reply was not sent")):
            # Asked about a change it claimed, or told its reply left the change asked for
            # undone (bot.agent.claims): a model that made the mistake once says it again.
            said = [m for m in messages[:last_user] if m.get("role") == "assistant"]
            return Reply.text(_text(said[-1]) if said else "OK.")
        script = self._lines.get(line)
        if script is None:
            self.unmatched.append(line)
            return Reply.text("OK.")
        round_ = sum(1 for m in messages[last_user + 1 :] if m.get("role") == "assistant")
        if round_ >= len(script):
            return Reply.text("OK.")
        return self._reply(script[round_], messages)

    def _reply(self, entry: ScriptEntry, messages: list[dict[str, Any]]) -> Reply:
        if entry.reply is not None:
            return Reply.text(_filled(entry.reply, messages))
        calls = [
            ScriptedToolCall(call.name, json.dumps(_filled_args(call.args, messages)))
            for call in entry.tool_calls
        ]
        return Reply.calls(*calls)


def _text(message: dict[str, Any]) -> str:
    content = message.get("content") or ""
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return str(content)


def _filled_args(args: dict[str, Any], messages: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in args.items():
        if isinstance(value, str):
            whole = _PLACEHOLDER.fullmatch(value)
            filled = _filled(value, messages)
            out[key] = int(filled) if whole and filled.isdigit() and key == "id" else filled
        else:
            out[key] = value
    return out


def _filled(text: str, messages: list[dict[str, Any]]) -> str:
    return _PLACEHOLDER.sub(lambda m: _find_id(m.group(1), messages), text)


def _find_id(words: str, messages: list[dict[str, Any]]) -> str:
    """The id of the newest item with `words` in its text: tool results, then runtime blocks."""
    needle = words.casefold()
    for message in reversed(messages):
        if message.get("role") == "tool":
            try:
                data = json.loads(_text(message))
            except json.JSONDecodeError:
                continue
            found = _in_json(data, needle)
            if found is not None:
                return found
        if message.get("role") == "user":
            for line in _text(message).splitlines():
                hit = re.search(r"id ([\w-]+)\)\s*$", line)
                if hit and needle in line.casefold():
                    return hit.group(1)
    return "unknown"


def _in_json(data: Any, needle: str) -> str | None:
    if isinstance(data, dict):
        said = " ".join(str(data.get(k, "")) for k in ("text", "content", "label"))
        if data.get("id") is not None and needle in said.casefold():
            return str(data["id"])
        children = list(data.values())
    elif isinstance(data, list):
        children = list(data)
    else:
        return None
    for child in children:
        found = _in_json(child, needle)
        if found is not None:
            return found
    return None


def _common_prefix(a: str, b: str) -> int:
    """How many leading characters `a` and `b` share."""
    return next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )
