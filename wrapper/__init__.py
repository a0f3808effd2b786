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
from wrapper.keys import is_private_thread

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
