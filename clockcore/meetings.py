"""When can we all meet? Slots ranked against each member's contact window.

Every member has an IANA zone and a contact window (the part of *their* day
when they expect to hear from the agent, clockcore.window). For a meeting of a
given length in a range of days, each candidate start is a UTC quarter hour
(every zone's offset is a whole number of quarter hours, so it is a quarter
hour on every member's clock too), and each member's cost is the number of
minutes of the meeting that fall outside their window, read on their own wall
clock minute by minute: a DST change in one member's zone moves their window
for that date and nobody else's.

The rules (docs/meetings.md):

- a slot that touches 00:00–06:00 on anybody's clock is never proposed unless
  nights are allowed;
- slots inside everyone's window come first, then the smallest total of
  minutes outside, then the smallest worst single cost, then the earliest;
- at most three are proposed, never two that overlap, and on different days
  (in the organiser's zone) while there are days to choose from;
- a member whose zone is not known is left out of the search and named in
  ``missing``; they must be asked (privately) before the search means them.

A repeating meeting keeps its wall time in the zone it was agreed in
(clockcore.recurrence); `local_shifts` finds, for each member, the first
occurrence at which the meeting moves on *their* clock (a DST change in their
zone or in the meeting's, not both at once), so they can be told a week before.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from datetime import tzinfo as TzInfo

from clockcore.clock import as_utc
from clockcore.geo.zones import get_zone, require_zone
from clockcore.recurrence import occurrences
from clockcore.window import DEFAULT_CONTACT_WINDOW, ContactWindow

__all__ = [
    "MAX_PROPOSALS",
    "NIGHT",
    "LocalShift",
    "MeetingMember",
    "MemberTime",
    "Slot",
    "SlotSearch",
    "find_slots",
    "inside_minutes",
    "local_shifts",
    "zone_label",
]

NIGHT = ContactWindow(time(0), time(6))
"""Local hours no proposal touches unless nights are asked for."""

MAX_PROPOSALS = 3
STEP = timedelta(minutes=15)
_MINUTE = timedelta(minutes=1)


@dataclass(frozen=True, slots=True)
class MeetingMember:
    """One person the meeting is for: a name to show, their zone (None: unknown), their window."""

    name: str
    zone: str | None
    window: ContactWindow = DEFAULT_CONTACT_WINDOW


@dataclass(frozen=True, slots=True)
class MemberTime:
    """A slot as one member sees it: their local start and the minutes outside their window."""

    name: str
    zone: str
    local_start: datetime
    minutes_outside: int


@dataclass(frozen=True, slots=True)
class Slot:
    """A candidate meeting: aware UTC `start` and `end`, and what it costs each member."""

    start: datetime
    end: datetime
    members: tuple[MemberTime, ...]

    @property
    def total_outside(self) -> int:
        return sum(m.minutes_outside for m in self.members)

    @property
    def largest_outside(self) -> int:
        return max((m.minutes_outside for m in self.members), default=0)

    @property
    def inside_all(self) -> bool:
        return self.total_outside == 0

    def rank(self) -> tuple[bool, int, int, datetime]:
        return (not self.inside_all, self.total_outside, self.largest_outside, self.start)

    def describe(self, headline_zone: str | None = None) -> str:
        """ "Tue 2 Dec: 16:00 Lisbon · 17:00 Berlin · 11:00 New York".

        The date is the one in `headline_zone` (default: the first member's);
        a member whose local date differs has their weekday before the time.
        Members sharing a zone share one entry.
        """
        zone = headline_zone or (self.members[0].zone if self.members else "UTC")
        day = self.start.astimezone(get_zone(zone)).date()
        parts: list[str] = []
        seen: set[str] = set()
        for member in self.members:
            if member.zone in seen:
                continue
            seen.add(member.zone)
            local = member.local_start
            weekday = "" if local.date() == day else f"{local:%a} "
            parts.append(f"{weekday}{local:%H:%M} {zone_label(member.zone)}")
        return f"{_day_label(day)}: " + " · ".join(parts)


@dataclass(frozen=True, slots=True)
class SlotSearch:
    """The outcome of a search.

    Attributes:
        slots: at most `MAX_PROPOSALS`, best first.
        missing: members left out because their zone is not known.
        everyone_inside: whether the best slot is inside every member's window;
            False means the windows never meet in the range and `slots` are the
            least bad, each with every member's cost.
        nights_excluded: candidates dropped because they touch someone's night;
            with no slots, every candidate did.
    """

    slots: tuple[Slot, ...]
    missing: tuple[str, ...]
    everyone_inside: bool
    nights_excluded: int


def zone_label(zone: str) -> str:
    """The place a zone id names: "America/New_York" → "New York", "UTC" → "UTC"."""
    return zone.rsplit("/", 1)[-1].replace("_", " ")


def _day_label(day: date) -> str:
    return f"{day:%a} {day.day} {day:%b}"


def find_slots(
    members: Sequence[MeetingMember],
    *,
    start: datetime,
    end: datetime,
    length: timedelta,
    now: datetime,
    allow_nights: bool = False,
    limit: int = MAX_PROPOSALS,
) -> SlotSearch:
    """Rank the slots of `length` between `start` and `end` (not before `now`).

    Raises:
        ValueError: `length` is not a positive whole number of minutes, or the
            range is empty.
        UnknownTimezoneError: a member's zone is not an IANA id.
        NaiveDatetimeError: an instant is naive.
    """
    if length <= timedelta(0) or length % _MINUTE:
        raise ValueError("a meeting lasts a positive whole number of minutes")
    start, end, now = as_utc(start), as_utc(end), as_utc(now)
    known = [m for m in members if m.zone is not None]
    missing = tuple(m.name for m in members if m.zone is None)
    zones = {m.name: require_zone(m.zone) for m in known if m.zone is not None}
    first = _ceil_to_step(max(start, now))
    if first + length > end:
        raise ValueError("the range is shorter than the meeting")
    if not known:
        return SlotSearch((), missing, everyone_inside=False, nights_excluded=0)
    candidates: list[Slot] = []
    nights = 0
    slot_start = first
    while slot_start + length <= end:
        slot_end = slot_start + length
        if not allow_nights and any(
            inside_minutes(NIGHT, zones[m.name], slot_start, slot_end) for m in known
        ):
            nights += 1
        else:
            candidates.append(_slot(known, zones, slot_start, slot_end))
        slot_start += STEP
    candidates.sort(key=Slot.rank)
    headline = zones[known[0].name] if known else "UTC"
    chosen = _choose(candidates, limit, get_zone(headline))
    return SlotSearch(
        slots=tuple(chosen),
        missing=missing,
        everyone_inside=bool(chosen) and chosen[0].inside_all,
        nights_excluded=nights,
    )


def _slot(
    members: Iterable[MeetingMember], zones: dict[str, str], start: datetime, end: datetime
) -> Slot:
    length = (end - start) // _MINUTE
    times = tuple(
        MemberTime(
            name=m.name,
            zone=zones[m.name],
            local_start=start.astimezone(get_zone(zones[m.name])),
            minutes_outside=length - inside_minutes(m.window, zones[m.name], start, end),
        )
        for m in members
    )
    return Slot(start, end, times)


def _choose(ranked: Sequence[Slot], limit: int, headline: TzInfo) -> list[Slot]:
    """Best first; no two overlapping; different days first, then any day."""
    chosen: list[Slot] = []
    days: set[date] = set()

    def free(slot: Slot) -> bool:
        return all(slot.end <= c.start or c.end <= slot.start for c in chosen)

    for slot in ranked:
        if len(chosen) == limit:
            return chosen
        day = slot.start.astimezone(headline).date()
        if day not in days and free(slot):
            chosen.append(slot)
            days.add(day)
    for slot in ranked:
        if len(chosen) == limit:
            break
        if slot not in chosen and free(slot):
            chosen.append(slot)
    return sorted(chosen, key=Slot.rank)


def _ceil_to_step(instant: datetime) -> datetime:
    floor = instant.replace(minute=instant.minute - instant.minute % 15, second=0, microsecond=0)
    return floor if floor == instant else floor + STEP


def inside_minutes(window: ContactWindow, zone: str, start: datetime, end: datetime) -> int:
    """How many minutes of [start, end) read inside `window` on the clock of `zone`.

    Exact across DST changes: the span is cut where the zone's offset changes,
    and each piece is a run of consecutive wall-clock minutes (a skipped hour
    is never inside, a repeated one counts twice).
    """
    if window.start == window.end:
        return (end - start) // _MINUTE
    tz = get_zone(zone)
    seconds = 0.0
    for piece_start, piece_end in _constant_offset_pieces(tz, start, end):
        offset = piece_start.astimezone(tz).utcoffset() or timedelta(0)
        wall_start = (piece_start + offset).replace(tzinfo=None)
        wall_end = wall_start + (piece_end - piece_start)
        seconds += _wall_overlap(window, wall_start, wall_end).total_seconds()
    return int(seconds // 60)


def _constant_offset_pieces(
    tz: TzInfo, start: datetime, end: datetime
) -> list[tuple[datetime, datetime]]:
    pieces: list[tuple[datetime, datetime]] = []
    while start < end:
        offset = start.astimezone(tz).utcoffset()
        if (end - _MINUTE).astimezone(tz).utcoffset() == offset:
            pieces.append((start, end))
            break
        low, high = start, end - _MINUTE  # offset(low) == offset, offset(high) differs
        while high - low > _MINUTE:
            middle = low + (high - low) // 2 // _MINUTE * _MINUTE
            if middle.astimezone(tz).utcoffset() == offset:
                low = middle
            else:
                high = middle
        pieces.append((start, high))
        start = high
    return pieces


def _wall_overlap(window: ContactWindow, wall_start: datetime, wall_end: datetime) -> timedelta:
    total = timedelta(0)
    day = wall_start.date() - timedelta(days=1)
    while day <= wall_end.date():
        opens = datetime.combine(day, window.start)
        closes = datetime.combine(
            day + timedelta(days=1) if window.end <= window.start else day, window.end
        )
        total += max(timedelta(0), min(wall_end, closes) - max(wall_start, opens))
        day += timedelta(days=1)
    return total


WARN_BEFORE = timedelta(days=7)
"""How long before a member's local time of a repeating meeting moves they are told."""
_SHIFT_HORIZON = timedelta(days=400)
_SHIFT_SCAN = 2000


@dataclass(frozen=True, slots=True)
class LocalShift:
    """A repeating meeting moves on one member's clock from `occurrence` on.

    `before` and `after` are the member's local start of the occurrence before
    and of `occurrence`; `warn_at` is a week before it.
    """

    name: str
    zone: str
    occurrence: datetime
    before: datetime
    after: datetime

    @property
    def warn_at(self) -> datetime:
        return self.occurrence - WARN_BEFORE


def local_shifts(
    rule: str,
    dtstart: datetime,
    zone: str,
    members: Sequence[MeetingMember],
    *,
    after: datetime,
    horizon: timedelta = _SHIFT_HORIZON,
) -> list[LocalShift]:
    """Each member's next change of the meeting's local time after `after`, within `horizon`.

    `rule` and `dtstart` (naive wall time in `zone`) are the meeting's RRULE, as
    for `clockcore.recurrence.occurrences`. A member whose zone is not known has
    no shift; one whose clock moves with the meeting's (same rules) has none.
    """
    after = as_utc(after)
    found = occurrences(rule, dtstart, zone, after=after, count=_SHIFT_SCAN)
    found = [at for at in found if at <= after + horizon]
    shifts: list[LocalShift] = []
    for member in members:
        if member.zone is None:
            continue
        tz = get_zone(require_zone(member.zone))
        local = [at.astimezone(tz) for at in found]
        for previous, current, at in zip(local, local[1:], found[1:], strict=False):
            if previous.time() != current.time():
                shifts.append(LocalShift(member.name, member.zone, at, previous, current))
                break
    return shifts
