"""URLs as clockbot shows them to a person: without passwords, users or queries."""

from __future__ import annotations

import httpx
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

__all__ = ["masked_db", "masked_http"]


def masked_db(url: str) -> str:
    """A database URL with its password hidden."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "<unreadable URL>"


def masked_http(url: str) -> str:
    """An http(s) URL without user, password, query or fragment."""
    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL:
        return "<unreadable URL>"
    host = f"[{parsed.host}]" if ":" in parsed.host else parsed.host
    port = f":{parsed.port}" if parsed.port is not None else ""
    return f"{parsed.scheme}://{host}{port}{parsed.path}"
