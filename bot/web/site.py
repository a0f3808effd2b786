"""What every web page shares: templates in the reader's language, the session cookie, forms.

`WebPages` (`bot.web.pages`) builds on it; docs/web.md says who may see what.
"""

from __future__ import annotations

import gettext
import hashlib
import hmac
import logging
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from aiohttp import web

from bot.app.http import Health
from bot.web.guard import SignInBackoff, same_origin
from bot.web.words import browser_language, page_language, words
from clockcore import Clock
from wrapper import InteractionWrapper
from wrapper.web import (
    SESSION_LIFETIME,
    WebSession,
    operator_mark,
    recent_words_in,
    session_in,
    token_hash,
)

__all__ = ["COOKIE", "Signed", "Site", "csrf_token"]

log = logging.getLogger(__name__)

COOKIE = "clockbot_session"
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


def csrf_token(session_token: str) -> str:
    """The CSRF token of a session: an HMAC of its (secret, HttpOnly) cookie value."""
    return hmac.new(session_token.encode(), b"clockbot-csrf", hashlib.sha256).hexdigest()


@dataclass(frozen=True, slots=True)
class Signed:
    """A signed-in browser: its session and the cookie's token."""

    session: WebSession
    token: str

    @property
    def csrf(self) -> str:
        return csrf_token(self.token)


class Site:
    """One worker's web settings and the plumbing every page uses (`WebPages` has the Args)."""

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

    async def _signed_in(self, request: web.Request) -> Signed | None:
        token = request.cookies.get(COOKIE)
        if not token or len(token) > 100:
            return None
        now = self._clock.now()
        session = await self._db.run(
            lambda conn: session_in(conn, token_hash(token), now=now, operator=self._mark)
        )
        return Signed(session, token) if session is not None else None

    async def _person(self, request: web.Request) -> Signed:
        """The signed-in person; otherwise to the sign-in page (GET) or 403 (POST)."""
        return await self._session(request, admin=False)

    async def _operator_session(self, request: web.Request) -> Signed:
        """The signed-in operator; otherwise to the sign-in page (GET) or 403."""
        return await self._session(request, admin=True)

    async def _session(self, request: web.Request, *, admin: bool) -> Signed:
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

    async def _form(self, request: web.Request, signed: Signed) -> Mapping[str, str]:
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


def _browser_words(request: web.Request) -> gettext.NullTranslations:
    """The pages' words in the browser's language: for a refusal read before any session."""
    return words(browser_language(request.headers.get("Accept-Language")) or "en")
