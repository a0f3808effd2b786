"""An Anthropic Messages API provider over the `anthropic` SDK (non-streaming), prompt-cached.

Prompt caching: Anthropic caches the prefix `tools → system → messages` up to each block that
carries `cache_control` (at most four per request). The agent keeps that prefix stable (a
byte-identical system prompt, tools built once, append-only messages), and this provider puts
the breakpoints where they pay:

1. the last tool: caches the tool definitions alone;
2. the system block: caches tools + system prompt, shared by every conversation;
3. the last block of the second-to-last user turn: exactly where the previous request ended,
   so this request reads the cache the previous one wrote, however many blocks were appended
   since (the API only looks back about 20 blocks from a breakpoint);
4. the last block of the final message: writes the whole conversation so far for the next turn.

The markers move from turn to turn; that is fine, because the cache matches content, not
markers. So the messages of two consecutive requests are a prefix of each other once the
`cache_control` keys are ignored.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Literal, cast

import anthropic
from anthropic.types import (
    CacheControlEphemeralParam,
    ContentBlockParam,
    MessageParam,
    TextBlock,
    TextBlockParam,
    ToolParam,
    ToolUseBlock,
)
from anthropic.types import (
    Message as AnthropicMessage,
)

from bot.llm.errors import (
    LLMRequestError,
    sdk_errors,
)
from bot.llm.types import Completion, Message, Sampling, ToolCall, ToolSpec, same_specs

__all__ = ["PLACEHOLDER_API_KEY", "AnthropicProvider"]

# Sent when no key is configured (an Anthropic-compatible local server); it also stops the SDK
# from reading keys or profiles from the environment: clockbot's own settings decide.
PLACEHOLDER_API_KEY = "no-key"


def _ephemeral() -> CacheControlEphemeralParam:
    """A fresh `cache_control` marker: a breakpoint with the default (5 minute) lifetime."""
    return {"type": "ephemeral"}


class AnthropicProvider:
    """The Messages API through `anthropic.AsyncAnthropic`, with `cache_control` breakpoints.

    Args:
        base_url: The API root without `/v1` (e.g. `http://127.0.0.1:8000`); None means the
            SDK's default (`ANTHROPIC_BASE_URL`, else api.anthropic.com).
        model: The model name sent with each request.
        api_key: The API key; None sends `PLACEHOLDER_API_KEY`.
        timeout: Seconds per HTTP attempt (the SDK's `timeout`).
        max_retries: The SDK's retries for connection errors, 408, 409, 429 and 5xx.
        max_tokens: The reply's token limit (the API requires one).
        sampling: The temperature and top_p sent with every request; a None one is not
            sent. Anthropic's own API refuses them on its current models, so clockbot sends
            them there only when set (docs/configuration.md, "Sampling").
    """

    name = "anthropic"

    def __init__(
        self,
        *,
        base_url: str | None,
        model: str,
        api_key: str | None,
        timeout: float = 60,
        max_retries: int = 2,
        max_tokens: int = 1024,
        sampling: Sampling | None = None,
    ) -> None:
        self.model = model
        self.max_tokens = max_tokens
        self.sampling = sampling or Sampling()
        # The SDK no longer names these fields: they go as extra body fields, where set.
        given = {"temperature": self.sampling.temperature, "top_p": self.sampling.top_p}
        self._sampling = {name: value for name, value in given.items() if value is not None}
        self._secret = api_key
        self._timeout = timeout
        self._client = anthropic.AsyncAnthropic(
            api_key=api_key or PLACEHOLDER_API_KEY,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
        )
        self._tools_for: tuple[ToolSpec, ...] | None = None
        self._tools: list[ToolParam] = []

    async def complete(self, messages: Sequence[Message], tools: Sequence[ToolSpec]) -> Completion:
        """Send the conversation and return the model's reply.

        Raises:
            LLMUnavailable: Unreachable or timed out (`LLMRateLimited` on 429).
            LLMServerError: A 5xx answer (529 overloaded included) or an unreadable one.
            LLMRequestError: The request was rejected, or the messages cannot be expressed
                (a system message anywhere but first).
            LLMError: Any other SDK failure.
        """
        system, payload = _convert(messages)
        tool_params = self._tool_params(tools)
        with sdk_errors(
            "anthropic",
            anthropic,
            base=anthropic.AnthropicError,
            secret=self._secret,
            timeout=self._timeout,
        ):
            response = await self._client.messages.create(
                model=self.model,
                max_tokens=self.max_tokens,
                messages=payload,
                **_optional(system=system, tools=tool_params),
                extra_body=self._sampling or None,
            )
        return _completion(response)

    async def aclose(self) -> None:
        """Close the SDK's HTTP client."""
        await self._client.close()

    def _tool_params(self, tools: Sequence[ToolSpec]) -> list[ToolParam]:
        """The tools as SDK params, rebuilt only when the specs change; the last is a breakpoint."""
        if not same_specs(tools, self._tools_for):
            built: list[ToolParam] = [
                {"name": spec.name, "description": spec.description, "input_schema": spec.schema()}
                for spec in tools
            ]
            if built:
                built[-1]["cache_control"] = _ephemeral()
            self._tools = built
            self._tools_for = tuple(tools)
        return self._tools


def _optional(**params: Any) -> dict[str, Any]:
    """The keyword arguments whose values are non-empty (the API rejects empty system/tools)."""
    return {key: value for key, value in params.items() if value}


def _convert(messages: Sequence[Message]) -> tuple[list[TextBlockParam], list[MessageParam]]:
    """Split off the system prompt and turn the rest into Anthropic turns with breakpoints.

    Consecutive messages that become the same role are merged into one turn (tool results
    become `tool_result` blocks in a user turn, as the API requires). Messages without any
    content (an empty model reply, say) are left out, the same way every time.
    """
    system: list[TextBlockParam] = []
    rest = messages
    if messages and messages[0].role == "system":
        rest = messages[1:]
        if messages[0].content:
            system = [{"type": "text", "text": messages[0].content, "cache_control": _ephemeral()}]
    turns: list[tuple[Literal["user", "assistant"], list[ContentBlockParam]]] = []
    for message in rest:
        role: Literal["user", "assistant"]
        role, blocks = _blocks(message)
        if not blocks:
            continue  # the API rejects empty text; an empty reply must not poison the history
        if turns and turns[-1][0] == role:
            turns[-1][1].extend(blocks)
        else:
            turns.append((role, blocks))
    user_turns = [index for index, (role, _) in enumerate(turns) if role == "user"]
    breakpoints = {len(turns) - 1} if turns else set()
    if len(user_turns) >= 2:
        breakpoints.add(user_turns[-2])
    for index in breakpoints:
        # The blocks were built for this request only, so marking them in place is safe.
        last = cast(dict[str, object], turns[index][1][-1])
        last["cache_control"] = _ephemeral()
    payload: list[MessageParam] = []
    for role, blocks in turns:
        if role == "user":
            payload.append({"role": "user", "content": blocks})
        else:
            payload.append({"role": "assistant", "content": blocks})
    return system, payload


def _blocks(message: Message) -> tuple[Literal["user", "assistant"], list[ContentBlockParam]]:
    """One neutral message as the role of its Anthropic turn and its content blocks."""
    blocks: list[ContentBlockParam] = []
    match message.role:
        case "system":
            raise LLMRequestError("anthropic: a system message is only allowed first")
        case "user":
            if message.content:
                blocks.append({"type": "text", "text": message.content})
            return "user", blocks
        case "tool":
            if message.tool_call_id is None:
                raise LLMRequestError("anthropic: a tool message needs its tool_call_id")
            blocks.append(
                {
                    "type": "tool_result",
                    "tool_use_id": message.tool_call_id,
                    "content": message.content,
                }
            )
            return "user", blocks
        case "assistant":
            if message.content:
                blocks.append({"type": "text", "text": message.content})
            for call in message.tool_calls:
                blocks.append(
                    {"type": "tool_use", "id": call.id, "name": call.name, "input": _input(call)}
                )
            return "assistant", blocks


def _input(call: ToolCall) -> dict[str, object]:
    """The call's arguments as a JSON object; `{}` when they are not one (sent as produced)."""
    try:
        parsed = json.loads(call.arguments) if call.arguments.strip() else {}
    except ValueError:
        return {}
    return parsed if isinstance(parsed, dict) else {}


def _completion(response: AnthropicMessage) -> Completion:
    """The neutral completion for an SDK response."""
    texts: list[str] = []
    calls: list[ToolCall] = []
    for block in response.content:
        if isinstance(block, TextBlock):
            texts.append(block.text)
        elif isinstance(block, ToolUseBlock):
            arguments = json.dumps(block.input, ensure_ascii=False)
            calls.append(ToolCall(id=block.id, name=block.name, arguments=arguments))
    usage = response.usage
    read = usage.cache_read_input_tokens
    written = usage.cache_creation_input_tokens
    return Completion(
        message=Message(role="assistant", content="".join(texts), tool_calls=tuple(calls)),
        prompt_tokens=usage.input_tokens + (read or 0) + (written or 0),
        cached_tokens=read,
        cache_write_tokens=written,
        completion_tokens=usage.output_tokens,
        stop_reason=response.stop_reason,
    )
