"""One message's working state, and what its text says: shared by the chain and the hot path.

`Turn` is what one message accumulates as it goes (`wrapper.inbound.chain` runs the
steps, `wrapper.inbound.hot` the two-statement path); the functions here work out what
the text says before any transaction and the values both paths derive the
same way (a session's start, the zone, the action a message clocks).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.engine import Connection

from clockcore import (
    DEFAULT_POLICY,
    Decision,
    Policy,
    SessionZone,
    UnknownTimezoneError,
    mentions_time,
    require_zone,
    resolve_session_zone,
    zone_mentions,
)
from clockcore.actions import OPEN_STATUSES, detect_temporal_action
from clockcore.directives import Directives, parse_directives
from clockcore.envelope_items import NamedZone, OpenAction, UpcomingItem
from clockcore.geo.zones import canonical_zone
from clockcore.geo.zonetext import ZoneMention
from clockcore.message import MessageRef
from clockcore.parsing.time_questions import asks_about_time
from wrapper.keys import is_private_thread
from wrapper.store.rows import MAX_KNOWN_PLACES, PersonRow, ThreadView

__all__ = [
    "INLINE_READ_CHARS",
    "OPEN_STATUS_LIST",
    "SESSION_IDLE",
    "UPCOMING_HORIZON",
    "Step",
    "Turn",
    "action_to_clock",
    "known_zone",
    "may_have_open_actions",
    "moves_session",
    "other_zones",
    "read_text",
    "read_text_aside",
    "read_zone",
    "start_session",
    "upcoming_item",
]

SESSION_IDLE = timedelta(hours=1)
"""A thread quiet this long starts a new session on its next message."""
UPCOMING_HORIZON = timedelta(days=7)
"""How far ahead the envelope lists a person's due items."""
MAX_OTHER_ZONES = 3
"""At most this many ``Time in`` lines in the runtime block."""
OPEN_STATUS_LIST = sorted(OPEN_STATUSES)
"""The open action statuses, as a query parameter."""


@dataclass(slots=True)
class Turn:
    """The working state of one message as it moves through the chain."""

    ref: MessageRef
    thread_key: str
    user_key: str
    claim_for: str | None = None
    lease_until: datetime | None = None
    platform_zone: str | None = None
    duplicate: bool = False
    mentions: tuple[ZoneMention, ...] = ()
    temporal_phrase: str | None = None
    talks_about_time: bool = False
    person: PersonRow = field(default_factory=lambda: PersonRow(user_id=""))
    thread: ThreadView = field(default_factory=ThreadView)
    spoke_before: datetime | None = None
    session_started_at: datetime | None = None
    directives: Directives = field(default_factory=Directives)
    text_read: bool = False
    """Whether `read_text` ran: directives, zone mentions, a clocked phrase."""
    zone: SessionZone | None = None
    policy: Policy = DEFAULT_POLICY
    notices: list[str] = field(default_factory=list)
    open_actions: list[OpenAction] = field(default_factory=list)
    upcoming: list[UpcomingItem] = field(default_factory=list)
    decision: Decision | None = None

    @property
    def channel(self) -> str:
        return self.ref.channel

    @property
    def thread_id(self) -> str:
        return self.ref.thread_id

    @property
    def user_id(self) -> str:
        return self.ref.user_id

    @property
    def text(self) -> str:
        return self.ref.text

    @property
    def received_at(self) -> datetime:
        return self.ref.received_at

    @property
    def message_id(self) -> str | None:
        return self.ref.message_id

    @property
    def user_tz(self) -> str | None:
        return self.person.own_zone

    @property
    def thread_kind(self) -> str:
        return self.thread.thread_kind

    @property
    def private(self) -> bool:
        return is_private_thread(self.channel, self.thread_id)


Step = Callable[[Turn, Connection], None]
"""One step of the chain: it reads and writes `turn` in the message's transaction."""


def known_zone(zone: str | None) -> str | None:
    """`zone` when it is a known IANA id (canonical spelling), else None."""
    if not zone:
        return None
    try:
        return require_zone(zone)
    except UnknownTimezoneError:
        return None


INLINE_READ_CHARS = 200
"""A text longer than this is read on a worker thread (`read_text_aside`)."""


async def read_text_aside(turn: Turn) -> None:
    """`read_text`, on a worker thread when the text is long, so the event loop runs on.

    Reading a long text may wait for Duckling in its child process
    (`bot.app.duckling_pool`); a short one reads in well under a
    millisecond, less than the hop to a thread costs.
    """
    if len(turn.text) > INLINE_READ_CHARS:
        await asyncio.to_thread(read_text, turn)
    else:
        read_text(turn)


def read_text(turn: Turn) -> None:
    """What the text says, worked out before the transaction: it needs no state."""
    turn.directives = parse_directives(turn.text)
    text = turn.directives.rest if turn.directives.any else turn.text
    turn.mentions = tuple(zone_mentions(text))
    turn.temporal_phrase = detect_temporal_action(turn.text)
    turn.talks_about_time = asks_about_time(turn.text) or mentions_time(
        turn.text, language=turn.ref.language
    )
    turn.text_read = True


def start_session(turn: Turn) -> datetime | None:
    """When the thread's session started, counting this message (SESSION_IDLE)."""
    previous = turn.thread.last_interaction_at
    started = turn.thread.session_started_at
    if previous is None or turn.received_at - previous >= SESSION_IDLE:
        started = turn.received_at
    turn.session_started_at = started
    return started


def read_zone(turn: Turn) -> list[str] | None:
    """Set the session zone; the person's remembered places when this message adds one."""
    known = list(turn.person.known_locations)
    turn.zone = resolve_session_zone(
        turn.directives.rest if turn.directives.any else turn.text,
        thread_override=turn.thread.session_tz,
        user_default=turn.user_tz,
        known_locations=known,
        mentions=turn.mentions,
        place_answers=turn.private,
    )
    turn.notices.extend(turn.zone.notices)
    places = [m.text for m in turn.mentions if m.strength == "location" and m.zone]
    if not places:
        return None
    remembered = list(dict.fromkeys([_place_name(places[0]), *known]))[:MAX_KNOWN_PLACES]
    return remembered if remembered != known else None


def moves_session(turn: Turn) -> bool:
    """Whether this message puts the session in a zone the thread does not keep yet.

    "I'm in Tokyo this week", or a place alone in answer to the city question:
    the thread's zone moves there, as ``clock: tz`` would move it. Call after
    `read_zone`.
    """
    assert turn.zone is not None
    return turn.zone.source == "message" and turn.zone.zone != turn.thread.session_tz


def other_zones(turn: Turn) -> tuple[NamedZone, ...]:
    """The zones the message names besides the session's, for the block's ``Time in`` lines.

    A place named ("what time is it in Kathmandu?") or a time's own zone ("9am
    Tokyo time"); not a place the person puts themselves in (it is the session
    zone), not an ambiguous one (no zone to show), each zone once.
    """
    assert turn.zone is not None
    seen = {canonical_zone(turn.zone.zone)}
    found = []
    for mention in turn.mentions:
        zone = canonical_zone(mention.zone) if mention.zone else None
        if mention.strength in ("named", "explicit") and zone is not None and zone not in seen:
            seen.add(zone)
            found.append(NamedZone(_place_name(mention.text).removesuffix(" time"), zone))
    return tuple(found[:MAX_OTHER_ZONES])


def action_to_clock(turn: Turn) -> tuple[str, str] | None:
    """The phrase this message clocks as an action, and how (docs/clock-spec.md §6.3), or None."""
    settings = turn.policy.store.latest_actions
    if not settings.enabled:
        return None
    if turn.directives.clock_it is not None:
        return turn.directives.clock_it, "clock_it"
    if settings.auto_clock_temporal_actions and turn.temporal_phrase is not None:
        return turn.temporal_phrase, "auto"
    return None


def may_have_open_actions(turn: Turn) -> bool:
    until = turn.person.actions_until
    return until is not None and until > turn.received_at


def _place_name(text: str) -> str:
    return text[3:] if text.lower().startswith("in ") else text


def upcoming_item(row: Mapping[str, Any], now: datetime) -> UpcomingItem:
    """A row of `queries.upcoming`: a reminder by its id (``r12``, ``s5``), a note by its own."""
    if row["schedule_id"] is not None:
        shown: int | str = f"s{row['schedule_id']}"
    elif row["job_id"] is not None:
        shown = f"r{row['job_id']}"
    else:
        shown = int(row["memory_id"])
    return UpcomingItem(
        id=shown,
        content=str(row["content"]),
        due_at=row["due_at"],
        overdue=row["due_at"] <= now,
        reminded_at=row["reminded_at"],
    )
