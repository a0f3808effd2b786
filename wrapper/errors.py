"""The errors the wrapper raises.

::

    WrapperError(Exception)
    ├── DatabaseURLError(WrapperError, ValueError)      .url (password masked)
    ├── MessageTooLargeError(WrapperError, ValueError)  .size, .limit
    ├── StoreUnavailableError(WrapperError, RuntimeError) .url (password masked)
    ├── UnknownItemError(WrapperError, LookupError)     .item_id
    └── StateImportError(WrapperError, ValueError)      .problems   (a CLOCK-STATE file refused)

clockcore's errors (UnknownTimezoneError, NaiveDatetimeError, ...) pass through
unchanged: they already say what is wrong.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "DatabaseURLError",
    "MessageTooLargeError",
    "StateImportError",
    "StoreUnavailableError",
    "UnknownItemError",
    "WrapperError",
]


class WrapperError(Exception):
    """Base of every wrapper error."""


class DatabaseURLError(WrapperError, ValueError):
    """A database URL clockbot cannot use."""

    def __init__(self, url: str, reason: str) -> None:
        self.url = url
        super().__init__(f"database URL {url!r}: {reason}")


class MessageTooLargeError(WrapperError, ValueError):
    """A message over the size the wrapper accepts; nothing was stored."""

    def __init__(self, size: int, limit: int) -> None:
        self.size = size
        self.limit = limit
        super().__init__(f"message of {size:,} characters is over the {limit:,} limit")


class StoreUnavailableError(WrapperError, RuntimeError):
    """The store cannot be opened: a corrupt file, a refused connection, no permission."""

    def __init__(self, url: str, reason: str) -> None:
        self.url = url
        super().__init__(f"cannot open the clock store at {url}: {reason}")


class UnknownItemError(WrapperError, LookupError):
    """A memory item id that does not exist."""

    def __init__(self, item_id: int) -> None:
        self.item_id = item_id
        super().__init__(f"no memory item with id {item_id}")


class StateImportError(WrapperError, ValueError):
    """A CLOCK-STATE document refused; the store was not changed."""

    def __init__(self, problems: Sequence[tuple[str, str]]) -> None:
        self.problems = tuple(problems)
        shown = "; ".join(f"{path}: {message}" for path, message in self.problems[:10])
        more = len(self.problems) - 10
        super().__init__(
            "state not imported, nothing changed: "
            + shown
            + (f"; and {more} more" if more > 0 else "")
        )
