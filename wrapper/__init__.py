"""wrapper: the CLOCK interaction wrapper and its store (SQLite; PostgreSQL for many workers)."""

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
