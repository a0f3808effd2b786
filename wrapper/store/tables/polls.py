"""Meeting polls in a group: the proposed slots, the members' votes, who is in the meeting."""

from __future__ import annotations

from sqlalchemy import JSON, BigInteger, Column, ForeignKey, Index, Integer, Table

from wrapper.store.tables.columns import instant, metadata, required_text

__all__ = ["meeting_attendees", "meeting_polls", "meeting_votes"]

meeting_polls = Table(
    "meeting_polls",
    metadata,
    Column("id", BigInteger, primary_key=True, autoincrement=False),
    required_text("thread_key", index=True),
    required_text("channel", 32),
    required_text("thread_id"),
    required_text("organiser"),
    Column("minutes", Integer, nullable=False),
    Column("options", JSON, nullable=False),
    Column("voters", JSON, nullable=False),
    required_text("status", 16),
    Column("chosen", Integer, nullable=True),
    instant("closes_at", required=True),
    instant("created_at", required=True),
    Index("ix_meeting_polls_open", "status", "closes_at"),
)
"""A meeting poll in a group (`wrapper.meeting_polls`): the proposed slots, who is asked."""


meeting_votes = Table(
    "meeting_votes",
    metadata,
    Column("poll_id", BigInteger, ForeignKey("meeting_polls.id"), primary_key=True),
    required_text("user_key", primary_key=True),
    Column("choices", JSON, nullable=False),
    instant("at", required=True),
)
"""One member's answer to a meeting poll: the options they can make (their latest answer)."""


meeting_attendees = Table(
    "meeting_attendees",
    metadata,
    Column("poll_id", BigInteger, ForeignKey("meeting_polls.id"), primary_key=True),
    required_text("user_key", primary_key=True, index=True),
)
"""Who is in the meeting a poll decided: the members who could make the chosen slot, as
they answered when it was decided (a later answer changes nothing). Their feeds and
timelines show the meeting."""
