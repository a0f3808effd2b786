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
    "CLOCK_MODE_SET",
    "COMING_UP",
    "CONTACT_HOURS",
    "DIFFERENCE_AHEAD",
    "DIFFERENCE_NONE",
    "DONE",
    "GREETED",
    "HELD",
    "HELD_ONE",
    "HOUR_UNREAD",
    "HOUR_WHICH_HALF",
    "HOW_LONG",
    "LISTED_NEXT",
    "LISTED_PAUSED",
    "LISTING",
    "MARKED_DONE",
    "MORNING_OR_EVENING",
    "MOVED",
    "NEEDS_LLM",
    "NOTHING_CANCELED",
    "NOTHING_DUE",
    "NOTHING_ERASED",
    "NOT_FOUND",
    "NO_PLACE",
    "NO_REMINDERS",
    "NO_SUCH_DAY",
    "NO_SUCH_ID",
    "PAUSED",
    "PAUSED_OPEN",
    "PAUSE_UNTIL",
    "PLACE_DECLINED",
    "PLACE_UNSURE",
    "PLACE_WHICH",
    "REMINDER_DUE",
    "REMIND_SET",
    "REPEAT_SET",
    "RESUMED",
    "RULE_CHANGED",
    "SEVERAL_MATCH",
    "SNOOZED",
    "THANKED",
    "THREAD_KIND_SET",
    "THREAD_ZONE_NOW",
    "THREAD_ZONE_SET",
    "TIME_IN",
    "WHEN_ASK",
    "WHEN_UNREAD",
    "WHICH_ONE_SHOT",
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
THREAD_KIND_SET = Said("This thread is now a {kind} thread.")
THREAD_ZONE_NOW = Said("This thread's timezone is now {zone}.")
CLOCK_MODE_SET = Said("Clock mode set to {mode}.")
REMIND_SET = Said("I'll remind you {when}.")
REPEAT_SET = Said("Set: {text}, repeating. Next: {next}. Its id is {id}.")
RULE_CHANGED = Said("Changed: {text}, {rule}. Next: {next}. Its id is still {id}.")
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
LISTED_NEXT = Said("next: {when}")
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
PLACE_WHICH = Said("Which {place} do you mean: {options}? Name the country, or an IANA zone.")
PLACE_DECLINED = Said(
    "All right. Name a bigger city near it, or an IANA zone such as Europe/Lisbon."
)
PLACE_UNSURE = Said(
    "Do you mean {town} ({zone})? Say 'yes', or name a bigger city or an IANA zone."
)

# The frames and questions of the rules agent, once said in English alone (issue 61).
COMING_UP = Said("Coming up:")
NOTHING_DUE = Said("Nothing is due in the next 7 days.")
HELD = Said("These come then instead:")
HELD_ONE = Said("- {text}, due {was}")
PAUSE_UNTIL = Said("Until when? For example: 'pause my reminders until Monday'.")
SEVERAL_MATCH = Said("Several reminders match: {names}. Which one? Say its id, e.g. 'cancel {id}'.")
NO_SUCH_ID = Said("I can't find a reminder {id!r} still to come.")
MARKED_DONE = Said("Good, marked done.")
WHICH_ONE_SHOT = Said(
    "I can't tell which one-shot reminder {what!r} is; 'what are my reminders' lists them (a "
    "repeating one is changed by cancelling it and setting it anew)."
)
CONTACT_HOURS = Said(
    "Your contact hours are now {window} ({zone}). Outside them, anything I would send waits "
    "for a decision, not for the clock."
)
HOUR_UNREAD = Said("I can't read {text!r} as a time of day; say it like '9am' or '21:00'.")
HOUR_WHICH_HALF = Said("Do you mean {am} in the morning or {pm}? Say '{morning}' or '{evening}'.")
NO_SUCH_DAY = Said("{month} has no day {day}: which day do you mean?")
REMINDER_DUE = Said("Reminder: {what}")
GREETED = Said("Hello!")
THANKED = Said("You're welcome!")
DONE = Said("Done.")
