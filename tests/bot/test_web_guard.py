"""The sign-in's guards over HTTP: origin checks, the operator's backoff, sessions that end.

Rows 4, 9, 10 and part of 14 of issue 35 (docs/SECURITY.md): each test failed before
the guard. The real gateway and aiohttp server, with an injected clock for the backoff.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiohttp
import pytest

from bot.app.gateway import Gateway
from bot.config.settings import Settings
from bot.web.guard import SignInBackoff
from clockcore import SettableClock
from tests.bot.test_gateway import RecordingChannel, inbound
from tests.bot.test_web import ADMIN, Site, _csrf, _page, _post

_CODE = re.compile(r"clock: link ([A-Z0-9-]{4,})")


@pytest.fixture
def clock() -> SettableClock:
    return SettableClock(datetime.now(UTC))


@pytest.fixture
async def site(tmp_path: Path, clock: SettableClock) -> AsyncIterator[Site]:
    settings = Settings(
        home=tmp_path, http_port=0, public_url="http://127.0.0.1", admin_token=ADMIN
    )
    channel = RecordingChannel()
    async with Gateway(settings, channels=[channel], serve_http=True, clock=clock) as gw:
        yield Site(gw, channel, f"http://127.0.0.1:{gw.http_port}")


async def _post_with(
    client: aiohttp.ClientSession, path: str, form: dict[str, str], headers: dict[str, str]
) -> int:
    async with client.post(path, data=form, headers=headers, allow_redirects=False) as response:
        return response.status


# --- row 10: login CSRF -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "https://evil.example"},
        {"Origin": "null"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site", "Origin": "http://127.0.0.1"},
    ],
)
async def test_a_sign_in_posted_from_another_site_is_refused_and_spends_nothing(
    site: Site, headers: dict[str, str]
) -> None:
    path = await site.link_for("7", "o1")
    async with site.browser() as browser:
        assert await _post_with(browser, path, {}, headers) == 403
        assert await _post_with(browser, "/ui/admin", {"token": ADMIN}, headers) == 403
        status, _ = await _page(browser, "/ui/timeline")
        assert status == 303  # not signed in
        # The link was not spent: from our own page it still works.
        own = {"Origin": site.base, "Sec-Fetch-Site": "same-origin"}
        assert await _post_with(browser, path, {}, own) == 303


async def test_a_form_posted_from_another_site_is_refused_even_with_the_csrf_token(
    site: Site,
) -> None:
    alice = await site.signed_in("7", "o2")
    async with alice:
        csrf = await _csrf(alice, "/ui/hours")
        form = {"csrf": csrf, "zone": "Europe/Lisbon"}
        evil = {"Origin": "https://evil.example"}
        assert await _post_with(alice, "/ui/settings", form, evil) == 403
        assert await site.gw.wrapper.people.user_timezone("test:7") is None


async def test_a_non_ascii_csrf_value_is_a_403_not_a_crash(site: Site) -> None:
    alice = await site.signed_in("7", "o3")
    async with alice:
        status, _, _ = await _post(alice, "/ui/signout", {"csrf": "ü" * 64})
        assert status == 403
        status, _ = await _page(alice, "/ui/timeline")
        assert status == 200  # still signed in


# --- row 9: the operator's sign-in --------------------------------------------------------------


async def test_wrong_operator_tokens_back_off_until_the_wait_is_over(
    site: Site, clock: SettableClock
) -> None:
    async with site.browser() as browser:
        statuses = [
            (await _post(browser, "/ui/admin", {"token": f"guess-{n}"}))[0] for n in range(5)
        ]
        assert statuses == [403] * 5
        # The sixth try waits, even with the right token: guessing fast gains nothing.
        async with browser.post("/ui/admin", data={"token": ADMIN}, allow_redirects=False) as r:
            assert r.status == 429
            assert int(r.headers["Retry-After"]) >= 1
        clock.advance(timedelta(seconds=3))
        status, _, location = await _post(browser, "/ui/admin", {"token": ADMIN})
        assert (status, location) == (303, "/ui/operator")


def test_the_backoff_grows_per_address_and_a_flood_holds_only_those_who_guessed() -> None:
    backoff = SignInBackoff()
    now = datetime(2026, 11, 26, 12, tzinfo=UTC)
    for _ in range(8):
        backoff.failed("10.0.0.1", now)
    wait = backoff.wait("10.0.0.1", now)
    assert wait is not None and wait >= timedelta(seconds=16)
    assert backoff.wait("10.0.0.2", now) is None  # another address is not held...
    for n in range(30):
        backoff.failed(f"10.1.0.{n}", now)
    # A flood from everywhere holds every address with a wrong try of its own, but never
    # one without: someone else's flood does not lock the operator out (docs/SECURITY.md).
    assert backoff.wait("10.1.0.7", now) is not None
    assert backoff.wait("10.0.0.2", now) is None
    backoff.failed("10.0.0.2", now)  # one typo of the operator's, in the flood
    assert backoff.wait("10.0.0.2", now) is not None
    later = now + timedelta(minutes=6)
    assert backoff.wait("10.0.0.2", later) is None  # the typo is forgotten by then
    assert backoff.wait("10.1.0.7", later) is None


async def test_changing_the_admin_token_ends_operator_sessions(tmp_path: Path) -> None:
    jar = aiohttp.CookieJar(unsafe=True)
    channel = RecordingChannel()
    for token, expected in ((ADMIN, 200), (ADMIN + "-rotated", 303)):
        settings = Settings(home=tmp_path, http_port=0, admin_token=token)
        async with Gateway(settings, channels=[channel], serve_http=True) as gw:
            base = f"http://127.0.0.1:{gw.http_port}"
            async with aiohttp.ClientSession(cookie_jar=jar, base_url=base) as browser:
                if token == ADMIN:
                    status, _, _ = await _post(browser, "/ui/admin", {"token": ADMIN})
                    assert status == 303
                status, _ = await _page(browser, "/ui/operator")
                assert status == expected, token


# --- row 4: a session of an identity that moved -------------------------------------------------


async def test_unlinking_an_identity_ends_its_web_sessions(site: Site) -> None:
    assert site.channel.sink is not None
    sink = site.channel.sink

    await sink(inbound("clock: link", "l1", user_id="7", thread_id="dm:7", route={"chat": "7"}))
    await site.gw.settle()
    code = _CODE.search(site.channel.sent[-1].text)
    assert code is not None, site.channel.sent[-1].text
    await sink(
        inbound(f"clock: link {code.group(1)}", "l2", user_id="8", thread_id="dm:8",
                route={"chat": "8"})
    )  # fmt: skip
    await site.gw.settle()
    await sink(
        inbound("clock: link yes", "l2b", user_id="7", thread_id="dm:7", route={"chat": "7"})
    )
    await site.gw.settle()
    bob = await site.signed_in("8", "l3")
    async with bob:
        status, _ = await _page(bob, "/ui/timeline")
        assert status == 200
        await sink(
            inbound("clock: unlink", "l4", user_id="8", thread_id="dm:8", route={"chat": "8"})
        )
        await site.gw.settle()
        status, _ = await _page(bob, "/ui/timeline")
        assert status == 303  # the session was for the person 8 no longer belongs to


# --- the review of December 2026, row 11: the backoff locked the operator out -----------------


def test_a_slow_trickle_of_wrong_tokens_never_holds_the_address() -> None:
    """One wrong token every 15 minutes from one address kept the right one refused."""
    backoff = SignInBackoff()
    now = datetime(2026, 12, 1, 12, tzinfo=UTC)
    for _ in range(12):
        backoff.failed("10.0.0.1", now)
        now += timedelta(minutes=15)
        assert backoff.wait("10.0.0.1", now) is None


async def test_behind_a_trusted_proxy_the_backoff_holds_the_guesser_not_the_operator(
    tmp_path: Path,
) -> None:
    settings = Settings(
        home=tmp_path, http_port=0, admin_token=ADMIN, trusted_proxies=("127.0.0.1",)
    )
    async with Gateway(settings, channels=[RecordingChannel()], serve_http=True) as gw:
        base = f"http://127.0.0.1:{gw.http_port}"
        guesser = {"X-Forwarded-For": "203.0.113.66"}
        operator = {"X-Forwarded-For": "198.51.100.7"}
        async with aiohttp.ClientSession(base_url=base) as browser:
            statuses = []
            for n in range(7):
                async with browser.post(
                    "/ui/admin", data={"token": f"guess-{n}"}, headers=guesser,
                    allow_redirects=False,
                ) as response:  # fmt: skip
                    statuses.append(response.status)
        jar = aiohttp.CookieJar(unsafe=True)
        async with (
            aiohttp.ClientSession(base_url=base, cookie_jar=jar) as browser,
            browser.post(
                "/ui/admin", data={"token": ADMIN}, headers=operator, allow_redirects=False
            ) as response,
        ):
            signed_in = (response.status, response.headers.get("Location"))
    assert statuses[:5] == [403] * 5 and statuses[-1] == 429
    assert signed_in == (303, "/ui/operator")
