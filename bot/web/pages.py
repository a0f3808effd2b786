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

import hmac
import logging
from datetime import datetime, timedelta
from typing import Any

from aiohttp import web

from bot.web.guard import client_address, retry_after
from bot.web.personal import PersonPages
from bot.web.site import COOKIE
from bot.web.words import when, words
from channels.base import HttpRoute
from clockcore import get_zone
from wrapper.web import (
    admin_session_in,
    end_session_in,
    failed_jobs_in,
    new_token,
    redeem_in,
    retry_in,
    token_hash,
    waiting_in,
)

__all__ = ["WebPages"]

log = logging.getLogger(__name__)

_OPERATOR_LANGUAGE = "en"
"""The operator's page stays English, as the command line does (docs/languages.md)."""


class WebPages(PersonPages):
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
            said = words(language)
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
            said = words(language := await self._language(request))
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
            said = words(language := await self._language(request))
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


def _when(at: datetime, tz: Any) -> str:
    """An instant on the operator's page (English, `_OPERATOR_LANGUAGE`)."""
    return when(at, tz, _OPERATOR_LANGUAGE)
