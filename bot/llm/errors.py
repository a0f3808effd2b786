"""The errors every LLM provider raises; foreign SDK errors are wrapped once, `from` the original.

```
Exception
 └── LLMError                               any LLM failure
      ├── LLMUnavailable (+ConnectionError)  refused, DNS, timeout, 408; .retry_after
      │    └── LLMRateLimited                429; .retry_after from Retry-After
      ├── LLMServerError                    5xx or an unreadable answer; .status
      └── LLMRequestError (+ValueError)      4xx other than 408/429: our request is wrong; .status
            ├── LLMContextOverflow              the prompt is longer than the model's context
            └── LLMTemplateError                the model's chat template refuses the roles
```

Messages never contain the API key.
"""

from __future__ import annotations

import email.utils
import re
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

__all__ = [
    "LLMContextOverflow",
    "LLMError",
    "LLMRateLimited",
    "LLMRequestError",
    "LLMServerError",
    "LLMTemplateError",
    "LLMUnavailable",
    "body_detail",
    "error_for_status",
    "parse_retry_after",
    "scrub",
    "sdk_errors",
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


class LLMContextOverflow(LLMRequestError):
    """The request is longer than the model's context window (any provider's wording)."""


class LLMTemplateError(LLMRequestError):
    """The server's chat template refuses the conversation's roles (docs/eval.md, M26)."""


_OVERFLOW = re.compile(
    r"exceeds? the available context size|context[_ ]length[_ ]exceeded|maximum context length"
    r"|prompt is too long|too many tokens|exceeds the context window|context window exceeded"
    r"|input is too long|reduce the length of the messages",
    re.IGNORECASE,
)
_ALTERNATE = re.compile(r"roles must alternate|must alternate user/assistant", re.IGNORECASE)


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
    if _ALTERNATE.search(detail):
        return LLMTemplateError(message, status=status)
    if _OVERFLOW.search(detail):
        return LLMContextOverflow(message, status=status)
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


@contextmanager
def sdk_errors(
    vendor: str, sdk: Any, *, base: type[Exception], secret: str | None, timeout: float
) -> Iterator[None]:
    """Translate an SDK's exceptions into this tree, once, at the provider boundary.

    The openai and anthropic SDKs share their exception names
    (`APITimeoutError`, `APIConnectionError`, `APIStatusError`,
    `APIResponseValidationError`); `base` is each SDK's root error.

    Raises:
        LLMUnavailable: no answer in time, or the server cannot be reached.
        LLMRateLimited: HTTP 429.
        LLMServerError: a 5xx, or an answer that cannot be read.
        LLMRequestError: any other 4xx.
        LLMError: anything else the SDK raised.
    """
    try:
        yield
    except sdk.APITimeoutError as exc:
        raise LLMUnavailable(f"{vendor}: no answer within {timeout:g} s") from exc
    except sdk.APIConnectionError as exc:
        cause = exc.__cause__ or exc
        detail = scrub(str(cause) or type(cause).__name__, secret)
        raise LLMUnavailable(f"{vendor}: cannot reach the server: {detail}") from exc
    except sdk.APIStatusError as exc:
        detail = body_detail(exc.body, exc.message)
        raise error_for_status(
            vendor, exc.status_code, detail, exc.response.headers, secret=secret
        ) from exc
    except sdk.APIResponseValidationError as exc:
        raise LLMServerError(
            f"{vendor}: the answer could not be read", status=exc.status_code
        ) from exc
    except base as exc:
        raise LLMError(f"{vendor}: {scrub(str(exc), secret)}") from exc
