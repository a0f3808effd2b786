"""Helpers every query module shares: rows as dataclasses, derived person ids, dialect inserts."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping
from typing import Any, TypeVar

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

T = TypeVar("T")


def row_as(cls: type[T], row: Mapping[Any, Any]) -> T:
    """Build the dataclass `cls` from the columns of `row` that share its field names."""
    fields: Mapping[str, Any] = getattr(cls, "__dataclass_fields__")  # noqa: B009
    return cls(**{name: row[name] for name in fields if name in row})


def chosen_id() -> int:
    """A row id chosen before the row is stored, so a staged row can be named.

    Random in [2^32, 2^53): clear of the small ids older stores counted up,
    exact as a JSON number, and colliding once in ~10^8 rows at a billion.
    """
    return (1 << 32) + secrets.randbelow((1 << 53) - (1 << 32))


def own_user_id(user_key: str) -> str:
    """The person id an identity starts with: derived, so two workers agree without a lock."""
    return "u_" + hashlib.sha256(user_key.encode()).hexdigest()[:24]


def insert_for(conn: Connection, table: Any) -> sqlite.Insert | postgresql.Insert:
    """An INSERT with the dialect's ON CONFLICT clauses (SQLite and PostgreSQL share them)."""
    if conn.dialect.name == "postgresql":
        return postgresql.insert(table)
    return sqlite.insert(table)
