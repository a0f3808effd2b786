"""wrapper: the CLOCK interaction wrapper and its store (SQLite; PostgreSQL for many workers)."""

from wrapper.core import SESSION_IDLE, InteractionWrapper, is_private_thread
from wrapper.errors import (
    DatabaseURLError,
    MessageTooLargeError,
    StateImportError,
    StoreUnavailableError,
    UnknownItemError,
    WrapperError,
)

__all__ = [
    "SESSION_IDLE",
    "DatabaseURLError",
    "InteractionWrapper",
    "MessageTooLargeError",
    "StateImportError",
    "StoreUnavailableError",
    "UnknownItemError",
    "WrapperError",
    "is_private_thread",
]
