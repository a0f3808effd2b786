"""The policy's durations: positive ISO-8601 (``P1D``, ``PT2H``), a year 365 days, a month 30."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from typing import Annotated

import isodate
from pydantic import BeforeValidator, PlainSerializer
from pydantic_core import PydanticCustomError

from clockcore.errors import InvalidDurationError

__all__ = ["BAD_DURATION", "PositiveDuration", "format_duration", "parse_duration"]

_DAYS_PER_YEAR = 365
_DAYS_PER_MONTH = 30
BAD_DURATION = "iso_duration"
"""The error type a bad duration raises inside a validator (`model` turns it into
`InvalidDurationError`)."""


def parse_duration(value: object, *, path: str = "") -> timedelta:
    """Read a positive ISO-8601 duration (``P1D``, ``PT2H``, ``P2DT6H``).

    A `timedelta` is accepted as is. Years count as 365 days and months as
    30 days.

    Args:
        value: the duration text (or a `timedelta`).
        path: the dotted path of the field, for the error.

    Returns:
        The duration as a `timedelta`.

    Raises:
        InvalidDurationError: the value is not a string or timedelta, cannot be
            read as ISO-8601, or is zero or negative.
    """
    if isinstance(value, timedelta):
        result = value
    elif isinstance(value, str):
        try:
            parsed = isodate.parse_duration(value)
        except (isodate.ISO8601Error, ValueError, ArithmeticError) as exc:
            raise InvalidDurationError(value, path) from exc
        result = _as_timedelta(parsed)
    else:
        raise InvalidDurationError(value, path)
    if result <= timedelta(0):
        raise InvalidDurationError(value, path, reason="must be a positive duration")
    return result


def format_duration(value: timedelta) -> str:
    """Write a `timedelta` as an ISO-8601 duration (``P1D``, ``PT2H``).

    Args:
        value: the duration.

    Returns:
        The ISO-8601 text; days are never folded into months or years.

    Raises:
        TypeError: `value` is not a `timedelta`.
    """
    if not isinstance(value, timedelta):
        raise TypeError(f"expected a timedelta, got {type(value).__name__}")
    return str(isodate.duration_isoformat(value))


def _as_timedelta(parsed: object) -> timedelta:
    """Turn what `isodate.parse_duration` returns into a `timedelta`."""
    if isinstance(parsed, timedelta):
        return parsed
    # isodate.Duration: years and months (possibly Decimal) plus a timedelta.
    years = Decimal(str(getattr(parsed, "years", 0)))
    months = Decimal(str(getattr(parsed, "months", 0)))
    rest = getattr(parsed, "tdelta", timedelta(0))
    if not isinstance(rest, timedelta):  # pragma: no cover - isodate always sets it
        raise TypeError(f"unexpected isodate result {type(parsed).__name__}")
    days = years * _DAYS_PER_YEAR + months * _DAYS_PER_MONTH
    return timedelta(days=float(days)) + rest


def _validate_duration(value: object) -> timedelta:
    """Pydantic hook: report bad durations with a type `_to_policy_error` knows."""
    try:
        return parse_duration(value)
    except InvalidDurationError as exc:
        raise PydanticCustomError(
            BAD_DURATION,
            "expected a positive ISO-8601 duration such as P1D or PT2H",
            {"value": exc.value},
        ) from None


PositiveDuration = Annotated[
    timedelta,
    BeforeValidator(_validate_duration),
    PlainSerializer(format_duration, return_type=str, when_used="json"),
]
