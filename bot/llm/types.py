"""Provider-neutral chat types: what the agent sends to an LLM and what comes back.

Every type is a frozen, slotted dataclass, so a message once built never changes; the agent keeps
its history append-only and the providers serialise the same values to the same request bytes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

__all__ = [
    "Completion",
    "Message",
    "Provider",
    "Role",
    "Sampling",
    "ToolCall",
    "ToolSpec",
    "same_specs",
]

Role = Literal["system", "user", "assistant", "tool"]


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One tool call made by the model.

    Attributes:
        id: The provider's id for the call; a tool result answers it by this id.
        name: The tool's name.
        arguments: The arguments as JSON text, exactly as the model produced it (it may be
            invalid JSON; the tool layer decides what to do then).
    """

    id: str
    name: str
    arguments: str


@dataclass(frozen=True, slots=True)
class Message:
    """One chat message.

    Attributes:
        role: `system` (only first), `user`, `assistant` or `tool` (a tool's result).
        content: The text; may be empty for an assistant message that only calls tools.
        tool_calls: The assistant's tool calls, in the model's order.
        tool_call_id: For a `tool` message, the id of the call it answers.
        name: An optional participant name (OpenAI only; other providers ignore it).
    """

    role: Role
    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None
    name: str | None = None


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A tool the model may call.

    Attributes:
        name: Unique tool name.
        description: What the tool does, for the model.
        parameters: A JSON Schema object for the arguments. Providers never mutate it.
    """

    name: str
    description: str
    parameters: Mapping[str, Any]

    def schema(self) -> dict[str, Any]:
        """A fresh deep copy of `parameters` as plain dicts and lists, in the same key order."""
        copied = _plain(self.parameters)
        assert isinstance(copied, dict)
        return copied


@dataclass(frozen=True, slots=True)
class Completion:
    """The model's reply to one request.

    Attributes:
        message: The reply, always with role `assistant`.
        prompt_tokens: Input tokens billed, cached ones included, when reported.
        cached_tokens: Input tokens read from the provider's prompt cache, when reported.
        completion_tokens: Output tokens, when reported.
        stop_reason: The provider's own stop reason (`stop`, `tool_calls`, `end_turn`, ...).
        cache_write_tokens: Input tokens written to the prompt cache (Anthropic's
            ``cache_creation_input_tokens``, billed above the base rate), when reported.
    """

    message: Message
    prompt_tokens: int | None
    cached_tokens: int | None
    completion_tokens: int | None
    stop_reason: str | None
    cache_write_tokens: int | None = None


@dataclass(frozen=True, slots=True)
class Sampling:
    """The sampling sent with every request; None leaves that one to the server.

    Attributes:
        temperature: the sampling temperature, or None to send none.
        top_p: nucleus sampling's probability mass, or None to send none.
    """

    temperature: float | None = None
    top_p: float | None = None

    def __str__(self) -> str:
        """As a report says it: "temperature 0.2, top_p server default"."""
        return ", ".join(
            f"{name} {'server default' if value is None else f'{value:g}'}"
            for name, value in (("temperature", self.temperature), ("top_p", self.top_p))
        )


def same_specs(tools: Sequence[ToolSpec], cached: Sequence[ToolSpec] | None) -> bool:
    """True when `tools` holds the very same ToolSpec objects as `cached`, in the same order."""
    if cached is None or len(tools) != len(cached):
        return False
    return all(new is old for new, old in zip(tools, cached, strict=True))


def _plain(value: Any) -> Any:
    """Deep-copy JSON-like data: any mapping becomes a dict, any list or tuple a list."""
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value


class Provider(Protocol):
    """An LLM behind one SDK; see `OpenAIProvider` and `AnthropicProvider`."""

    name: str

    async def complete(self, messages: Sequence[Message], tools: Sequence[ToolSpec]) -> Completion:
        """Send one non-streaming request and return the model's reply.

        Args:
            messages: The conversation, system message first, append-only across turns.
            tools: The tools on offer; the same sequence object every turn.

        Raises:
            LLMError: Any failure, as one of the subclasses in `bot.llm.errors`.
        """
        ...

    async def aclose(self) -> None:
        """Close the underlying HTTP client."""
        ...
