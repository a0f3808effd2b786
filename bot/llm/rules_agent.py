"""The built-in agent for when no LLM is configured (``CLOCKBOT_LLM_PROVIDER=none``).

It is a `Provider` like the others, so it runs through the same turn loop, the
same tools and the same history. It reads the newest user message and answers
what it can answer exactly: clock directives, "remind me … to …" (once, or
"every weekday at 9am"), "what are my reminders", "cancel the timesheet
reminder", "pause my reminders until Monday", "resume my reminders", "move the
3pm one to 4", "snooze 20 min", "remind me again tonight", "stop this one",
"done", "what time is it (in …)", "what's coming up". Anything else gets a plain
sentence saying that free conversation needs an LLM.

Changing a reminder named by its words takes two tool calls: `list_reminders`,
then, when exactly one reminder matches, the change; several matches are asked
about, none is said. "Move the 3pm one to 4" keeps the day and, for a bare
hour, the half of the day of the time it names (4 after 3pm is 16:00); any other
bare hour is the reader's rule near the reminder's own time (`bare_hour`: "make that
11" is 11:00).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from itertools import count

from babel import Locale

from bot.agent.tools.tool_errors import tool_error
from bot.llm import everyday_words as words
from bot.llm import rules_replies as said
from bot.llm.reminder_words import REMIND_ME
from bot.llm.types import Completion, Message, ToolCall, ToolSpec
from bot.messages import SAY_NOT_DONE
from bot.replies import DONE_CLOCKED
from clockcore import (
    RUNTIME_BLOCK_END,
    find_time_expressions,
    guess_language,
    locate_time,
    parse_anchored_time,
    parse_directives,
    parse_recurrence,
    require_zone,
    without_time,
)
from clockcore.geo.places import PlaceMatch, lookup_place
from clockcore.geo.session import CITY_QUESTION
from clockcore.geo.zones import get_zone
from clockcore.meetings import zone_label
from clockcore.parsing.cues import fold
from clockcore.parsing.grammar import CLOCK_KINDS, DATE_KINDS, scan_text
from clockcore.parsing.modifiers import PART_OF_DAY, settle_hour
from clockcore.parsing.recurrence_words import without_frames
from clockcore.parsing.time_questions import counts_to
from clockcore.reading.leftover import unclear_approximation
from clockcore.reading.waking_hour import bare_hour
from clockcore.reading.words import tables
from clockcore.speech.spoken import SPOKEN_LANGUAGES, say_when
from clockcore.speech.spoken_rules import say_rule
from wrapper.outbound.reminder_ids import parse_reminder_id, short_reminder_id

__all__ = ["ZONE_QUESTION", "RulesProvider"]

NEEDS_LLM = said.NEEDS_LLM.en
ZONE_QUESTION = said.ZONE_ASKED.en
"""The answer to a wall-clock time while the person's zone is unknown (the tools ask)."""

# "remind me", and how else people ask for one, in the seven languages (REMIND_ME): the
# group's name is the language, so the time is read in it (docs/time-cues.md).
_REMIND = re.compile(
    rf"^\s*(?:{words.POLITE}[\s,]+)?(?:{REMIND_ME})\b[\s,:]*(?P<rest>.+)$",
    re.IGNORECASE | re.DOTALL,
)
# Words that join the time to what to be reminded of: "to call mom", "de llamar", "an die
# Bank", "d'appeler", "de ligar", "di chiamare", "aan de huur".
_TO = re.compile(
    r"(?:^|(?<!\s)\s++)(?:to|that|about|of|que|de|d'|an|daran|à|di|aan|om|per|para|pra|sobre)"
    r"(?:,?\s+|(?<=')|$)",
    re.IGNORECASE,
)
_REMIND_LATER = re.compile(
    rf"^(?P<before>.{{1,40}}?)[\s,]++(?:{REMIND_ME})\b[\s,:]*(?P<rest>.+)$",
    re.IGNORECASE | re.DOTALL,
)
"""A time, then the request: "in 20 minutes remind me to…", "jeden Tag um 8 erinnere mich…".
The time is at most 40 characters: an unbounded one overlapped the separator and made a
failing match cubic (4 KB of ", " took 9 s; docs/SECURITY.md, "Slow input"). The separator
is taken whole (no way of asking starts with one): given back a comma at a time, 10 KB of
commas took 0.5 s."""
_HOME_CITY = re.compile(r"^\s*clock:\s*home\s+tz\s+(?P<place>[^\n/]+?)\s*$", re.IGNORECASE)
""" "clock: home tz Lisbon": the directive with a city's name, not an IANA id."""
_PROACTIVE = re.compile(
    r"^A (?:reminder|scheduled message)[^:]*is due now: (?P<what>.+)$", re.MULTILINE
)
_LIST = re.compile(
    r"\b(?:what are|list|show(?: me)?|which are)\s+(?:all\s+)?my\s+reminders\b"
    r"|^\s*(?:my\s+)?reminders\s*\??\s*$",
    re.IGNORECASE,
)
_AGAIN = re.compile(r"^\s*remind me again\b\s*(?P<when>.*?)[\s.!]*$", re.IGNORECASE)
_SNOOZE = re.compile(
    r"^\s*snooze\b(?:\s+(?P<id>[rs]\d+))?(?:\s+(?:it|this|that))?(?:\s+for)?\s*(?P<when>.*?)[\s.!]*$",
    re.I,
)
_SNOOZE_NAMED = re.compile(
    r"^\s*snooze\s+(?:the\s+|my\s+)?(?P<what>(?![rs]\d+\b).+?)\s+(?:one\s+|reminder\s+)?"
    r"(?P<for>for|until|till|to)\s+(?P<when>.+?)[\s.!]*$",
    re.IGNORECASE,
)
""""Snooze the dentist one for an hour": the reminder its words name, found in the list."""
_PAUSE = re.compile(
    r"^\s*pause\s+(?:all\s+)?(?:of\s+)?(?:my\s+)?reminders?\b\s*"
    r"(?:(?:until|till|til|through)\s+(?P<until>.+?))?[\s.!]*$",
    re.IGNORECASE,
)
_RESUME = re.compile(
    r"^\s*(?:resume|unpause|restart|continue)\s+(?:all\s+)?(?:my\s+)?reminders?\b", re.I
)
_CANCEL = re.compile(
    r"^\s*(?:(?:actually|sorry|oh|ok(?:ay)?)[\s,]+)*(?:please\s+)?(?:cancel|stop|delete|remove"
    r"|drop)\b\s*(?P<what>.*?)[\s.!]*"
    # A reason after it names nothing to cancel: "…the dentist one, they moved my appointment".
    r"(?:[,;]\s*(?:they|it|he|she|we|I|because|since|as|cause)\b.*)?$",
    re.I,
)
_ALL = re.compile(
    r"^(?:all|every(?:thing)?|alle|todos|todas|tous|toutes|tutti|tutte|al)"
    r"(?:\s+(?:of|de|os|i))?(?:\s+(?:my|the|meine|mis|mes|miei|meus|mijn|die))?"
    r"(?:\s+(?:reminders?|erinnerungen|recordatorios|rappels|promemoria|lembretes|herinneringen))?"
    r"\s*(?::\s*(?P<yes>yes|ja|s[ií]|oui|sim))?$",
    re.IGNORECASE,
)
"""What "cancel" names to cancel every reminder: "all my reminders", "alle meine Erinnerungen"."""
_YES = re.compile(
    r"^\s*(?:yes|yep|yeah|sure|ok(?:ay)?|go ahead|s[iíì]|ja|oui|sim)\s*[.!]*\s*$", re.I
)


def confirms(text: str) -> bool:
    """Whether `text` only says yes ("ja", "oui", "go ahead"): to the question asked before."""
    return _YES.match(text) is not None


_PAUSE_ONE = re.compile(
    r"^\s*pause\s+(?P<id>[rs]\d+)\b\s*(?:(?:until|till|til|through)\s+(?P<until>.+?))?[\s.!]*$",
    re.IGNORECASE,
)
_RESUME_ONE = re.compile(
    r"^\s*(?:resume|unpause|restart|continue)\s+(?P<id>[rs]\d+)\b[\s.!]*$", re.IGNORECASE
)
CANCEL_ALL_CONFIRM = "cancel all my reminders: yes"
_THIS_ONE = re.compile(r"^(?:this|that|it|this one|that one|this reminder|that reminder)$", re.I)
_MOVE = re.compile(
    r"^\s*(?:move|change|shift)\s+(?:the\s+|my\s+)?(?P<what>.+?)\s+"
    r"(?:one\s+|reminder\s+)?to\s+(?P<to>.+?)[\s.!]*$",
    re.IGNORECASE,
)
# "actually make that 11", "move it to Thursday": the reminder just set, else the one just sent.
_THAT = re.compile(
    r"^\s*(?:(?:actually|no|sorry|oh)[\s,]+)*(?:make|change|move|set)\s+(?:it|that|this)"
    r"(?:\s+one|\s+reminder)?\s+(?:to\s+|for\s+|at\s+)?(?P<to>.+?)[\s.!]*$",
    re.IGNORECASE,
)
_QUIET = re.compile(
    r"^\s*(?:please\s+)?(?:don'?t|do not|never)\s+(?:message|text|ping|contact|remind|write)"
    r"(?:\s+to)?\s+me\s+(?P<side>before|after)\s+(?P<at>.+?)[\s.!]*$",
    re.IGNORECASE,
)
_DONE = re.compile(
    r"^\s*(?:done|did it|finished|all done|got it)(?:\s+r\d+)?\s*[.!]*\s*$", re.IGNORECASE
)
_CLOCK = re.compile(r"^(?P<h>\d{1,2})(?::(?P<m>\d{2}))?\s*(?P<ap>am|pm|a\.m\.|p\.m\.)?$", re.I)
_ID_SUFFIX = re.compile(r" \(id [^)]*\)$")
_DUE_LINE = re.compile(
    r"^- \[(?P<word>DUE|OVERDUE) (?P<at>[^\]]+)\](?: \(reminded [^)]*\))? (?P<what>.*)$",
    re.MULTILINE,
)
_MOVED_HERE = re.compile(r"^- Session timezone: (?P<zone>\S+) \(from this message\)$", re.M)
"""The runtime block's line when the person's message put them in a place (`clockcore.envelope`)."""
_USER_ZONE = re.compile(r"^- User timezone: (?P<zone>[\w/+-]+)$", re.MULTILINE)
_NOW_LINE = re.compile(r"^- Current time: (?P<at>\S+ \S+) (?P<zone>\S+) ", re.MULTILINE)


class RulesProvider:
    """Answers directives, reminders and time questions without a model."""

    name = "rules"

    def __init__(self) -> None:
        self._ids = count(1)

    async def complete(self, messages: Sequence[Message], tools: Sequence[ToolSpec]) -> Completion:
        last = messages[-1]
        if last.role == "tool":
            if last.name == "set_timezone" and "error" not in last.content:
                # The city it asked for: now the request that needed it (docs/talking.md).
                pending = _pending(messages)  # only a request that waited for the zone
                request = pending.request if pending.kind == "zone" else ""
                if request and _REMIND.match(request):
                    block = _split(_newest_user(messages).content)[0]
                    return await asyncio.to_thread(self._answer, block, request)
            follow = self._follow_up(last, _newest_text(messages), messages)
            language = _reply_language(messages)
            done = _after_tool(last, language, _split(_newest_user(messages).content)[0])
            return follow or _say((_zone_said(messages) + done).strip())
        block, text = _split(last.content)
        if due := _PROACTIVE.search(text):
            what = due["what"].strip()
            # "den Klempner" says no language: the conversation's is the one (issue 61).
            language = _language_of(what, _spoken_before(messages[:-1]))
            return _say(said.REMINDER_DUE.in_(language, what=what))
        pending = _pending(messages)
        if pending.kind and _small_talk(text):  # "hola": the question stays, asked again
            return _say(_asked_again(pending, text))
        if pending.kind == "cancel_all":  # its question was "cancel them all?"
            if _YES.match(text):
                return self._call("cancel_reminder", id="all")
            if no := words.matching(words.DECLINE, words.plain(text)):
                asked_in = _language_of(pending.request)
                return _say(said.NOTHING_CANCELED.in_(asked_in if asked_in in no else no[0]))
        if pending.kind == "when" and (asked := self._when(pending, text, block)) is not None:
            return asked
        if pending.kind == "place" and (no := words.matching(words.DECLINE, words.plain(text))):
            asked_in = _language_of(pending.request)  # "Atlantis, ZA?" "nein"
            return _say(said.PLACE_DECLINED.in_(asked_in if asked_in in no else no[0]))
        if pending.kind == "which" and (chosen := _chosen(pending.what, text)) is not None:
            # "Which Barcelona?" "Spain" (or "ES", "Europe/Madrid"): the request, said so.
            text = pending.request.replace(pending.what, chosen, 1)
            return await asyncio.to_thread(self._answer, block, text)
        if pending.kind == "place" and _YES.match(text):  # "Atlantis, ZA?" "yes"
            text = pending.request.replace(pending.what, pending.choices[0], 1)
            return await asyncio.to_thread(self._answer, block, text)
        if (answer := _answering(pending, text)) is not None:
            kind, value = answer
            if kind == "zone":
                return self._call("set_timezone", zone=value, scope="home")
            text = value
        text = _continued(pending.request, text)
        # Reading the text may wait for Duckling's child process: off the event loop.
        return await asyncio.to_thread(self._answer, block, text, _spoken_before(messages[:-1]))

    async def aclose(self) -> None:
        """Nothing to close."""

    def _call(self, name: str, **arguments: object) -> Completion:
        call = ToolCall(f"rules-{next(self._ids)}", name, json.dumps(arguments))
        return Completion(
            message=Message(role="assistant", tool_calls=(call,)),
            prompt_tokens=None,
            cached_tokens=None,
            completion_tokens=None,
            stop_reason="tool_use",
        )

    def _answer(self, block: str, text: str, before: str = "en") -> Completion:
        if (city := _HOME_CITY.match(text)) and (zone := _zone_for(city["place"])) is not None:
            # "clock: home tz Lisbon": a city that maps to one zone is that zone (docs/talking.md).
            return self._call("set_timezone", zone=zone, scope="home")
        if city and (of_city := _several(city["place"])):
            return _say(_which(city["place"], of_city, _language_of(text)))
        directives = parse_directives(text)
        if directives.any:  # "clock it: joggen gehen" says no language: the conversation's does
            return _say(_directive_reply(directives, block, _language_of(text, before)))
        text = words.plain(text)  # "⏰ remind me…", "¿qué hora es en Tokio?"
        language = _language_of(text, before)  # "cosa c'è" alone says none: the conversation's
        if unsure := _first_unsure(text):
            _, town, zone = unsure
            return _say(said.PLACE_UNSURE.in_(language, town=town, zone=zone))
        if several := _first_several(text):
            return _say(_which(*several, language))
        if home := words.first(words.LIVE_IN, text):
            zone = _zone_for(home[1]["place"])
            if zone is None:
                return _say(said.NO_PLACE.in_(language, place=home[1]["place"].strip()))
            return self._call("set_timezone", zone=zone, scope="home")
        if reminders := self._reminders(text, block):
            return reminders
        if wake := words.first(words.WAKE, text):
            rest = _morning(wake[1]["rest"], wake[0])
            return self._reminder(rest, wake[0], what=words.WAKE_TEXT[wake[0]], block=block)
        if alarm := words.first(words.ALARM, text):
            language, rest = alarm[0], alarm[1]["rest"]
            return self._reminder(rest, language, what=words.ALARM_TEXT[language], block=block)
        if label := words.first(words.LABEL, text):
            return self._reminder(label[1]["rest"], label[0], block=block)
        if remind := _REMIND.match(text) or _remind_later(text):
            written = next(
                name
                for name, got in remind.groupdict().items()
                if got and name not in ("rest", "before")
            )
            rest = remind["rest"]
            if "before" in remind.groupdict():
                rest = f"{remind['before']} {rest}"
            return self._reminder(rest, guess_language(text) or written, block=block)
        if between := words.first(words.DIFFERENCE, text):
            return _say(_difference(block, between[1]["a"], between[1]["b"], language))
        if (until := _how_long(block, text, language)) is not None:
            return _say(until)
        if asked := words.first(words.TIME_IN, text):
            found = asked[1].groupdict()
            place = (found.get("place") or found.get("at") or "").strip()
            if not place:
                return self._call("current_time")
            zone = _zone_for(place)
            if zone is None:
                return _say(said.NO_PLACE.in_(language, place=place))
            return self._call("current_time", zone=zone)
        if upcoming := words.first(words.UPCOMING, text):
            return _say(_coming_up(block, words.said_in(text) or upcoming[0]))
        here = words.first(words.HERE, text)
        if moved := _MOVED_HERE.search(block):
            # "I'm in Lisbon this week": the wrapper keeps the place as this thread's zone
            # (docs/clock-spec.md §4.2); say so, never that it cannot help.
            language = here[0] if here else language
            return _say(said.THREAD_ZONE_SET.in_(language, zone=moved["zone"]))
        if (
            here
            and (zone := _zone_for(here[1]["place"], shortest=3))
            and not _unsure(here[1]["place"])
        ):
            # "je suis à Montréal cette semaine", which the wrapper's reading of a place
            # ("in <place>") does not take: this conversation's zone, as it would be.
            return self._call("set_timezone", zone=zone, scope="thread")
        return _say(said.NEEDS_LLM.in_(language))

    def _reminders(self, text: str, block: str = "") -> Completion | None:
        """A request about reminders already set, or None."""
        if _LIST.search(text) or words.first(words.LIST, text):
            return self._call("list_reminders")
        if again := _AGAIN.match(text):
            return self._call("snooze", until=_later(again["when"]))
        if (named := _SNOOZE_NAMED.match(text)) and not _THIS_ONE.match(named["what"]):
            return self._call("list_reminders")  # "snooze the dentist one for an hour"
        if snooze := _SNOOZE.match(text):
            if snooze["id"]:
                return self._call("snooze", id=snooze["id"], until=_later(snooze["when"]))
            return self._call("snooze", until=_later(snooze["when"]))
        if other := words.first(words.SNOOZE, text):
            language, snooze = other
            when = snooze["when"].strip()
            # "30 Minuten" is a span: the tool reads it in the conversation's language
            later = (f"{words.IN[language]} {when}" if when[:1].isdigit() else when) or (
                "in 10 minutes"
            )
            if snooze["id"]:
                return self._call("snooze", id=snooze["id"], until=later)
            return self._call("snooze", until=later)
        if one := _PAUSE_ONE.match(text):
            if one["until"] is None:
                return self._call("pause_reminders", id=one["id"])
            return self._call("pause_reminders", id=one["id"], until=one["until"].strip())
        if one := _RESUME_ONE.match(text):
            return self._call("pause_reminders", id=one["id"], resume=True)
        if pause := _PAUSE.match(text) or _table_match(words.PAUSE, text):
            if pause["until"] is None:
                return _say(said.PAUSE_UNTIL.in_(_language_of(text)))
            return self._call("pause_reminders", until=pause["until"].strip())
        if _RESUME.match(text) or words.first(words.RESUME, text):
            return self._call("pause_reminders", resume=True)
        if quiet := _QUIET.match(text):
            at, question = _hour(quiet["at"], twenty_four=False)
            if at is None:
                return _say(question)
            side = "start" if quiet["side"].lower() == "before" else "end"
            return self._call("set_contact_window", **{side: at})
        if hours_said := words.first(words.HOURS, text):
            language, hours = hours_said
            evident = _past_noon(hours["start"]) or _past_noon(hours["end"])
            start, ask_start = _hour(hours["start"], twenty_four=evident, language=language)
            end, ask_end = _hour(hours["end"], twenty_four=evident, language=language)
            if start is None or end is None:
                return _say(ask_start if start is None else ask_end)
            return self._call("set_contact_window", start=start, end=end)
        if _DONE.match(text):
            return _say(said.MARKED_DONE.in_(_language_of(text)))
        if cancel := _cancel(text):
            what = cancel["what"].strip()
            if not what or _THIS_ONE.match(what):
                return self._call("cancel_reminder")
            if parse_reminder_id(what) is not None:
                return self._call("cancel_reminder", id=what)
            if (every := _ALL.match(what)) and every["yes"]:
                return self._call("cancel_reminder", id="all")
            return self._call("list_reminders")
        if _repeat_it(text) or _move(text) or _that(text):
            return self._call("list_reminders")
        return None

    def _follow_up(
        self, result: Message, text: str, messages: Sequence[Message] = ()
    ) -> Completion | None:
        """After `list_reminders`: the change the person asked for, on the one reminder meant."""
        if result.name != "list_reminders":
            return None
        try:
            listed = json.loads(result.content).get("reminders", [])
        except (json.JSONDecodeError, AttributeError):
            return None
        if cancel := _cancel(text):
            if _ALL.match(cancel["what"].strip()):
                language = _language_of(text)
                if not listed:
                    return _say(said.NO_REMINDERS.in_(language))
                listing = _listing(listed, language).partition("\n")[2]
                return _say(said.CANCEL_ALL_ASK.in_(language, count=len(listed), listing=listing))
            found = _matching(listed, cancel["what"], _language_of(text))
            if isinstance(found, str):
                return _say(found)
            return self._call("cancel_reminder", id=found["id"])
        if (named := _SNOOZE_NAMED.match(text)) and not _THIS_ONE.match(named["what"]):
            found = _matching(listed, named["what"], _language_of(text))
            if isinstance(found, str):
                return _say(found)
            when = named["when"].strip()
            until = f"in {when}" if named["for"].lower() == "for" else when
            return self._call("snooze", id=found["id"], until=until)
        if (every := _repeat_it(text)) is not None:
            # "make it every other week": the one just set, else the one just sent, in place.
            hit = _just_set(messages, listed)
            if hit is None:
                return self._call("remind", id="this", text="", when=every)
            return self._call("remind", id=hit["id"], text=hit["text"], when=every)
        if that := _that(text):
            hit = _just_set(messages, listed)
            to = _clock_words(that["to"])
            if hit is None:  # the one just sent; a bare hour is its next one ("move it to 11")
                return self._call("snooze", until=f"at {to}" if _CLOCK.match(to) else to)
            return self._move_one(hit, to)
        if move := _move(text):
            language = _language_of(text)
            return self._move(listed, move["what"], _clock_words(move["to"]), language)
        return None

    def _move(
        self, listed: list[dict[str, object]], what: str, to: str, language: str = "en"
    ) -> Completion:
        source = _CLOCK.match(what.strip())
        if source is None:
            found = _matching(listed, what, language)
            if isinstance(found, str):
                return _say(found)
            hits = [found]
        else:
            hits = [r for r in listed if _same_clock(r.get("next"), source)]
        hits = [r for r in hits if str(r.get("id", "")).startswith("r")]
        if len(hits) != 1:
            return _say(said.WHICH_ONE_SHOT.in_(language, what=what))
        return self._move_one(hits[0], to, source)

    def _move_one(
        self, hit: dict[str, object], to: str, source: re.Match[str] | None = None
    ) -> Completion:
        """Move `hit` to `to`, keeping what `to` does not name: its day, its time, its half day."""
        next_at = datetime.fromisoformat(str(hit["next"]))
        target = to.strip()
        wanted = _CLOCK.match(target)
        if wanted is not None and wanted["ap"] is None and source is not None and source["ap"]:
            target = f"{target}{source['ap']}"  # "to 4" after "3pm" is 4pm
        # Any other bare hour is the reader's rule near the reminder's time (docs/time-rules.md):
        # "make that 11" at 09:00 is 11:00, "make it 4" at 15:00 is 16:00.
        if wanted is not None and wanted["ap"] is None and source is None:
            target = _nearest_half(target, next_at)
        if wanted is not None:
            target = f"{next_at:%Y-%m-%d} at {target}"  # the same day
        elif _day_without_time(target):
            target = f"{target} at {next_at:%H:%M}"  # its own time (docs/reminders.md)
        return self._call("snooze", id=hit["id"], until=target)

    def _when(self, pending: _Pending, text: str, block: str) -> Completion | None:
        """The reminder `pending` asked the time of, set at `text`; asked again; or None.

        "gegen 6" asks "morning or evening?", "vers 6" (no time read) asks again, and
        both keep the question open; a message that is a request of its own is None.
        """
        answer = words.plain(text)
        if not _an_answer(answer):
            return None
        language = pending.language
        known = _block_now(block)
        if known is None:
            return None
        now, zone = known
        if (settled := _hour_settled(pending.request, answer, language)) is not None:
            return self._call("remind", text=pending.what, when=settled)
        read = parse_anchored_time(answer, zone, now, language=language)
        if read.needs_clarification and (hour := re.search(r"\b(\d{1,2})\b", answer)):
            h = int(hour[1]) % 12
            return _say(said.MORNING_OR_EVENING.in_(language, am=f"{h:02d}:00", pm=f"{h + 12}:00"))
        if read.start_instant is None or read.kind not in ("absolute", "relative"):
            if not re.search(r"\d", answer):
                return None  # no time, and no number: a message of its own
            return _say(said.WHEN_UNREAD.in_(language, text=answer))
        return self._call("remind", text=pending.what, when=answer)

    def _reminder(
        self, rest: str, language: str, what: str | None = None, block: str = ""
    ) -> Completion:
        """Set a reminder from `rest` (what and when); `what`, when given, is its text."""
        repeat = _repeating(rest, language)
        if repeat is not None:
            content, every = repeat
            return self._call("remind", text=what or content, when=every)
        if (impossible := _no_such_day(rest, language)) is not None:
            day, month, _ = impossible
            return _say(said.NO_SUCH_DAY.in_(language, day=day, month=month))
        found = locate_time(rest, language=language)
        if found is None:
            return _say(said.WHEN_ASK.in_(language))
        what = what or _content(without_time(rest, found))
        # Not read whole ("every Monday at 9am"): the tool reads it all, and asks.
        when = found.text if found.whole else rest.strip()
        return self._call("remind", text=what, when=when)


_PART_OF_DAY = re.compile(
    r"\b(?:tonight|morning|afternoon|evening|night|noon|midday|midnight)\b", re.I
)


_ANSWER_PARTS = {
    **PART_OF_DAY, "am": "morning", "pm": "evening", "manana": "morning", "noite": "evening"
}  # fmt: skip
"""A part of the day alone, answering "morning or evening?": "por la mañana" is the morning,
and "à noite" the evening (18:00 for a 6), as "por la noche" is: the night's own reading
of a 6 is 06:00 ("às 3 da noite" is 03:00), which no one answering "evening?" means."""


_HOUR_WRITTEN = re.compile(
    r"(?<![\d:.])(\d{1,2})(?:[:h](\d\d))?(?:\s*+(?:h|u|uhr)\b)?(?![\d:.])", re.IGNORECASE
)


def _hour_settled(request: str, answer: str, language: str) -> str | None:
    """The request's time, its one bare hour settled by the part of the day `answer` names.

    "por la tarde" answering "'a eso de las 6': morning or evening?" is 18:00, the
    evening reading of the hour asked about, not the afternoon's own 15:00;
    "abends" after "gegen 6" the same (docs/talking.md).
    """
    if re.search(r"\d", answer):
        return None
    said = (fold(w) for w in re.findall(r"[^\W\d_]+", answer))
    parts = {_ANSWER_PARTS[w] for w in said if w in _ANSWER_PARTS}
    found = locate_time(request, language=language)
    if len(parts) != 1 or found is None:
        return None
    # The hour with its minutes and its own mark ("6h", "6h30", "6 Uhr", "6u"): all of it is
    # replaced, so "vers 6h" becomes "vers 18:00", not "vers 18:00h".
    hours = list(_HOUR_WRITTEN.finditer(found.text))
    settled = settle_hour(int(hours[0][1]), parts.pop()) if len(hours) == 1 else None
    if settled is None:
        return None
    at = f"{settled:02d}:{hours[0][2] or '00'}"
    return found.text[: hours[0].start()] + at + found.text[hours[0].end() :]


_LONGEST = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


@cache
def _month_names(language: str) -> tuple[re.Pattern[str], dict[str, int]]:
    """A day and a month's name ("31 February", "feb 31", "31. Februar", "31 de febrero") in
    `language` and English, and each name's month (Babel's CLDR names)."""
    from babel.dates import get_month_names

    months: dict[str, int] = {}
    for locale in {language if language in SPOKEN_LANGUAGES else "en", "en"}:
        for width in ("wide", "abbreviated"):
            for number, name in get_month_names(width, locale=locale).items():
                months[fold(name).rstrip(".")] = number
    names = "|".join(re.escape(n) for n in sorted(months, key=len, reverse=True))
    day = r"(?P<day>\d{1,2})(?:st|nd|rd|th|er|e|º|\.)?"
    pattern = re.compile(
        rf"(?<![\w/.-]){day}\s+(?:(?:de|of)\s+)?(?P<month>{names})\.?(?![^\W\d_])"
        rf"|(?<![^\W\d_])(?P<month2>{names})\.?\s+(?:the\s+)?(?P<day2>\d{{1,2}})(?![\d:.])"
    )
    return pattern, months


def _no_such_day(text: str, language: str) -> tuple[int, str, tuple[int, int] | None] | None:
    """(the day, its month's name, where `text` says it) when `text` names a day its month
    never has: "31 February". The place is None where folding changed the text's length."""
    pattern, months = _month_names(language)
    for found in pattern.finditer(fold(text)):
        day = int(found["day"] or found["day2"])
        month = found["month"] or found["month2"]
        if day > _LONGEST[months[month] - 1]:
            from babel.dates import get_month_names

            locale = language if language in SPOKEN_LANGUAGES else "en"
            name = str(get_month_names("wide", locale=locale)[months[month]])
            where = found.span() if len(fold(text)) == len(text) else None
            return day, name[:1].upper() + name[1:], where
    return None


def _day_without_time(text: str) -> bool:
    """ "Thursday", "June 12", "tomorrow": a day named, and no time of day, no duration."""
    kinds = {token.kind for token in scan_text(text)}
    return (
        bool(kinds & DATE_KINDS)
        and not kinds & CLOCK_KINDS
        and "relative" not in kinds
        and not _PART_OF_DAY.search(text)
    )


def _repeating(rest: str, language: str) -> tuple[str, str] | None:
    """(what to be reminded of, when it repeats) if `rest` asks for a repeating reminder."""
    if language == "en":
        repeats = [e for e in find_time_expressions(rest) if "recurrence" in e.parts]
        # The first repeat said is the rule; a later one is part of the text: "every
        # Monday at 9am to send the weekly report" (docs/reminders.md).
        repeat = repeats[0] if repeats else None
        if repeat is None or not (repeat.whole or len(repeats) > 1):
            return None
        return _content(rest[: repeat.start] + " " + rest[repeat.end :]), repeat.text
    if parse_recurrence(rest, "UTC", _ANY_TIME, language=language).kind == "invalid":
        return None
    left = without_frames(rest, language)
    found = locate_time(left, language=language)
    words = without_time(left, found) if found is not None else left
    what = _content(words)
    # The rule is what was written less what to be reminded of: "cada lunes a las 9".
    at = rest.rfind(what)
    every = rest[:at] + rest[at + len(what) :] if at >= 0 and what != "your reminder" else rest
    return what, _TRAILING_JOINER.sub("", " ".join(every.split())).strip(" .!?,")


_TRAILING_JOINER = re.compile(
    r"(?<!\s)(?<!\sà)(?<!\s(?:to|of|de|d'|an|di|om))(?<!\s(?:que|aan|per|pra))"
    r"(?<!\s(?:that|para))(?<!\s(?:about|sobre))"
    r"(?:\s++(?:to|that|about|of|que|de|d'|an|à|di|aan|om|per|para|pra|sobre))+\s*+$",
    re.I,
)
"""The joiners that end a rule ("cada lunes a las 9 para"). The run is entered only after a
word that is no joiner (the lookbehinds, one per length): entered after each joiner, 10 KB
of "an  an …" took 1.1 s (docs/SECURITY.md, "Slow input")."""


_ANY_TIME = datetime(2026, 1, 1, tzinfo=UTC)
"""Whether a text repeats does not depend on when it is read."""


def _content(what: str) -> str:
    """What to be reminded of: the words left, without the word that joined them to the time."""
    what = words.PLEASE.sub("", what.strip(" ,"))  # "stp de payer la facture"
    return _TO.sub(" ", " " + what.strip(" ,"), count=1).strip(" .!?,") or "your reminder"


def _split(content: str) -> tuple[str, str]:
    """(runtime block, what the person wrote) of a user turn."""
    if RUNTIME_BLOCK_END in content:
        block, _, text = content.partition(RUNTIME_BLOCK_END)
        return block, text.strip()
    return "", content.strip()


def _zone_for(place: str, *, shortest: int = 1) -> str | None:
    """The zone of `place`, or of its longest leading words that name one.

    "Tokyo right now" and "Berlin at the moment" name Tokyo and Berlin: the words
    after the place are dropped one at a time, never the words before it. Names of
    fewer than `shortest` letters are not looked up: "la maison" is no "LA".
    """
    if words.NOT_A_PLACE.match(place.strip(" ,")):
        return None
    said_words = place.split()
    for end in range(len(said_words), 0, -1):
        name = " ".join(said_words[:end]).strip(" ,")
        if len(name) < shortest:
            continue
        try:
            return require_zone(name)
        except ValueError:
            match = lookup_place(name)
            if match is not None:
                return match.zone  # None when ambiguous: ask, do not guess a shorter name
    return None


_SURE_POPULATION = 100_000
"""A town smaller than this, named alone, may not be the place meant ("Atlantis" is a town
near Cape Town): asked about, not guessed (docs/talking.md, "Places")."""


def _unsure(place: str) -> tuple[str, str] | None:
    """(the town, described, its zone) when `place` names only a small town, else None."""
    if words.NOT_A_PLACE.match(place.strip(" ,")):
        return None
    said_words = place.split()
    for end in range(len(said_words), 0, -1):
        name = " ".join(said_words[:end]).strip(" ,")
        try:
            require_zone(name)
            return None  # an IANA id: what it says
        except ValueError:
            match = lookup_place(name)
        if match is None:
            continue
        if match.zone is None or match.kind != "city":
            return None
        town = match.candidates[0]
        if town.population >= _SURE_POPULATION:
            return None
        region = f", {town.region}" if town.region and town.region != town.name else ""
        return f"{town.name}{region}, {town.country_code}", match.zone
    return None


def _places_in(text: str) -> list[str]:
    """The places a time question, a time difference or "I live in" names."""
    plain = words.plain(text)
    if between := words.first(words.DIFFERENCE, plain):
        return [between[1]["a"], between[1]["b"]]
    if home := words.first(words.LIVE_IN, plain):
        return [home[1]["place"]]
    if asked := words.first(words.TIME_IN, plain):
        found = asked[1].groupdict()
        place = (found.get("place") or found.get("at") or "").strip()
        return [place] if place else []
    return []


def _several(place: str) -> PlaceMatch | None:
    """The places `place` may be, when it names cities in several zones ("Barcelona": Spain
    or Venezuela), else None: asked which, never said to be unknown (docs/talking.md)."""
    if words.NOT_A_PLACE.match(place.strip(" ,")):
        return None
    match = lookup_place(place.strip(" ,"))
    return match if match is not None and match.ambiguous and match.candidates else None


def _first_several(text: str) -> tuple[str, PlaceMatch] | None:
    """(the words, the match) of the first place `text` names that is several places."""
    for place in _places_in(text):
        if (match := _several(place)) is not None:
            return place, match
    return None


def _which(place: str, match: PlaceMatch, language: str | None) -> str:
    """ "Which Barcelona do you mean: Barcelona, ES (Europe/Madrid) or …?", in `language`."""
    options = [
        f"{c.name}, {c.region + ', ' if c.region and c.region != c.name else ''}"
        f"{c.country_code} ({c.zone})"
        for c in match.candidates
    ]
    return said.PLACE_WHICH.in_(language, place=place.strip(" ,"), options="; ".join(options))


def _chosen(place: str, answer: str) -> str | None:
    """The place, said so that it is one ("Barcelona, Spain", "Europe/Madrid"), when `answer`
    picks one of the places `place` may be; else None (the answer is a request of its own)."""
    answer = words.plain(answer).strip(" ,")
    if not answer or len(answer) > 40:
        return None
    try:
        return require_zone(answer)
    except ValueError:
        pass
    folded = answer.casefold()
    several = _several(place)
    for candidate in several.candidates if several is not None else ():
        code = candidate.country_code
        if folded in (code.casefold(), _COUNTRY_SHORT.get(code)) or folded in _country_names(code):
            return f"{place}, {code}"  # "España", "Espagne", "ES"
    for said_so in (f"{place}, {answer}", answer):
        match = lookup_place(said_so)
        if match is not None and match.zone is not None:
            return said_so
    return None


_COUNTRY_SHORT = {"GB": "uk", "US": "usa", "AE": "uae"}
"""Short names of countries that Babel's names ("United Kingdom") do not give."""


@cache
def _country_names(code: str) -> frozenset[str]:
    """A country's names in the languages clockbot speaks ("spain", "españa", "espagne")."""
    return frozenset(
        name.casefold()
        for language in SPOKEN_LANGUAGES
        if (name := Locale.parse(language).territories.get(code)) is not None
    )


def _first_unsure(text: str) -> tuple[str, str, str] | None:
    """(the words, the town described, its zone) of the first small town `text` names."""
    for place in _places_in(text):
        if (unsure := _unsure(place)) is not None:
            return place, *unsure
    return None


def _coming_up(block: str, language: str | None) -> str:
    """What is due, from the runtime block's due lines, as the person reads times.

    The block's lines are what is stored (docs/reminders.md, "What is due"); its
    wall times are said again in the person's words, never as the block's stamps.
    """
    lines = []
    now_line = _NOW_LINE.search(block)
    for due in _DUE_LINE.finditer(block):
        what = _ID_SUFFIX.sub("", due["what"])
        if now_line is None:
            lines.append(f"- {what}: {due['at']}")
            continue
        zone = get_zone(now_line["zone"])
        now = datetime.fromisoformat(now_line["at"]).replace(tzinfo=zone)
        at = datetime.fromisoformat(due["at"]).replace(tzinfo=zone)
        lines.append(f"- {what}: {say_when(at, zone, now=now, language=language)}")
    if not lines:
        return said.NOTHING_DUE.in_(language)
    return said.COMING_UP.in_(language) + "\n" + "\n".join(lines)


def _directive_reply(directives: object, block: str, language: str = "en") -> str:
    from clockcore import Directives

    assert isinstance(directives, Directives)
    lines = list(directives.errors)
    if directives.clock_it:
        lines.append(DONE_CLOCKED.in_(language, text=directives.clock_it))
    if directives.kind:
        lines.append(said.THREAD_KIND_SET.in_(language, kind=directives.kind))
    if directives.thread_tz:
        lines.append(said.THREAD_ZONE_NOW.in_(language, zone=directives.thread_tz))
    if directives.home_tz:
        lines.append(said.ZONE_SET.in_(language, zone=directives.home_tz))
    if directives.mode:
        lines.append(said.CLOCK_MODE_SET.in_(language, mode=directives.mode))
    notices = [
        line[len("- Notice: ") :] for line in block.splitlines() if line.startswith("- Notice: ")
    ]
    lines += [n for n in notices if "link" in n.lower()]
    return "\n".join(lines) or said.DONE.in_(language)


def _after_tool(result: Message, language: str = "en", block: str = "") -> str:
    """What the person is told of `result`; `block` is the turn's runtime block."""
    try:
        data = json.loads(result.content)
    except json.JSONDecodeError:
        return result.content
    if data.get("error") == "zone_unknown":
        return said.ZONE_ASKED.in_(language)
    if "error" in data:
        # The person's words, never the note to the model (docs/talking.md).
        return str(data.get("ask") or SAY_NOT_DONE.in_(language))
    if result.name == "set_timezone":
        return ""  # said by `_zone_said`
    if result.name == "current_time":
        now, zone = datetime.fromisoformat(data["now"]), str(data["zone"])
        place = zone if zone_label(zone) == zone else f"{zone_label(zone)} ({zone})"
        return said.TIME_IN.in_(language, time=f"{now:%H:%M}", day=_day(now, language), place=place)
    if result.name == "remind" and data.get("already_set"):
        when = f", {data['said']}" if data.get("said") else ""
        short = short_reminder_id(str(data["id"]))
        return said.ALREADY_SET.in_(language, text=data.get("text", ""), when=when, id=short)
    if result.name == "remind" and data.get("changed"):
        nexts = "; ".join(data.get("said") or [])
        short = short_reminder_id(str(data["id"]))
        rule = say_rule(str(data["rule"]), language)
        return said.RULE_CHANGED.in_(language, text=data["text"], rule=rule, next=nexts, id=short)
    if result.name == "remind" and data.get("repeats"):
        nexts = "; ".join(data.get("said") or [_readable(at) for at in data.get("next", [])])
        short = short_reminder_id(str(data["id"]))
        return said.REPEAT_SET.in_(language, text=data["text"], next=nexts, id=short)
    if result.name == "remind":
        # The tool said it in the conversation's language (`bot.replies.conversation_language`).
        when = data.get("said") or _readable(data["at"])
        return said.REMIND_SET.in_(language, when=when)
    if result.name == "list_reminders":
        return _listing(data.get("reminders", []), language, block)
    if result.name == "snooze":
        until = _when_said(data, "until", language)
        if data.get("moved"):
            return said.MOVED.in_(language, text=data["text"], until=until)
        return said.SNOOZED.in_(language, text=data["text"], until=until)
    if result.name == "cancel_reminder" and data.get("id") == "all":
        return said.CANCELED_ALL.in_(language, count=data.get("count", 0))
    if result.name == "cancel_reminder":
        return said.CANCELED.in_(language, id=short_reminder_id(str(data["id"])))
    if result.name == "set_contact_window":
        return said.CONTACT_HOURS.in_(language, window=data["contact_window"], zone=data["zone"])
    if result.name == "pause_reminders":
        if data.get("resumed"):
            return said.RESUMED.in_(language)
        until = data.get("until") and _when_said(data, "until", language)
        if not until:
            return said.PAUSED_OPEN.in_(language)
        held = [
            said.HELD_ONE.in_(language, text=h["text"], was=h["was"])
            for h in data.get("held") or []
        ]
        paused = said.PAUSED.in_(language, until=until)
        return paused + (f" {said.HELD.in_(language)}\n" + "\n".join(held) if held else "")
    return said.DONE.in_(language)


def _listing(reminders: list[dict[str, object]], language: str = "en", block: str = "") -> str:
    """The reminders as a list. A repeating one whose zone (its own, or the person's home
    zone for one that follows them) is not the conversation's is said in that zone, named,
    rule and next time alike: "every day at 09:00" beside an 08:00 read in Lisbon said
    neither which 09:00 nor why (issue 61)."""
    now = _block_now(block)
    home = _USER_ZONE.search(block)
    if not reminders:
        return said.NO_REMINDERS.in_(language)
    lines = []
    for r in reminders:
        own = str(r.get("zone") or "")
        if own == "floating":
            own = home["zone"] if home else ""
        elsewhere = now is not None and bool(r.get("repeats")) and own not in ("", now[1])
        if elsewhere and now is not None and r.get("next"):
            at = datetime.fromisoformat(str(r["next"]))
            next_at = say_when(at, own, now=now[0], language=language)
            when = said.LISTED_NEXT.in_(language, when=next_at)
        elif r.get("next"):
            when = said.LISTED_NEXT.in_(language, when=_when_said(r, "next", language))
        else:
            when = said.LISTED_PAUSED.in_(language)
        repeats = ""
        if r.get("repeats"):
            rule = say_rule(str(r["repeats"]), language)
            repeats = f" ({rule}, {own})" if elsewhere else f" ({rule})"
        shown = short_reminder_id(str(r["id"])) if r.get("id") else "new"
        lines.append(f"- {shown}: {r['text']}{repeats}, {when}")
    return said.LISTING.in_(language) + "\n" + "\n".join(lines)


def _just_set(
    messages: Sequence[Message], listed: list[dict[str, object]]
) -> dict[str, object] | None:
    """The one-shot reminder this thread's newest ``remind`` set, if it is still to come."""
    for message in reversed(messages):
        if message.role != "tool" or message.name != "remind":
            continue
        try:
            data = json.loads(message.content)
        except json.JSONDecodeError:
            return None
        if isinstance(data, dict) and data.get("repeats") and data.get("id"):
            # Repeating (or just made so): its id, which stays (docs/reminders.md).
            same = [r for r in listed if r.get("id") == data["id"]]
            return same[0] if len(same) == 1 else None
        if not isinstance(data, dict) or "at" not in data:
            return None
        # Its words, since it may have moved already; its time too where two share them.
        same = [r for r in listed if r.get("text") == data.get("text")]
        if len(same) > 1:
            same = [r for r in same if r.get("next") == data["at"]]
        return same[0] if len(same) == 1 else None
    return None


@dataclass(frozen=True, slots=True)
class _Pending:
    """The question clockbot left open in the thread, as a value (docs/talking.md).

    Attributes:
        kind: "zone" (which city), "when" (a reminder without a time), "clocks" (a
            time the clocks skip or repeat), "means" (which date), "cancel_all",
            "place" (a small town: that one?), "which" (a name of several places), or ""
            when nothing is pending.
        request: What the person had written that the question is about.
        said: What clockbot said last (only "means" is still read from it: the reader
            raises that question as words).
        choices: For "clocks", the instants offered, ISO, in the question's order;
            for "place", the town's zone.
        what: For "when", what to be reminded of; for "place" and "which", the words
            that named it.
        language: For "when", the language of the request, which its answer is read in.
    """

    kind: str
    request: str
    said: str = ""
    choices: tuple[str, ...] = ()
    what: str = ""
    language: str = "en"


_CARRIED = 3
"""How many unreadable answers in a row keep a "when" question open."""


def _pending(messages: Sequence[Message], carried: int = 0) -> _Pending:
    """The question clockbot asked in the turn before the newest message, if one is open.

    It stays pending until the next message answers or replaces it: the thread's
    history is where it is kept, in the request, the tool calls and the tool results
    of that turn. A short answer it could not read ("vers 6"), asked about again,
    leaves a "when" question open for the next message.
    """
    newest = max((i for i, m in enumerate(messages) if m.role == "user"), default=0)
    # A greeting or a thank-you in between answers nothing and replaces nothing: the
    # question before it is still the one open ("Which city are you in?" "hola" "Madrid").
    while (before := _user_before(messages, newest)) is not None and _small_talk(
        _split(messages[before].content)[1]
    ):
        newest = before
    spoken, results, remind_text = "", [], ""
    for at in range(newest - 1, -1, -1):
        message = messages[at]
        if message.role == "tool":
            results.append(tool_error(message.content))
        elif message.role == "assistant":
            spoken = spoken or message.content
            for call in message.tool_calls:
                if call.name == "remind":
                    remind_text = str(_arguments(call).get("text") or remind_text)
        elif message.role == "user":
            request = _split(message.content)[1]
            break
    else:
        return _Pending("", "", spoken)
    language = _language_of(request)
    for error in results:
        if error.get("error") == "zone_unknown":
            return _Pending("zone", request, spoken)
        if choices := error.get("choices"):
            return _Pending("clocks", request, spoken, tuple(str(c) for c in choices))
        if error.get("ask") and remind_text and not _MEANS.match(str(error["ask"])):
            # The tool asked about the time of the reminder the rules agent asked for.
            earlier = _pending(messages[: at + 1], carried + 1) if carried < _CARRIED else None
            if earlier is not None and earlier.kind == "when":
                language = earlier.language
            return _Pending("when", request, spoken, what=remind_text, language=language)
    if spoken.rstrip().endswith(CITY_QUESTION):
        return _Pending("zone", request, spoken)
    if _asked_to_cancel_all(request):
        return _Pending("cancel_all", request, spoken)
    if not results and (several := _first_several(request)):
        return _Pending("which", request, spoken, what=several[0].strip(" ,"))
    if not results and (unsure := _first_unsure(request)):
        return _Pending("place", request, spoken, choices=(unsure[2],), what=unsure[0])
    if not results and (what := _without_time(request)):
        return _Pending("when", request, spoken, what=what, language=language)
    if _MEANS.match(spoken.strip()):
        return _Pending("means", request, spoken)
    if not results and carried < _CARRIED and _an_answer(request):
        earlier = _pending(messages[: at + 1], carried + 1)
        if earlier.kind == "when":
            return earlier
    return _Pending("", request, spoken)


def _user_before(messages: Sequence[Message], at: int) -> int | None:
    """The index of the person's message before `messages[at]`, if there is one."""
    return next((i for i in range(at - 1, -1, -1) if messages[i].role == "user"), None)


def _small_talk(text: str) -> bool:
    """Whether `text` is only a greeting or a thank-you ("hi", "hola", "merci")."""
    plain = words.plain(text)
    return len(plain) <= 60 and words.first(words.SMALL_TALK, plain) is not None


def _asked_again(pending: _Pending, text: str) -> str:
    """The open question said again after a greeting or a thank-you, in the words it was
    asked in, after a word back in the request's language (else the greeting's): one
    language in one reply."""
    plain = words.plain(text)
    greeted = words.first(words.SMALL_TALK, plain)
    language = words.said_in(pending.request) or (greeted[0] if greeted else "en")
    back = (said.THANKED if words.first(words.THANKS, plain) else said.GREETED).in_(language)
    question = pending.said.strip()
    if not question:
        question = (said.ZONE_ASKED if pending.kind == "zone" else said.WHEN_ASK).in_(language)
    return f"{back} {question}"


def _arguments(call: ToolCall) -> dict[str, object]:
    try:
        arguments = json.loads(call.arguments)
    except json.JSONDecodeError:
        return {}
    return arguments if isinstance(arguments, dict) else {}


def _an_answer(text: str) -> bool:
    """Whether `text` is short and no request of its own: an answer, read or not."""
    plain = words.plain(text)
    return (
        0 < len(plain) <= 30
        and not _REMIND.match(plain)
        and not any(words.matching(table, plain) for table in words.HINTS)
        and not any(request.match(plain) for request in _OWN_REQUESTS)
    )


_OWN_REQUESTS = (_LIST, _SNOOZE, _PAUSE, _RESUME, _CANCEL, _MOVE, _THAT, _QUIET, _HOME_CITY)
"""The English requests outside `words.HINTS`: "don't message me after 9pm" after "When should
I remind you?" is a request of its own, not an answer to it."""


def _without_time(request: str) -> str:
    """What to be reminded of, when `request` asked for a reminder and said no time."""
    remind = _REMIND.match(words.plain(request))
    if remind is None:
        return ""
    language = next(k for k, v in remind.groupdict().items() if v and k != "rest")
    language = guess_language(request) or language
    rest = remind["rest"]
    if (impossible := _no_such_day(rest, language)) is not None and impossible[2] is not None:
        # "on 31 February at 10am to pay rent", asked which day: its answer is the time.
        start, end = impossible[2]
        rest = _date_mark_cut(rest[:start], language) + rest[end:]
        found = locate_time(rest, language=language)
        return _content(without_time(rest, found) if found is not None else rest)
    if _repeating(rest, language) is not None or locate_time(rest, language=language):
        return ""
    if (vague := unclear_approximation(rest)) is not None:
        rest = rest.replace(vague, " ", 1)  # "vers 6", unread: the answer's time replaces it
    return _content(rest)


_ON_A_DAY = {"en": ("on",), "nl": ("op",), "pt": ("no", "em")}
"""Words for "on" before a date that the words files do not count as a day's article."""


def _date_mark_cut(before: str, language: str) -> str:
    """`before` (the words before a date that is cut out) without the word that tied the date
    in: "remind me on 31 February to pay rent", asked which day, is "pay rent", not "on pay
    rent" ("am", "el", "le", "il", "no dia", "op" the same)."""
    try:
        marks = (*tables(language).DAY_ARTICLES, *_ON_A_DAY.get(language, ()))
    except KeyError:
        marks = _ON_A_DAY["en"]
    alternatives = "|".join(re.escape(mark) for mark in sorted(marks, key=len, reverse=True))
    return re.sub(rf"(?:^|(?<=\s))(?:{alternatives})\s*+$", "", before, flags=re.IGNORECASE)


_MEANS = re.compile(r"^Does (?P<piece>.+?) mean .+\?$")
_FIRST = frozenset(
    ("1", "first", "earlier", "erste", "ersten", "früher", "frühere", "früheren", "primera",
     "primero", "primeras", "antes", "temprano", "première", "premier", "tôt", "prima", "primo",
     "prime", "presto", "eerste", "eerder", "eerdere", "primeira", "primeiro", "primeiras", "cedo")
)  # fmt: skip
_SECOND = frozenset(
    ("2", "second", "later", "zweite", "zweiten", "später", "spätere", "späteren", "segunda",
     "segundo", "segundas", "después", "tarde", "deuxième", "second", "seconde", "tard",
     "seconda", "secondo", "dopo", "tardi", "tweede", "latere", "depois")
)  # fmt: skip


def _answering(pending: _Pending, text: str) -> tuple[str, str] | None:
    """("zone", the zone) or ("text", the request it completes) when `text` answers `pending`.

    Only a short answer that is not a request of its own: "Lisbon" after "Which city
    are you in?", "tomorrow at 6pm" or "gegen 6" after "When should I remind you?",
    "5 September" after "Does 9/5 mean 9 May or 5 September?". A time is read in the
    language of the request it answers: "vers 6" alone is no language's.
    """
    answer = text.strip().rstrip(".!")
    request = pending.request
    if not pending.kind or not answer or len(answer) > 60 or _REMIND.match(answer):
        return None
    if pending.kind == "clocks" and _REMIND.match(request):
        return _clocks_answer(pending, answer)
    if pending.kind == "zone":
        zone = _zone_for(answer)
        return ("zone", zone) if zone is not None else None
    language = guess_language(answer) or _language_of(request)
    found = locate_time(answer, language=language)
    if not _REMIND.match(request) or found is None or len(found.text) < len(answer) - 3:
        return None  # not a time, so not the answer: a request of its own
    means = _MEANS.match(pending.said.strip())
    if pending.kind == "means" and means and means["piece"] in request:
        return "text", request.replace(means["piece"], answer, 1)
    return None


def _clocks_answer(pending: _Pending, answer: str) -> tuple[str, str] | None:
    """The request, its time now the instant the person chose, when `answer` picks one.

    "03:30" or "the later one" after "02:30 … does not exist …: 01:30 or 03:30?";
    "the second" after "… happens twice …"; "the 11th", "el viernes 11" or "the first
    one" after "which Friday? Fri Dec 4 15:00 or Fri Dec 11 15:00", keeping the 15:00
    offered (docs/talking.md). The instant goes back with its offset,
    which the reader takes as it is (docs/time-rules.md): in a repeated hour no wall
    time says which of the two.
    """
    if len(pending.choices) != 2:
        return None
    options = [datetime.fromisoformat(c) for c in pending.choices]
    walls = [f"{o:%H:%M}" for o in options]
    picked = set(re.findall(r"\w+", answer.lower()))
    said = re.fullmatch(r"(?:at |um |à |a las |alle |om |às )?(\d{1,2})[:.h](\d\d)", answer.lower())
    typed = f"{int(said[1]):02d}:{said[2]}" if said else None
    days = [o.day for o in options]
    named = {int(n) for n in re.findall(r"(?<![\d:.])(\d{1,2})(?![\d:h])", answer)} & set(days)
    if typed is not None and typed in walls and walls[0] != walls[1]:
        pick = walls.index(typed)
    elif len(named) == 1 and days[0] != days[1]:  # "the 11th", "el 11", "den 11.", "le 11"
        pick = days.index(named.pop())
    elif picked & _FIRST and not picked & _SECOND:
        pick = 0
    elif picked & _SECOND and not picked & _FIRST:
        pick = 1
    else:
        return None
    request = pending.request
    found = locate_time(request, language=guess_language(request) or _language_of(request))
    if found is None or found.text not in request:
        return None
    return "text", request.replace(found.text, pending.choices[pick], 1)


def _newest_user(messages: Sequence[Message]) -> Message:
    return next(m for m in reversed(messages) if m.role == "user")


def _zone_said(messages: Sequence[Message]) -> str:
    """ "Your home timezone is now …" when this turn set it, to say before what it did next."""
    for message in reversed(messages):
        if message.role == "user":
            return ""
        if message.role == "tool" and message.name == "set_timezone":
            try:
                data = json.loads(message.content)
                zone, scope = data.get("zone"), data.get("scope")
            except (json.JSONDecodeError, AttributeError):
                return ""
            language = _reply_language(messages)
            # "je suis à Montréal cette semaine": this conversation's zone, the home's kept
            zone_set = said.THREAD_ZONE_SET if scope == "thread" else said.ZONE_SET
            return zone_set.in_(language, zone=zone) + " " if zone else ""
    return ""


def _newest_text(messages: Sequence[Message]) -> str:
    """What the person wrote in the newest user message."""
    for message in reversed(messages):
        if message.role == "user":
            return _split(message.content)[1]
    return ""


_HOUR = re.compile(
    r"^(?P<h>\d{1,2})(?:[:.h](?P<m>\d{2}))?\s*(?:(?P<ap>[ap])(?:\.?m\.?)?|h|uhr|uur)?$",
    re.IGNORECASE,
)


def _hour(text: str, *, twenty_four: bool, language: str = "en") -> tuple[str | None, str]:
    """("HH:MM", "") for an hour read whole, else (None, the question to ask, in `language`).

    "9am", "9:30 pm", "21:00", "09:00" and "22h" are read; a bare "9" or "9:00" could be
    morning or evening and is asked about, unless `twenty_four` (the other end of a range
    is past 12, so the person writes 24-hour times). Outside English, a time written with
    its minutes ("10:00", "10h30") is a 24-hour time as written (docs/reminders.md).
    """
    written = text.strip()
    found = _HOUR.match(written)
    if found is None:
        return None, said.HOUR_UNREAD.in_(language, text=written)
    hour, minute = int(found["h"]), int(found["m"] or 0)
    meridiem = (found["ap"] or "").lower()
    if hour > 24 or minute > 59 or (meridiem and not 1 <= hour <= 12):
        return None, said.HOUR_UNREAD.in_(language, text=written)
    if meridiem:
        hour = hour % 12 + (12 if meridiem == "p" else 0)
    elif (
        1 <= hour <= 12
        and not twenty_four
        and not written.startswith("0")
        and (language == "en" or found["m"] is None)
    ):
        am, pm = f"{hour}:{minute:02d}", f"{hour + 12 if hour < 12 else 0}:{minute:02d}"
        if language == "en":
            morning, evening = f"{hour}am", f"{hour}pm"
        else:
            morning, evening = f"{hour:02d}:{minute:02d}", f"{(hour + 12) % 24:02d}:{minute:02d}"
        return None, said.HOUR_WHICH_HALF.in_(
            language, am=am, pm=pm, morning=morning, evening=evening
        )
    return f"{hour % 24:02d}:{minute:02d}", ""


def _past_noon(text: str) -> bool:
    """A bare hour past 12 ("22", "21:30"): the person writes 24-hour times."""
    found = _HOUR.match(text.strip())
    return found is not None and not found["ap"] and 12 < int(found["h"]) <= 24


def _later(when: str) -> str:
    """The snooze time as written; a bare duration ("20 min") is from now; none is 10 minutes."""
    when = when.strip()
    if not when:
        return "in 10 minutes"
    return f"in {when}" if when[0].isdigit() else when


def _words(text: str) -> list[str]:
    return [w for w in re.findall(r"\w+", text.casefold()) if w not in words.FILLER]


def _matching(
    listed: list[dict[str, object]], what: str, language: str = "en"
) -> dict[str, object] | str:
    """The one reminder whose text holds every word of `what`, or what to say instead."""
    if parse_reminder_id(what) is not None:
        typed = what.strip().lower()
        hits = [
            r for r in listed if r.get("id") and typed in (r["id"], short_reminder_id(str(r["id"])))
        ]
        return hits[0] if len(hits) == 1 else said.NO_SUCH_ID.in_(language, id=what.strip())
    words = _words(what)
    hits = [r for r in listed if r.get("id") and all(w in str(r["text"]).casefold() for w in words)]
    if len(hits) == 1:
        return hits[0]
    if not hits:
        return said.NOT_FOUND.in_(language, what=what.strip())
    names = "; ".join(f"{short_reminder_id(str(r['id']))}: {r['text']}" for r in hits)
    return said.SEVERAL_MATCH.in_(language, names=names, id=short_reminder_id(str(hits[0]["id"])))


def _same_clock(iso: object, clock: re.Match[str]) -> bool:
    if not isinstance(iso, str):
        return False
    local = datetime.fromisoformat(iso)
    hour, minute = int(clock["h"]), int(clock["m"] or 0)
    meridiem = (clock["ap"] or "").replace(".", "").lower()
    if meridiem == "pm" and hour < 12:
        hour += 12
    elif meridiem == "am" and hour == 12:
        hour = 0
    return (local.hour, local.minute) == (hour, minute) or (
        not meridiem and (local.hour - 12, local.minute) == (hour, minute)
    )


def _readable(iso: str) -> str:
    """ "Thursday 30 Apr, 09:00" from an ISO instant: its wall time, no stamp, no offset."""
    instant = datetime.fromisoformat(iso)
    return f"{instant:%A} {instant.day} {instant:%b}, {instant:%H:%M}"


def _say(text: str) -> Completion:
    return Completion(
        message=Message(role="assistant", content=text),
        prompt_tokens=None,
        cached_tokens=None,
        completion_tokens=None,
        stop_reason="end_turn",
    )


def _language_of(text: str, otherwise: str = "en") -> str:
    """The language to answer `text` in: its words' (`words.said_in`), else `otherwise`.

    `otherwise` when they do not say: a short answer ("ja", "18 Uhr") is said in the
    language of the request it answers (`_reply_language`).
    """
    return words.said_in(text) or otherwise


def _spoken_before(messages: Sequence[Message]) -> str:
    """The language of the person's newest message that says one, else English."""
    for message in reversed(messages):
        if message.role == "user":
            text = _split(message.content)[1]
            if not _PROACTIVE.search(text) and (language := words.said_in(text)):
                return language
    return "en"


def _reply_language(messages: Sequence[Message]) -> str:
    """The language of the newest message, else of the request its question was about."""
    request = _pending(messages).request
    return _language_of(_newest_text(messages), _language_of(request) if request else "en")


def _remind_later(text: str) -> re.Match[str] | None:
    """ "in 20 minutes remind me to…": the request after a time, which is read with the rest."""
    found = _REMIND_LATER.match(words.ASKING_PREFIX.sub("", text))
    if found is None:
        return None
    language = next(k for k, v in found.groupdict().items() if v and k not in ("before", "rest"))
    before = found["before"].strip(" ,")
    if parse_recurrence(before, "UTC", _ANY_TIME, language=language).kind != "invalid":
        return found  # "every day at 8am remind me to…"
    read = locate_time(before, language=language)
    if read is None or len(read.text) < len(before) - 3:
        return None  # words before the request that are not its time
    return found


def _table_match(table: words.Table, text: str) -> re.Match[str] | None:
    hit = words.first(table, text)
    return hit[1] if hit else None


def _that(text: str) -> re.Match[str] | None:
    """ "actually make that 11", "muévelo al jueves": the reminder just set, to `to`."""
    plain = words.plain(text)
    return (
        _THAT.match(text)
        or _table_match(words.MOVE_IT, plain)
        or _table_match(words.MAKE_INTO, plain)
    )


def _repeat_it(text: str) -> str | None:
    """ "make it every other week", "hazlo cada dos semanas": the repeat, in the tools' words."""
    found = _table_match(words.REPEAT_IT, words.plain(text))
    return words.rhythm(found["every"]) if found is not None else None


def _cancel(text: str) -> re.Match[str] | None:
    """ "cancel the pizza reminder", "lösche r12", "annule le rappel de la pizza"."""
    return _CANCEL.match(text) or _table_match(words.CANCEL, words.plain(text))


def _asked_to_cancel_all(request: str) -> bool:
    """Whether `request` asked to cancel every reminder without confirming it ("cancel all").

    Its answer was then the question "cancel them all?", which the next message answers:
    the pending question is known from the request, not read back from its words.
    """
    cancel = _cancel(words.plain(request)) if request else None
    every = _ALL.match(cancel["what"].strip()) if cancel else None
    return every is not None and not every["yes"]


def _move(text: str) -> re.Match[str] | None:
    """ "move the bank reminder to 11", "verschiebe r12 auf 11 Uhr", "sposta r12 alle 11"."""
    return _MOVE.match(text) or _table_match(words.MOVE, words.plain(text))


_CLOCK_WORDS = re.compile(
    r"^(?:(?:at|um|om|a|à|às|as|las|la|alle|le|les|ore)\s+){0,2}(?P<h>\d{1,2})(?:[:h.](?P<m>\d\d))?"
    r"\s*(?P<ap>am|pm)?\s*(?:h|uhr|uur)?$",
    re.IGNORECASE,
)


# Not Dutch "en": a Spanish "en 20 minutos…" opens with it.
_AND = re.compile(
    r"^\s*(?:and|also|plus|y|también|und|auch|et|aussi|e|também|anche|ook)\b[\s,]*(?P<rest>.+)$",
    re.IGNORECASE,
)


def _continued(request: str, text: str) -> str:
    """`text` as a request of its own where it goes on with the reminder asked just before:
    "remind me on thursday at 3pm about the dentist", then "and wednesday night at 8 to put
    the bins out" is "remind me wednesday night at 8 to put the bins out" (issue 63's unseen
    scenarios); any other `text` as it is."""
    more = _AND.match(text)
    asked = _REMIND.match(words.plain(request)) if more and request else None
    if more is None or asked is None or asked.groupdict().get("before"):
        return text
    return f"{words.plain(request)[: asked.start('rest')].rstrip()} {more['rest']}"


def _nearest_half(target: str, next_at: datetime) -> str:
    """A bare hour (1 to 11) for a reminder just set, as the reader's rule reads it near the
    reminder's own time (`bare_hour`): "mejor a las 7" for one at 18:00 is 19:00, "make that
    11" for one at 09:00 is 11:00, "make it 4" at 15:00 is 16:00 (issue 63's unseen
    scenarios). Any other form stays as written (and may be asked about)."""
    found = _CLOCK.match(target)
    if found is None or not 1 <= int(found["h"]) <= 11:
        return target
    minute = int(found["m"] or 0)
    hour = bare_hour(int(found["h"]), minute, near=next_at.hour * 60 + next_at.minute)
    return f"{hour:02d}:{minute:02d}"


def _clock_words(to: str) -> str:
    """ "11", "11:30" or "11pm" for a clock time as written in any language ("las 11", "11 Uhr")."""
    found = _CLOCK_WORDS.match(to.strip())
    if found is None:
        return to
    return f"{found['h']}{':' + found['m'] if found['m'] else ''}{found['ap'] or ''}"


def _block_now(block: str) -> tuple[datetime, str] | None:
    """(now, the session's zone) from the runtime block's Current time line."""
    line = _NOW_LINE.search(block)
    if line is None:
        return None
    zone = line["zone"]
    return datetime.fromisoformat(line["at"]).replace(tzinfo=get_zone(zone)), zone


def _difference(block: str, first: str, second: str, language: str) -> str:
    """How far ahead of `second` the clocks of `first` are now, in the person's words."""
    from babel.dates import format_timedelta

    a, b = first.strip(" ,"), second.strip(" ,")
    for place in (a, b):
        if _zone_for(place) is None:
            return said.NO_PLACE.in_(language, place=place)
    known = _block_now(block)
    if known is None:  # no clock to read the offsets at: the block always has one
        return said.NEEDS_LLM.in_(language)
    now = known[0]
    za, zb = get_zone(str(_zone_for(a))), get_zone(str(_zone_for(b)))
    at_a, at_b = now.astimezone(za), now.astimezone(zb)
    gap = (at_a.utcoffset() or timedelta()) - (at_b.utcoffset() or timedelta())
    if not gap:
        return said.DIFFERENCE_NONE.in_(language, a=a, b=b, at_a=f"{at_a:%H:%M}")
    if gap < timedelta():
        a, b, at_a, at_b, gap = b, a, at_b, at_a, -gap
    locale = language if language in SPOKEN_LANGUAGES else "en"
    minutes = int(gap.total_seconds()) // 60
    if minutes % 60:
        span = f"{minutes // 60}:{minutes % 60:02d} h"
    else:
        span = format_timedelta(gap, threshold=2, locale=locale)  # hours, never "1 day"
    return said.DIFFERENCE_AHEAD.in_(
        language, a=a, b=b, span=span, at_a=f"{at_a:%H:%M}", at_b=f"{at_b:%H:%M}"
    )


def _how_long(block: str, text: str, language: str) -> str | None:
    """ "how long until 5pm": the time it counts to and how far off it is, or None."""
    known = _block_now(block)
    if known is None:
        return None
    now, zone = known
    counted = counts_to(text, zone, now, language=language)
    if counted is None:
        return None
    return said.HOW_LONG.in_(
        language, words=counted.words, when=say_when(counted.at, zone, now=now, language=language)
    )


def _day(at: datetime, language: str) -> str:
    """ "Wednesday 10 Jun", "Mittwoch 10 Juni": the day in the person's words (Babel's CLDR)."""
    if language not in SPOKEN_LANGUAGES or language == "en":
        return f"{at:%A} {at.day} {at:%b}"
    from babel.dates import format_date

    return format_date(at, "EEEE d MMM", locale=language)


_BARE_HOUR = re.compile(
    r"^(?:(?:at|um|om|a|à|às|as|a\s+las|alle|le|les)\s+)?\d{1,2}(?:[:.h]\d\d)?\s*(?:h|uhr|uur)?$",
    re.IGNORECASE,
)


def _morning(rest: str, language: str) -> str:
    """ "at 7" as "at 7am" in the language's words: one wakes up in the morning."""
    rest = rest.strip()
    if not _BARE_HOUR.match(rest):
        return rest
    return (
        f"{rest}{words.MORNING[language]}"
        if language == "en"
        else f"{rest} {words.MORNING[language]}"
    )


def _when_said(data: dict[str, object], key: str, language: str) -> str:
    """The tool's words for the time at `key`, else the time in `language`'s words."""
    at = str(data[key])
    if language == "en" or language not in SPOKEN_LANGUAGES:
        return str(data.get("said") or _readable(at))
    from babel.dates import format_datetime

    instant = datetime.fromisoformat(at)
    return format_datetime(instant, "EEEE d MMM, HH:mm", tzinfo=instant.tzinfo, locale=language)
