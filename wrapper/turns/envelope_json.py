"""A context envelope as JSON and back, losslessly (the waiting list keeps one per message).

Instants are ISO-8601 UTC, spans ISO-8601 durations, both to the
microsecond; `envelope_from_json(envelope_to_json(e)) == e` for every envelope.
"""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from clockcore.envelope import ContextEnvelope

__all__ = ["envelope_from_json", "envelope_to_json"]

_ADAPTER: TypeAdapter[ContextEnvelope] = TypeAdapter(ContextEnvelope)


def envelope_to_json(envelope: ContextEnvelope) -> dict[str, Any]:
    """The envelope as JSON-ready values."""
    return _ADAPTER.dump_python(envelope, mode="json")  # type: ignore[no-any-return]


def envelope_from_json(data: Any) -> ContextEnvelope:
    """The envelope `envelope_to_json` made.

    Raises:
        pydantic.ValidationError: `data` is not such an envelope.
    """
    return _ADAPTER.validate_python(data)
