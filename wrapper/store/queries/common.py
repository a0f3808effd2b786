"""Helpers every query module shares: rows as dataclasses, chosen and derived ids, inserts."""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, TypeVar

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

T = TypeVar("T")


def row_as(cls: type[T], row: Mapping[Any, Any]) -> T:
    """Build the dataclass `cls` from the columns of `row` that share its field names."""
    fields: Mapping[str, Any] = getattr(cls, "__dataclass_fields__")  # noqa: B009
    return cls(**{name: row[name] for name in fields if name in row})


_repeatable: random.Random | None = None
"""Set only inside `repeatable_ids` (`clockbot eval`); otherwise ids come from `secrets`."""


def chosen_id() -> int:
    """A row id chosen before the row is stored, so a staged row can be named.

    Random in [2^32, 2^53): clear of the small ids older stores counted up,
    exact as a JSON number, and colliding once in ~10^8 rows at a billion.
    """
    span = (1 << 53) - (1 << 32)
    drawn = _repeatable.randrange(span) if _repeatable else secrets.randbelow(span)
    return (1 << 32) + drawn


def chosen_hex(nbytes: int) -> str:
    """`nbytes` random bytes as hex, for ids with a prefix (``act_``…)."""
    if _repeatable:
        return _repeatable.randbytes(nbytes).hex()
    return secrets.token_hex(nbytes)


@contextmanager
def repeatable_ids(seed: str) -> Iterator[None]:
    """Within the block, `chosen_id` and `chosen_hex` repeat for the same `seed`.

    For `clockbot eval` alone: the ids reach the model in tool results, and their
    digits alone change what a model answers (docs/eval.md, M16), so the wrapper and
    the baseline see the same ids. One scenario at a time: the source is the process's.
    """
    global _repeatable  # one process-wide source, set by the eval only
    previous, _repeatable = _repeatable, random.Random(seed)  # noqa: S311 -- not a secret
    try:
        yield
    finally:
        _repeatable = previous


def own_user_id(user_key: str) -> str:
    """The person id an identity starts with: derived, so two workers agree without a lock."""
    return "u_" + hashlib.sha256(user_key.encode()).hexdigest()[:24]


def insert_for(conn: Connection, table: Any) -> sqlite.Insert | postgresql.Insert:
    """An INSERT with the dialect's ON CONFLICT clauses (SQLite and PostgreSQL share them)."""
    if conn.dialect.name == "postgresql":
        return postgresql.insert(table)
    return sqlite.insert(table)
