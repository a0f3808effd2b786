"""The field types the settings groups share: lists, URLs, ports, sampling, windows, policy.

Each refuses a wrong value with an error that names the rule and never quotes
the value (docs/configuration.md); `Group` is every group's base.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    SecretStr,
)
from pydantic_core import PydanticCustomError
from pydantic_settings import NoDecode

from clockcore import ContactWindow, InvalidContactWindowError, Policy, PolicyError
from clockcore.policy import policy_from_mapping

__all__ = [
    "MISSING_SETTING",
    "SERVER_DEFAULT",
    "ContactWindowField",
    "Group",
    "HttpUrl",
    "PolicyField",
    "Port",
    "SamplingField",
    "StrList",
    "TopPField",
    "required_error",
    "token_shape",
]

SERVER_DEFAULT: Literal["server-default"] = "server-default"
"""The sampling value that sends nothing, so the server samples as it would by default."""
MISSING_SETTING = "missing_setting"
"""The error type of a required setting that is absent; its context names the fields."""


def token_shape(value: SecretStr | None, shape: re.Pattern[str], hint: str) -> SecretStr | None:
    """`value` when it has `shape`; else an error that names the shape, never the value.

    Checked before any network call, so a mistyped token is an error naming its
    setting at start, not a network failure later.
    """
    if value is not None and not shape.match(value.get_secret_value()):
        raise PydanticCustomError("token_shape", "not a token of this kind: {hint}", {"hint": hint})
    return value


def _split_list(value: object) -> object:
    """Read a comma-separated string or a list into a tuple of trimmed, non-empty strings."""
    if value is None:
        return ()
    if isinstance(value, str):
        items: list[object] = list(value.split(","))
    elif isinstance(value, list | tuple):
        items = list(value)
    else:
        return value  # let pydantic report the type
    cleaned: list[object] = []
    for item in items:
        if isinstance(item, int) and not isinstance(item, bool):
            item = str(item)  # YAML reads numeric user ids as ints
        if isinstance(item, str):
            item = item.strip()
            if not item:
                continue
        cleaned.append(item)
    return tuple(cleaned)


def _http_url(value: object) -> object:
    """Refuse anything but an http(s) URL, without quoting it."""
    if isinstance(value, str) and not value.startswith(("http://", "https://")):
        raise PydanticCustomError("http_url", "must be an http:// or https:// URL")
    return value


def _temperature(value: object) -> float | Literal["server-default"]:
    """A number from 0 to 2, or `SERVER_DEFAULT` (any case, around spaces)."""
    if isinstance(value, str) and value.strip().lower() == SERVER_DEFAULT:
        return SERVER_DEFAULT
    number = _number(value)
    if number is None or not 0 <= number <= 2:
        raise PydanticCustomError(
            "temperature", f"must be a number from 0 to 2, or {SERVER_DEFAULT} to send none"
        )
    return number


def _top_p(value: object) -> float | Literal["server-default"]:
    """A number above 0 and at most 1, or `SERVER_DEFAULT`."""
    if isinstance(value, str) and value.strip().lower() == SERVER_DEFAULT:
        return SERVER_DEFAULT
    number = _number(value)
    if number is None or not 0 < number <= 1:
        raise PydanticCustomError(
            "top_p", f"must be a number above 0 and at most 1, or {SERVER_DEFAULT} to send none"
        )
    return number


def _number(value: object) -> float | None:
    """`value` as a finite float (a YAML number, or the environment's text), else None."""
    if isinstance(value, bool):
        return None
    try:
        number = float(value) if isinstance(value, int | float | str) else None
    except ValueError:
        return None
    return number if number is not None and math.isfinite(number) else None


def _contact_window(value: object) -> ContactWindow:
    if isinstance(value, ContactWindow):
        return value
    if isinstance(value, str):
        try:
            return ContactWindow.parse(value)
        except InvalidContactWindowError:
            pass
    raise PydanticCustomError(
        "contact_window", "write it as HH:MM-HH:MM (hours 00–23), e.g. 08:00-23:00"
    )


def _policy(value: object) -> Policy:
    if isinstance(value, Policy):
        return value
    if isinstance(value, Mapping):
        try:
            return policy_from_mapping({"clock": value})
        except PolicyError as exc:
            raise PydanticCustomError("policy", "{reason}", {"reason": str(exc)}) from None
    raise PydanticCustomError("policy", "must be a mapping (the CLOCK policy block)")


def required_error(*fields: str, why: str) -> PydanticCustomError:
    """An error for required settings that are absent; `fields` are appended to its location."""
    return PydanticCustomError(MISSING_SETTING, "required {why}", {"fields": fields, "why": why})


StrList = Annotated[tuple[str, ...], NoDecode, BeforeValidator(_split_list)]
HttpUrl = Annotated[str, BeforeValidator(_http_url)]
Port = Annotated[int, Field(ge=1, le=65535)]
ContactWindowField = Annotated[
    ContactWindow,
    NoDecode,
    PlainValidator(_contact_window),
    PlainSerializer(str, return_type=str, when_used="json"),
]
SamplingField = Annotated[float | Literal["server-default"], PlainValidator(_temperature)]
TopPField = Annotated[float | Literal["server-default"], PlainValidator(_top_p)]
PolicyField = Annotated[
    Policy,
    PlainValidator(_policy),
    PlainSerializer(
        lambda p: p.model_dump(mode="json"), return_type=dict[str, Any], when_used="json"
    ),
]


class Group(BaseModel):
    """Base of every settings group: unknown keys refused, instances immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True)
