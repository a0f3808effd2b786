"""The schema's shared parts: the one `metadata`, 64-bit ids, the kinds of column tables use."""

from __future__ import annotations

from typing import Any

from sqlalchemy import BigInteger, Column, ForeignKey, Integer, MetaData, String

from wrapper.store.types import UTCDateTime

__all__ = ["BigId", "instant", "metadata", "optional_text", "person_id", "required_text"]

metadata = MetaData()
"""Every table of `wrapper.store.tables`: what the migrations build (a test compares the two)."""

BigId = BigInteger().with_variant(Integer(), "sqlite")
"""64-bit ids; plain INTEGER on SQLite, where that is already 64-bit and the rowid."""


def required_text(name: str, length: int | None = None, **kwargs: Any) -> Column[Any]:
    """A required text column (``VARCHAR``, of `length` when given)."""
    return Column(name, String(length), nullable=False, **kwargs)


def optional_text(name: str, length: int | None = None, **kwargs: Any) -> Column[Any]:
    """An optional text column."""
    return Column(name, String(length), nullable=True, **kwargs)


def instant(name: str, *, required: bool = False, index: bool = False) -> Column[Any]:
    """An aware UTC instant (`wrapper.store.types.UTCDateTime`); optional unless `required`."""
    return Column(name, UTCDateTime(), nullable=not required, index=index)


def person_id(*, primary_key: bool = False, index: bool = False) -> Column[Any]:
    """``user_id``: the person a row belongs to."""
    return Column(
        "user_id",
        String(40),
        ForeignKey("users.id"),
        primary_key=primary_key,
        nullable=False,
        index=index,
    )
