"""Everything the Telegram adapter itself says to people, in one place."""

from __future__ import annotations

__all__ = ["COMMANDS", "HELP", "REFUSED", "START", "TEXT_ONLY", "TZ_USAGE"]

START = (
    "Hi! I'm an assistant that always knows what time it is, for you and for the people "
    "you mention.\n\n"
    "Set your timezone with /tz and a city zone, for example /tz Europe/Berlin.\n"
    'Tell me what you\'re doing with "clock it: going for a run"; I keep it in mind for '
    "a while and ask how it went.\n"
    'Ask for reminders ("remind me tomorrow at 9 to call the bank") and see them with '
    "/upcoming.\n\n"
    "In groups, mention me or reply to me. /help lists the commands."
)
HELP = (
    "/tz ZONE: set your timezone (an IANA zone such as America/New_York)\n"
    "/upcoming: what's coming up\n"
    "/link [CODE]: link this account with another channel\n"
    '"clock it: …": note what you\'re doing now\n'
    '"remind me … to …": a reminder at a time you name'
)
TZ_USAGE = "Name a zone after /tz, for example /tz Asia/Tokyo."
REFUSED = "Sorry, this bot is private."
TEXT_ONLY = "I read text only; please write your message."

COMMANDS: tuple[tuple[str, str], ...] = (
    ("start", "What this bot does"),
    ("help", "The commands"),
    ("tz", "Set your timezone: /tz Europe/Berlin"),
    ("upcoming", "What's coming up"),
    ("link", "Link with another channel: /link CODE"),
)
"""The command menu registered with ``setMyCommands``."""
