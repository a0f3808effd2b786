"""A person's reminders as a calendar feed (RFC 5545, via `icalendar`), and asking for its URL.

"calendar" in a direct message answers with the person's private feed URL,
made on first asking; "new calendar link" makes a new one and the old stops
working (`wrapper.calendar_feeds`). Only the token's hash is kept, so an
existing URL cannot be shown again: "calendar" then says so and how to get a
new one. Like the web page's link, it is answered only in a private thread.

What the feed holds is built by `bot.calendar_ics`.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from enum import Enum

from bot.turns.my_data import as_request
from clockcore.geo.zones import get_zone

__all__ = [
    "REFRESH",
    "FeedAsk",
    "calendar_ask",
    "feed_path",
    "feed_reply",
    "feed_urls",
    "have_one_reply",
]

REFRESH = timedelta(hours=1)
"""How often calendars are asked to fetch the feed again."""


class FeedAsk(Enum):
    """What a message asks of the feed."""

    SHOW = "show"
    NEW = "new"


_ASKS = {
    "calendar": FeedAsk.SHOW, "/calendar": FeedAsk.SHOW, "my calendar": FeedAsk.SHOW,
    "calendar feed": FeedAsk.SHOW, "calendar link": FeedAsk.SHOW,
    "new calendar link": FeedAsk.NEW, "new calendar": FeedAsk.NEW,
    "new calendar feed": FeedAsk.NEW, "/newcalendar": FeedAsk.NEW,
}  # fmt: skip


def calendar_ask(text: str) -> FeedAsk | None:
    """What `text` asks of the calendar feed, read whole (`bot.turns.my_data.as_request`)."""
    return _ASKS.get(as_request(text))


def feed_path(token: str) -> str:
    return f"/calendar/{token}.ics"


def feed_urls(public_url: str, token: str) -> tuple[str, str]:
    """The feed's ``https://`` (or ``http://``) URL and its ``webcal://`` twin."""
    url = public_url.rstrip("/") + feed_path(token)
    return url, "webcal://" + url.split("://", 1)[1]


def feed_reply(public_url: str, token: str) -> str:
    """The reply that carries a new feed URL."""
    url, webcal = feed_urls(public_url, token)
    return (
        f"Your calendar: {webcal}\n"
        f"(or, where a calendar asks for a web address: {url})\n"
        "It shows your reminders and updates hourly. Anyone with the link can read it: "
        'don\'t share it. Say "new calendar link" to replace it; the old one then stops working.'
    )


def have_one_reply(made: datetime, zone: str) -> str:
    """The reply to "calendar" when the person has a feed already."""
    return (
        f"You have a calendar link already (made {made.astimezone(get_zone(zone)):%d %b %Y}). "
        'I keep only a fingerprint of it, so I can\'t show it again. Say "new calendar link" '
        "for a new one; the old one then stops working."
    )
