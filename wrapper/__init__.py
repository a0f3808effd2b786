"""wrapper: the CLOCK interaction wrapper and its store (SQLite; PostgreSQL for many workers).

The names below load their module on first use (PEP 562), so a part that needs one
module (`wrapper.store.db`, `wrapper.keys`) does not load the whole store.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clockcore.lazy import lazy_names

if TYPE_CHECKING:
    from wrapper.core import SESSION_IDLE, InteractionWrapper
    from wrapper.errors import (
        DatabaseURLError,
        MessageTooLargeError,
        StateImportError,
        StoreUnavailableError,
        UnknownItemError,
        WrapperError,
    )
    from wrapper.keys import is_private_thread
    from wrapper.outbound.outbox import Outbox, OutboxItem, OutboxKind, OutboxStatus
    from wrapper.turns.history import History, StoredMessage

_HOME: dict[str, str] = {
    "DatabaseURLError": "wrapper.errors",
    "History": "wrapper.turns.history",
    "InteractionWrapper": "wrapper.core",
    "MessageTooLargeError": "wrapper.errors",
    "Outbox": "wrapper.outbound.outbox",
    "OutboxItem": "wrapper.outbound.outbox",
    "OutboxKind": "wrapper.outbound.outbox",
    "OutboxStatus": "wrapper.outbound.outbox",
    "SESSION_IDLE": "wrapper.core",
    "StateImportError": "wrapper.errors",
    "StoreUnavailableError": "wrapper.errors",
    "StoredMessage": "wrapper.turns.history",
    "UnknownItemError": "wrapper.errors",
    "WrapperError": "wrapper.errors",
    "is_private_thread": "wrapper.keys",
}
"""Each public name and the module that defines it."""


__getattr__ = lazy_names(__name__, _HOME, globals())

__all__ = [
    "SESSION_IDLE",
    "DatabaseURLError",
    "History",
    "InteractionWrapper",
    "MessageTooLargeError",
    "Outbox",
    "OutboxItem",
    "OutboxKind",
    "OutboxStatus",
    "StateImportError",
    "StoreUnavailableError",
    "StoredMessage",
    "UnknownItemError",
    "WrapperError",
    "is_private_thread",
]
