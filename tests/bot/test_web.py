"""The web pages over HTTP: sign-in links, sessions, CSRF, every page and form, who sees what.

The real gateway (rules agent, SQLite and PostgreSQL) with its real aiohttp server,
driven by aiohttp's client; the recording channel of test_gateway stands in for a
platform and keeps the link the bot sent. The browser tests (tests/bot/test_web_browser.py)
walk the same pages in Chromium.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from pathlib import Path
from zoneinfo import ZoneInfo

import aiohttp
import pytest

from bot.app.gateway import Gateway
from bot.catalog import catalog
from bot.config.settings import Settings
from bot.turns.dashboard import NOT_SET_UP_REPLY, asks_for_dashboard
from bot.turns.my_data import PRIVATE_ONLY_REPLY
from bot.web.site import COOKIE
from bot.web.words import WEB_DOMAIN, words
from channels.base import ChannelError
from tests.bot.test_gateway import RecordingChannel, inbound
from tests.support import staged
from wrapper.outbound.schedules import NewSchedule, new_schedule_id
from wrapper.turns.effects import ZoneChange
from wrapper.web import token_hash

ADMIN = "operator-token-0123456789"
_LINK = re.compile(r"(https?://\S+/ui/signin/(\S+))")
_CSRF = re.compile(r'name="csrf" value="([0-9a-f]{64})"')


@dataclass
class Site:
    gw: Gateway
    channel: RecordingChannel
    base: str

    def browser(self, language: str | None = None) -> aiohttp.ClientSession:
        """A client with its own cookies (one browser), following no redirects by itself;
        `language` is its ``Accept-Language``."""
        headers = {"Accept-Language": language} if language else None
        return aiohttp.ClientSession(
            cookie_jar=aiohttp.CookieJar(unsafe=True), base_url=self.base, headers=headers
        )

    async def link_for(self, user: str, message_id: str) -> str:
        """Have `user` write "dashboard" in their DM; the path of the link the bot sent."""
        before = len(self.channel.sent)
        assert self.channel.sink is not None
        await self.channel.sink(
            inbound("dashboard", message_id, user_id=user, thread_id=f"dm:{user}",
                    route={"chat": user})
        )  # fmt: skip
        await self.gw.settle()
        [reply] = self.channel.sent[before:]
        found = _LINK.search(reply.text)
        assert found is not None, reply.text
        return "/ui/signin/" + found.group(2)

    async def signed_in(
        self, user: str, message_id: str, language: str | None = None
    ) -> aiohttp.ClientSession:
        client = self.browser(language)
        path = await self.link_for(user, message_id)
        async with client.post(path, allow_redirects=False) as response:
            assert response.status == 303
            assert response.headers["Location"] == "/ui/timeline"
        return client


@asynccontextmanager
async def open_site(tmp_path: Path, database_url: str) -> AsyncIterator[Site]:
    """The gateway with its HTTP server, a public URL and an operator token."""
    settings = Settings(
        home=tmp_path, http_port=0, database_url=database_url,
        public_url="http://127.0.0.1", admin_token=ADMIN,
    )  # fmt: skip
    channel = RecordingChannel()
    async with Gateway(settings, channels=[channel], serve_http=True) as gw:
        yield Site(gw, channel, f"http://127.0.0.1:{gw.http_port}")


@pytest.fixture
async def site(tmp_path: Path, database_url: str) -> AsyncIterator[Site]:
    async with open_site(tmp_path, database_url) as opened:
        yield opened


async def _page(client: aiohttp.ClientSession, path: str) -> tuple[int, str]:
    async with client.get(path, allow_redirects=False) as response:
        return response.status, await response.text()


async def _csrf(client: aiohttp.ClientSession, path: str) -> str:
    status, text = await _page(client, path)
    assert status == 200, (path, status)
    found = _CSRF.search(text)
    assert found is not None
    return found.group(1)


async def _post(
    client: aiohttp.ClientSession, path: str, form: dict[str, str]
) -> tuple[int, str, str | None]:
    async with client.post(path, data=form, allow_redirects=False) as response:
        return response.status, await response.text(), response.headers.get("Location")


async def _reminder(site: Site, user: str, text: str, due_in: timedelta) -> int:
    now = datetime.now(UTC)
    return await staged.queued(
        site.gw.wrapper.outbox, kind="reminder", channel="test", thread_id=f"dm:{user}",
        thread_key=f"main:test:dm:{user}", user_key=f"test:{user}", user_id=user, text=text,
        due_at=now + due_in, now=now,
    )  # fmt: skip


async def _due(site: Site, job: int) -> datetime:
    [item] = [i for i in await site.gw.wrapper.outbox.listing(limit=100) if i.id == job]
    return item.due_at


def test_dashboard_is_read_whole() -> None:
    assert asks_for_dashboard("dashboard")
    assert asks_for_dashboard("  Dashboard! ")
    assert asks_for_dashboard("/dashboard@ClockBot")
    assert not asks_for_dashboard("what is a dashboard")
    assert not asks_for_dashboard("dashboard tomorrow at 9")


async def test_a_link_signs_in_once_and_shows_the_timeline_in_the_persons_zone(site: Site) -> None:
    assert site.channel.sink is not None
    await site.gw.wrapper.save_settings(
        ZoneChange(user_key="test:7", thread_key=None, zone="Asia/Tokyo", scope="home")
    )
    await site.channel.sink(inbound("hello from alice", "m0"))
    await site.gw.settle()
    path = await site.link_for("7", "m1")
    async with site.browser() as client:
        # The GET a link preview makes spends nothing: it shows a button.
        status, text = await _page(client, path)
        assert status == 200
        assert 'id="signin"' in text
        async with client.post(path, allow_redirects=False) as response:
            assert response.status == 303
            cookie = response.cookies[COOKIE]
            assert cookie["httponly"]
            assert cookie["samesite"] == "Strict"
            assert cookie["path"] == "/ui"
        status, text = await _page(client, "/ui/timeline")
        assert status == 200
        assert "hello from alice" in text
        assert "Asia/Tokyo" in text
        assert "/ui/signin/…" in text  # the bot's reply with the link, its token left out
        assert path.rsplit("/", 1)[1] not in text
        tokyo_now = datetime.now(ZoneInfo("Asia/Tokyo"))
        assert f"Today, {tokyo_now:%a} {tokyo_now.day} {tokyo_now:%b}" in text  # Tokyo's date
        assert "contact window" in text
    async with site.browser() as again:  # the same link, a second time
        async with again.post(path, allow_redirects=False) as response:
            assert response.status == 403
            assert COOKIE not in response.cookies
        status, _ = await _page(again, "/ui/timeline")
        assert status == 303
    async with (
        site.browser() as forger,
        forger.post("/ui/signin/not-a-real-token", allow_redirects=False) as response,
    ):
        assert response.status == 403


async def test_only_the_hash_of_a_link_is_stored(site: Site) -> None:
    path = await site.link_for("7", "m1")
    token = path.rsplit("/", 1)[1]

    def stored(conn: object) -> list[str]:
        from sqlalchemy import select

        from wrapper.web import web_links

        return list(conn.execute(select(web_links.c.token_hash)).scalars())  # type: ignore[attr-defined]

    hashes = await site.gw.wrapper.database.run(stored)
    assert hashes == [token_hash(token)]


async def test_dashboard_in_a_group_or_without_a_public_url_gives_no_link(
    site: Site, tmp_path: Path
) -> None:
    assert site.channel.sink is not None
    await site.channel.sink(inbound("dashboard", "g1", thread_id="group:5"))
    await site.gw.settle()
    assert site.channel.sent[-1].text == PRIVATE_ONLY_REPLY
    settings = Settings(home=tmp_path / "other", http_port=0)
    channel = RecordingChannel()
    async with Gateway(settings, channels=[channel], serve_http=True) as gw:
        assert channel.sink is not None
        await channel.sink(inbound("dashboard", "d1"))
        await gw.settle()
        assert channel.sent[-1].text == NOT_SET_UP_REPLY


async def test_reminders_snooze_move_and_cancel_change_the_outbox(site: Site) -> None:
    await site.gw.wrapper.save_settings(
        ZoneChange(user_key="test:7", thread_key=None, zone="Europe/Berlin", scope="home")
    )
    job = await _reminder(site, "7", "water the plants", timedelta(minutes=5))
    alice = await site.signed_in("7", "m1")
    async with alice:
        status, text = await _page(alice, "/ui/reminders")
        assert status == 200
        assert "water the plants" in text
        csrf = await _csrf(alice, "/ui/reminders")
        before = await _due(site, job)
        status, _, location = await _post(
            alice, f"/ui/reminders/r{job}", {"csrf": csrf, "action": "snooze10"}
        )
        assert (status, location) == (303, f"/ui/reminders?done=r{job}")
        snoozed = await _due(site, job)
        assert snoozed > before + timedelta(minutes=4)
        status, _, _ = await _post(
            alice,
            f"/ui/reminders/r{job}",
            {"csrf": csrf, "action": "move", "when": "tomorrow at 9"},
        )
        assert status == 303
        berlin = (await _due(site, job)).astimezone(ZoneInfo("Europe/Berlin"))
        tomorrow = datetime.now(ZoneInfo("Europe/Berlin")).date() + timedelta(days=1)
        assert (berlin.date(), berlin.hour, berlin.minute) == (tomorrow, 9, 0)
        # Read whole or ask: a time with words left over, or nonsense, changes nothing.
        for when in ("tomorrow at 9 and friday", "tomorrow 9", "blorp", ""):
            status, text, _ = await _post(
                alice, f"/ui/reminders/r{job}", {"csrf": csrf, "action": "move", "when": when}
            )
            assert status == 400, when
            assert 'class="error"' in text
        assert (await _due(site, job)).astimezone(ZoneInfo("Europe/Berlin")).hour == 9
        # In the person's language, as the chat reads it (issue 61: only English was read).
        for when, hour in (("übermorgen um 10 Uhr", 10), ("pasado mañana a las 11", 11)):
            status, _, _ = await _post(
                alice, f"/ui/reminders/r{job}", {"csrf": csrf, "action": "move", "when": when}
            )
            assert status == 303, when
            moved = (await _due(site, job)).astimezone(ZoneInfo("Europe/Berlin"))
            assert (moved.date(), moved.hour) == (tomorrow + timedelta(days=1), hour), when
        status, _, _ = await _post(
            alice, f"/ui/reminders/r{job}", {"csrf": csrf, "action": "cancel"}
        )
        assert status == 303
        [item] = [i for i in await site.gw.wrapper.outbox.listing(limit=100) if i.id == job]
        assert item.status == "skipped"


async def test_nobody_sees_or_changes_another_persons_data(site: Site) -> None:
    assert site.channel.sink is not None
    await site.channel.sink(inbound("alice's secret plan", "a0"))
    await site.gw.settle()
    job = await _reminder(site, "7", "alice's reminder", timedelta(hours=2))
    alice = await site.signed_in("7", "a1")
    bob = await site.signed_in("8", "b1")
    async with alice, bob:
        alice_csrf = await _csrf(alice, "/ui/reminders")
        bob_csrf = await _csrf(bob, "/ui/reminders")
        assert alice_csrf != bob_csrf
        for path in ("/ui/timeline", "/ui/reminders", "/ui/hours"):
            status, text = await _page(bob, path)
            assert status == 200
            assert "alice" not in text, path
        before = await _due(site, job)
        for action in ("snooze10", "snooze60", "cancel"):
            status, _, _ = await _post(
                bob, f"/ui/reminders/r{job}", {"csrf": bob_csrf, "action": action}
            )
            assert status == 404, action
        status, _, _ = await _post(
            bob, f"/ui/reminders/r{job}", {"csrf": bob_csrf, "action": "move", "when": "in 3 days"}
        )
        assert status == 404
        # Alice's session with Bob's token, or with none: refused before anything is read.
        for form in ({"csrf": bob_csrf, "action": "cancel"}, {"action": "cancel"}):
            status, _, _ = await _post(alice, f"/ui/reminders/r{job}", form)
            assert status == 403
        status, _, _ = await _post(bob, "/ui/settings", {"csrf": alice_csrf, "zone": "Asia/Tokyo"})
        assert status == 403
        assert await site.gw.wrapper.people.user_timezone("test:8") is None
        [item] = [i for i in await site.gw.wrapper.outbox.listing(limit=100) if i.id == job]
        assert (item.status, item.due_at) == ("pending", before)
        # A person is no operator.
        status, _ = await _page(bob, "/ui/operator")
        assert status == 403
        status, _, _ = await _post(bob, f"/ui/operator/jobs/{job}/retry", {"csrf": bob_csrf})
        assert status == 403
    async with site.browser() as stranger:
        for path in ("/ui/timeline", "/ui/reminders", "/ui/hours", "/ui/operator"):
            status, _ = await _page(stranger, path)
            assert status == 303, path
        for path in (f"/ui/reminders/r{job}", "/ui/settings", f"/ui/operator/jobs/{job}/retry"):
            status, _, _ = await _post(stranger, path, {"action": "cancel"})
            assert status == 403, path


async def test_hours_chart_and_settings(site: Site) -> None:
    assert site.channel.sink is not None
    for n in range(3):
        await site.channel.sink(inbound(f"note {n}", f"h{n}"))
    await site.gw.settle()
    alice = await site.signed_in("7", "h9")
    async with alice:
        status, text = await _page(alice, "/ui/hours")
        assert status == 200
        assert "<svg" in text
        assert "4 messages" in text  # three notes and "dashboard", in the chart's description
        csrf = await _csrf(alice, "/ui/hours")
        status, _, location = await _post(
            alice, "/ui/settings", {"csrf": csrf, "zone": "Lisbon", "window": "09:00-21:00"}
        )
        assert (status, location) == (303, "/ui/hours?saved=1")
        assert await site.gw.wrapper.people.user_timezone("test:7") == "Europe/Lisbon"
        window = await site.gw.wrapper.people.contact_window_of("test:7")
        assert str(window) == "09:00–21:00"
        for form in ({"zone": "Atlantis/Nowhere"}, {"window": "late"}):
            status, text, _ = await _post(alice, "/ui/settings", {"csrf": csrf, **form})
            assert status == 400, form
            assert 'class="error"' in text
        assert await site.gw.wrapper.people.user_timezone("test:7") == "Europe/Lisbon"


async def test_operator_signs_in_with_the_token_and_retries_a_failed_job(site: Site) -> None:
    assert site.channel.sink is not None
    site.channel.failures.append(ChannelError("chat not found", permanent=True))
    await site.channel.sink(inbound("this answer fails", "f1"))
    await site.gw.settle()
    [failed] = await site.gw.wrapper.outbox.listing(status="failed")
    async with site.browser() as wrong:
        status, _, _ = await _post(wrong, "/ui/admin", {"token": ADMIN[:-1] + "x"})
        assert status == 403
        status, _ = await _page(wrong, "/ui/operator")
        assert status == 303
    async with site.browser() as operator:
        status, _, location = await _post(operator, "/ui/admin", {"token": ADMIN})
        assert (status, location) == (303, "/ui/operator")
        status, text = await _page(operator, "/ui/operator")
        assert status == 200
        assert f'id="job-{failed.id}"' in text
        assert "chat not found" in text
        assert "this answer fails" not in text  # the operator's page holds nobody's words
        assert f"<code>{site.gw.worker}</code> (this one)" in text  # the live workers
        status, _ = await _page(operator, "/ui/timeline")
        assert status == 403
        csrf = await _csrf(operator, "/ui/operator")
        status, _, _ = await _post(operator, f"/ui/operator/jobs/{failed.id}/retry", {})
        assert status == 403  # no CSRF token
        sent_before = len(site.channel.sent)
        status, _, location = await _post(
            operator, f"/ui/operator/jobs/{failed.id}/retry", {"csrf": csrf}
        )
        assert (status, location) == (303, f"/ui/operator?retried={failed.id}")
        await site.gw.settle()
        assert len(site.channel.sent) == sent_before + 1
        [item] = [i for i in await site.gw.wrapper.outbox.listing(limit=100) if i.id == failed.id]
        assert item.status == "sent"
        status, _, _ = await _post(operator, f"/ui/operator/jobs/{failed.id}/retry", {"csrf": csrf})
        assert status == 404  # no longer failed
        status, _, location = await _post(operator, "/ui/signout", {"csrf": csrf})
        assert (status, location) == (303, "/ui/")
        status, _ = await _page(operator, "/ui/operator")
        assert status == 303


async def test_erasing_a_person_ends_their_sessions(site: Site) -> None:
    alice = await site.signed_in("7", "e1")
    async with alice:
        status, _ = await _page(alice, "/ui/timeline")
        assert status == 200
        await site.gw.wrapper.people.erase_person("test:7")
        status, _ = await _page(alice, "/ui/timeline")
        assert status == 303


async def test_the_cookie_is_secure_behind_an_https_public_url(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path, http_port=0, public_url="https://clock.example.org")
    channel = RecordingChannel()
    async with Gateway(settings, channels=[channel], serve_http=True) as gw:
        site = Site(gw, channel, f"http://127.0.0.1:{gw.http_port}")
        path = await site.link_for("7", "s1")
        assert site.channel.sent[-1].text.startswith(
            "Here is your page: https://clock.example.org/ui/signin/"
        )
        async with site.browser() as client, client.post(path, allow_redirects=False) as response:
            assert response.status == 303
            assert response.cookies[COOKIE]["secure"]
            assert "Secure" in response.headers["Set-Cookie"]


async def test_a_repeating_reminder_is_shown_in_words(site: Site) -> None:
    assert site.channel.sink is not None
    await site.channel.sink(
        inbound("clock: home tz Europe/Berlin", "r0", user_id="8", thread_id="dm:8",
                route={"chat": "8"})
    )  # fmt: skip
    await site.channel.sink(
        inbound("remind me every tuesday and thursday at 7pm to water the plants", "r1",
                user_id="8", thread_id="dm:8", route={"chat": "8"})
    )  # fmt: skip
    await site.gw.settle()
    bob = await site.signed_in("8", "r2")
    async with bob:
        status, text = await _page(bob, "/ui/reminders")
    assert status == 200
    assert "every Tuesday and Thursday at 19:00" in text
    assert "FREQ=" not in text and "BYDAY" not in text


_WORD = re.compile(r"[^\W\d_]+")
_NAMES = frozenset({"berlin", "europe", "telegram", "iana", "clockbot", "dashboard", "hh", "mm"})
"""Names on the pages in every language: a zone, a platform, the command a person types."""
_URL = re.compile(r"\w+://\S+")
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta"})


def _words_of(texts: Iterable[str]) -> set[str]:
    """The words of `texts`, lower-cased, without placeholders and HTML tags."""
    words_: set[str] = set()
    for text in texts:
        bare = re.sub(r"<[^>]+>|%\(\w+\)[sd]", " ", text)
        words_.update(word.lower() for word in _WORD.findall(bare))
    return words_


def _catalog_texts(language: str) -> list[str]:
    texts: list[str] = []
    for message in catalog(language, WEB_DOMAIN):
        if message.id:
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            texts.extend(str(s) for s in strings)
    return texts


def _english_only(language: str) -> set[str]:
    """The English catalog's words that `language`'s catalog does not use too."""
    return _words_of(_catalog_texts("en")) - _words_of(_catalog_texts(language)) - _NAMES


class _PageWords(HTMLParser):
    """What a person reads on a page (text, placeholders, labels), without their own words
    (an element of class "text": a message or a reminder as they wrote it)."""

    def __init__(self) -> None:
        super().__init__()
        self.words: list[str] = []
        self._open: list[bool] = []  # per open element: inside a person's words

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        theirs = bool(self._open and self._open[-1]) or "text" in (found.get("class") or "").split()
        if not theirs:
            for name in ("placeholder", "aria-label", "title"):
                self.words.extend(_WORD.findall(found.get(name) or ""))
        if tag not in _VOID:
            self._open.append(theirs)

    def handle_endtag(self, tag: str) -> None:
        if tag not in _VOID and self._open:
            self._open.pop()

    def handle_data(self, data: str) -> None:
        if not (self._open and self._open[-1]):
            self.words.extend(_WORD.findall(_URL.sub(" ", data)))  # an address is no word


def _english_on(page: str, language: str) -> set[str]:
    reader = _PageWords()
    reader.feed(page)
    return {word.lower() for word in reader.words} & _english_only(language)


@pytest.mark.parametrize("language", ["de", "fr"])
async def test_every_page_a_person_reads_is_in_their_browsers_language(
    site: Site, language: str
) -> None:
    said = words(language)
    shown: dict[str, str] = {}

    async def read(client: aiohttp.ClientSession, name: str, path: str, status: int = 200) -> str:
        got, text = await _page(client, path)
        assert got == status, (name, got)
        shown[name] = text
        return text

    async with site.browser(f"{language}-CH,{language};q=0.9,en;q=0.5") as stranger:
        await read(stranger, "sign-in", "/ui/")
        await read(stranger, "link", await site.link_for("9", "l1"))
        status, shown["refused link"], _ = await _post(stranger, "/ui/signin/made-up", {})
        assert status == 403
        status, shown["wrong operator token"], _ = await _post(
            stranger, "/ui/admin", {"token": "x"}
        )
        assert status == 403
        status, refused, _ = await _post(stranger, "/ui/settings", {"zone": "UTC"})
        assert status == 403
        shown["refusal"] = f"<p>{refused}</p>"
    await site.gw.wrapper.save_settings(
        ZoneChange(user_key="test:7", thread_key=None, zone="Europe/Berlin", scope="home")
    )
    person = await site.signed_in("7", "m1", f"{language};q=0.8, en;q=0.2")
    await _reminder(site, "7", "Pflanzen gießen", timedelta(hours=2))
    start = datetime.now(ZoneInfo("Europe/Berlin")).replace(
        hour=19, minute=0, second=0, microsecond=0, tzinfo=None
    )
    await site.gw.wrapper.reminders.create(
        NewSchedule(
            id=new_schedule_id(), user_key="test:7", thread_key="main:test:dm:7",
            channel="test", thread_id="dm:7", user_id="7", text="Müll rausbringen",
            rrule="FREQ=WEEKLY;BYDAY=TU,TH;BYHOUR=19;BYMINUTE=0", dtstart=start,
            zone="Europe/Berlin", origin_tz="Europe/Berlin",
        ),
        now=datetime.now(UTC),
    )  # fmt: skip
    async with person:
        await read(person, "timeline", "/ui/timeline")
        reminders = await read(person, "reminders", "/ui/reminders")
        await read(person, "hours", "/ui/hours")
        csrf = _CSRF.search(reminders)
        assert csrf is not None
        [job] = re.findall(r'id="(r\d+)"', reminders)
        for when in ("blorp", "", "gestern um 9"):
            status, shown[f"move to {when!r}"], _ = await _post(
                person,
                f"/ui/reminders/{job}",
                {"csrf": csrf.group(1), "action": "move", "when": when},
            )
            assert status == 400, when
        status, shown["bad zone"], _ = await _post(
            person, "/ui/settings", {"csrf": csrf.group(1), "zone": "Atlantis/Nowhere"}
        )
        assert status == 400
        status, shown["calendar"], _ = await _post(person, "/ui/calendar", {"csrf": csrf.group(1)})
        assert status == 200
    assert f'<html lang="{language}">' in shown["timeline"]
    assert said.gettext("Reminders") in shown["reminders"]  # the check below reads a real page
    assert said.gettext("Repeating") in shown["reminders"]
    assert said.gettext("Get a calendar link") not in shown["calendar"]
    for name, page in shown.items():
        assert _english_on(page, language) == set(), name


async def test_the_language_a_person_writes_in_wins_over_their_browsers(site: Site) -> None:
    assert site.channel.sink is not None
    for n, words_ in enumerate(
        ("wie spät ist es in Tokio?", "ich bin jetzt zu Hause und gehe schlafen")
    ):
        await site.channel.sink(inbound(words_, f"w{n}"))
    await site.gw.settle()
    async with await site.signed_in("7", "w9", "fr-FR,fr") as person:
        status, text = await _page(person, "/ui/reminders")
    assert status == 200
    assert '<html lang="de">' in text
    assert words("de").gettext("Repeating") in text
