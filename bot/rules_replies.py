"""What the rules agent says, in the seven languages (docs/talking.md, "Without a model").

Each is a `bot.catalog.Said`, its words in the catalogs (docs/languages.md); the
English texts are the ones the rules agent has always said, so English
conversations read as before.
"""

from __future__ import annotations

from bot.catalog import Said

__all__ = [
    "ALREADY_SET",
    "CANCELED",
    "CANCELED_ALL",
    "CANCEL_ALL_ASK",
    "DIFFERENCE_AHEAD",
    "DIFFERENCE_NONE",
    "HOW_LONG",
    "LISTED_NEXT",
    "LISTED_PAUSED",
    "LISTING",
    "MORNING_OR_EVENING",
    "MOVED",
    "NEEDS_LLM",
    "NOTHING_CANCELED",
    "NOTHING_ERASED",
    "NOT_FOUND",
    "NO_PLACE",
    "NO_REMINDERS",
    "PAUSED",
    "PAUSED_OPEN",
    "PLACE_UNSURE",
    "REMIND_SET",
    "REPEAT_SET",
    "RESUMED",
    "SNOOZED",
    "THREAD_ZONE_SET",
    "TIME_IN",
    "WHEN_ASK",
    "WHEN_UNREAD",
    "ZONE_ASKED",
    "ZONE_SET",
]

NEEDS_LLM = Said(
    "I'm running without a language model: I can set, list, move and cancel reminders and "
    "answer time questions. Anything else needs an LLM."
)
ZONE_ASKED = Said(
    "I don't know your timezone yet, so that time could be one of 24. Which city are you in? "
    "Tell me (for example 'I live in Lisbon')."
)
ZONE_SET = Said("Your home timezone is now {zone}.")
REMIND_SET = Said("I'll remind you {when}.")
REPEAT_SET = Said("Set: {text}, repeating. Next: {next}. Its id is {id}.")
ALREADY_SET = Said("You already have that reminder: {text}{when} ({id}).")
LISTING = Said("Your reminders:")
NO_REMINDERS = Said("You have no reminders set.")
TIME_IN = Said("It is {time} on {day} in {place}.")
NO_PLACE = Said("I don't know which timezone {place!r} is in; name a city or an IANA zone.")
DIFFERENCE_AHEAD = Said("{a} is {span} ahead of {b} (now {at_a} there, {at_b} in {b}).")
DIFFERENCE_NONE = Said("{a} and {b} have the same time now ({at_a}).")
HOW_LONG = Said("{words}: {when}.")
CANCELED = Said("Canceled {id}.")
CANCELED_ALL = Said("Canceled all your reminders ({count}).")
MOVED = Said("Moved: {text}, to {until}.")
SNOOZED = Said("Snoozed: {text}, until {until}.")
PAUSED = Said("Paused until {until}.")
PAUSED_OPEN = Said("Paused until you resume them.")
RESUMED = Said("Your reminders are back on.")
NOT_FOUND = Said("I can't find a reminder about {what!r}.")
LISTED_NEXT = Said("next {when}")
LISTED_PAUSED = Said("paused")
NOTHING_CANCELED = Said("All right, nothing was canceled: your reminders stay as they are.")
NOTHING_ERASED = Said("All right, nothing was deleted: I keep your data as it was.")
CANCEL_ALL_ASK = Said(
    "That cancels all {count} of your reminders:\n{listing}\n"
    "To go ahead, write “cancel all my reminders: yes” (or just “yes”)."
)
WHEN_ASK = Said(
    "When should I remind you? For example: 'remind me tomorrow at 9 to call the bank'."
)
MORNING_OR_EVENING = Said("In the morning or in the evening: {am} or {pm}?")
WHEN_UNREAD = Said(
    "I can't read '{text}' as a time. When should I remind you? For example: 'tomorrow at 9am'."
)
THREAD_ZONE_SET = Said(
    "Got it: in this conversation I'll read times in {zone} until you say otherwise (your home "
    "timezone stays as it is)."
)
PLACE_UNSURE = Said(
    "Do you mean {town} ({zone})? Say 'yes', or name a bigger city or an IANA zone."
)
