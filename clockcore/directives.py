"""Clock directives users write inside ordinary messages (docs/clock-spec.md §5.2, §6.2, §7.0).

A directive starts a line (after optional whitespace)::

    clock it: <action>          clock: <action>
    clock: kind project|conversation|scheduling|operations
    clock: tz <zone>            clock: home tz <zone>
    clock: mode off|light|normal
    clock: link [CODE]          clock: unlink

or, for the trailing form, ends the message after a separator: "heading to
the gym, clock it", "going for a run — clock it!".

Rules worth knowing (they are the safe reading of ambiguous text):

- Keywords are case-insensitive and work after ``clock:`` and ``clock it:``
  alike; ``timezone`` and ``time zone`` are accepted for ``tz``.
- ``kind``/``mode`` followed by a valid value (and maybe more words) set it;
  followed by one unknown word they are an error (``clock: kind banana``);
  followed by several words whose first is not a value they are an action
  (``clock: kind of tired``).
- A zone must be an IANA id (any case, spaces for underscores). Abbreviations
  (EST, IST...) and fixed offsets (UTC+9) are refused with an error that names
  candidates when there are some.
- ``link`` is True for every link directive; ``link_code`` is set too when the
  user typed a code (upper-cased, spaces and dashes removed).
- ``clock:`` followed by a question ("clock: what time is it?"), by a digit
  with no space ("clock:30") or by ``/`` (a URL) is not a directive, nor is
  "clock" anywhere but the start of a line, nor a trailing "clock it" without
  a separator before it ("did you clock it") or with a question mark after it.
- Several clocked actions in one message are joined with "; " into one text.
  Repeated ``kind``/``tz``/``mode`` directives: the last one wins.
- A clocked text over 200 characters is cut at a word boundary and ends in "…".
- Only the first `MAX_DIRECTIVE_LINES` directive lines of a message are read, and
  only the first two unknown zones get suggestions: a message costs little to
  read however long it is (docs/SECURITY.md, "Slow input").
- Bad input never raises: problems become user-facing sentences in `errors`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final, Literal

from clockcore.errors import UnknownTimezoneError
from clockcore.geo.zones import canonical_zone, parse_utc_offset, require_zone
from clockcore.policy import Mode, ThreadKind

__all__ = [
    "MAX_CLOCK_IT_CHARS",
    "MAX_DIRECTIVE_LINES",
    "Directives",
    "parse_directives",
    "truncate_words",
]

MAX_CLOCK_IT_CHARS: Final = 200

MAX_DIRECTIVE_LINES: Final = 20
"""Directive lines read in one message; later ones stay plain text, with one error.
Reading is cheap but a message is read on the event loop, more than once (the
sender checks, the turn); with `_MAX_SUGGESTIONS` this bounds a message's cost
whatever its length (docs/SECURITY.md, "Slow input")."""

_MAX_SUGGESTIONS: Final = 2
"""Unknown zones per message that get close ids suggested (a ``difflib`` search over
every IANA id, about 12 ms each); later ones get the plain error."""

_KINDS: Final[dict[str, ThreadKind]] = {
    "project": "project",
    "conversation": "conversation",
    "scheduling": "scheduling",
    "operations": "operations",
}
_MODES: Final[dict[str, Mode]] = {"off": "off", "light": "light", "normal": "normal"}

# "clock it:" / "clock it -" / "clock:" at the start of a line.
_LINE = re.compile(r"^[ \t]*clock(?:[ \t]+it[ \t]*[:\-–—]|[ \t]*:)(?P<rest>.*)$", re.IGNORECASE)
# A trailing "clock it" after a separator, checked against the end of the message.
_TRAILING = re.compile(
    r"[,;:.!…(\-–—\n][ \t]*(?:(?:please|pls|plz)[ \t]+)?clock[ \t]+it[ \t]*\)?$",
    re.IGNORECASE,
)
_TRAILING_WINDOW = 80
_TRAILING_PUNCT = " \t\r\n.!…"
_SEPARATORS = " \t\r\n,;:-–—("

_HOME_TZ = re.compile(
    r"home[ \t]+(?:tz|timezone|time[ \t]+zone)(?=[\s:=]|$)[ \t]*[:=]?(?P<v>.*)$", re.IGNORECASE
)
_TZ = re.compile(r"(?:tz|timezone|time[ \t]+zone)(?=[\s:=]|$)[ \t]*[:=]?(?P<v>.*)$", re.IGNORECASE)
_KIND = re.compile(r"(?:thread[ \t]+)?kind(?=[\s:=]|$)[ \t]*[:=]?(?P<v>.*)$", re.IGNORECASE)
_MODE = re.compile(r"mode(?=[\s:=]|$)[ \t]*[:=]?(?P<v>.*)$", re.IGNORECASE)
_LINK = re.compile(r"link(?=[\s:=]|$)[ \t]*[:=]?(?P<v>.*)$", re.IGNORECASE)
_UNLINK = re.compile(r"unlink(?=[\s:=.!]|$)", re.IGNORECASE)

_CODE = re.compile(r"[A-Za-z0-9]+(?:[ \t-]+[A-Za-z0-9]+)*")
_CODE_MIN, _CODE_MAX = 4, 16
_GROUPED_CODE = re.compile(r"[A-Za-z0-9]{4}(?:[ -][A-Za-z0-9]{4}){2}")
# Single words after "clock: link" that ask for a code rather than give one.
_NOT_CODES: Final = frozenset(
    {"please", "pls", "plz", "now", "me", "up", "my", "account", "accounts", "channel"}
    | {"channels", "identity", "identities", "request", "start", "new", "code"}
)
# "clock: link yes|no": the issuing identity's answer to a redeemed code.
_LINK_ANSWERS: Final[dict[str, Literal["yes", "no"]]] = {
    **dict.fromkeys(("yes", "y", "ok", "accept", "approve", "confirm"), "yes"),
    **dict.fromkeys(("no", "n", "decline", "refuse", "reject", "deny"), "no"),
}
_MAX_ZONE_CHARS = 64
_QUOTE_CHARS = "\"'`“”‘’«»"
_VALUE_TRAILING = ".,;!" + _QUOTE_CHARS


@dataclass(frozen=True, slots=True)
class Directives:
    """The clock directives found in one message.

    Attributes:
        clock_it: the text to clock ("clock it: <action>", "clock: <action>",
            or the rest of a message ending in "clock it"); several are joined
            with "; "; at most `MAX_CLOCK_IT_CHARS` characters.
        kind: the thread kind set with ``clock: kind <kind>``.
        thread_tz: the canonical IANA id set with ``clock: tz <zone>``.
        home_tz: the canonical IANA id set with ``clock: home tz <zone>``.
        mode: the mode set with ``clock: mode <mode>``.
        link: a ``clock: link`` directive was given (with or without a code).
        link_code: the code of ``clock: link <code>``, upper case, no spaces or dashes.
        link_answer: ``yes`` or ``no`` of ``clock: link yes|no``: the answer of the
            identity that issued a code to the one that redeemed it.
        unlink: a ``clock: unlink`` directive was given.
        errors: user-facing sentences about directives that could not be read.
        rest: the message without its directive lines, for reading anything
            else in it (a zone in "clock: tz Asia/Tokyo" is a directive, not
            a time the person named).
    """

    clock_it: str | None = None
    kind: ThreadKind | None = None
    thread_tz: str | None = None
    home_tz: str | None = None
    mode: Mode | None = None
    link: bool = False
    link_code: str | None = None
    link_answer: Literal["yes", "no"] | None = None
    unlink: bool = False
    errors: tuple[str, ...] = ()
    rest: str = field(default="", compare=False)

    @property
    def any(self) -> bool:
        """True when any directive (or a broken one, see `errors`) was present."""
        return bool(
            self.clock_it is not None
            or self.kind is not None
            or self.thread_tz is not None
            or self.home_tz is not None
            or self.mode is not None
            or self.link
            or self.link_code is not None
            or self.link_answer is not None
            or self.unlink
            or self.errors
        )


@dataclass(slots=True)
class _Found:
    """Directives collected while reading the lines of one message."""

    actions: list[str] = field(default_factory=list)
    kind: ThreadKind | None = None
    thread_tz: str | None = None
    home_tz: str | None = None
    mode: Mode | None = None
    link: bool = False
    link_code: str | None = None
    link_answer: Literal["yes", "no"] | None = None
    unlink: bool = False
    errors: list[str] = field(default_factory=list)
    suggestions_left: int = _MAX_SUGGESTIONS
    suggested: dict[str, list[str]] = field(default_factory=dict)


def truncate_words(text: str, limit: int) -> str:
    """Cut `text` to at most `limit` characters at a word boundary, ending in "…".

    Text that already fits is returned unchanged. A first word longer than the
    limit is cut inside the word.

    Args:
        text: the text to shorten.
        limit: the maximum length of the result (at least 1).

    Returns:
        The text, or its longest word-bounded prefix that fits with "…".
    """
    if len(text) <= limit:
        return text
    room = max(limit - 1, 0)
    head = text[: room + 1]
    cut = head.rfind(" ")
    head = head[:cut] if cut > 0 else head[:room]
    return head.rstrip(" \t,;:-–—") + "…"


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _quoted(value: str) -> str:
    """The user's value for an error sentence, kept short."""
    return '"' + truncate_words(_collapse(value), 40) + '"'


def _clean_value(value: str) -> str:
    return value.strip().strip(_VALUE_TRAILING).strip()


def _resolve_zone(raw: str, directive: str, found: _Found) -> tuple[str | None, str | None]:
    """The canonical zone for `raw`, or an error sentence."""
    value = _clean_value(raw)
    if not value:
        return None, f"{directive} needs a zone, e.g. “{directive} Europe/Berlin”."
    if len(value) > _MAX_ZONE_CHARS:
        return None, f"{_quoted(value)} is not a timezone; use an IANA id such as Europe/Berlin."
    if (zone := canonical_zone(value)) is not None:
        return zone, None
    first = value.split()[0]
    if "/" in first and first != value and (zone := canonical_zone(first)) is not None:
        return zone, None
    if parse_utc_offset(value) is not None:
        return None, (
            f"{_quoted(value)} is a fixed offset, not a timezone; name the place's IANA "
            "zone instead (such as America/New_York) so daylight saving is right."
        )
    suggestions = found.suggested.get(value.lower())
    if suggestions is None:
        suggestions = []
        if found.suggestions_left > 0:
            found.suggestions_left -= 1
            try:
                require_zone(value)
            except UnknownTimezoneError as exc:
                suggestions = list(exc.suggestions)
            found.suggested[value.lower()] = suggestions
    if not suggestions:
        return None, (
            f"I don't know the timezone {_quoted(value)}; use an IANA id such as Europe/Berlin."
        )
    if len(suggestions) == 1:
        options = suggestions[0]
    else:
        options = ", ".join(suggestions[:-1]) + " or " + suggestions[-1]
    return None, (
        f"I don't know the timezone {_quoted(value)}: did you mean {options}? "
        f"Write it as an IANA id, e.g. “{directive} {suggestions[0]}”."
    )


def _choice(
    value: str, choices: Mapping[str, str], what: str, directive: str
) -> tuple[str | None, str | None, bool]:
    """Read a one-word choice: (value, error, is_directive)."""
    words = value.split()
    allowed = ", ".join(list(choices)[:-1]) + " or " + list(choices)[-1]
    if not words:
        return None, f"{directive} needs a {what}: {allowed}.", True
    first = words[0].strip(_VALUE_TRAILING).lower()
    if first in choices:
        return choices[first], None, True
    if len(words) == 1:
        return None, f"I don't know the {what} {_quoted(words[0])}; use {allowed}.", True
    return None, None, False


def _link_code(value: str) -> tuple[str | None, str | None, bool]:
    """Read ``clock: link <value>``: (code, error, is_directive)."""
    value = _clean_value(value)
    if not value:
        return None, None, True
    words = value.split()
    if len(words) == 1 and words[0].lower() in _NOT_CODES:
        return None, None, True
    code = re.sub(r"[\s-]+", "", value).upper()
    if _GROUPED_CODE.fullmatch(value.strip()):
        return code, None, True  # ABCD-EFGH-JKLM, as the code is shown
    looks_like_code = _CODE.fullmatch(value) is not None and _CODE_MIN <= len(code) <= _CODE_MAX
    single = len(words) == 1 and "-" not in value.strip("-")
    if looks_like_code and (single or any(ch.isdigit() for ch in code)):
        return code, None, True
    if len(words) == 1:
        return (
            None,
            (
                f"{_quoted(value)} doesn't look like a link code; codes are letters and digits "
                "like ABC123 (write “clock: link” to get one)."
            ),
            True,
        )
    return None, None, False


def _read_keyword(rest: str, found: _Found) -> bool:
    """Apply a keyword directive in `rest` to `found`; False when `rest` is an action."""
    if match := _HOME_TZ.match(rest):
        zone, error = _resolve_zone(match["v"], "clock: home tz", found)
        if zone is not None:
            found.home_tz = zone
        if error is not None:
            found.errors.append(error)
        return True
    if match := _TZ.match(rest):
        zone, error = _resolve_zone(match["v"], "clock: tz", found)
        if zone is not None:
            found.thread_tz = zone
        if error is not None:
            found.errors.append(error)
        return True
    if match := _KIND.match(rest):
        kind, error, is_directive = _choice(match["v"], _KINDS, "thread kind", "clock: kind")
        if kind is not None:
            found.kind = _KINDS[kind]
        if error is not None:
            found.errors.append(error)
        return is_directive
    if match := _MODE.match(rest):
        mode, error, is_directive = _choice(match["v"], _MODES, "mode", "clock: mode")
        if mode is not None:
            found.mode = _MODES[mode]
        if error is not None:
            found.errors.append(error)
        return is_directive
    if match := _LINK.match(rest):
        answer = _LINK_ANSWERS.get(_clean_value(match["v"]).lower())
        if answer is not None:
            found.link_answer = answer
            return True
        code, error, is_directive = _link_code(match["v"])
        if is_directive and error is None:
            found.link = True
            found.link_code = code
        if error is not None:
            found.errors.append(error)
        return is_directive
    if _UNLINK.match(rest):
        found.unlink = True
        return True
    return False


_TOO_MANY_LINES = (
    f"I read only the first {MAX_DIRECTIVE_LINES} “clock:” lines of a message; "
    "send the rest in another message."
)
_NOTHING_TO_CLOCK = "There's nothing to clock: write “clock it: <what you're doing>”."


def _read_line(rest: str, found: _Found) -> bool:
    """Read the text after "clock:" on one line; False when the line is not a directive."""
    if rest[:1] == "/" or rest[:1].isdigit():
        return False
    body = rest.strip()
    if body.endswith("?"):
        return False
    if _read_keyword(body, found):
        return True
    action = _collapse(body)
    if action.strip(_TRAILING_PUNCT + _SEPARATORS):
        found.actions.append(action)
    else:
        found.errors.append(_NOTHING_TO_CLOCK)
    return True


def _trailing_action(text: str, found: _Found) -> None:
    """Clock the rest of `text` when it ends in "…, clock it"."""
    stripped = text.rstrip(_TRAILING_PUNCT)
    # The separator may be the start of the message; the window keeps this linear.
    tail = "\n" + stripped if len(stripped) <= _TRAILING_WINDOW else stripped[-_TRAILING_WINDOW:]
    match = _TRAILING.search(tail)
    if match is None:
        return
    cut = len(stripped) - (len(tail) - match.start())
    rest = _collapse(stripped[: max(cut, 0)]).rstrip(_SEPARATORS)
    if rest.strip(_TRAILING_PUNCT + _SEPARATORS):
        found.actions.append(rest)
    else:
        found.errors.append(_NOTHING_TO_CLOCK)


def parse_directives(text: str) -> Directives:
    """Find the clock directives in a message.

    Args:
        text: the message as the user wrote it.

    Returns:
        The directives; `Directives.any` is False when there are none. Bad
        directives are reported in `errors` and never raise.
    """
    found = _Found()
    plain: list[str] = []
    read = 0
    for line in text.splitlines():
        match = _LINE.match(line) if read < MAX_DIRECTIVE_LINES else None
        if match is None or not _read_line(match["rest"], found):
            plain.append(line)
        else:
            read += 1
    if read == MAX_DIRECTIVE_LINES and any(_LINE.match(line) for line in plain):
        found.errors.append(_TOO_MANY_LINES)
    _trailing_action("\n".join(plain), found)
    clock_it = None
    if found.actions:
        clock_it = truncate_words("; ".join(found.actions), MAX_CLOCK_IT_CHARS)
    return Directives(
        clock_it=clock_it,
        kind=found.kind,
        thread_tz=found.thread_tz,
        home_tz=found.home_tz,
        mode=found.mode,
        link=found.link,
        link_code=found.link_code,
        link_answer=found.link_answer,
        unlink=found.unlink,
        errors=tuple(dict.fromkeys(found.errors)),
        rest="\n".join(plain),
    )
