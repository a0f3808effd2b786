"""What clockbot says itself, not the model: in the person's language where it has it.

The languages are the seven confirmations are said in (`clockcore.speech.spoken`);
any other is English. The person's language is their platform's, else the one
their message is clearly written in (`language_of`), as for the city question
(`clockcore.geo.session.city_question`). French says "vous", the others the
informal "you", as the city question does. Each reply is a `Said`, a handle
on its entry in the catalogs (`bot.catalog`, docs/languages.md): its id is the
English text, and the seven languages' words live in ``bot/locale``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from bot.catalog import LANGUAGES, Said
from bot.llm.everyday_words import said_in
from clockcore import MessageRef, guess_language
from clockcore.geo.zones import get_zone
from clockcore.message import primary_language

__all__ = [
    "ALL_REMINDERS",
    "DONE_CANCELLED",
    "DONE_CLOCKED",
    "DONE_FORGOTTEN",
    "DONE_MOVED",
    "DONE_NOTED",
    "DONE_PAUSED",
    "DONE_PAUSED_OPEN",
    "DONE_REPEATING",
    "DONE_RESUMED",
    "DONE_SET",
    "DONE_WINDOW",
    "DONE_ZONE",
    "GAVE_UP",
    "LATE",
    "LATE_MORE",
    "LATE_ONCE_MORE",
    "NOTHING_DONE",
    "NOT_A_TOOL",
    "NO_WORDS",
    "OVER_LIMIT",
    "SAY_AGAIN",
    "STUCK",
    "TOO_LARGE",
    "TOO_LONG_FOR_MODEL",
    "UNAVAILABLE",
    "Late",
    "Said",
    "conversation_language",
    "language_of",
]

_GUESS_CHARS = 2000
"""How much of a message its language is guessed from: enough words, and a message too
large to store is not read whole for it."""


def language_of(ref: MessageRef) -> str | None:
    """The language to answer `ref` in: its platform's, else its words' (None: English)."""
    return ref.language or guess_language(ref.text[:_GUESS_CHARS])


def conversation_language(ref: MessageRef, earlier: Iterable[str] = ()) -> str | None:
    """The language `ref` is read and answered in: its platform's, else its words'
    (`bot.llm.everyday_words.said_in`), else that of the newest of `earlier` (the person's
    words before it, oldest first) whose words say; None: English.

    A short message ("Montag", "make that 11") seldom says its language itself; it
    is in the conversation's (docs/languages.md).
    """
    if ref.language:
        return ref.language
    for text in (ref.text, *reversed(list(earlier))):
        if (found := said_in(text[:_GUESS_CHARS])) is not None:
            return found
    return None


UNAVAILABLE = Said(
    "I can't reach my language model right now. I've kept your message and will answer it when "
    "the model is back."
)
STUCK = Said("I got stuck using my tools on that one; could you say it another way?")
NO_WORDS = Said("I couldn't find the words for that one; could you ask me again?")
NOT_A_TOOL = Said("I tried to use a tool I don't have for that; could you say it another way?")
OVER_LIMIT = Said(
    "You're writing faster than I can answer. I've kept every message, and I'll answer them "
    "together in a moment."
)
GAVE_UP = Said(
    "I'm sorry: I could not answer your message from {when} after several tries. Could you send"
    " it again?"
)
TOO_LONG_FOR_MODEL = Said(
    "That is more than my model can read at once, even after I summarised our earlier "
    "conversation. Could you send it shorter, or in parts?"
)
TOO_LARGE = Said(
    "That message is too long for me ({size:,} characters; I read up to {limit:,}). Could you "
    "send it in parts?"
)

# What clockbot says itself of what a turn did, where the model's words could not be sent
# (`bot.agent.own_reply`): one line per change, `{text}` the person's words, `{when}` said as
# `clockcore.speech.spoken` says a time.
DONE_SET = Said("Set: {text}, {when}.")
DONE_REPEATING = Said("Set: {text}, repeating; next: {when}.")
DONE_NOTED = Said("Noted: {text}.")
DONE_CLOCKED = Said("Clocked: {text}.")
DONE_MOVED = Said("Moved: {text}, to {when}.")
DONE_CANCELLED = Said("Cancelled: {text}.")
DONE_PAUSED = Said("Paused: {text}, until {when}.")
DONE_PAUSED_OPEN = Said("Paused: {text}, until you resume it.")
DONE_RESUMED = Said("Back on: {text}.")
DONE_FORGOTTEN = Said("Forgotten: {text}.")
DONE_ZONE = Said("Your timezone is now {text}.")
DONE_WINDOW = Said("Your contact hours are now {text}.")
ALL_REMINDERS = Said("all your reminders")
NOTHING_DONE = Said("Nothing has been done yet: I couldn't be sure what you asked for.")
"""Where a reply claimed a change no tool made, and the rules agent could not make it."""
SAY_AGAIN = Said("Could you say it once more?")


LATE = Said("(This was due at {when}; I was offline.)")
LATE_ONCE_MORE = Said(
    "(This was due at {when}; I was offline. It came due 1 more time since; this message "
    "stands for them all.)"
)
LATE_MORE = Said(
    "(This was due at {when}; I was offline. It came due {more} more times since; this "
    "message stands for them all.)"
)
_SCANNED = 1000
"""How many missed occurrences are counted at most (`wrapper.outbound.schedules`): "1000+"."""


@dataclass(frozen=True, slots=True)
class Late:
    """A reminder sent late: when it was due (aware), in which zone, and how many more it
    stands for, its note said in the person's language (docs/reminders.md)."""

    due: datetime
    zone: str
    more: int = 0

    def said(self, language: str | None) -> str:
        """The note: "(This was due at 08:00 on Monday 8 June; I was offline.)"."""
        from babel.dates import format_datetime

        primary = primary_language(language)
        locale = primary if primary in LANGUAGES else "en"
        local = self.due.astimezone(get_zone(self.zone))
        when = (
            f"{local:%H:%M} on {local:%A} {local.day} {local:%B}"
            if locale == "en"
            else format_datetime(local, "EEEE d MMMM, HH:mm", locale=locale)
        )
        if self.more == 1:
            return LATE_ONCE_MORE.in_(locale, when=when)
        if self.more:
            more = f"{self.more}+" if self.more >= _SCANNED else str(self.more)
            return LATE_MORE.in_(locale, when=when, more=more)
        return LATE.in_(locale, when=when)
