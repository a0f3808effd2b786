"""``GET /calendar/<token>.ics``: a person's calendar feed (`bot.turns.calendar_feed`).

The token in the path is the only credential, as calendar apps fetch feeds
without cookies: a token that is not a current feed's (made-up, replaced, or
its person erased) answers 404, the same as any other unknown path, so the
answer tells nothing about which tokens existed. The feed is private
(``Cache-Control: private``, five minutes at most) and is never logged with its
path's token.

Building a feed is CPU work (`bot.calendar_ics`, bounded there), so it runs on a
worker thread, never on the event loop. What a feed is built from is read on
each fetch (cheap, and it settles whether the token still works); the body is
kept per token while those items are unchanged, for `CACHE_FOR`, and its
``ETag`` answers a calendar's ``If-None-Match`` with 304. Each token may be
fetched `FETCHES_PER_MINUTE` times a minute; more are 429 (docs/SECURITY.md).
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from dataclasses import dataclass

from aiohttp import web

from bot.calendar_ics import build_feed
from channels.base import HttpRoute
from clockcore import Clock
from wrapper import InteractionWrapper
from wrapper.web import token_hash

__all__ = ["CACHE_FOR", "FETCHES_PER_MINUTE", "CalendarFeeds"]

CACHE_FOR = 300.0
"""Seconds a built feed is served again while its items are unchanged (and clients may keep it)."""
FETCHES_PER_MINUTE = 20
"""Fetches of one token a minute; a calendar app asks about once an hour."""
_TOKEN_CHARS = 100
_MOST_KEPT = 2_000  # feeds kept built in one worker
_HEADERS = {
    "Cache-Control": f"private, max-age={int(CACHE_FOR)}",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


@dataclass(frozen=True, slots=True)
class _Built:
    items: str  # what the body was built from, as text
    etag: str
    body: bytes
    at: float


class CalendarFeeds:
    """The feed route of one worker; only where a public URL is set (the feed's URLs use it)."""

    def __init__(self, *, wrapper: InteractionWrapper, clock: Clock, public_url: str) -> None:
        self._wrapper = wrapper
        self._clock = clock
        self._public_url = public_url
        self._built: dict[str, _Built] = {}
        self._fetches: dict[str, list[float]] = {}

    def routes(self) -> list[HttpRoute]:
        return [HttpRoute("GET", "/calendar/{name}", self._feed)]

    async def _feed(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        token = name.removesuffix(".ics")
        if token == name or not token or len(token) > _TOKEN_CHARS:
            raise web.HTTPNotFound()
        digest = token_hash(token)
        now = self._clock.now()
        items = await self._wrapper.feeds.items(digest, now=now)
        if items is None:
            self._built.pop(digest, None)
            raise web.HTTPNotFound()
        # Counted only for a feed that exists: made-up tokens would fill the counts.
        if not self._may_fetch(digest):
            raise web.HTTPTooManyRequests(headers={"Retry-After": "60"})
        built = self._built.get(digest)
        shown = repr(items)
        if built is None or built.items != shown or time.monotonic() - built.at > CACHE_FOR:
            body = await asyncio.to_thread(build_feed, items, now=now, public_url=self._public_url)
            etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
            built = _Built(shown, etag, body, time.monotonic())
            if len(self._built) >= _MOST_KEPT:
                self._built.clear()
            self._built[digest] = built
        headers = {**_HEADERS, "ETag": built.etag}
        if built.etag in request.headers.get("If-None-Match", ""):
            return web.Response(status=304, headers=headers)
        return web.Response(
            body=built.body, content_type="text/calendar", charset="utf-8", headers=headers
        )

    def _may_fetch(self, digest: str) -> bool:
        """Whether this token may be fetched now (`FETCHES_PER_MINUTE`, a sliding minute)."""
        now = time.monotonic()
        recent = [at for at in self._fetches.get(digest, ()) if at > now - 60.0]
        if len(recent) >= FETCHES_PER_MINUTE:
            self._fetches[digest] = recent
            return False
        recent.append(now)
        if len(self._fetches) >= _MOST_KEPT and digest not in self._fetches:
            self._fetches.clear()  # as many feeds as that fetched within a minute: start over
        self._fetches[digest] = recent
        return True
