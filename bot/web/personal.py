"""A signed-in person's pages: timeline, reminders and hours, and the forms that change them."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from aiohttp import web
from markupsafe import Markup

from bot.app.duckling_pool import reading_for
from bot.turns.calendar_feed import feed_urls
from bot.web.chart import by_local_hour, hours_svg
from bot.web.shown import (
    one_shot_card,
    read_time,
    recurring_card,
    state_label,
    until_label,
    zone_named,
)
from bot.web.site import Signed, Site
from bot.web.words import day_label, when, words
from clockcore import ContactWindow, get_zone
from clockcore.errors import ClockError
from wrapper.calendar_feeds import NewCalendarFeed
from wrapper.outbound.reminders import PAUSED, ReminderAction, ReminderChange
from wrapper.turns.effects import WindowChange, ZoneChange
from wrapper.web import message_times_in, new_token, timeline_in, token_hash

__all__ = ["PersonPages"]

TIMELINE_DAYS = 14
"""How far back the timeline reaches."""
CHART_DAYS = 90
"""How far back the hours chart counts."""
SNOOZES = {"snooze10": timedelta(minutes=10), "snooze60": timedelta(hours=1)}
_SIGNIN_LINK = re.compile(r"(/ui/signin/)[A-Za-z0-9_-]+")
"""A sign-in link in a reply: the timeline shows it without its token (a shared screen)."""


@dataclass(frozen=True, slots=True)
class _Person:
    """A signed-in person as their pages need them."""

    signed: Signed
    id: str
    key: str
    zone: str
    window: ContactWindow
    language: str


class PersonPages(Site):
    """The pages of a person signed in through a link the bot sent: only their own data."""

    async def _signed_in_person(self, request: web.Request) -> _Person:
        """The signed-in person: session, id, zone, contact window and language."""
        signed = await self._person(request)
        session = signed.session
        assert session.user_id is not None
        assert session.user_key is not None
        zone = await self._zone_of(session)
        window = await self._wrapper.people.contact_window_of(session.user_key)
        language = await self._language(request, session.user_id)
        return _Person(signed, session.user_id, session.user_key, zone, window, language)

    async def _timeline(self, request: web.Request) -> web.Response:
        person = await self._signed_in_person(request)
        user_id, zone, window, language = person.id, person.zone, person.window, person.language
        said = words(language)
        now = self._clock.now()
        since = now - timedelta(days=TIMELINE_DAYS)
        entries = await self._db.run(lambda conn: timeline_in(conn, user_id, since=since))
        tz = get_zone(zone)
        today = now.astimezone(tz).date()
        days: list[dict[str, Any]] = []
        for entry in entries:
            local = entry.at.astimezone(tz)
            if not days or days[-1]["date"] != local.date():
                label = day_label(local, today, language)
                days.append({"date": local.date(), "label": label, "entries": []})
            days[-1]["entries"].append(
                {
                    "entry": replace(entry, text=_SIGNIN_LINK.sub(r"\1…", entry.text)),
                    "time": f"{local:%H:%M}",
                    "outside": not window.contains(local.time()),
                    "until": until_label(entry.until, local, tz, language) if entry.until else None,
                    "state": state_label(entry.state, said),
                    "note": said.gettext("paused by you") if entry.note == PAUSED else entry.note,
                }
            )
        return self._page(
            "timeline.html",
            language,
            signed=person.signed,
            zone=zone,
            window=str(window),
            days=days,
            today=day_label(now.astimezone(tz), today, language),
            now=when(now, tz, language),
            tab="timeline",
        )

    async def _reminders(
        self,
        request: web.Request,
        *,
        error: str | None = None,
        status: int = 200,
        new_feed: tuple[str, str] | None = None,
    ) -> web.Response:
        person = await self._signed_in_person(request)
        zone, language = person.zone, person.language
        tz = get_zone(zone)
        schedules, one_shots = await self._wrapper.reminders.reminders(person.key)
        now = self._clock.now()
        done = request.query.get("done")
        made = await self._wrapper.feeds.made(person.key)
        return self._page(
            "reminders.html",
            language,
            status=status,
            signed=person.signed,
            zone=zone,
            tab="reminders",
            recurring=[recurring_card(s, zone, now, language) for s in schedules],
            one_shots=[one_shot_card(j, tz, language) for j in one_shots],
            error=error,
            done=done if done and len(done) < 30 else None,
            feeds=self._public_url is not None,
            new_feed=new_feed,
            feed_made=when(made, tz, language) if made is not None else None,
        )

    async def _new_feed(self, request: web.Request) -> web.Response:
        """A new calendar feed URL, shown once; the old one stops (`bot.turns.calendar_feed`)."""
        signed = await self._person(request)
        await self._form(request, signed)
        if self._public_url is None:
            raise web.HTTPNotFound(text="calendar feeds need CLOCKBOT_PUBLIC_URL")
        assert signed.session.user_key is not None
        token = new_token()
        await self._wrapper.save_settings(
            NewCalendarFeed(signed.session.user_key, token_hash(token))
        )
        return await self._reminders(request, new_feed=feed_urls(self._public_url, token))

    async def _change_reminder(self, request: web.Request) -> web.Response:
        signed = await self._person(request)
        form = await self._form(request, signed)
        session = signed.session
        assert session.user_key is not None
        assert session.user_id is not None
        language = await self._language(request, session.user_id)
        said = words(language)
        target = request.match_info["rid"]
        action = form.get("action", "")
        now = self._clock.now()
        until: datetime | None = None
        change: ReminderAction
        if action in SNOOZES:
            change, until = "move", now + SNOOZES[action]
        elif action == "move":
            zone = await self._zone_of(session)
            with reading_for(session.user_key):  # a reader child's wait is not the loop's
                read = await asyncio.to_thread(
                    read_time, form.get("when", ""), zone, now, said, language
                )
            if isinstance(read, str):
                return await self._reminders(request, error=read, status=400)
            change, until = "move", read
        elif action in ("pause", "resume", "cancel"):
            change = action  # type: ignore[assignment]
        else:
            return await self._reminders(request, error=said.gettext("Unknown change."), status=400)
        repeats = await self._wrapper.reminders.repeats(session.user_key, target)
        if repeats and change == "move":
            return await self._reminders(
                request,
                error=said.gettext("A repeating reminder is paused or cancelled, not moved."),
                status=400,
            )
        if not repeats and change == "pause":
            return await self._reminders(
                request, error=said.gettext("Snooze it or change its time instead."), status=400
            )
        done = await self._wrapper.reminders.change(
            ReminderChange(session.user_key, target, change, until), now=now
        )
        if not done:
            return await self._reminders(
                request,
                error=said.gettext("That reminder is not one of yours that can change now."),
                status=404,
            )
        self._wake()
        raise web.HTTPSeeOther(f"/ui/reminders?done={target}")

    async def _hours(
        self, request: web.Request, *, error: str | None = None, status: int = 200
    ) -> web.Response:
        person = await self._signed_in_person(request)
        user_id, zone, window, language = person.id, person.zone, person.window, person.language
        since = self._clock.now() - timedelta(days=CHART_DAYS)
        times = await self._db.run(lambda conn: message_times_in(conn, user_id, since=since))
        counts = by_local_hour(times, zone)
        svg = hours_svg(counts, window, zone=zone, said=words(language))
        return self._page(
            "hours.html",
            language,
            status=status,
            signed=person.signed,
            zone=zone,
            tab="hours",
            window=window,
            window_text=f"{window.start:%H:%M}-{window.end:%H:%M}",
            svg=Markup(svg),  # noqa: S704 (made here, escaped)
            counts=list(enumerate(counts)),
            days=CHART_DAYS,
            error=error,
            saved=request.query.get("saved") == "1",
        )

    async def _settings(self, request: web.Request) -> web.Response:
        signed = await self._person(request)
        form = await self._form(request, signed)
        user_key = signed.session.user_key
        assert user_key is not None
        assert signed.session.user_id is not None
        said = words(await self._language(request, signed.session.user_id))
        zone_text = form.get("zone", "").strip()
        window_text = form.get("window", "").strip()
        try:
            window = ContactWindow.parse(window_text) if window_text else None
        except (ValueError, ClockError):
            error = said.gettext(
                "“%(window)s” is not a contact window: write two times, such as 09:00-21:00."
            ) % {"window": window_text}
            return await self._hours(request, error=error, status=400)
        zone: str | None = None
        if zone_text:
            zone = zone_named(zone_text)
            if zone is None:
                error = said.gettext(
                    "“%(zone)s” is not a timezone or a place I know. "
                    "Try an IANA name such as Europe/Berlin."
                ) % {"zone": zone_text}
                return await self._hours(request, error=error, status=400)
        changes: list[ZoneChange | WindowChange] = []
        if zone is not None:
            changes.append(ZoneChange(user_key=user_key, thread_key=None, zone=zone, scope="home"))
        if window is not None:
            changes.append(WindowChange.of(user_key, window))
        await self._wrapper.save_settings(*changes)  # both, or neither
        raise web.HTTPSeeOther("/ui/hours?saved=1")
