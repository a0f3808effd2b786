"""A person's own data, asked for in the chat: "what do you know about me", "delete my data".

Both are read by the turn runner before the agent sees the message, and only in a
private thread (a DM, an email thread, the console): what is kept about a person is
not for a group to read, and an erasure is not a group's decision. In a group the
person is asked to write to the bot directly.

- "what do you know about me" (or ``/mydata``): a summary of what is kept, from
  `wrapper.people.person_data.export_person`: identities, zone, messages, memory,
  reminders waiting, open actions.
- "what did I clock" (or ``/clocked``): the clocked actions alone, each with its status
  and when it was clocked, newest last (docs/data.md).
- "delete my data" (or ``/deletemydata``): a warning and how to confirm, by writing
  "delete my data: yes" within `CONFIRM_WITHIN`. The request is found again in the
  journal, so any worker can take the confirmation. Then everything is erased in one
  transaction (`wrapper.people.person_data.erase_person`), and one last message says so. It
  goes straight to the channel, not through the outbox, so nothing is kept for it;
  if the platform refuses it, the erasure stands.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from bot.catalog import LANGUAGES, Said
from bot.llm import everyday_words as words
from clockcore.geo.zones import get_zone
from clockcore.message import primary_language

__all__ = [
    "CLOCKED",
    "CLOCKED_LINE",
    "CLOCKED_NONE",
    "CONFIRM_WITHIN",
    "ERASED",
    "ERASED_REPLY",
    "ERASE_ASK",
    "ERASE_ASK_REPLY",
    "ERASE_CONFIRM",
    "ERASE_NOTHING",
    "ERASE_NOTHING_TO_CONFIRM",
    "PRIVATE_ONLY",
    "PRIVATE_ONLY_REPLY",
    "Ask",
    "ask_language",
    "ask_of",
    "asked_to_erase",
    "clocked",
    "declined_erase",
    "erase_words",
    "summary",
]

CONFIRM_WITHIN = timedelta(minutes=10)
ERASE_CONFIRM = "delete my data: yes"
ERASE_ASK = Said(
    "This erases everything I keep about you, on every channel you linked: our "
    "conversations, your reminders, memory, clocked actions and settings. It cannot be "
    "undone. To go ahead, write “{confirm}” within 10 minutes."
)
ERASED = Said(
    "Done: everything I kept about you is erased. If you write again, I'll start from nothing."
)
ERASE_NOTHING = Said(
    "There is no request to delete your data in the last 10 minutes. Write “{ask}” first."
)
PRIVATE_ONLY = Said("That's between us: please write it to me in a direct message.")
ERASE_ASK_REPLY = ERASE_ASK.in_("en", confirm=ERASE_CONFIRM)
ERASED_REPLY = ERASED.in_("en")
ERASE_NOTHING_TO_CONFIRM = ERASE_NOTHING.in_("en", ask="delete my data")
PRIVATE_ONLY_REPLY = PRIVATE_ONLY.in_("en")
_MAX_LISTED = 10


class Ask(enum.Enum):
    SHOW = "show"
    CLOCKED = "clocked"
    ERASE = "erase"
    CONFIRM = "confirm"


_SAID = {
    # language: (what do you know about me…, delete my data… (the first one is offered
    # back as the confirmation's words), yes…); read whole (`as_request`), docs/data.md.
    "en": (("what do you know about me",), ("delete my data",), ("yes",)),
    "de": (
        ("was weißt du über mich", "was weisst du über mich"),
        ("lösche meine daten", "meine daten löschen", "lösch meine daten"),
        ("ja",),
    ),
    "es": (
        ("qué sabes de mí", "que sabes de mi", "qué sabes sobre mí", "que sabes sobre mi"),
        ("borra mis datos", "elimina mis datos", "borrar mis datos"),
        ("sí", "si"),
    ),
    "fr": (
        ("qu'est-ce que tu sais sur moi", "qu'est-ce que tu sais de moi", "que sais-tu de moi"),
        ("supprime mes données", "efface mes données", "supprimer mes données"),
        ("oui",),
    ),
    "it": (
        ("cosa sai di me", "che cosa sai di me"),
        ("cancella i miei dati", "elimina i miei dati"),
        ("sì", "si"),
    ),
    "pt": (
        ("o que você sabe sobre mim", "o que sabes sobre mim", "o que sabe sobre mim"),
        ("apaga os meus dados", "apague meus dados", "apaga meus dados", "apagar meus dados"),
        ("sim",),
    ),
    "nl": (
        ("wat weet je over mij", "wat weet jij over mij"),
        ("verwijder mijn gegevens", "wis mijn gegevens"),
        ("ja",),
    ),
}


_CLOCKED_ASKS = {
    # language: what did I clock…, read whole as `_SAID` is (docs/data.md)
    "en": ("what did i clock", "what have i clocked", "what did i clock today",
           "what have i clocked today", "what i clocked", "my clocked actions"),
    "de": ("was hab ich geclockt", "was habe ich geclockt", "was hab ich geklockt",
           "was habe ich geklockt", "was habe ich festgehalten", "was hab ich festgehalten"),
    "es": ("qué he registrado", "que he registrado", "qué registré", "que registre",
           "qué he anotado", "que he anotado"),
    "fr": ("qu'est-ce que j'ai noté", "qu'est-ce que j'ai note", "qu'ai-je noté",
           "qu'est-ce que j'ai enregistré", "qu'est-ce que j'ai pointé"),
    "it": ("cosa ho registrato", "che cosa ho registrato", "cosa ho segnato",
           "che cosa ho segnato", "cosa ho annotato"),
    "pt": ("o que eu registrei", "o que registrei", "o que registei", "o que eu registei",
           "o que anotei", "o que eu anotei"),
    "nl": ("wat heb ik geklokt", "wat heb ik geclockt", "wat heb ik genoteerd",
           "wat heb ik vastgelegd"),
}  # fmt: skip


def _asks() -> dict[str, tuple[Ask, str | None]]:
    """Every request read whole, with the language it is in (None: a command, any)."""
    found: dict[str, tuple[Ask, str | None]] = {
        "/mydata": (Ask.SHOW, None),
        "/clocked": (Ask.CLOCKED, None),
        "/deletemydata": (Ask.ERASE, None),
    }
    for language, clocks in _CLOCKED_ASKS.items():
        found |= dict.fromkeys(clocks, (Ask.CLOCKED, language))
    for language, (shows, erases, yeses) in _SAID.items():
        found |= dict.fromkeys(shows, (Ask.SHOW, language))
        found |= dict.fromkeys(erases, (Ask.ERASE, language))
        found |= {f"{erase}: {yes}": (Ask.CONFIRM, language) for erase in erases for yes in yeses}
    return found


_ASKS = _asks()
_SPACE = re.compile(r"\s+")
_BEFORE_COLON = re.compile(r"\s+:")


def as_request(text: str) -> str:
    """`text` as a request answered without the model is compared: read whole, lower case,
    spacing and end punctuation aside ("¿qué sabes de mí?", "supprime mes données : oui"),
    a command's bot name dropped (/mydata@SomeBot)."""
    plain = _SPACE.sub(" ", text.strip().lower().replace("’", "'")).rstrip("?!. ").lstrip("¿¡")
    plain = _BEFORE_COLON.sub(":", plain)
    return plain.split("@", 1)[0] if plain.startswith("/") else plain


def ask_of(text: str) -> Ask | None:
    """Which request `text` is, read whole (`as_request`), or None."""
    found = _ASKS.get(as_request(text))
    return found[0] if found else None


def ask_language(text: str) -> str | None:
    """The language of the request `text` is, as its words say (None: a command, or none)."""
    found = _ASKS.get(as_request(text))
    return found[1] if found else None


def erase_words(language: str | None) -> tuple[str, str]:
    """("delete my data", "delete my data: yes") in `language` (else English)."""
    _, erases, yeses = _SAID.get(primary_language(language) or "en", _SAID["en"])
    return erases[0], f"{erases[0]}: {yeses[0]}"


def asked_to_erase(texts: Sequence[str]) -> bool:
    """Whether any of `texts` (the person's recent messages) asked to delete their data."""
    return any(ask_of(text) is Ask.ERASE for text in texts)


def declined_erase(text: str, recent: Sequence[str]) -> bool:
    """Whether `text` says no to "delete my data", the person's message before it.

    `recent` is what they wrote lately, newest first, `text` itself perhaps at its head.
    A "no" then is answered "nothing was deleted", not by the agent (issue 61, item 7).
    """
    if words.first(words.DECLINE, words.plain(text)) is None:
        return False
    earlier = list(recent)
    if earlier and earlier[0] == text:
        earlier = earlier[1:]
    return bool(earlier) and ask_of(earlier[0]) is Ask.ERASE


KEPT = Said("Here is what I keep about you:")
KEPT_AS = Said("- you, as: {identities}")
KEPT_ZONE = Said("- your timezone: {zone}")
KEPT_NO_ZONE = Said("- your timezone: not set")
KEPT_MESSAGES = Said("- {messages} messages of yours in {threads} conversations, since {first}")
KEPT_MESSAGES_ONE_THREAD = Said("- {messages} messages of yours in one conversation, since {first}")
KEPT_MEMORY = Said("- remembered: {content}")
KEPT_MEMORY_DUE = Said("- remembered: {content} (due {when})")
KEPT_TO_SEND = Said("- to send you on {when}: {text}")
KEPT_CLOCKED = Said("- clocked: {label} ({status})")
KEPT_MORE_MEMORY = Said("- and {count} more remembered")
KEPT_MORE_TO_SEND = Said("- and {count} more to send")
KEPT_MORE_CLOCKED = Said("- and {count} more clocked")
KEPT_ERASE = Said("Write “{erase}” to erase all of it.")
CLOCKED = Said("What you clocked:")
CLOCKED_LINE = Said("- {label} ({status}), clocked {when}")
CLOCKED_NONE = Said("You have clocked nothing yet. Write “clock it: …” to clock what you do.")
ACTION_STATUS = {
    "planned": Said("planned"),
    "in_progress": Said("in progress"),
    "likely_done": Said("likely done"),
    "done": Said("done"),
    "canceled": Said("canceled"),
    "expired": Said("expired"),
}
"""An action's status (`clockcore.actions.ActionStatus`) as the person reads it."""


def summary(document: Mapping[str, Any], *, zone: str | None, language: str | None = None) -> str:
    """What is kept about a person, in a few lines of `language`, from their `export_person`."""
    person = document["x_clockbot"]["person"]
    [user] = document["users"].values()
    tz = zone or "UTC"
    lines = [KEPT.in_(language), KEPT_AS.in_(language, identities=", ".join(person["identities"]))]
    lines.append(KEPT_ZONE.in_(language, zone=zone) if zone else KEPT_NO_ZONE.in_(language))
    messages = person["messages"]
    if messages:
        first = _when(messages[0]["received_at"], tz, language)
        threads = len(document["threads"])
        said = KEPT_MESSAGES_ONE_THREAD if threads == 1 else KEPT_MESSAGES
        lines.append(said.in_(language, messages=len(messages), threads=threads, first=first))
    memory = document["x_clockbot"].get("memory", [])
    for item in memory[:_MAX_LISTED]:
        if item.get("due_iso"):
            when = _when(item["due_iso"], tz, language)
            lines.append(KEPT_MEMORY_DUE.in_(language, content=item["content"], when=when))
        else:
            lines.append(KEPT_MEMORY.in_(language, content=item["content"]))
    lines += _more(len(memory), KEPT_MORE_MEMORY, language)
    waiting = [j for j in person["jobs"] if j["status"] == "pending" and j["kind"] != "reply"]
    for job in waiting[:_MAX_LISTED]:
        when = _when(job["due_at"], tz, language)
        lines.append(KEPT_TO_SEND.in_(language, when=when, text=job["text"]))
    lines += _more(len(waiting), KEPT_MORE_TO_SEND, language)
    actions = user.get("latest_actions", [])
    for action in actions[:_MAX_LISTED]:
        status = ACTION_STATUS.get(action["status"])
        shown = status.in_(language) if status else action["status"]
        lines.append(KEPT_CLOCKED.in_(language, label=action["label"], status=shown))
    lines += _more(len(actions), KEPT_MORE_CLOCKED, language)
    lines.append(KEPT_ERASE.in_(language, erase=erase_words(language)[0]))
    return "\n".join(lines)


def clocked(document: Mapping[str, Any], *, zone: str | None, language: str | None = None) -> str:
    """The person's clocked actions with their status, from their `export_person`: the
    newest `_MAX_LISTED`, oldest first, with when each was clocked in the person's `zone`."""
    [user] = document["users"].values()
    actions = user.get("latest_actions", [])
    if not actions:
        return CLOCKED_NONE.in_(language)
    lines = [CLOCKED.in_(language)]
    for action in actions[-_MAX_LISTED:]:
        status = ACTION_STATUS.get(action["status"])
        shown = status.in_(language) if status else action["status"]
        when = _when(action["recorded_iso"], zone or "UTC", language)
        lines.append(CLOCKED_LINE.in_(language, label=action["label"], status=shown, when=when))
    return "\n".join(lines + _more(len(actions), KEPT_MORE_CLOCKED, language))


def _when(iso: str, zone: str, language: str | None) -> str:
    """An instant as the person reads it in `zone`, in `language`: "Tuesday 1 Dec 2026, 19:37"."""
    from babel.dates import format_datetime

    tz = get_zone(zone)
    local = datetime.fromisoformat(iso).astimezone(tz)
    primary = primary_language(language)
    locale = primary if primary in LANGUAGES else "en"
    return format_datetime(local, "EEEE d MMM y, HH:mm", tzinfo=tz, locale=locale)


def _more(total: int, said: Said, language: str | None) -> list[str]:
    """ "- and 33 more remembered": the lines a listing left out, counted."""
    return [said.in_(language, count=total - _MAX_LISTED)] if total > _MAX_LISTED else []
