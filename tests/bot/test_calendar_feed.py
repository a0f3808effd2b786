"""The calendar feed: what it holds against what clockbot sends, and who can read it.

The occurrence tests walk a real store (SQLite and PostgreSQL) on a settable clock
for 400 days, claiming and advancing each due job as the dispatcher does, and
compare what was sent with the feed as a calendar app reads it: parsed with
`icalendar` and expanded with `recurring-ical-events` (RRULE, EXDATE,
RECURRENCE-ID, VTIMEZONE). The access tests run the real gateway and its HTTP
server (tests/bot/test_web.py's `site`).
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import aiohttp
import pytest
import recurring_ical_events
from icalendar import Calendar
from sqlalchemy import func, select

from bot.app.gateway import Gateway
from bot.calendar_ics import MOST_EVENTS, build_feed
from bot.config.settings import Settings
from bot.turns.calendar_feed import FeedAsk, calendar_ask
from bot.turns.dashboard import NOT_SET_UP_REPLY
from bot.turns.my_data import PRIVATE_ONLY_REPLY
from bot.turns.sender_check import privileged
from bot.web.calendar import FETCHES_PER_MINUTE
from clockcore import SettableClock, parse_recurrence
from tests.bot.test_gateway import RecordingChannel, inbound
from tests.bot.test_web import Site, _csrf, _page, _reminder, open_site
from wrapper import InteractionWrapper
from wrapper.calendar_feeds import FeedItems, FeedRule, NewCalendarFeed, calendar_feeds
from wrapper.outbound.outbox import OutboxItem
from wrapper.outbound.reminders import ReminderChange
from wrapper.outbound.schedules import WAITING, NewSchedule, Schedule, new_schedule_id
from wrapper.store import queries as q
from wrapper.store.tables import outbox
from wrapper.turns.effects import ZoneChange
from wrapper.web import token_hash

USER = "test:7"
THREAD = "agent:main:test:dm:7"
WORKER = "w1"
LEASE = timedelta(minutes=2)
DAYS = 400
START = datetime(2026, 11, 27, 10, tzinfo=UTC)
_FEED = re.compile(r"webcal://\S+/calendar/(\S+)\.ics")


def test_calendar_is_read_whole() -> None:
    assert calendar_ask("calendar") is FeedAsk.SHOW
    assert calendar_ask(" My calendar? ") is FeedAsk.SHOW
    assert calendar_ask("/calendar@ClockBot") is FeedAsk.SHOW
    assert calendar_ask("New calendar link!") is FeedAsk.NEW
    assert calendar_ask("put it in my calendar") is None
    assert calendar_ask("calendar tomorrow at 9") is None
    # From an unproven email sender both wait for the confirmation mail (docs/SECURITY.md).
    assert privileged("calendar")
    assert privileged("new calendar link")


# --- What the feed holds, against what is sent ---------------------------------------------------


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[tuple[InteractionWrapper, SettableClock]]:
    clock = SettableClock(START)
    opened = await InteractionWrapper.open(database_url, agent_tz="UTC", clock=clock)
    try:
        yield opened, clock
    finally:
        await opened.close()


@pytest.fixture
async def sqlite_store(tmp_path: Path) -> AsyncIterator[tuple[InteractionWrapper, SettableClock]]:
    """The 400-day walks run on SQLite only: a walk is ~2,000 transactions, and what they
    check is the feed against the rules, which no backend changes (the feed's reads run on
    both in the tests below)."""
    clock = SettableClock(START)
    url = f"sqlite:///{tmp_path / 'clock.sqlite3'}"
    opened = await InteractionWrapper.open(url, agent_tz="UTC", clock=clock)
    try:
        yield opened, clock
    finally:
        await opened.close()


async def _schedule(
    wrapper: InteractionWrapper, clock: SettableClock, text: str, home: str, fixed: str | None
) -> int:
    rule = parse_recurrence(text, fixed or home, clock.now())
    assert rule.kind == "recurring", rule
    assert rule.rrule is not None and rule.dtstart is not None
    new = NewSchedule(
        id=new_schedule_id(), user_key=USER, thread_key=THREAD, channel="test",
        thread_id="dm:7", user_id="7", text=text, rrule=rule.rrule, dtstart=rule.dtstart,
        zone=fixed, origin_tz=home, elapsed=rule.elapsed, missed="one",
    )  # fmt: skip
    await wrapper.reminders.create(new, now=clock.now())
    return new.id


async def _person(wrapper: InteractionWrapper, user_key: str = USER) -> str:
    person = await wrapper.database.run(lambda conn: q.load_person(conn, user_key))
    assert person is not None
    return person.user_id


async def _feed(wrapper: InteractionWrapper, now: datetime) -> Calendar:
    """`USER`'s feed as a calendar app reads it."""
    await wrapper.save_settings(NewCalendarFeed(USER, "f" * 64))
    items = await wrapper.feeds.items("f" * 64, now=now)
    assert items is not None
    return Calendar.from_ical(build_feed(items, now=now, public_url="https://clock.example"))


def _expanded(calendar: Calendar, start: datetime, end: datetime) -> list[tuple[str, datetime]]:
    events = recurring_ical_events.of(calendar).between(start, end)
    return sorted((str(e["UID"]), e.start.astimezone(UTC)) for e in events)


async def _sent_until(
    wrapper: InteractionWrapper, clock: SettableClock, end: datetime
) -> list[tuple[str, datetime]]:
    """Walk the clock from job to job until `end`, sending each as the dispatcher does."""
    sent: list[tuple[str, datetime]] = []

    def first_due(conn: object) -> datetime | None:
        stmt = select(func.min(outbox.c.due_at)).where(outbox.c.status.in_(WAITING))
        return conn.execute(stmt).scalar()  # type: ignore[attr-defined, no-any-return]

    while (due := await wrapper.database.run(first_due)) is not None and due < end:
        clock.set(due)
        # Every job due at this instant is claimed at once; the next ones are later.
        for item in await wrapper.outbox.claim_due(now=due, worker=WORKER, lease=LEASE):
            occurrence = await wrapper.reminders.advance(item, now=due, worker=WORKER)
            if item.schedule_id is None or occurrence.send:
                sent.append((_uid(item), item.due_at))
            assert await wrapper.record_delivery(item, worker=WORKER, text=item.text)
    return sorted(sent)


def _uid(item: OutboxItem) -> str:
    own = f"s{item.schedule_id}" if item.schedule_id is not None else f"r{item.id}"
    return f"{own}@clock.example"


@pytest.mark.parametrize(
    ("home", "fixed"),
    [
        ("Europe/Berlin", "America/New_York"),  # March and October/November, a week apart
        ("America/New_York", "Australia/Sydney"),  # north and south change the other way
        ("Australia/Sydney", "Europe/Berlin"),
    ],
)
async def test_the_feed_gives_exactly_the_occurrences_sent_over_400_days(
    sqlite_store: tuple[InteractionWrapper, SettableClock], home: str, fixed: str
) -> None:
    wrapper, clock = sqlite_store
    await wrapper.save_settings(ZoneChange(user_key=USER, thread_key=None, zone=home, scope="home"))
    # Twice a week rather than daily: the walk costs a few transactions per send, and
    # what it checks (wall times across both DST changes) needs no more sends than this.
    await _schedule(wrapper, clock, "every Monday and Thursday at 9am", home, None)  # floating
    await _schedule(wrapper, clock, "every Monday at 18:30", home, fixed)  # fixed in another zone
    await _schedule(wrapper, clock, "every other Friday at 07:15", home, None)
    weekly = await _schedule(wrapper, clock, "every Sunday at 12:00", home, None)
    # A pause until a date: the occurrences before it are not sent, and not in the feed.
    paused = await wrapper.reminders.change(
        ReminderChange(USER, f"s{weekly}", "pause", until=START + timedelta(days=20)), now=START
    )
    assert paused
    end = START + timedelta(days=DAYS)
    calendar = await _feed(wrapper, START)
    expected = _expanded(calendar, START, end)
    sent = await _sent_until(wrapper, clock, end)
    assert sent == expected
    # Across both of each zone's DST changes, and more than a year of each rule.
    assert len(sent) > 2 * DAYS // 7 + DAYS // 7 + DAYS // 14 + (DAYS - 20) // 7 - 4
    assert {uid for uid, _ in sent} == {str(e["UID"]) for e in calendar.walk("VEVENT")}
    assert {tz.tz_name for tz in calendar.timezones} == {home, fixed}


async def test_a_floating_rule_follows_the_person_to_a_new_zone(
    store: tuple[InteractionWrapper, SettableClock],
) -> None:
    wrapper, clock = store
    await wrapper.save_settings(
        ZoneChange(user_key=USER, thread_key=None, zone="Europe/Berlin", scope="home")
    )
    await _schedule(wrapper, clock, "every day at 9am", "Europe/Berlin", None)
    await wrapper.save_settings(
        ZoneChange(user_key=USER, thread_key=None, zone="Asia/Tokyo", scope="home")
    )
    end = START + timedelta(days=30)
    calendar = await _feed(wrapper, START)
    expected = _expanded(calendar, START, end)
    assert {at.astimezone(ZoneInfo("Asia/Tokyo")).hour for _, at in expected} == {9}
    assert await _sent_until(wrapper, clock, end) == expected


async def test_two_people_linked_into_one_keep_both_feeds_showing_the_one_person(
    store: tuple[InteractionWrapper, SettableClock],
) -> None:
    wrapper, clock = store
    other = "mail:ann@example.org"
    await wrapper.save_settings(
        ZoneChange(user_key=USER, thread_key=None, zone="Europe/Berlin", scope="home"),
        ZoneChange(user_key=other, thread_key=None, zone="Europe/Berlin", scope="home"),
        NewCalendarFeed(USER, "a" * 64),
        NewCalendarFeed(other, "b" * 64),
    )
    await _schedule(wrapper, clock, "every day at 9am", "Europe/Berlin", None)
    keep, absorb = await _person(wrapper), await _person(wrapper, other)
    await wrapper.database.run(lambda conn: q.merge_people(conn, keep=keep, absorb=absorb))
    for digest in ("a" * 64, "b" * 64):
        items = await wrapper.feeds.items(digest, now=clock.now())
        assert items is not None
        assert [rule.schedule.text for rule in items.rules] == ["every day at 9am"]


# --- Pieces a walk does not reach ----------------------------------------------------------------


def wall(text: str) -> datetime:
    """A naive wall time, as a rule's DTSTART is stored."""
    return datetime.fromisoformat(text)


def _rule(rrule: str, dtstart: datetime, zone: str | None, **kwargs: object) -> FeedRule:
    schedule = Schedule(
        id=41, person_id="p", user_key=USER, thread_key=THREAD, channel="test", thread_id="dm:7",
        channel_user_id="7", text="water the plants", rrule=rrule, dtstart=dtstart, zone=zone,
        origin_tz="Europe/Berlin", elapsed=False, missed="one", state="active", created_at=START,
    )  # fmt: skip
    fields: dict[str, object] = {
        "schedule": schedule, "zone": zone or "Europe/Berlin", "next_occurs": None,
        "next_due": None, "skipped": (),
    }  # fmt: skip
    fields.update(kwargs)
    return FeedRule(**fields)  # type: ignore[arg-type]


def _calendar(*rules: FeedRule) -> Calendar:
    items = FeedItems(rules=rules, one_shots=())
    return Calendar.from_ical(build_feed(items, now=START, public_url="https://clock.example/"))


def test_a_deferred_occurrence_moves_in_the_feed() -> None:
    """The next occurrence (Saturday 09:00 Berlin) was deferred to 11:30: an override."""
    saturday = datetime(2026, 11, 28, 8, tzinfo=UTC)
    rule = _rule(
        "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0", wall("2026-11-28T09:00"), None,
        next_occurs=saturday, next_due=saturday + timedelta(hours=2, minutes=30),
    )  # fmt: skip
    found = _expanded(_calendar(rule), START, START + timedelta(days=3))
    assert [at for _, at in found] == [
        datetime(2026, 11, 28, 10, 30, tzinfo=UTC),
        datetime(2026, 11, 29, 8, tzinfo=UTC),
        datetime(2026, 11, 30, 8, tzinfo=UTC),
    ]


def test_until_is_read_in_the_rules_zone_and_written_in_utc() -> None:
    """UNTIL is stored as the zone's wall time; with a TZID RFC 5545 wants it in UTC."""
    rule = _rule(
        "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20261201T235959",
        wall("2026-11-28T09:00"), "Asia/Tokyo",
        next_occurs=datetime(2026, 11, 28, 0, tzinfo=UTC),
        next_due=datetime(2026, 11, 28, 0, tzinfo=UTC),
    )  # fmt: skip
    calendar = _calendar(rule)
    assert "UNTIL=20261201T145959Z" in calendar.to_ical().decode()
    found = _expanded(calendar, START, START + timedelta(days=30))
    assert len(found) == 4  # 28, 29, 30 Nov and 1 Dec, 09:00 in Tokyo


def test_a_rule_paused_until_resumed_is_left_out_and_the_calendar_says_how_often_to_look() -> None:
    calendar = _calendar(_rule("FREQ=DAILY", wall("2026-11-28T09:00"), None))
    assert calendar.walk("VEVENT") == []
    text = calendar.to_ical().decode()
    assert "REFRESH-INTERVAL;VALUE=DURATION:PT1H" in text
    assert "X-PUBLISHED-TTL:PT1H" in text
    assert "X-WR-CALNAME:clockbot reminders" in text


# --- Who can read it -------------------------------------------------------------------------------


@pytest.fixture
async def site(tmp_path: Path, database_url: str) -> AsyncIterator[Site]:
    async with open_site(tmp_path, database_url) as opened:
        yield opened


async def _say(site: Site, user: str, text: str, message_id: str, thread: str | None = None) -> str:
    before = len(site.channel.sent)
    assert site.channel.sink is not None
    await site.channel.sink(
        inbound(text, message_id, user_id=user, thread_id=thread or f"dm:{user}",
                route={"chat": user})
    )  # fmt: skip
    await site.gw.settle()
    [reply] = site.channel.sent[before:]
    return reply.text


async def _fetch(site: Site, token: str) -> tuple[int, str, str]:
    async with (
        aiohttp.ClientSession() as client,
        client.get(f"{site.base}/calendar/{token}.ics") as response,
    ):
        return response.status, response.content_type, await response.text()


def _token(reply: str) -> str:
    found = _FEED.search(reply)
    assert found is not None, reply
    return found.group(1)


async def test_calendar_in_a_direct_message_gives_a_feed_of_that_persons_reminders_only(
    site: Site,
) -> None:
    mine = await _reminder(site, "7", "call the dentist", timedelta(hours=3))
    theirs = await _reminder(site, "8", "bob's secret errand", timedelta(hours=4))
    await _say(site, "8", "hello", "b0")
    token = _token(await _say(site, "7", "calendar", "m1"))
    status, kind, body = await _fetch(site, token)
    assert (status, kind) == (200, "text/calendar")
    calendar = Calendar.from_ical(body)
    uids = {str(e["UID"]) for e in calendar.walk("VEVENT")}
    assert uids == {f"r{mine}@127.0.0.1"}
    assert "call the dentist" in body
    assert "secret errand" not in body
    assert theirs != mine
    # Only the token's hash is stored.
    rows = await site.gw.wrapper.database.run(
        lambda conn: conn.execute(select(calendar_feeds.c.token_hash)).scalars().all()
    )
    assert rows == [token_hash(token)]


async def test_a_new_link_replaces_the_old_which_answers_404(site: Site) -> None:
    first = _token(await _say(site, "7", "calendar", "m1"))
    again = await _say(site, "7", "calendar", "m2")
    assert "already" in again
    assert _FEED.search(again) is None  # the URL cannot be shown again
    second = _token(await _say(site, "7", "new calendar link", "m3"))
    assert second != first
    assert (await _fetch(site, first))[0] == 404
    assert (await _fetch(site, second))[0] == 200
    assert (await _fetch(site, "made-up-token"))[0] == 404
    async with (
        aiohttp.ClientSession() as client,
        client.get(f"{site.base}/calendar/{second}") as response,  # not a feed path at all
    ):
        assert response.status == 404


async def test_erasure_removes_the_feed(site: Site) -> None:
    token = _token(await _say(site, "7", "calendar", "m1"))
    await site.gw.wrapper.people.erase_person("test:7")
    assert (await _fetch(site, token))[0] == 404


async def test_no_feed_link_in_a_group(site: Site) -> None:
    assert await _say(site, "7", "calendar", "g1", thread="group:-100") == PRIVATE_ONLY_REPLY


async def test_no_feed_without_a_public_url(tmp_path: Path) -> None:
    channel = RecordingChannel()
    settings = Settings(home=tmp_path, http_port=0)
    async with Gateway(settings, channels=[channel], serve_http=True) as gw:
        assert channel.sink is not None
        await channel.sink(inbound("calendar", "m1"))
        await gw.settle()
        assert channel.sent[-1].text == NOT_SET_UP_REPLY
        async with (
            aiohttp.ClientSession() as client,
            client.get(f"http://127.0.0.1:{gw.http_port}/calendar/x.ics") as response,
        ):
            assert response.status == 404


async def test_the_reminders_page_makes_a_new_link_once(site: Site) -> None:
    old = _token(await _say(site, "7", "calendar", "m1"))
    async with await site.signed_in("7", "m2") as alice:
        status, text = await _page(alice, "/ui/reminders")
        assert status == 200
        assert "You have a calendar link" in text
        csrf = await _csrf(alice, "/ui/reminders")
        async with alice.post("/ui/calendar", data={"csrf": csrf}) as response:
            assert response.status == 200
            page = await response.text()
        new = _token(page)
        assert (await _fetch(site, new))[0] == 200
        assert (await _fetch(site, old))[0] == 404
        async with alice.post("/ui/calendar", data={"csrf": "0" * 64}) as response:
            assert response.status == 403
        assert (await _fetch(site, new))[0] == 200


async def _say_all(site: Site, user: str, text: str, message_id: str) -> list[str]:
    """What was sent after `text`, to anyone (a link step tells both identities)."""
    before = len(site.channel.sent)
    assert site.channel.sink is not None
    await site.channel.sink(
        inbound(text, message_id, user_id=user, thread_id=f"dm:{user}", route={"chat": user})
    )
    await site.gw.settle()
    return [sent.text for sent in site.channel.sent[before:]]


async def test_unlinking_stops_the_feed_that_showed_the_linked_person(site: Site) -> None:
    """Issue 59, row 9: after an unlink the URL still gave 200 with the other person's data."""
    await _reminder(site, "7", "call the dentist", timedelta(hours=3))
    issued = " ".join(await _say_all(site, "7", "clock: link", "l1"))
    code = re.search(r"[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}", issued)
    assert code is not None, issued
    await _say_all(site, "8", f"clock: link {code.group()}", "l2")
    await _say_all(site, "7", "clock: link yes", "l3")
    token = _token(await _say(site, "8", "calendar", "c1"))
    assert "call the dentist" in (await _fetch(site, token))[2]  # linked: one person
    said = " ".join(await _say_all(site, "8", "clock: unlink", "u1"))
    assert (await _fetch(site, token))[0] == 404
    assert "calendar link stops working" in said


# --- Bounded, off the loop (issue 59, rows 8 and 12) ---------------------------------------------


async def _paused_minutely(site: Site, count: int) -> None:
    """`count` every-minute reminders of USER, three days old, paused for a week."""
    wrapper = site.gw.wrapper
    now = datetime.now(UTC)
    await _say(site, "7", "hello", "p0")
    for n in range(count):
        rule = parse_recurrence("every minute", "Europe/Berlin", now - timedelta(days=3))
        assert rule.rrule is not None and rule.dtstart is not None
        new = NewSchedule(
            id=new_schedule_id(), user_key=USER, thread_key=THREAD, channel="test",
            thread_id="dm:7", user_id="7", text=f"stretch {n}", rrule=rule.rrule,
            dtstart=rule.dtstart, zone=None, origin_tz="Europe/Berlin", elapsed=rule.elapsed,
            missed="one",
        )  # fmt: skip
        await wrapper.reminders.create(new, now=now)
        assert await wrapper.reminders.pause(USER, new.id, now=now, until=now + timedelta(days=7))


async def test_healthz_answers_within_a_second_while_a_heavy_feed_is_fetched(site: Site) -> None:
    """Three paused every-minute reminders made each fetch take 8.3 s on the event loop."""
    await _paused_minutely(site, 3)
    token = _token(await _say(site, "7", "calendar", "c1"))
    waits: list[float] = []
    async with aiohttp.ClientSession() as client:
        fetch = asyncio.create_task(_fetch(site, token))
        async with asyncio.timeout(90):
            while not fetch.done():
                started = time.perf_counter()
                async with client.get(f"{site.base}/healthz") as response:
                    await response.read()
                waits.append(time.perf_counter() - started)
                await asyncio.sleep(0.05)
        status, _, body = await fetch
    assert status == 200
    calendar = Calendar.from_ical(body)
    for event in calendar.walk("VEVENT"):
        exdates = event.get("EXDATE") or []
        listed = sum(len(e.dts) for e in (exdates if isinstance(exdates, list) else [exdates]))
        assert listed <= MOST_EVENTS
    assert max(waits) < 1.0, f"/healthz waited {max(waits):.2f} s"


async def test_a_feed_answers_304_to_its_etag_and_429_past_its_rate(site: Site) -> None:
    token = _token(await _say(site, "7", "calendar", "c1"))
    url = f"{site.base}/calendar/{token}.ics"
    async with aiohttp.ClientSession() as client:
        async with client.get(url) as first:
            etag = first.headers["ETag"]
            assert first.headers["Cache-Control"] == "private, max-age=300"
        async with client.get(url, headers={"If-None-Match": etag}) as again:
            assert again.status == 304
        statuses = []
        for _ in range(FETCHES_PER_MINUTE):
            async with client.get(url) as response:
                statuses.append(response.status)
    assert statuses[-1] == 429
    assert statuses.count(200) == FETCHES_PER_MINUTE - 2
