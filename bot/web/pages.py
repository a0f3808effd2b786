"""The web pages at ``/ui/``: a person's timeline, reminders and hours; the operator's page.

Server-rendered (Jinja2, autoescaped), one stylesheet, no script: every page
reads and every form works without JavaScript. Served by the gateway's one
aiohttp server (`bot.app.http`) beside the webhooks.

Who may see what:
- a person signs in through a one-time link the bot sent them
  (``GET /ui/signin/<token>`` shows a button; the ``POST`` uses the link, so a
  chat app's link preview cannot spend it) and sees only their own data, across
  every identity linked to them;
- an operator signs in with ``CLOCKBOT_ADMIN_TOKEN`` (compared in constant
  time) and sees the service: channels, leadership, the outbox, the waiting
  list and the prompt cache, without anybody's words;
- the session is a random token in an HttpOnly, SameSite=Strict cookie (Secure
  when the public URL is https); only its hash is stored (`wrapper.web`);
- every form that changes something carries a CSRF token derived from the
  session, checked in constant time;
- every POST, the sign-ins included, must come from this site (`bot.web.guard`:
  ``Origin`` and ``Sec-Fetch-Site``), and wrong operator tokens back off per
  address and per worker;
- a session ends when what it was opened for no longer holds: its identity was
  unlinked or erased, or the admin token changed (`wrapper.web.session_in`).
"""

from __future__ import annotations

import asyncio
import gettext
import hashlib
import hmac
import logging
import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import jinja2
from aiohttp import web
from markupsafe import Markup

from bot.app.duckling_pool import reading_for
from bot.app.http import Health
from bot.turns.calendar_feed import feed_urls
from bot.web.chart import by_local_hour, hours_svg
from bot.web.guard import SignInBackoff, client_address, retry_after, same_origin
from bot.web.shown import (
    one_shot_card,
    read_time,
    recurring_card,
    state_label,
    until_label,
    zone_named,
)
from bot.web.words import browser_language, day_label, page_language, when, words
from channels.base import HttpRoute
from clockcore import Clock, ContactWindow, get_zone
from clockcore.errors import ClockError
from wrapper import InteractionWrapper
from wrapper.calendar_feeds import NewCalendarFeed
from wrapper.outbound.reminders import PAUSED, ReminderAction, ReminderChange
from wrapper.turns.effects import WindowChange, ZoneChange
from wrapper.web import (
    SESSION_LIFETIME,
    WebSession,
    admin_session_in,
    end_session_in,
    failed_jobs_in,
    message_times_in,
    new_token,
    operator_mark,
    recent_words_in,
    redeem_in,
    retry_in,
    session_in,
    timeline_in,
    token_hash,
    waiting_in,
)

__all__ = ["COOKIE", "WebPages", "csrf_token"]

log = logging.getLogger(__name__)

COOKIE = "clockbot_session"
TIMELINE_DAYS = 14
"""How far back the timeline reaches."""
CHART_DAYS = 90
"""How far back the hours chart counts."""
SNOOZES = {"snooze10": timedelta(minutes=10), "snooze60": timedelta(hours=1)}
_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; "
        "frame-ancestors 'none'; base-uri 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
_HERE = Path(__file__).parent
_SIGNIN_LINK = re.compile(r"(/ui/signin/)[A-Za-z0-9_-]+")
"""A sign-in link in a reply: the timeline shows it without its token (a shared screen)."""
_OPERATOR_LANGUAGE = "en"
"""The operator's page stays English, as the command line does (docs/languages.md)."""


def csrf_token(session_token: str) -> str:
    """The CSRF token of a session: an HMAC of its (secret, HttpOnly) cookie value."""
    return hmac.new(session_token.encode(), b"clockbot-csrf", hashlib.sha256).hexdigest()


def _said(language: str) -> gettext.NullTranslations:
    """The pages' words in `language` (`bot.web.words`)."""
    return words(language)


@dataclass(frozen=True, slots=True)
class _Signed:
    session: WebSession
    token: str

    @property
    def csrf(self) -> str:
        return csrf_token(self.token)


class WebPages:
    """The ``/ui/`` routes of one worker.

    Args:
        wrapper: the store.
        clock: now.
        public_url: ``CLOCKBOT_PUBLIC_URL``; https there makes the cookie Secure.
        admin_token: ``CLOCKBOT_ADMIN_TOKEN``; None turns operator sign-in off.
        health: the ``/healthz`` probe.
        wake: called after a change that makes a job due (the dispatcher's wake-up).
        worker: this worker's id, marked among the live workers on the operator's page.
    """

    def __init__(
        self,
        *,
        wrapper: InteractionWrapper,
        clock: Clock,
        public_url: str | None,
        admin_token: str | None,
        health: Health,
        wake: Callable[[], None] = lambda: None,
        worker: str = "",
        trusted_proxies: Collection[str] = (),
    ) -> None:
        self._trusted_proxies = frozenset(trusted_proxies)
        self._wake = wake
        self._worker = worker
        self._wrapper = wrapper
        self._db = wrapper.database
        self._clock = clock
        self._secure = bool(public_url and public_url.lower().startswith("https://"))
        self._public_url = public_url
        self._admin_token = admin_token
        self._mark = operator_mark(admin_token) if admin_token is not None else None
        self._backoff = SignInBackoff()
        self._health = health
        self._css = (_HERE / "static" / "style.css").read_text(encoding="utf-8")
        self._templates: dict[str, jinja2.Environment] = {}

    def routes(self) -> list[HttpRoute]:
        """Every page and form, for `bot.app.http.HttpServer`."""
        return [
            HttpRoute("GET", "/ui", self._to_index),
            HttpRoute("GET", "/ui/", self._index),
            HttpRoute("GET", "/ui/style.css", self._style),
            HttpRoute("GET", "/ui/signin/{token}", self._signin_page),
            HttpRoute("POST", "/ui/signin/{token}", self._signin),
            HttpRoute("POST", "/ui/admin", self._admin_signin),
            HttpRoute("POST", "/ui/signout", self._signout),
            HttpRoute("GET", "/ui/timeline", self._timeline),
            HttpRoute("GET", "/ui/reminders", self._reminders),
            HttpRoute("POST", "/ui/reminders/{rid}", self._change_reminder),
            HttpRoute("POST", "/ui/calendar", self._new_feed),
            HttpRoute("GET", "/ui/hours", self._hours),
            HttpRoute("POST", "/ui/settings", self._settings),
            HttpRoute("GET", "/ui/operator", self._operator),
            HttpRoute("POST", "/ui/operator/jobs/{job}/retry", self._retry),
        ]

    # ------------------------------------------------------------- plumbing

    def _environment(self, language: str) -> jinja2.Environment:
        """The templates with Jinja2's i18n extension reading `language`'s web catalog."""
        environment = self._templates.get(language)
        if environment is None:
            environment = jinja2.Environment(
                loader=jinja2.FileSystemLoader(_HERE / "templates"),
                autoescape=jinja2.select_autoescape(["html"]),
                undefined=jinja2.StrictUndefined,
                extensions=["jinja2.ext.i18n"],
            )
            environment.policies["ext.i18n.trimmed"] = True
            environment.install_gettext_translations(  # type: ignore[attr-defined]
                words(language), newstyle=True
            )
            self._templates[language] = environment
        return environment

    def _page(self, name: str, language: str, *, status: int = 200, **context: Any) -> web.Response:
        template = self._environment(language).get_template(name)
        body = template.render(language=language, **context)
        headers = {**_HEADERS, "Content-Language": language, "Vary": "Accept-Language, Cookie"}
        return web.Response(text=body, status=status, content_type="text/html", headers=headers)

    def _problem(self, language: str, status: int, title: str, text: str) -> web.Response:
        return self._page(
            "message.html", language, status=status, title=title, text=text, signed=None
        )

    async def _language(self, request: web.Request, user_id: str | None = None) -> str:
        """The page's language: the person's own (their messages), their browser's, or English."""
        accept = request.headers.get("Accept-Language")
        if user_id is None:
            return page_language(accept)
        written = await self._db.run(lambda conn: recent_words_in(conn, user_id))
        return page_language(accept, written)

    async def _signed_in(self, request: web.Request) -> _Signed | None:
        token = request.cookies.get(COOKIE)
        if not token or len(token) > 100:
            return None
        now = self._clock.now()
        session = await self._db.run(
            lambda conn: session_in(conn, token_hash(token), now=now, operator=self._mark)
        )
        return _Signed(session, token) if session is not None else None

    async def _person(self, request: web.Request) -> _Signed:
        """The signed-in person; otherwise to the sign-in page (GET) or 403 (POST)."""
        return await self._session(request, admin=False)

    async def _operator_session(self, request: web.Request) -> _Signed:
        """The signed-in operator; otherwise to the sign-in page (GET) or 403."""
        return await self._session(request, admin=True)

    async def _session(self, request: web.Request, *, admin: bool) -> _Signed:
        signed = await self._signed_in(request)
        if signed is None:
            if request.method == "GET":
                raise web.HTTPSeeOther("/ui/")
            raise web.HTTPForbidden(text=_browser_words(request).gettext("You are not signed in."))
        if signed.session.admin != admin:
            raise web.HTTPForbidden(
                text=_browser_words(request).gettext("This page is for the operator.")
                if admin
                else "an operator's session has no person's pages"
            )
        return signed

    async def _form(self, request: web.Request, signed: _Signed) -> Mapping[str, str]:
        """The posted form, its origin and CSRF token checked (403 when wrong)."""
        self._same_site(request)
        form = await request.post()
        sent = form.get("csrf")
        if not isinstance(sent, str) or not hmac.compare_digest(
            sent.encode("utf-8", "replace"), signed.csrf.encode()
        ):
            raise web.HTTPForbidden(
                text=_browser_words(request).gettext(
                    "This form is out of date: open the page again and retry."
                )
            )
        return {k: v for k, v in form.items() if isinstance(v, str)}

    def _same_site(self, request: web.Request) -> None:
        """403 for a POST another site's page made (`bot.web.guard.same_origin`)."""
        if not same_origin(request, self._public_url):
            log.warning("a cross-site %s to %s was refused", request.method, request.path)
            raise web.HTTPForbidden(
                text=_browser_words(request).gettext(
                    "This form must be sent from clockbot's own page."
                )
            )

    def _set_session(self, response: web.StreamResponse, token: str) -> None:
        response.set_cookie(
            COOKIE,
            token,
            httponly=True,
            secure=self._secure,
            samesite="Strict",
            path="/ui",
            max_age=int(SESSION_LIFETIME.total_seconds()),
        )

    async def _zone_of(self, session: WebSession) -> str:
        assert session.user_key is not None
        return await self._wrapper.people.user_timezone(session.user_key) or "UTC"

    # ------------------------------------------------------------- sign-in

    async def _to_index(self, request: web.Request) -> web.Response:
        raise web.HTTPSeeOther("/ui/")

    async def _index(self, request: web.Request) -> web.Response:
        signed = await self._signed_in(request)
        if signed is not None:
            raise web.HTTPSeeOther("/ui/operator" if signed.session.admin else "/ui/timeline")
        language = await self._language(request)
        return self._page("index.html", language, signed=None, admin=self._admin_token is not None)

    async def _style(self, request: web.Request) -> web.Response:
        return web.Response(
            text=self._css, content_type="text/css", headers={"Cache-Control": "max-age=3600"}
        )

    async def _signin_page(self, request: web.Request) -> web.Response:
        # A GET changes nothing: link previews fetch it too. The button posts.
        token = request.match_info["token"]
        return self._page("signin.html", await self._language(request), signed=None, token=token)

    async def _signin(self, request: web.Request) -> web.Response:
        self._same_site(request)
        link = request.match_info["token"]
        session = new_token()
        now = self._clock.now()
        opened = await self._db.run(
            lambda conn: redeem_in(conn, token_hash(link), token_hash(session), now=now)
        )
        if opened is None:
            log.info("a sign-in link was refused (unknown, used or expired)")
            language = await self._language(request)
            said = _said(language)
            return self._problem(
                language,
                403,
                said.gettext("This link does not work"),
                said.gettext(
                    "It was used already, it expired (links last 10 minutes), or it is not one "
                    "of ours. Write “dashboard” to the bot for a new one."
                ),
            )
        response = web.HTTPSeeOther("/ui/timeline")
        self._set_session(response, session)
        raise response

    async def _admin_signin(self, request: web.Request) -> web.Response:
        self._same_site(request)
        address = client_address(request, self._trusted_proxies)
        now = self._clock.now()
        wait = self._backoff.wait(address, now)
        if wait is not None:
            log.warning("an operator sign-in was refused: too many wrong tokens")
            said = _said(language := await self._language(request))
            response = self._problem(
                language,
                429,
                said.gettext("Too many tries"),
                said.gettext("Too many wrong tokens. Wait a while and try again."),
            )
            response.headers["Retry-After"] = retry_after(wait)
            return response
        form = await request.post()
        given = form.get("token")
        expected, mark = self._admin_token, self._mark
        if (
            expected is None
            or mark is None
            or not isinstance(given, str)
            or not hmac.compare_digest(given.encode("utf-8", "replace"), expected.encode())
        ):
            self._backoff.failed(address, now)
            log.warning("an operator sign-in was refused")
            said = _said(language := await self._language(request))
            return self._problem(
                language,
                403,
                said.gettext("Not signed in"),
                said.gettext("That is not the operator's token."),
            )
        self._backoff.succeeded(address)
        session = new_token()
        await self._db.run(
            lambda conn: admin_session_in(conn, token_hash(session), now=now, mark=mark)
        )
        response = web.HTTPSeeOther("/ui/operator")
        self._set_session(response, session)
        raise response

    async def _signout(self, request: web.Request) -> web.Response:
        signed = await self._signed_in(request)
        if signed is not None:
            await self._form(request, signed)
            await self._db.run(lambda conn: end_session_in(conn, token_hash(signed.token)))
        response = web.HTTPSeeOther("/ui/")
        response.del_cookie(COOKIE, path="/ui")
        raise response

    # ------------------------------------------------------------- a person's pages

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
        said = _said(language)
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
        said = _said(language)
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
        svg = hours_svg(counts, window, zone=zone, said=_said(language))
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
        said = _said(await self._language(request, signed.session.user_id))
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

    # ------------------------------------------------------------- the operator's page

    async def _operator(self, request: web.Request) -> web.Response:
        signed = await self._operator_session(request)
        report = await self._health()
        health = {
            "status": "degraded" if report.problems else "ok",
            "channels": sorted(report.channels),
            "problems": dict(report.problems),
            "leading": dict(report.leading),
        }
        counts = await self._wrapper.outbox.counts()
        failed = await self._db.run(lambda conn: failed_jobs_in(conn))
        waiting_total, waiting = await self._db.run(lambda conn: waiting_in(conn))
        now = self._clock.now()
        stats = await self._wrapper.calls.stats(since=now - timedelta(hours=24))
        calls = await self._wrapper.calls.recent(limit=30)
        workers = await self._wrapper.workers.alive(now=now)
        return self._page(
            "operator.html",
            _OPERATOR_LANGUAGE,
            signed=signed,
            health=health,
            counts=sorted(counts.items()),
            failed=failed,
            waiting=waiting,
            waiting_total=waiting_total,
            stats=stats,
            calls=calls,
            tab="operator",
            now=_when(now, get_zone("UTC")),
            workers=workers,
            worker=self._worker,
            retried=request.query.get("retried"),
        )

    async def _retry(self, request: web.Request) -> web.Response:
        signed = await self._operator_session(request)
        await self._form(request, signed)
        raw = request.match_info["job"]
        if not raw.isdigit() or len(raw) > 18:
            raise web.HTTPNotFound(text="no such job")
        job = int(raw)
        now = self._clock.now()
        if not await self._db.run(lambda conn: retry_in(conn, job, now=now)):
            return self._problem(
                _OPERATOR_LANGUAGE, 404, "Not retried", f"Job {job} is not a failed job."
            )
        log.info("the operator retried outbox job %d", job)
        self._wake()
        raise web.HTTPSeeOther(f"/ui/operator?retried={job}")


# --------------------------------------------------------------------------- helpers


@dataclass(frozen=True, slots=True)
class _Person:
    """A signed-in person as their pages need them."""

    signed: _Signed
    id: str
    key: str
    zone: str
    window: ContactWindow
    language: str


def _browser_words(request: web.Request) -> gettext.NullTranslations:
    """The pages' words in the browser's language: for a refusal read before any session."""
    return words(browser_language(request.headers.get("Accept-Language")) or "en")


def _when(at: datetime, tz: Any) -> str:
    """An instant on the operator's page (English, `_OPERATOR_LANGUAGE`)."""
    return when(at, tz, _OPERATOR_LANGUAGE)
