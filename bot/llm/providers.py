"""The model provider the configuration asks for."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.llm.rules_agent import RulesProvider

if TYPE_CHECKING:
    from bot.config.settings import LLMSettings
    from bot.llm import Provider

__all__ = ["make_provider"]


def make_provider(settings: LLMSettings) -> Provider:
    """OpenAI-compatible, Anthropic, or the built-in rules agent when none is configured."""
    key = settings.api_key.get_secret_value() if settings.api_key else None
    if settings.provider == "openai":
        from bot.llm.openai_provider import OpenAIProvider  # its SDK loads only now

        assert settings.model is not None  # validated by the settings
        return OpenAIProvider(
            base_url=settings.base_url, model=settings.model, api_key=key,
            timeout=settings.timeout_seconds, sampling=settings.sampling,
            constrained=settings.mode == "constrained",
        )  # fmt: skip
    if settings.provider == "anthropic":
        from bot.llm.anthropic_provider import AnthropicProvider

        assert settings.model is not None
        return AnthropicProvider(
            base_url=settings.base_url, model=settings.model, api_key=key,
            timeout=settings.timeout_seconds, sampling=settings.sampling,
        )  # fmt: skip
    return RulesProvider()
