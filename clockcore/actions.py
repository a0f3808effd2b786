"""Latest actions (docs/clock-spec.md §6, §6.5, §10.3): detection, labels, durations, expiry.

A latest action is a short normalised label with a status, a source, an
expected duration and a time to live. This module decides all of that from the
user's words; the wrapper stores the result (`ActionDraft`) with its own
timestamps, ids and scope.

Decisions worth knowing:

- Detection is deliberately narrow. It fires on first-person, near-term
  statements at the start of a clause: "about to …", "heading/off to …",
  "going to sleep", "going to <verb>"/"gonna …" (only with a recognised
  activity or a near-term word such as "now" or "tonight"), "brb"/"be right
  back", "after X I'll Y", "I'm at the gym", "stepping out", "grabbing lunch",
  "time for bed". It never fires on questions, on past tense, on negations,
  on other people ("he's heading out"), on far horizons ("next month"), or on
  idioms: "I'm about to lose my mind", "going to be honest", "gonna need
  coffee" are not actions. "brb" wins over anything else in its sentence.
- Labels keep the user's words minus the scaffolding ("I'm going to eat
  dinner" → "eat dinner", "heading to the gym" → "gym", "after lunch I'll
  call the bank" → "call the bank after lunch"); sleep phrases become
  "sleep", brb phrases "be right back".
- TTL: 24 h by default; sleep 12 h, nap 4 h, brb 1 h whatever the thread; in
  a `project` thread 7 days for explicit actions ("clock it", user-confirmed)
  and for auto-detected ones without a recognised everyday activity ("about
  to deploy the release"), while "heading to lunch" in a project thread keeps
  24 h. `draft_action` then stretches the TTL to at least the expected maximum
  duration and caps it at 30 days.
- Status: "brb" and present progressive ("I'm at the gym", "grabbing lunch",
  "stepping out") are ``in_progress``; intentions ("about to", "heading to",
  "after X I'll Y") are ``planned``; an explicitly clocked past event ("clock:
  paid invoice") is ``done``; anything else is ``planned``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from types import MappingProxyType
from typing import Final, Literal, TypeVar

from clockcore.clock import as_utc
from clockcore.directives import truncate_words
from clockcore.parsing.grammar import DURATION_RE
from clockcore.parsing.grammar_values import span_minutes
from clockcore.policy import ThreadKind

__all__ = [
    "ACTIVITIES",
    "BRB_TTL",
    "DEFAULT_TTL",
    "MAX_LABEL_CHARS",
    "MAX_QUOTE_CHARS",
    "MAX_TTL",
    "NAP_TTL",
    "OPEN_STATUSES",
    "PROJECT_TTL",
    "SLEEP_TTL",
    "ActionDraft",
    "ActionSource",
    "ActionStatus",
    "Activity",
    "action_ttl",
    "classify_activity",
    "detect_temporal_action",
    "draft_action",
    "expire_status",
    "is_open",
    "normalize_label",
    "prune",
]

ActionStatus = Literal["planned", "in_progress", "likely_done", "done", "canceled", "expired"]
ActionSource = Literal["auto", "clock_it", "user_confirmed"]

OPEN_STATUSES: Final[frozenset[ActionStatus]] = frozenset({"planned", "in_progress", "likely_done"})

DEFAULT_TTL: Final = timedelta(hours=24)
SLEEP_TTL: Final = timedelta(hours=12)
NAP_TTL: Final = timedelta(hours=4)
BRB_TTL: Final = timedelta(hours=1)
PROJECT_TTL: Final = timedelta(days=7)
MAX_TTL: Final = timedelta(days=30)

MAX_LABEL_CHARS: Final = 60
MAX_QUOTE_CHARS: Final = 200

_K = TypeVar("_K")


@dataclass(frozen=True, slots=True)
class Activity:
    """A row of the activity table: how long an everyday activity usually takes.

    Attributes:
        key: the activity key ("gym", "meal:dinner"); calibration uses the same keys.
        typical_minutes: the usual duration.
        max_minutes: the longest plausible duration.
    """

    key: str
    typical_minutes: int
    max_minutes: int


@dataclass(frozen=True, slots=True)
class ActionDraft:
    """An action ready to store, minus ids, timestamps and scope (docs/clock-spec.md §6.3).

    Attributes:
        label: the short normalised label ("gym", "eat dinner", "paid invoice").
        activity: the `ACTIVITIES` key when the label names one.
        status: the initial status.
        source: how it was stored: auto-detected, "clock it", or user-confirmed.
        expected_typical_minutes: the usual duration, when the activity is known.
        expected_max_minutes: the longest plausible duration, when known.
        ttl: how long after recording the action expires.
        quote: the user's words (at most `MAX_QUOTE_CHARS`), only with store_quotes.
    """

    label: str
    activity: str | None
    status: ActionStatus
    source: ActionSource
    expected_typical_minutes: int | None
    expected_max_minutes: int | None
    ttl: timedelta
    quote: str | None


def _table(*rows: tuple[str, int, int]) -> Mapping[str, Activity]:
    return MappingProxyType({key: Activity(key, typical, most) for key, typical, most in rows})


ACTIVITIES: Final[Mapping[str, Activity]] = _table(
    ("appointment", 60, 180),
    ("bath", 30, 90),
    ("bike", 60, 180),
    ("break", 15, 60),
    ("brb", 10, 60),
    ("call", 20, 90),
    ("chores", 45, 120),
    ("class", 90, 180),
    ("coffee", 20, 60),
    ("commute", 45, 120),
    ("cook", 45, 120),
    ("drive", 60, 240),
    ("errands", 60, 180),
    ("flight", 180, 960),
    ("gym", 90, 180),
    ("meal", 45, 120),
    ("meal:breakfast", 30, 90),
    ("meal:dinner", 75, 180),
    ("meal:lunch", 45, 120),
    ("meeting", 60, 180),
    ("movie", 120, 210),
    ("nap", 30, 120),
    ("run", 45, 120),
    ("shopping", 60, 180),
    ("shower", 15, 45),
    ("sleep", 480, 720),
    ("study", 120, 240),
    ("swim", 60, 120),
    ("walk", 30, 90),
    ("work", 480, 720),
)

# --------------------------------------------------------------------------- text helpers

_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "ʼ": "'", "`": "'"})
_PUNCT = " \t\r\n.,;:!?…-–—~*_\"'()[]"


def _plain(text: str) -> str:
    """Straight apostrophes and single spaces."""
    return " ".join(text.translate(_APOSTROPHES).split())


def _words(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


_BRB = _words(
    r"\b(?:brb|bbiab|be right back|be back (?:soon|shortly|in a (?:bit|sec|second|minute|min|"
    r"moment|few|jiffy))|back in (?:a (?:sec|second|minute|min|moment|jiffy|few)|\d{1,2}|five|"
    r"ten|fifteen|twenty)(?: ?(?:m|min|mins|minutes|s|sec|secs|seconds))?(?!\s*(?:h|hours?|"
    r"days?|weeks?|months?|years?)\b))\b"
)
_SUBJECT = r"(?:i'?m|i am|we'?re|we are)"
_LEAD = _words(
    r"^(?:(?:ok(?:ay)?|so|well|alright|all right|right|anyway|anyways|btw|hey|um+|uh+|yeah|"
    r"yep|k|kk|ugh|welp|also|and|oh|ah|alrighty|cool|great|fine|guys|folks|lol)\b[\s,]*)+"
)
_HEDGE = _words(r"^(?:i think|i guess|i reckon|think|guess)\s+")
_FAR = _words(
    r"\b(?:next (?:week|month|year|summer|winter|spring|fall|autumn|semester|quarter)|"
    r"in (?:\d+|a few|a couple(?: of)?|two|three|four|five|several|some) (?:days|weeks|months|"
    r"years)|in a (?:week|month|year)|this (?:week|month|year)|someday|some day|one day|"
    r"eventually|in the future|(?:weeks|months|years) from now)\b"
)
_NEGATION = _words(r"\b(?:not|never|no longer)\b|n't\b|\b(?:wont|dont|cant|isnt|arent|aint)\b")
_NEAR = _words(
    r"\b(?:now|right now|rn|asap|soon|shortly|in a (?:bit|sec|second|minute|min|moment|few|"
    r"while)|in \d+|later|tonight|this (?:morning|afternoon|evening)|today|real quick|quickly|"
    r"first thing)\b"
)
# What follows "about to", "going to", "gonna", "I'll" that is not an action.
_NOT_ACTIONS = _words(
    r"^(?:be|lose|cry|scream|die|explode|say|tell|ask|admit|guess|assume|need|want|like|love|"
    r"hate|miss|regret|pretend|lie|think|agree|disagree|freak|flip|snap|faint|pass out|puke|"
    r"throw up|kill|murder|rage|give up|start crying|find out|hear|mention|repeat|ramble|rant|"
    r"complain|vent|happen|change|fail|break down|melt down|fall apart|respond|reply|answer|"
    r"explain|let you know|get back to you|check|try|make it|wonder|bet|bother|lose it|"
    r"have to|have a (?:breakdown|meltdown|heart attack|stroke|fit|panic attack)|"
    r"go (?:crazy|insane|nuts|mad|off|bananas|ballistic)|"
    r"get (?:fired|sick|mad|angry|crazy|lost|hurt|killed|yelled|dumped|wrecked|destroyed|"
    r"caught|rekt|owned|sued|arrested)|see(?:\s*$|\s+(?:what|if|how|whether|about)\b)|"
    r"go(?:\s+(?:now|soon|rn|right now))?\s*$)\b"
)
_ABOUT = _words(rf"^(?:{_SUBJECT}\s+)?(?:just\s+|now\s+)?about\s+to\s+(?P<act>.+)$")
_HEADING = _words(
    rf"^(?:{_SUBJECT}\s+)?(?:just\s+|now\s+|finally\s+)?"
    r"(?:(?:heading|headed)\s+(?:to|out|home|back|over|off)\b|off\s+(?:to|home)\b|"
    r"on (?:my|our|the) way\b|going\s+out\b|going\s+home\b)(?P<act>.*)$"
)
_GOING = _words(
    rf"^(?:{_SUBJECT}\s+)?(?:just\s+|now\s+|probably\s+)?"
    r"(?:going\s+to|gonna|going\s+for|going\s+on)\s+(?P<act>.+)$"
)
_SLEEP_IDIOM = _words(
    rf"^(?:{_SUBJECT}\s+)?(?:just\s+|now\s+|finally\s+)?"
    r"(?:hit(?:ting)? the (?:hay|sack)|call(?:ing)? it a night|turn(?:ing)? in)"
    r"(?:\s+(?:now|early|for the night|tonight))?$"
)
_AT = _words(
    rf"^(?P<subject>{_SUBJECT}\s+)?(?:(?:still|currently|now|just)\s+)?"
    r"(?:(?:at|in)\s+(?:(?:the|a|an|my|our)\s+)?|on\s+(?:the|a|an|my)\s+)(?P<act>.+)$"
)
_ING = _words(
    rf"^(?:{_SUBJECT}\s+)?(?:(?:just|currently|now|quickly|off)\s+)?"
    r"(?P<verb>grabbing|getting|having|eating|taking|hopping|jumping|making|cooking|doing|"
    r"watching|walking|running|hitting|catching|picking up|starting|leaving|stepping out|"
    r"popping out|logging off|signing off|clocking out)\b(?P<act>.*)$"
)
_ING_ALONE = frozenset(
    {"stepping out", "popping out", "logging off", "signing off", "clocking out"}
)
_LEAVING = _words(r"^\s*(?:for|to)\s+\S|^\s*(?:now|soon|in \d+|in a (?:bit|sec|minute|few))\b")
_TIME_FOR = _words(r"^(?:it'?s\s+|its\s+)?time\s+(?:for|to)\s+(?P<act>.+)$")
_WILL = r"(?:i'?ll|i will|we'?ll|we will|i'?m going to|i am going to|i'?m gonna|im gonna|gonna)"
_AFTER_FIRST = _words(rf"^after\s++(?P<x>.*?\S)(?:\s*+,\s++|\s++){_WILL}\s++(?P<y>.++)$")
_AFTER_LAST = _words(rf"^{_WILL}\s++(?P<y>.*?\S)\s++after\s++(?P<x>.++)$")
_CLAUSE_SPLIT = re.compile(
    r"(?:(?<!\s)\s++)?,\s*+|(?<!\s)\s++(?:but|and then|then|so|cause|because|cuz)\s+", re.I
)
_SENTENCE = re.compile(r"[^.!?;…\n]+(?P<end>[.!?;…]*)")
_MAX_SCAN = 4000


def _strip_lead(clause: str) -> str:
    clause = _LEAD.sub("", clause.strip(_PUNCT))
    return _HEDGE.sub("", clause).strip(_PUNCT)


def _meaningful(act: str) -> bool:
    """At least one word of two letters or more."""
    return any(sum(ch.isalpha() for ch in word) >= 2 for word in act.split())


def _is_action(act: str) -> bool:
    act = act.strip(_PUNCT)
    return _meaningful(act) and _NOT_ACTIONS.match(act) is None


_FILLER_WORDS = _words(
    r"^(?:(?:on|in|into|onto|to|for|at|with|the|a|an|my|our|your|some|quick|short|little|"
    r"big|small|nice|ready for|go to|go for|go|grab|get|have|take)\s+)+"
)


def _lead_activity(act: str, words: int) -> str | None:
    """The activity named in the first `words` words of `act`, after articles and the like."""
    head = _FILLER_WORDS.sub("", act.strip(_PUNCT) + " ").split()
    return classify_activity(" ".join(head[:words])) if head else None


def _clause_action(clause: str) -> bool:
    """True when one clause states a near-term first-person action."""
    if _SLEEP_IDIOM.match(clause):
        return True
    if match := _ABOUT.match(clause):
        return _is_action(match["act"])
    if _HEADING.match(clause):
        return True
    if match := _GOING.match(clause):
        act = match["act"]
        if not _is_action(act):
            return False
        return _lead_activity(act, 3) is not None or _NEAR.search(act) is not None
    if match := _TIME_FOR.match(clause):
        return _lead_activity(match["act"], 3) is not None
    if match := _AT.match(clause):
        limit = 6 if match["subject"] else 3
        act = match["act"].strip(_PUNCT)
        return len(act.split()) <= limit and _lead_activity(act, 2) is not None
    if match := _ING.match(clause):
        verb = match["verb"].lower()
        if verb in _ING_ALONE:
            return True
        if verb == "leaving":
            return _LEAVING.match(match["act"]) is not None
        head = _FILLER_WORDS.sub("", match["act"].strip(_PUNCT) + " ").split()[:2]
        return classify_activity(" ".join([verb, *head])) is not None
    return False


def detect_temporal_action(text: str) -> str | None:
    """Find a near-term temporal action the user states (docs/clock-spec.md §6.2 B).

    Args:
        text: a user message.

    Returns:
        The clause that states the action, as written minus leading fillers
        and with straight apostrophes ("I'm heading to the gym now"; for
        "after X I'll Y" the whole sentence; for brb the sentence holding it),
        or None. `normalize_label` turns it into the label.
    """
    plain = text[:_MAX_SCAN].translate(_APOSTROPHES)
    for sentence in _SENTENCE.finditer(plain):
        if "?" in sentence["end"]:
            continue
        body = _strip_lead(" ".join(sentence.group(0).split()))
        if not body or _FAR.search(body):
            continue
        if _BRB.search(body):
            return body
        if _NEGATION.search(body) is None and (
            (match := _AFTER_FIRST.match(body) or _AFTER_LAST.match(body))
            and _is_action(match["y"])
        ):
            return body
        for part in _CLAUSE_SPLIT.split(body):
            clause = _strip_lead(part)
            if clause and _NEGATION.search(clause) is None and _clause_action(clause):
                return clause
    return None


# --------------------------------------------------------------------------- activities

_ACTIVITY_PATTERNS: Final[tuple[tuple[str, re.Pattern[str]], ...]] = tuple(
    (key, _words(pattern))
    for key, pattern in (
        ("brb", _BRB.pattern),
        ("nap", r"\b(?:nap|naps|napping|power ?nap|siesta|snooze)\b"),
        (
            "sleep",
            r"\b(?:sleep|sleeping|asleep|bed|bedtime|hit(?:ting)? the (?:hay|sack)|"
            r"call(?:ing)? it a night|turn(?:ing)? in\s*$)",
        ),
        ("shower", r"\bshowers?(?:ing)?\b"),
        ("bath", r"\b(?:bath|bathing|bathe)\b"),
        (
            "cook",
            r"\b(?:cook|cooking|bake|baking|(?:make|making|fix|fixing|prep|prepping) "
            r"(?:dinner|lunch|breakfast|supper|food|a meal))\b",
        ),
        ("meal:breakfast", r"\b(?:breakfast|brunch)\b"),
        ("meal:lunch", r"\blunch\b"),
        ("meal:dinner", r"\b(?:dinner|supper)\b"),
        ("coffee", r"\b(?:coffee|espresso|latte|tea break)\b"),
        ("meal", r"\b(?:eat|eating|meal|food|snack|bite|bite to eat|takeout|take-out)\b"),
        ("errands", r"\berrands?\b"),
        ("shopping", r"\b(?:shop|shopping|groceries|grocery|supermarket|store|mall)\b"),
        (
            "gym",
            r"\b(?:gym|work ?out|working out|workout|exercise|exercising|lift weights|lifting|"
            r"yoga|pilates|crossfit|spin class)\b",
        ),
        (
            "run",
            r"\b(?:jog|jogs|jogging|marathon|(?:a|my|morning|evening|quick|short|long|easy|"
            r"\d+\s?(?:k|km|mi|miles?)) run\b|run(?:ning)?\s*$)",
        ),
        ("swim", r"\b(?:swim|swimming|pool)\b"),
        ("bike", r"\b(?:bike|biking|cycling|bike ride)\b"),
        ("walk", r"\b(?:walk|walking|stroll|hike|hiking)\b"),
        (
            "appointment",
            r"\b(?:doctor|dentist|appointment|appt|haircut|barber|hairdresser|vet|therapy|"
            r"therapist|physio)\b",
        ),
        ("meeting", r"\b(?:meeting|meetings|standup|stand-up|interview|one-on-one|all-hands)\b"),
        ("call", r"\b(?:call|calls|phone|zoom|facetime)\b"),
        ("movie", r"\b(?:movie|movies|film|cinema|theater|theatre|netflix)\b"),
        ("flight", r"\b(?:flight|fly|flying|plane|airport)\b"),
        (
            "commute",
            r"\b(?:commute|commuting|"
            r"(?:heading|headed|head|going|go|way|drive|driving|ride|back) home|"
            r"on (?:my|the) way|train|bus|subway|metro|tram)\b",
        ),
        ("drive", r"\b(?:drive|driving|road trip|car)\b"),
        ("class", r"\b(?:class|classes|lecture|school|lesson|seminar)\b"),
        ("study", r"\b(?:study|studying|homework|exam|revise|revising|revision)\b"),
        ("work", r"\b(?:work|office|shift)\b"),
        ("break", r"\b(?:(?:take|taking|a|my|quick|short) break|break time)\b"),
        (
            "chores",
            r"\b(?:laundry|chores|cleaning|clean up|dishes|vacuum(?:ing)?|tidy(?:ing)? up)\b",
        ),
    )
)


def _rewrite_after(text: str) -> str:
    """ "after lunch, I'll call the bank" → "call the bank after lunch"."""
    match = _AFTER_FIRST.match(text) or _AFTER_LAST.match(text)
    if match is None:
        return text
    return f"{match['y'].strip(_PUNCT)} after {match['x'].strip(_PUNCT)}"


def classify_activity(label: str) -> str | None:
    """The `ACTIVITIES` key a label or phrase names, or None.

    For "Y after X" only Y counts ("call the bank after lunch" is a call).

    Args:
        label: a label or phrase ("gym", "grabbing lunch", "heading home").

    Returns:
        The activity key, or None when no activity is recognised.
    """
    text = _rewrite_after(_plain(label)[:_MAX_SCAN])
    head = re.split(r"\s+after\s+", text, maxsplit=1, flags=re.IGNORECASE)[0]
    if _CANONICAL.get(head.lower().strip(_PUNCT)) == "sleep":
        return "sleep"
    for key, pattern in _ACTIVITY_PATTERNS:
        if pattern.search(head):
            return key
    return None


# --------------------------------------------------------------------------- labels

_DIRECTIVE_HEAD = _words(r"^clock(?:\s+it)?\s*[:\-–—]\s*")
_DIRECTIVE_TAIL = _words(r"[\s,;:.!…\-–—(]*(?:(?:please|pls|plz)\s+)?clock\s+it\W*$")
_PREFIX = _words(
    r"^(?:i think|i guess|i'?m|im|i am|we'?re|we are|i'?ll|i will|we'?ll|we will|i|we|just|"
    r"now|currently|still|really|finally|quickly|about to|going to|gonna|going for|going on|"
    r"going out for|(?:heading|headed)(?: back| over| down| off)? to|off to|"
    r"on (?:my|our|the) way to|(?:it'?s |its )?time (?:for|to)|gotta|have to|need to|"
    r"go to|go for|go on|go)(?:\s+|$)"
)
_TAIL_WINDOW = 80


def _strip_directives(text: str) -> str:
    """Drop a leading "clock it:"/"clock:" and a trailing ", clock it"."""
    text = _DIRECTIVE_HEAD.sub("", text, count=1)
    match = _DIRECTIVE_TAIL.search(text, max(len(text) - _TAIL_WINDOW, 0))
    return text[: match.start()] if match else text


_PLACE_PREFIX = _words(r"^(?:at|in|on)\s+(?:the|a|an)\s+(?=\S)")
_ARTICLE = _words(r"^(?:the|a|an)\s+(?=\S)")
_SUFFIX = _words(
    r"(?<!\s)(?:\s++(?:now|rn|right now|atm|real quick|quickly|soon|shortly|asap|"
    r"for a (?:bit|while|sec|second|minute|min)))+$"
)
_CANONICAL: Final[Mapping[str, str]] = MappingProxyType(
    dict.fromkeys(
        (
            "bed",
            "sleep",
            "sleep now",
            "get some sleep",
            "get some rest",
            "hit the hay",
            "hitting the hay",
            "hit the sack",
            "hitting the sack",
            "call it a night",
            "calling it a night",
            "turn in",
            "turning in",
            "asleep",
            "bedtime",
        ),
        "sleep",
    )
    | dict.fromkeys(
        ("gym", "hit the gym", "hitting the gym", "work out", "working out", "workout"), "gym"
    )
    | dict.fromkeys(("nap", "take a nap", "taking a nap", "power nap"), "nap")
)


def _strip_scaffolding(text: str) -> str:
    previous = None
    while previous != text:
        previous = text
        text = _strip_lead(text)
        text = _PREFIX.sub("", text, count=1)
        text = _PLACE_PREFIX.sub("", text, count=1)
    text = _SUFFIX.sub("", text).strip(_PUNCT)
    return _ARTICLE.sub("", text, count=1)


def normalize_label(text: str) -> str:
    """Turn the user's words into a short label (docs/clock-spec.md §6.3 "normalized label").

    Drops clock directives, "I'm", "going to", "about to", "heading to",
    leading articles, trailing "now"/"for a bit" and punctuation; rewrites
    "after X I'll Y" as "Y after X"; maps sleep phrases to "sleep" and brb to
    "be right back"; cuts to `MAX_LABEL_CHARS` at a word boundary.

    Args:
        text: the action as written ("I'm heading to the gym now!").

    Returns:
        The label ("gym"); never empty unless `text` is blank.
    """
    plain = _plain(text[:_MAX_SCAN])
    if not plain:
        return ""
    body = _strip_directives(plain)
    label: str
    if _BRB.search(body):
        label = "be right back"
    else:
        label = _strip_scaffolding(_rewrite_after(_strip_lead(body)))
        label = _CANONICAL.get(label.lower(), label)
    label = label or body.strip(_PUNCT) or plain
    return truncate_words(label, MAX_LABEL_CHARS)


# --------------------------------------------------------------------------- status, ttl

_PLANNED = _words(
    r"\b(?:about to|going to|gonna|going for|going on|going out|going home|heading|headed|"
    r"off to|off home|on (?:my|our|the) way|leaving|will|'ll|time (?:for|to)|plan to|"
    r"planning to|want to|need to|have to|gotta)\b"
)
_IN_PLACE = _words(
    rf"^(?:{_SUBJECT}\s+)?(?:(?:still|currently|now|just)\s+)?(?:(?:at|in)\s|on\s+(?:the|a|an|my)\s)"
)
_PROGRESSIVE_SUBJECT = _words(rf"^{_SUBJECT}\s+(?:(?:still|currently|now|just)\s+)?\w+ing\b")
_PROGRESSIVE_VERB = _words(
    r"^(?:(?:still|currently|now|just|quickly)\s+)?(?:grabbing|getting|having|eating|taking|"
    r"hopping|jumping|making|cooking|doing|watching|walking|running|hitting|catching|picking|"
    r"stepping|popping|working|studying|driving|shopping|showering|napping|sleeping|commuting|"
    r"swimming|jogging|cycling|biking|reading|writing|cleaning|exercising|lifting|training|"
    r"logging|signing|clocking)\b"
)
_PAST = _words(
    r"^(?:(?:i|we)\s+)?(?:(?:just|already|finally)\s+)?(?:(?!(?:speed|proceed|succeed|exceed|"
    r"embed|bleed|breed|indeed)\b)[a-z]{3,}ed|went|ate|did|had|paid|made|sent|got|took|bought|"
    r"wrote|spent|met|left|finished|done|came|saw|gave|ran|swam|slept|drove|flew|sold|told|"
    r"found|won|lost|shipped|booked)\b|\b(?:done|finished|completed|complete)$"
)


def _status_of(phrase: str) -> ActionStatus:
    text = _strip_lead(_plain(phrase[:_MAX_SCAN]))
    text = _strip_directives(text).strip(_PUNCT)
    if _BRB.search(text):
        return "in_progress"
    if _PLANNED.search(text):
        return "planned"
    if _IN_PLACE.match(text) or _PROGRESSIVE_SUBJECT.match(text) or _PROGRESSIVE_VERB.match(text):
        return "in_progress"
    if _PAST.search(text):
        return "done"
    return "planned"


def action_ttl(*, activity: str | None, thread_kind: ThreadKind, explicit: bool) -> timedelta:
    """How long an action stays stored before it expires (docs/clock-spec.md §6.4, §6.5).

    Sleep 12 h, nap 4 h and brb 1 h in every thread. In a ``project`` thread,
    `PROJECT_TTL` (7 days) for explicit actions and for actions without a
    recognised activity; everything else `DEFAULT_TTL` (24 h).

    Args:
        activity: the `ACTIVITIES` key, or None.
        thread_kind: the kind of the thread the action was stated in.
        explicit: the user clocked or confirmed it (not auto-detected).

    Returns:
        The time to live, never more than `MAX_TTL`.
    """
    if activity == "brb":
        return BRB_TTL
    if activity == "nap":
        return NAP_TTL
    if activity == "sleep":
        return SLEEP_TTL
    if thread_kind == "project" and (explicit or activity is None):
        return PROJECT_TTL
    return DEFAULT_TTL


def _durations(
    activity: str | None, calibration: Mapping[str, tuple[int, int]]
) -> tuple[int | None, int | None]:
    """(typical, max) minutes: a sane calibration override first, then the table."""
    if activity is None:
        return None, None
    override = calibration.get(activity)
    if override is not None:
        typical, most = override
        if (
            isinstance(typical, int)
            and isinstance(most, int)
            and not isinstance(typical, bool)
            and not isinstance(most, bool)
            and typical > 0
            and most > 0
        ):
            return typical, max(typical, most)
    row = ACTIVITIES.get(activity)
    if row is None:
        return None, None
    return row.typical_minutes, row.max_minutes


_NO_CALIBRATION: Final[Mapping[str, tuple[int, int]]] = MappingProxyType({})


_SAID_DURATION = re.compile(
    rf"(?:\s*[,;(–—]\s*|\s+-\s+|\s+for\s+)(?:(?:about|around|roughly|approx\.?|~)\s*)?"
    rf"(?P<span>{DURATION_RE})\s*\)?[.!]*$",
    re.IGNORECASE,
)


def _said_duration(phrase: str) -> tuple[str, int | None]:
    """A clocked action's own estimate at its end ("writing the report, two hours", "gym
    for an hour"): the phrase without it, and its minutes (docs/clock-spec.md §6.3).

    Only after a comma, a dash, a bracket or "for", so "deploy in 2 days" keeps its words;
    a phrase that is only a span stays whole.
    """
    found = _SAID_DURATION.search(phrase, max(len(phrase) - _TAIL_WINDOW, 0))
    if found is None or not phrase[: found.start()].strip():
        return phrase, None
    minutes = span_minutes(found["span"])
    return (phrase[: found.start()], minutes) if minutes is not None else (phrase, None)


def draft_action(
    text: str,
    *,
    source: ActionSource,
    thread_kind: ThreadKind,
    store_quotes: bool,
    calibration: Mapping[str, tuple[int, int]] = _NO_CALIBRATION,
) -> ActionDraft:
    """Build the action to store from the user's words.

    For ``source="auto"`` the detected clause is used (the whole text when
    nothing is detected; callers normally check `detect_temporal_action`
    first). For ``clock_it`` and ``user_confirmed`` the whole text is the
    action. The TTL is `action_ttl`, stretched to the expected maximum
    duration and capped at `MAX_TTL`.

    Args:
        text: the message (auto) or the clocked text.
        source: how the action is being stored.
        thread_kind: the thread's kind.
        store_quotes: keep the user's words in `ActionDraft.quote`.
        calibration: per-user ``activity -> (typical_minutes, max_minutes)``
            overrides (CLOCK-STATE ``calibration.activity_overrides``); entries
            that are not two positive ints are ignored.

    Returns:
        The draft.

    Raises:
        ValueError: `text` is blank.
    """
    plain = _plain(text)
    if not plain:
        raise ValueError("an action needs some text")
    said_minutes = None
    if source == "auto":
        phrase = quoted = detect_temporal_action(plain) or plain
    else:
        quoted = _strip_directives(plain).strip() or plain
        phrase, said_minutes = _said_duration(quoted)
    label = normalize_label(phrase)
    activity = classify_activity(label)
    typical, most = _durations(activity, calibration)
    if said_minutes is not None:  # the person's own estimate beats the activity table
        typical, most = said_minutes, max(said_minutes, most or 0)
    ttl = action_ttl(activity=activity, thread_kind=thread_kind, explicit=source != "auto")
    if most is not None:
        ttl = max(ttl, timedelta(minutes=most))
    return ActionDraft(
        label=label,
        activity=activity,
        status=_status_of(phrase),
        source=source,
        expected_typical_minutes=typical,
        expected_max_minutes=most,
        ttl=min(ttl, MAX_TTL),
        quote=truncate_words(quoted, MAX_QUOTE_CHARS) if store_quotes else None,
    )


# --------------------------------------------------------------------------- expiry


def expire_status(
    status: ActionStatus,
    recorded_at: datetime,
    expires_at: datetime,
    now: datetime,
    *,
    expected_max_minutes: int | None = None,
) -> ActionStatus:
    """The status an action has at `now` (docs/clock-spec.md §6.4, §6.5).

    An open status (`OPEN_STATUSES`) becomes ``expired`` once ``now >=
    expires_at``. Before that, with `expected_max_minutes`, a ``planned`` or
    ``in_progress`` action becomes ``likely_done`` once that long has passed
    since `recorded_at`. Closed statuses are returned unchanged.

    Args:
        status: the stored status.
        recorded_at: when the action was recorded (aware).
        expires_at: when it expires (aware).
        now: the decision instant (aware).
        expected_max_minutes: the action's longest plausible duration, if known.

    Returns:
        The effective status.

    Raises:
        NaiveDatetimeError: a datetime has no tzinfo.
    """
    recorded, expires, instant = as_utc(recorded_at), as_utc(expires_at), as_utc(now)
    if status not in OPEN_STATUSES:
        return status
    if instant >= expires:
        return "expired"
    if (
        expected_max_minutes is not None
        and status in ("planned", "in_progress")
        and instant >= recorded + timedelta(minutes=expected_max_minutes)
    ):
        return "likely_done"
    return status


def is_open(status: ActionStatus, expires_at: datetime, now: datetime) -> bool:
    """True when the action counts as open at `now`: an open status, not yet expired.

    Raises:
        NaiveDatetimeError: a datetime has no tzinfo.
    """
    return status in OPEN_STATUSES and as_utc(now) < as_utc(expires_at)


def prune(
    actions: Iterable[tuple[_K, datetime, datetime]], *, now: datetime, max_items: int
) -> list[_K]:
    """Which stored actions to delete when compacting (docs/clock-spec.md §10.3).

    Every action with ``now >= expires_at`` goes, whatever its status; of the
    rest, the oldest by `recorded_at` go until at most `max_items` remain (on
    equal `recorded_at` the earlier in `actions` counts as older).

    Args:
        actions: ``(id, recorded_at, expires_at)`` per stored action (aware datetimes).
        now: the decision instant (aware).
        max_items: how many actions may remain (``store.latest_actions.max_items``).

    Returns:
        The ids to delete, in the order of `actions`.

    Raises:
        ValueError: `max_items` is negative.
        NaiveDatetimeError: a datetime has no tzinfo.
    """
    if max_items < 0:
        raise ValueError(f"max_items must be >= 0, not {max_items}")
    rows = list(actions)
    instant = as_utc(now)
    doomed: set[int] = set()
    live: list[tuple[datetime, int]] = []
    for index, (_, recorded_at, expires_at) in enumerate(rows):
        recorded = as_utc(recorded_at)
        if as_utc(expires_at) <= instant:
            doomed.add(index)
        else:
            live.append((recorded, index))
    live.sort()
    doomed.update(index for _, index in live[: max(len(live) - max_items, 0)])
    return [rows[index][0] for index in sorted(doomed)]
