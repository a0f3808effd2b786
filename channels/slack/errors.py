"""Slack's refusals as `ChannelError`: which are permanent, and how long a 429 asks to wait."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from slack_sdk.errors import SlackApiError

from channels.base import ChannelError

__all__ = ["PERMANENT", "channel_error", "why"]

# Errors after which sending the same message again cannot succeed.
PERMANENT = frozenset(
    {
        "account_inactive",
        "channel_not_found",
        "invalid_auth",
        "is_archived",
        "msg_too_long",
        "no_text",
        "not_authed",
        "not_in_channel",
        "restricted_action",
        "token_revoked",
        "user_not_found",
    }
)


def channel_error(method: str, exc: SlackApiError) -> ChannelError:
    """Slack's refusal as `ChannelError`: 429 with its Retry-After, permanent errors marked."""
    response = exc.response
    status = getattr(response, "status_code", None)
    code = _error_code(exc) or f"HTTP {status}"
    if status == 429 or code == "ratelimited":
        retry_after = _retry_after(getattr(response, "headers", None))
        return ChannelError(f"slack: {method} rate limited", retry_after=retry_after)
    return ChannelError(f"slack: {method} failed: {code}", permanent=code in PERMANENT)


def _retry_after(headers: Any) -> float:
    """Slack's ``Retry-After`` in seconds (1 when absent or unreadable)."""
    if isinstance(headers, Mapping):
        for key, value in headers.items():
            if str(key).lower() == "retry-after":
                raw = value[0] if isinstance(value, list | tuple) and value else value
                try:
                    return max(float(raw), 0.0)
                except (TypeError, ValueError):
                    break
    return 1.0


def why(exc: BaseException) -> str:
    """A short cause for logs and errors: Slack's error code or the exception's type."""
    return (_error_code(exc) if isinstance(exc, SlackApiError) else None) or type(exc).__name__


def _error_code(exc: SlackApiError) -> str | None:
    """Slack's ``error`` field, when the answer was Slack's JSON at all."""
    data = getattr(exc.response, "data", None)
    code = data.get("error") if isinstance(data, Mapping) else None
    return code if isinstance(code, str) and code else None
