"""Column types: instants are aware UTC in Python whatever the database keeps."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import DateTime
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

from clockcore import as_utc

__all__ = ["UTCDateTime"]


class UTCDateTime(TypeDecorator[datetime]):
    """An aware UTC instant.

    PostgreSQL keeps ``timestamptz``. SQLite has no zones, so the instant is
    stored as naive UTC in SQLAlchemy's fixed-width text form, whose order is
    the order of time: comparisons in SQL stay correct. A naive datetime is
    refused on the way in.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        value = as_utc(value)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        instant = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
        return instant.replace(tzinfo=UTC) if instant.tzinfo is None else instant.astimezone(UTC)
