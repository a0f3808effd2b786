"""LLM providers behind one neutral interface: `Provider.complete(messages, tools)`.

`OpenAIProvider` speaks to any OpenAI-compatible chat-completions endpoint, `AnthropicProvider`
to the Anthropic Messages API with prompt caching. Both take the neutral types of
`bot.llm.types`, serialise them deterministically (same inputs, same request bytes) and raise only
the errors of `bot.llm.errors`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.llm.errors import (
    LLMError,
    LLMRateLimited,
    LLMRequestError,
    LLMServerError,
    LLMUnavailable,
)
from bot.llm.types import Completion, Message, Provider, Role, ToolCall, ToolSpec
from clockcore.lazy import lazy_names

if TYPE_CHECKING:
    from bot.llm.anthropic_provider import AnthropicProvider
    from bot.llm.openai_provider import OpenAIProvider

# The providers load their SDK (anthropic ~1.4 s, openai ~0.6 s): only when one is asked for.
_LAZY = {
    "AnthropicProvider": "bot.llm.anthropic_provider",
    "OpenAIProvider": "bot.llm.openai_provider",
}


__getattr__ = lazy_names(__name__, _LAZY, globals())

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
