"""Secrets handed out, kept only as hashes: link codes, sign-ins, sender checks, feeds."""

from __future__ import annotations

from sqlalchemy import Table

from wrapper.store.tables.columns import instant, metadata, optional_text, person_id, required_text

__all__ = ["calendar_feeds", "link_codes", "sender_checks", "web_links", "web_sessions"]

link_codes = Table(
    "link_codes",
    metadata,
    required_text("code_hash", 64, primary_key=True),
    required_text("user_key", index=True),
    required_text("thread_key"),
    instant("expires_at", required=True),
    optional_text("redeemer"),
    optional_text("redeemer_thread"),
)
"""A short-lived code one identity issued to be linked from another (`wrapper.people.linking`).

Only its hash is kept. Once redeemed it names the redeeming identity and waits
for the issuer's yes or no.
"""


web_links = Table(
    "web_links",
    metadata,
    required_text("token_hash", 64, primary_key=True),
    required_text("user_key"),
    instant("created_at", required=True),
    instant("expires_at", required=True),
    instant("used_at"),
)
"""A one-time sign-in link for the web pages (`wrapper.web`): only its token's hash is kept."""


web_sessions = Table(
    "web_sessions",
    metadata,
    required_text("token_hash", 64, primary_key=True),
    optional_text("user_id", 40, index=True),
    optional_text("user_key"),
    instant("created_at", required=True),
    instant("expires_at", required=True),
)
"""A signed-in browser (`wrapper.web`): a person's, or an operator's when `user_id` is None."""


sender_checks = Table(
    "sender_checks",
    metadata,
    required_text("token_hash", 64, primary_key=True),
    required_text("user_key", index=True),
    required_text("request"),
    instant("created_at", required=True),
    instant("expires_at", required=True),
    optional_text("thread_key"),
)
"""A privileged request from a sender the channel could not prove (`wrapper.inbound.sender_checks`).

It waits for a reply carrying the token mailed to the address, in the private thread it was
asked in (`thread_key`); only the token's hash is kept.
"""


calendar_feeds = Table(
    "calendar_feeds",
    metadata,
    required_text("token_hash", 64, primary_key=True),
    person_id(index=True),
    instant("created_at", required=True),
)
"""A person's calendar feed (`wrapper.calendar_feeds`): only its token's hash is kept; one each."""
