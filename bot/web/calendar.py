"""``GET /calendar/<token>.ics``: a person's calendar feed (`bot.calendar_feed`).

The token in the path is the only credential, as calendar apps fetch feeds
without cookies: a token that is not a current feed's (made-up, replaced, or
its person erased) answers 404, the same as any other unknown path, so the
answer tells nothing about which tokens existed. The feed is private
(``Cache-Control: private``) and is never logged with its path's token.
"""

from __future__ import annotations

from aiohttp import web

from bot.calendar_feed import REFRESH
from bot.calendar_ics import build_feed
from channels.base import HttpRoute
from clockcore import Clock
from wrapper import InteractionWrapper
from wrapper.web import token_hash

__all__ = ["CalendarFeeds"]

_TOKEN_CHARS = 100
_HEADERS = {
    "Cache-Control": f"private, max-age={int(REFRESH.total_seconds())}",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class CalendarFeeds:
    """The feed route of one worker; only where a public URL is set (the feed's URLs use it)."""

    def __init__(self, *, wrapper: InteractionWrapper, clock: Clock, public_url: str) -> None:
        self._wrapper = wrapper
        self._clock = clock
        self._public_url = public_url

    def routes(self) -> list[HttpRoute]:
        return [HttpRoute("GET", "/calendar/{name}", self._feed)]

    async def _feed(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        token = name.removesuffix(".ics")
        if token == name or not token or len(token) > _TOKEN_CHARS:
            raise web.HTTPNotFound()
        now = self._clock.now()
        items = await self._wrapper.calendar_feed(token_hash(token), now=now)
        if items is None:
            raise web.HTTPNotFound()
        body = build_feed(items, now=now, public_url=self._public_url)
        return web.Response(
            body=body, content_type="text/calendar", charset="utf-8", headers=_HEADERS
        )
