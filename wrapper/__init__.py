"""wrapper: the CLOCK interaction wrapper and its store (SQLite; PostgreSQL for many workers).

The names below load their module on first use (PEP 562), so a part that needs one
module (`wrapper.db`, `wrapper.keys`) does not load the whole store.
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
    from wrapper.history import History, StoredMessage
    from wrapper.keys import is_private_thread
    from wrapper.outbox import Outbox, OutboxItem, OutboxKind, OutboxStatus

_HOME: dict[str, str] = {
    "DatabaseURLError": "wrapper.errors",
    "History": "wrapper.history",
    "InteractionWrapper": "wrapper.core",
    "MessageTooLargeError": "wrapper.errors",
    "Outbox": "wrapper.outbox",
    "OutboxItem": "wrapper.outbox",
    "OutboxKind": "wrapper.outbox",
    "OutboxStatus": "wrapper.outbox",
    "SESSION_IDLE": "wrapper.core",
    "StateImportError": "wrapper.errors",
    "StoreUnavailableError": "wrapper.errors",
    "StoredMessage": "wrapper.history",
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
