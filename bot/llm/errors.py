"""The errors every LLM provider raises; foreign SDK errors are wrapped once, `from` the original.

```
Exception
 └── LLMError                               any LLM failure
      ├── LLMUnavailable (+ConnectionError)  refused, DNS, timeout, 408; .retry_after
      │    └── LLMRateLimited                429; .retry_after from Retry-After
      ├── LLMServerError                    5xx or an unreadable answer; .status
      └── LLMRequestError (+ValueError)      4xx other than 408/429: our request is wrong; .status
```

Messages never contain the API key.
"""

from __future__ import annotations

import email.utils
import time
from collections.abc import Mapping

__all__ = [
    "LLMError",
    "LLMRateLimited",
    "LLMRequestError",
    "LLMServerError",
    "LLMUnavailable",
    "body_detail",
    "error_for_status",
    "parse_retry_after",
    "scrub",
]

_DETAIL_LIMIT = 300


class LLMError(Exception):
    """Any failure talking to an LLM."""


class LLMUnavailable(LLMError, ConnectionError):
    """The LLM could not be reached or did not answer in time; trying later may work.

    Attributes:
        retry_after: Seconds the server asked us to wait, when it said so.
    """

    def __init__(self, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class LLMRateLimited(LLMUnavailable):
    """The LLM answered 429; `retry_after` comes from the response's Retry-After header."""


class LLMServerError(LLMError):
    """The LLM answered with a server error (5xx) or an answer that could not be read.

    Attributes:
        status: The HTTP status.
    """

    def __init__(self, message: str, *, status: int) -> None:
        super().__init__(message)
        self.status = status


class LLMRequestError(LLMError, ValueError):
    """The LLM rejected the request (4xx other than 408 and 429): retrying will not help.

    Attributes:
        status: The HTTP status, or None when the request was refused before sending.
    """

    def __init__(self, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


def scrub(text: str, secret: str | None) -> str:
    """Return `text` with every occurrence of `secret` (an API key) masked."""
    if secret:
        text = text.replace(secret, "***")
    return text


def parse_retry_after(headers: Mapping[str, str]) -> float | None:
    """Seconds to wait from `Retry-After-Ms` or `Retry-After` (seconds or an HTTP date).

    Args:
        headers: Response headers; keys are looked up lower case, so pass a case-insensitive
            mapping (httpx and aiohttp headers are).

    Returns:
        The delay in seconds (never negative), or None when absent or unreadable.
    """
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            return max(0.0, float(millis) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_tz(value)
        if when is None:
            return None
        return max(0.0, float(email.utils.mktime_tz(when)) - time.time())
    except (TypeError, ValueError, OverflowError):
        return None


def error_for_status(
    provider: str,
    status: int,
    detail: str,
    headers: Mapping[str, str],
    *,
    secret: str | None,
) -> LLMError:
    """The error for an HTTP error answer; the caller raises it `from` the SDK's exception.

    Args:
        provider: The provider's name, for the message.
        status: The HTTP status (4xx or 5xx).
        detail: The server's explanation; it is shortened and the secret masked.
        headers: The response headers (for Retry-After).
        secret: The API key, masked out of the message.
    """
    detail = scrub(" ".join(detail.split()), secret)[:_DETAIL_LIMIT]
    message = f"{provider}: HTTP {status}: {detail}" if detail else f"{provider}: HTTP {status}"
    if status == 429:
        return LLMRateLimited(message, retry_after=parse_retry_after(headers))
    if status == 408:
        return LLMUnavailable(message, retry_after=parse_retry_after(headers))
    if status >= 500:
        return LLMServerError(message, status=status)
    return LLMRequestError(message, status=status)


def body_detail(body: object, fallback: str) -> str:
    """The human explanation in an error body (`{"error": {"message": ...}}`), else `fallback`."""
    if isinstance(body, Mapping):
        error = body.get("error")
        if isinstance(error, Mapping) and isinstance(error.get("message"), str):
            return str(error["message"])
        if isinstance(body.get("message"), str):
            return str(body["message"])
    return fallback
