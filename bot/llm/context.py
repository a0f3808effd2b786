"""The model's context window in tokens: set, asked of the server, or a known model's limit.

`discover` is called once when the gateway starts:

1. ``CLOCKBOT_LLM_CONTEXT_TOKENS`` when set;
2. an OpenAI-compatible server that can tell: llama.cpp's ``GET /props``
   (``default_generation_settings.n_ctx``, the size the server was started with) or
   Ollama's ``POST /api/show`` (the model's ``*.context_length``);
3. the documented window of a known hosted model (`KNOWN_WINDOWS`, by name prefix);
4. None: the agent compacts by size alone (`bot.agent.COMPACT_AFTER_CHARS`).

Asking never fails the start: a server that does not answer, or answers something
else, counts as one that cannot tell.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

import httpx

if TYPE_CHECKING:
    from bot.config.settings import LLMSettings

__all__ = ["KNOWN_WINDOWS", "discover", "known_window"]

log = logging.getLogger(__name__)

KNOWN_WINDOWS: tuple[tuple[str, int], ...] = (
    ("gpt-4.1", 1_047_576),
    ("gpt-4o", 128_000),
    ("gpt-4-turbo", 128_000),
    ("gpt-3.5-turbo", 16_385),
    ("o1", 200_000),
    ("o3", 200_000),
    ("o4-mini", 200_000),
    ("claude-", 200_000),
)
"""Context windows the providers document, by model-name prefix (longest prefix first)."""
_ASK_TIMEOUT = 3.0


def known_window(model: str) -> int | None:
    """The documented window of a hosted model, by name prefix; None when unknown."""
    name = model.lower().rsplit("/", 1)[-1]
    for prefix, window in KNOWN_WINDOWS:
        if name.startswith(prefix):
            return window
    return None


async def discover(settings: LLMSettings, *, wait: float = _ASK_TIMEOUT) -> tuple[int, str] | None:
    """(tokens, where it came from) for the configured model, or None when nothing tells."""
    if settings.context_tokens is not None:
        return settings.context_tokens, "CLOCKBOT_LLM_CONTEXT_TOKENS"
    if not settings.enabled or settings.model is None:
        return None
    if settings.provider == "openai" and settings.base_url is not None:
        asked = await _ask_server(str(settings.base_url), settings.model, wait)
        if asked is not None:
            return asked
    window = known_window(settings.model)
    return (window, f"the documented window of {settings.model}") if window else None


def _root(base_url: str) -> str:
    """The server's root: the base URL without a trailing ``/v1``."""
    parts = urlsplit(base_url)
    path = parts.path.rstrip("/")
    path = path.removesuffix("/v1")
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


async def _ask_server(base_url: str, model: str, wait: float) -> tuple[int, str] | None:
    root = _root(base_url)
    try:
        async with httpx.AsyncClient(timeout=wait, follow_redirects=False) as client:
            props = await _json(client, "GET", f"{root}/props")
            n_ctx = _int_at(props, "default_generation_settings", "n_ctx") or _int_at(
                props, "n_ctx"
            )
            if n_ctx:
                return n_ctx, "llama.cpp /props"
            shown = await _json(client, "POST", f"{root}/api/show", {"model": model})
            info = shown.get("model_info") if isinstance(shown, dict) else None
            if isinstance(info, dict):
                for key, value in info.items():
                    if key.endswith(".context_length") and isinstance(value, int) and value > 0:
                        return value, "Ollama /api/show"
    except (httpx.HTTPError, ValueError) as exc:
        log.debug("the model server did not say its context size: %s", type(exc).__name__)
    return None


async def _json(client: httpx.AsyncClient, method: str, url: str, body: Any = None) -> Any:
    response = await client.request(method, url, json=body)
    if response.status_code != 200:
        return None
    return response.json()


def _int_at(data: Any, *path: str) -> int | None:
    for key in path:
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data if isinstance(data, int) and not isinstance(data, bool) and data > 0 else None
