"""The web pages in a real browser: headless Chromium (Debian) through Selenium and chromium-driver.

The gateway runs the real Telegram adapter against the fake Bot API, the rules agent
and a SQLite store, and serves ``/ui/`` on its real HTTP server. Alice asks for her
page in Telegram and signs in through the link the fake server received; she sees her
timeline in her zone and snoozes and moves a reminder (the outbox row changes); a used
or wrong link is refused; Bob's session sees nothing of hers and cannot post to her
reminders; she and Bob agree on a meeting in a Telegram group poll, and it shows on her
timeline; she gets a calendar link on the reminders page and the feed holds her
reminder and the meeting; the operator signs in, sees a failed job and retries it, and Telegram gets it.

Carla's browser asks for German, and her reminders page is German (docs/languages.md).

Every page is checked at phone width and at 200% zoom (no sideways scrolling).
Screenshots of the timeline, the reminders and the operator page, at desktop and phone
widths, and of Carla's German reminders page at desktop width, go to ``$CLOCKBOT_SCREENSHOTS`` (``make screenshots`` sets ``docs/screenshots``),
else to the test's temporary directory.
"""

from __future__ import annotations

import asyncio
import os
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import aiohttp
import pytest
from babel.dates import format_date
from icalendar import Calendar

from bot.app.gateway import Gateway
from bot.config.settings import Settings
from channels.telegram import TelegramChannel
from clockcore.speech.spoken_rules import say_rule
from tests.support import staged
from tests.support.browser import DESKTOP, PHONE, ZOOMED, Browser, browser  # noqa: F401
from tests.support.fake_telegram import FakeTelegram, TgUser
from wrapper.meeting_polls import NewMeetingPoll, PollOption, new_poll_id
from wrapper.outbound.schedules import NewSchedule, new_schedule_id
from wrapper.turns.effects import ZoneChange

ADMIN = "operator-token-0123456789"
_LINK = re.compile(r"https?://\S+(/ui/signin/[A-Za-z0-9_-]+)")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.timed,  # a real Chromium: kept off a busy pool
    pytest.mark.timeout(240),
]  # a real browser: `make test-fast` leaves it out


WAIT = 60.0
"""Seconds to wait for an answer: this test shows pages, it times nothing, and it runs beside
the niced parallel phase (a 10 s wait for the poll's decision ran out there once)."""


async def _meet(tg: FakeTelegram, gw: Gateway, *people: TgUser) -> PollOption:
    """`people` agree in a Telegram group on a 45-minute meeting in three hours: the slot.

    The poll is staged as `find_meeting_time` stages it and each votes through
    Telegram's own poll (the search itself: tests/bot/test_meeting_time.py).
    """
    for person in people:
        await asyncio.sleep(1.05)
        tg.group(-100, person, "hello all")
        await gw.settle()
    start = (datetime.now(UTC) + timedelta(hours=3)).replace(minute=0, second=0, microsecond=0)
    slot, later = (
        PollOption(at, f"{at.astimezone(ZoneInfo('Asia/Tokyo')):%a %d %b: %H:%M} Tokyo")
        for at in (start, start + timedelta(days=1))
    )  # a Telegram poll has two options at least
    poll = NewMeetingPoll(
        id=new_poll_id(), thread_key="agent:main:telegram:group:-100", channel="telegram",
        thread_id="group:-100", organiser="telegram:11", minutes=45,
        question="When can we meet? (45 min)", options=(slot, later),
        voters=tuple(f"telegram:{p.id}" for p in people), closes_at=start,
    )  # fmt: skip
    await staged.commit(gw.wrapper, poll)
    await tg.wait_until(lambda: len(tg.polls) == 1, "the poll", timeout=WAIT)
    for person in people:  # a vote has no date: no waiting for the next second
        tg.poll_answer(tg.polls[0]["id"], person, [0])
        await gw.settle()

    def decided() -> bool:
        return any(m.plain.startswith("Decided") for m in tg.sent)

    await tg.wait_until(decided, "decided", timeout=WAIT)
    return slot


async def _reminder_for(gw: Gateway, user_id: int, text: str, *, hours: int) -> int:
    """A one-time reminder for a Telegram user in `hours`, staged as the remind tool stages it."""
    now = datetime.now(UTC)
    return await staged.queued(
        gw.outbox, kind="reminder", channel="telegram", thread_id=f"dm:{user_id}",
        thread_key=f"agent:main:telegram:dm:{user_id}", user_key=f"telegram:{user_id}",
        user_id=str(user_id), text=text, due_at=now + timedelta(hours=hours), now=now,
    )  # fmt: skip


def _shots(tmp_path: Path) -> Path:
    chosen = os.environ.get("CLOCKBOT_SCREENSHOTS")
    return Path(chosen) if chosen else tmp_path / "screenshots"


async def _shoot(page: Browser, folder: Path, name: str) -> None:
    for label, (width, height) in (("desktop", DESKTOP), ("phone", PHONE)):
        await page.size(width, height)
        shot = folder / f"{name}-{label}.png"
        await page.screenshot(shot)
        assert shot.stat().st_size > 5_000, shot
    await page.size(*DESKTOP)


async def _fits(page: Browser, path: str) -> None:
    """`path` reads at phone width and at 200% zoom without scrolling sideways."""
    for width, height in (PHONE, ZOOMED):
        await page.size(width, height)
        await page.open(path)
        assert not await page.overflows(), (path, width)
    await page.size(*DESKTOP)


async def test_people_and_the_operator_in_a_browser(
    browser: Browser,  # noqa: F811
    tmp_path: Path,
) -> None:
    shots = _shots(tmp_path)
    async with FakeTelegram() as tg:
        settings = Settings(
            home=tmp_path, http_port=0, public_url="http://127.0.0.1", admin_token=ADMIN
        )
        channel = TelegramChannel(tg.token, api_url=tg.api_url)
        async with Gateway(settings, channels=[channel], poll_interval=0.1) as gw:
            browser.base = f"http://127.0.0.1:{gw.http_port}"
            alice = tg.user(11, "alice", first_name="Alice", last_name="Ito")
            bob = tg.user(22, "bob", first_name="Bob", last_name="Lane")

            async def say(user: object, words: str) -> str:
                await asyncio.sleep(1.05)  # Telegram dates a message to the second
                count = len(tg.sent) + 1
                tg.private(user, words)  # type: ignore[arg-type]
                await tg.wait_sent(count, timeout=WAIT)
                await gw.settle()
                return tg.sent[-1].plain

            await say(alice, "clock: home tz Asia/Tokyo")
            await say(alice, "remind me in 1 hour to call the bank")
            await say(alice, "heading to the gym")
            [reminder] = [
                j for j in await gw.outbox.listing(status="pending") if j.kind == "reminder"
            ]
            meeting = await _meet(tg, gw, alice, bob)
            found = _LINK.search(await say(alice, "/dashboard"))
            assert found is not None
            link = found.group(1)

            # Alice signs in through the link Telegram carried.
            await browser.open(link)
            await browser.click("#signin")
            assert await browser.path() == "/ui/timeline"
            timeline = await browser.text()
            assert "Asia/Tokyo" in timeline
            assert "call the bank" in timeline
            assert "heading to the gym" in timeline
            tokyo = datetime.now(ZoneInfo("Asia/Tokyo"))
            assert (
                f"Today, {tokyo:%a} {tokyo.day} {tokyo:%b}" in timeline
            )  # her day, not the server's
            assert "Meeting with Bob Lane" in timeline and meeting.label in timeline
            await _shoot(browser, shots, "timeline")
            await _fits(browser, "/ui/timeline")

            # Snooze the reminder, then move it: the page and the outbox row agree.
            await browser.open("/ui/reminders")
            assert "call the bank" in await browser.text()
            await browser.click(f'#r{reminder.id} button[value="snooze10"]')
            assert f"Changed r{reminder.id}" in await browser.text()
            [snoozed] = [j for j in await gw.outbox.listing(limit=50) if j.id == reminder.id]
            assert snoozed.due_at < reminder.due_at - timedelta(minutes=40)
            assert f"{snoozed.due_at.astimezone(ZoneInfo('Asia/Tokyo')):%H:%M}" in (
                await browser.text(f"#r{reminder.id}")
            )
            await browser.fill(f"#when-r{reminder.id}", "tomorrow at 9")
            await browser.click(f'#r{reminder.id} button[value="move"]')
            [moved] = [j for j in await gw.outbox.listing(limit=50) if j.id == reminder.id]
            local = moved.due_at.astimezone(ZoneInfo("Asia/Tokyo"))
            assert (local.date(), local.hour) == (tokyo.date() + timedelta(days=1), 9)
            assert f"{local:%a}, {local.day} {local:%b %Y}, 09:00" in await browser.text(
                f"#r{reminder.id}"
            )
            # Her calendar: the button shows a feed link once, and the feed has the reminder.
            await browser.click("#calendar button")
            shown = await browser.text("#calendar")
            feed = re.search(r"https?://\S+(/calendar/\S+\.ics)", shown)
            assert feed is not None, shown
            assert "webcal://" in shown
            async with (
                aiohttp.ClientSession() as client,
                client.get(browser.base + feed.group(1)) as response,
            ):
                assert response.status == 200
                events = Calendar.from_ical(await response.text()).walk("VEVENT")
            [event] = [e for e in events if "call the bank" in str(e["SUMMARY"])]
            assert event.start == moved.due_at
            [met] = [e for e in events if str(e["UID"]).startswith("meeting-")]
            assert (str(met["SUMMARY"]), met.start, met.end) == (
                "Meeting with Bob Lane",
                meeting.start,
                meeting.start + timedelta(minutes=45),
            )
            for width, height in (PHONE, ZOOMED):  # the long link wraps
                await browser.size(width, height)
                assert not await browser.overflows()
            await browser.size(*DESKTOP)
            await _shoot(browser, shots, "reminders")
            await _fits(browser, "/ui/reminders")
            await _fits(browser, "/ui/hours")
            await browser.open("/ui/hours")
            assert await browser.count("svg.chart rect.bar") == 24

            # The same link again, and a made-up one: refused.
            await browser.forget()
            await browser.open(link)
            await browser.click("#signin")
            assert "This link does not work" in await browser.text()
            await browser.open("/ui/signin/made-up-token")
            await browser.click("#signin")
            assert "This link does not work" in await browser.text()
            await browser.open("/ui/timeline")
            assert await browser.path() == "/ui/"

            # Bob signs in; nothing of Alice's shows, and her reminder is not his to change.
            found = _LINK.search(await say(bob, "dashboard"))
            assert found is not None
            await browser.open(found.group(1))
            await browser.click("#signin")
            for page in ("/ui/timeline", "/ui/reminders", "/ui/hours"):
                await browser.open(page)
                text = await browser.text()
                assert "call the bank" not in text and "gym" not in text, page
            await browser.open("/ui/reminders")
            csrf = await browser.script("return document.querySelector('input[name=csrf]').value;")
            await browser.submit(
                "const f = document.createElement('form'); f.method = 'post';"
                "f.action = arguments[0];"
                "for (const [k, v] of [['csrf', arguments[1]], ['action', 'cancel']]) {"
                "  const i = document.createElement('input'); i.type = 'hidden';"
                "  i.name = k; i.value = v; f.appendChild(i); }"
                "document.body.appendChild(f); f.submit();",
                f"/ui/reminders/r{reminder.id}",
                csrf,
            )
            assert "not one of yours" in await browser.text()
            [kept] = [j for j in await gw.outbox.listing(limit=50) if j.id == reminder.id]
            assert (kept.status, kept.due_at) == ("pending", moved.due_at)
            await browser.open("/ui/operator")
            assert "This page is for the operator." in await browser.text()

            # The operator: a failed job, retried from the page, reaches Telegram.
            tg.fail_next("sendMessage", 400, description="Bad Request: chat not found")
            count, calls = len(tg.sent), len(tg.calls_of("sendMessage"))
            tg.private(bob, "this one fails")
            await tg.wait_until(lambda: len(tg.calls_of("sendMessage")) > calls, "the failed send")
            await gw.settle()
            [failed] = await gw.outbox.listing(status="failed")
            assert len(tg.sent) == count
            await browser.forget()
            await browser.open("/ui/")
            await browser.fill("#token", ADMIN)
            await browser.click("form[action='/ui/admin'] button")
            assert await browser.path() == "/ui/operator"
            page = await browser.text()
            assert "Chat not found" in page
            assert "this one fails" not in page
            await _shoot(browser, shots, "operator")
            await _fits(browser, "/ui/operator")
            await browser.open("/ui/operator")
            await browser.click(f"#job-{failed.id} button")
            assert f"Job {failed.id} is queued again" in await browser.text()
            await tg.wait_sent(count + 1)
            await gw.settle()
            [done] = [j for j in await gw.outbox.listing(limit=50) if j.id == failed.id]
            assert done.status == "sent"
            assert tg.sent[-1].chat_id == bob.id

            # Carla's browser asks for German: her reminders page is German, dates included.
            carla = tg.user(33, "carla", first_name="Carla", last_name="Roth")
            found = _LINK.search(await say(carla, "dashboard"))
            assert found is not None
            await gw.wrapper.save_settings(
                ZoneChange(user_key="telegram:33", thread_key=None, zone="Europe/Berlin",
                           scope="home")
            )  # fmt: skip
            await _reminder_for(gw, carla.id, "Zahnarzt anrufen", hours=3)
            rule = "FREQ=WEEKLY;BYDAY=TU,TH;BYHOUR=19;BYMINUTE=0"
            await gw.wrapper.reminders.create(
                NewSchedule(
                    id=new_schedule_id(), user_key="telegram:33",
                    thread_key="agent:main:telegram:dm:33", channel="telegram",
                    thread_id="dm:33", user_id="33", text="Müll rausbringen", rrule=rule,
                    dtstart=datetime(2026, 1, 6, 19, 0), zone="Europe/Berlin",  # noqa: DTZ001 (wall time)
                    origin_tz="Europe/Berlin",
                ),
                now=datetime.now(UTC),
            )  # fmt: skip
            await browser.forget()
            await browser.language("de-DE,de;q=0.9,en;q=0.5")
            await browser.open(found.group(1))
            await browser.click("#signin")
            await browser.open("/ui/reminders")
            page = await browser.text()
            berlin = (datetime.now(UTC) + timedelta(hours=3)).astimezone(ZoneInfo("Europe/Berlin"))
            assert "Erinnerungen" in page and "Demnächst" in page, page
            assert "Coming up" not in page and "Snooze" not in page
            assert format_date(berlin, "EEE", locale="de") in page  # "Mi.", not "Wed"
            assert say_rule(rule, "de") in page and "Europe/Berlin" in page
            await browser.size(*DESKTOP)
            shot = shots / "reminders-de-desktop.png"
            await browser.screenshot(shot)
            assert shot.stat().st_size > 5_000
