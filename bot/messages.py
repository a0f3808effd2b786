"""Every sentence clockbot says to a person, in one place."""

from __future__ import annotations

from bot.catalog import Said

NOW_NEEDS_OFFSET = (
    "--now must be an ISO-8601 instant with an offset, e.g. 2026-03-07T10:00:00-05:00"
)
UNREADABLE_TIME = "cannot read a time in {text!r}: {reason}"
NO_INSTANT = "{text!r} needs clarification first: {question}"

STATE_EXPORTED = "clock state written to {path}"
STATE_IMPORTED = "Imported {summary} from {path}."
STATE_COUNTED: dict[str, tuple[str, str]] = {
    "people": ("person", "people"),
    "reminders": ("reminder", "reminders"),
    "repeating": ("repeating", "repeating"),
    "memory": ("memory item", "memory items"),
    "actions": ("clocked action", "clocked actions"),
    "threads": ("conversation", "conversations"),
    "feeds": ("calendar feed", "calendar feeds"),
    "polls": ("meeting poll", "meeting polls"),
}
"""What `clockbot state import` counts, singular and plural: "1 person, 2 reminders"."""
STATE_ERASE_CONFIRM = (
    "Erase everything clockbot keeps about {user} and every identity linked to it? "
    "This cannot be undone."
)
STATE_ERASED = "erased {person}: {identities}; {rows}"
STATE_NOBODY = "nobody is known as {user}; nothing changed"
STATE_FIELD_IGNORED = "note: {path} is not a CLOCK-STATE field clockbot keeps; it was ignored"

DOCTOR_OK = "ok   {name}: {detail}"
DOCTOR_FAIL = "FAIL {name}: {detail}"
DOCTOR_CONFIG_FROM_FILE = "loaded from {path} and the environment"
DOCTOR_CONFIG_NO_FILE = "loaded from the environment and defaults (no config file)"
DOCTOR_STORE_OK = "opened {url}"
DOCTOR_RULES_AGENT = "rules agent (no LLM configured)"
DOCTOR_LLM_OK = "{provider} at {url} reachable (HTTP {status}), model {model}"
DOCTOR_LLM_REFUSED_KEY = "{provider} at {url} refused the API key (HTTP {status})"
DOCTOR_LLM_HTTP = "{provider} at {url} answered HTTP {status}"
DOCTOR_LLM_UNREACHABLE = "{provider} at {url} unreachable: {reason}"
DOCTOR_TIME_DUCKLING = "Duckling {version} reads times, clockcore decides"
DOCTOR_TIME_GRAMMAR = (
    "clockcore's own grammar reads times (no Duckling wheel for this platform: "
    "fewer phrasings are read, the rest are asked)"
)
DOCTOR_CHANNEL_OFF = "not configured"
DOCTOR_CHANNEL_ON = "configured ({summary}); {answered}"
DOCTOR_CHANNEL_FAILED = "configured ({summary}), but {reason}"
DOCTOR_CHANNEL_NO_EXTRA = "configured, but the {extra} extra is missing: {install}"

CHANNEL_NEEDS_EXTRA = "the {channel} channel needs the {extra} extra: {install}"
INSTALL_EXTRA = "pip install 'clockbot[{extra}]'"

# What a tool refusal tells the person (`BadArguments.ask`), apart from its note to the model:
# the rules agent and every fallback say these, never the note (docs/talking.md). Each is a
# `Said`, in the person's language from the catalogs (docs/languages.md); the DST questions
# stay English, since the rules agent reads its own question back to take the answer.
ASK_DST_GAP = "{first} or {second}"
ASK_DST_FOLD = "the first {first} or the second, an hour later"
"""The options of a DST question (`clockcore.geo.anchoring.CLOCKS_SKIP`) as local times."""
ASK_TIME_PASSED = Said("{when} has already passed. When should it be instead?")
ASK_UNREADABLE_TIME = Said(
    "I can't read {text!r} as a time. Say it like 'tomorrow at 9am' or 'in 2 hours'."
)
ASK_DAY_BEGUN = Said("{text!r} has already begun. At what time?")
ASK_WHICH_REMINDER = Said("Which reminder? “what are my reminders” lists them with their ids.")
ASK_NO_SUCH_REMINDER = Said(
    "I can't find a reminder {id} still to come; “what are my reminders” lists them."
)
ASK_SEVERAL_END_IN = Said(
    "Several of your reminders end in {id}; “what are my reminders” lists their ids."
)
ASK_NOT_PAUSED = Said("Nothing to resume: that is not paused.")
ASK_PAUSE_UNTIL = Said("Until when? For example: “pause {id} until Friday”.")
ASK_REPEATING_NOT_SNOOZED = Said(
    "A repeating reminder comes again by itself; to hold it, say “pause {id} until Friday”."
)
ASK_NOTHING_MORE = Said("The last reminder here does not repeat: nothing more will come.")
ASK_NOT_A_REPEAT = Said(
    "I can't read {phrase!r} as a repeating time; say it like 'every Monday at 9am'."
)
SAY_NOT_DONE = Said("I couldn't do that. Could you say it another way?")
