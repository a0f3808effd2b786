"""Pure extraction: which Slack events are a person's message to answer, and their ids.

An Events API body (the same in an HTTP request and a Socket Mode envelope)
becomes a `Post`, or None when it is nothing to answer: a `message` event
outside a DM (channel posts reach the bot as ``app_mention``), an edit, a
deletion or another subtype, a bot's message (its own included), or an event
without a person or a timestamp. No I/O here, so every rule has a table test.

Shapes (see `Post`): DMs are thread ``dm:<team>:<channel>``; channel
conversations ``<team>:<channel>:<thread_ts or ts>``, answered in that thread;
``message_id`` is ``<channel>:<ts>``, the same for a post's ``message`` and
``app_mention`` events and for Slack's retries, so the journal sees one message.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from channels.slack.render import from_slack

__all__ = ["Post", "read_post", "received_at", "route_for_thread", "shape_problem"]

# Subtypes that are still a person writing: a message with files, a thread reply
# also sent to the channel. Every other subtype (edits, deletions, joins, bots) is not.
_PERSON_SUBTYPES = frozenset({"file_share", "thread_broadcast"})


@dataclass(frozen=True, slots=True)
class Post:
    """One message a person wrote to the bot, as far as the adapter cares."""

    team: str
    channel: str
    user: str
    text: str
    ts: str
    thread_ts: str | None
    direct: bool

    @property
    def thread_id(self) -> str:
        """``dm:<team>:<channel>`` for a DM, else ``<team>:<channel>:<thread_ts or ts>``."""
        if self.direct:
            return f"dm:{self.team}:{self.channel}"
        return f"{self.team}:{self.channel}:{self.thread_ts or self.ts}"

    @property
    def message_id(self) -> str:
        """``<channel>:<ts>``: Slack's own identity of a post."""
        return f"{self.channel}:{self.ts}"

    @property
    def reply_to(self) -> str | None:
        """``<channel>:<thread_ts>``: the post a thread reply answers (a reminder, in a DM)."""
        return f"{self.channel}:{self.thread_ts}" if self.thread_ts else None

    @property
    def route(self) -> dict[str, str]:
        """Where answers go: the DM itself, or the thread the mention started or sits in."""
        if self.direct:
            return {"channel": self.channel}
        return {"channel": self.channel, "thread_ts": self.thread_ts or self.ts}

    @property
    def received_at(self) -> datetime:
        """When it was written, from its ``ts``."""
        return received_at(self.ts)


def received_at(ts: str) -> datetime:
    """Slack's ``ts`` (``"1712345678.123456"``, seconds since the epoch) as aware UTC.

    Raises:
        ValueError: `ts` is not that shape.
    """
    seconds, _, fraction = ts.partition(".")
    if not (seconds.isascii() and seconds.isdigit()) or (
        fraction and not (fraction.isascii() and fraction.isdigit())
    ):
        raise ValueError(f"not a Slack ts: {ts!r}")
    micros = int(fraction[:6].ljust(6, "0")) if fraction else 0
    try:
        return datetime.fromtimestamp(int(seconds), UTC) + timedelta(microseconds=micros)
    except (OverflowError, OSError) as exc:  # past the year 9999 (found by fuzzing)
        raise ValueError(f"not a Slack ts: {ts!r}") from exc


def read_post(
    body: Mapping[str, Any], *, bot_user_id: str | None = None, default_team: str = ""
) -> Post | None:
    """The person's message in an Events API `body`, or None when there is nothing to answer."""
    event = body.get("event")
    if not isinstance(event, Mapping):
        return None
    kind = event.get("type")
    channel, user, ts = (
        _text(event.get("channel")),
        _text(event.get("user")),
        _text(event.get("ts")),
    )
    if channel is None or user is None or ts is None:
        return None
    direct = event.get("channel_type") == "im" or channel.startswith("D")
    if kind == "message":
        if not direct:
            return None  # in channels the bot answers mentions, which come as app_mention
    elif kind != "app_mention":
        return None
    subtype = event.get("subtype")
    if subtype is not None and subtype not in _PERSON_SUBTYPES:
        return None
    if event.get("bot_id") or event.get("hidden") or user == bot_user_id:
        return None
    try:
        received_at(ts)
    except ValueError:
        return None
    thread_ts = _text(event.get("thread_ts"))
    team = body.get("team_id") or event.get("team") or default_team
    text = event.get("text")
    return Post(
        team=team if isinstance(team, str) else default_team,
        channel=channel,
        user=user,
        text=from_slack(text if isinstance(text, str) else "", bot_user_id=bot_user_id),
        ts=ts,
        thread_ts=thread_ts if thread_ts != ts else None,
        direct=direct,
    )


def shape_problem(body: object) -> str | None:
    """Why slack-bolt cannot take `body` (an Events API body or an interaction), or None.

    bolt reads ``event``, ``authorizations`` and a button's ``actions`` without checking
    their types; a body with ``"event": null`` or ``"actions": null`` made it answer 500
    (found by fuzzing), which Slack retries forever.
    """
    if not isinstance(body, Mapping):
        return "the body is not a JSON object"
    if "event" in body and not isinstance(body["event"], Mapping):
        return "its event is not an object"
    if "event" in body and not isinstance(body["event"].get("type"), str):
        return "its event has no type"  # bolt matches listeners on it unchecked
    grants = body.get("authorizations")
    if grants is not None and not (
        isinstance(grants, list) and all(isinstance(grant, Mapping) for grant in grants)
    ):
        return "its authorizations are not a list of objects"
    if body.get("type") in ("block_actions", "interactive_message") and "actions" in body:
        actions = body["actions"]  # bolt matches on actions[0]["action_id"] unchecked
        if not (isinstance(actions, list) and actions and isinstance(actions[0], Mapping)):
            return "its actions are not a list of objects"
        if not isinstance(actions[0].get("action_id"), str):
            return "its action has no action_id"
    return None


def route_for_thread(thread_id: str) -> dict[str, str]:
    """The route a `Post.thread_id` implies, for a send whose thread has no stored route."""
    if thread_id.startswith("dm:"):
        parts = thread_id.split(":")
        return {"channel": parts[2]} if len(parts) == 3 and parts[2] else {}
    parts = thread_id.split(":")
    if len(parts) == 3 and all(parts):
        return {"channel": parts[1], "thread_ts": parts[2]}
    return {}


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value.strip() else None
