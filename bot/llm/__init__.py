"""LLM providers behind one neutral interface: `Provider.complete(messages, tools)`.

`OpenAIProvider` speaks to any OpenAI-compatible chat-completions endpoint, `AnthropicProvider`
to the Anthropic Messages API with prompt caching. Both take the neutral types of
`bot.llm.types`, serialise them deterministically (same inputs, same request bytes) and raise only
the errors of `bot.llm.errors`.
"""

from __future__ import annotations

from bot.llm.anthropic_provider import AnthropicProvider
from bot.llm.errors import (
    LLMError,
    LLMRateLimited,
    LLMRequestError,
    LLMServerError,
    LLMUnavailable,
)
from bot.llm.openai_provider import OpenAIProvider
from bot.llm.types import Completion, Message, Provider, Role, ToolCall, ToolSpec

__all__ = [
    "AnthropicProvider",
    "Completion",
    "LLMError",
    "LLMRateLimited",
    "LLMRequestError",
    "LLMServerError",
    "LLMUnavailable",
    "Message",
    "OpenAIProvider",
    "Provider",
    "Role",
    "ToolCall",
    "ToolSpec",
]
