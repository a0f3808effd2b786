"""The IMAP side: one connection to INBOX, IDLE (or polling), fetch, hand over, then ``\\Seen``.

`ImapReader.run` loops forever: connect, log in, select, handle every message
past the stored cursor, wait (IDLE when the server has it, else
`poll_interval`), and again. Any drop (the server restarting, a timeout, a
refused command) closes the connection and reconnects after an exponential
backoff (0.5 s doubling to 60 s), reset by the next good login.

The cursor is ``"<UIDVALIDITY> <last handled UID>"`` under
``email:<address>:imap`` in the gateway's `StateStore`, one `put` so the two
never disagree. For each new UID, in order: fetch ``BODY.PEEK[]`` (or only the
header when the message is over the size limit), call the sink, set ``\\Seen``,
advance the cursor. A crash in between repeats the sink call on restart and
the gateway's journal drops it by Message-ID. With no cursor, or a changed
UIDVALIDITY (the UIDs mean nothing any more), the reader handles what is
unseen instead; what it handled before is seen, so nothing repeats.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import ssl
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, TypeVar

import aioimaplib  # type: ignore[import-untyped]

from channels.base import Sink, StateStore
from channels.email.reading import (
    Accepted,
    Broken,
    MailFacts,
    Refused,
    Screening,
    internal_date_utc,
    read_mail,
)

__all__ = ["ImapConfig", "ImapError", "ImapReader"]

log = logging.getLogger(__name__)

Security = Literal["tls", "starttls", "none"]
T = TypeVar("T")

BACKOFF_START = 0.5
BACKOFF_MAX = 60.0
COMMAND_TIMEOUT = 30.0

_FETCH_START = re.compile(rb"^\d+ FETCH \(")
_UID = re.compile(rb"\bUID (\d+)")
_SIZE = re.compile(rb"\bRFC822\.SIZE (\d+)")
_INTERNALDATE = re.compile(rb'\bINTERNALDATE "([^"]+)"')
_UIDVALIDITY = re.compile(rb"\[UIDVALIDITY (\d+)\]")
_UIDNEXT = re.compile(rb"\[UIDNEXT (\d+)\]")


class ImapError(ConnectionError):
    """The IMAP session failed: refused login, a command answered NO/BAD, or the link dropped.

    Messages name the server and the step, never the password.
    """


@dataclass(frozen=True, slots=True)
class ImapConfig:
    """Where and how to read. `password` is never logged or put in an error."""

    host: str
    port: int
    user: str
    password: str | None
    security: Security
    max_bytes: int
    idle_timeout: float
    poll_interval: float


@dataclass(slots=True)
class _Fetched:
    uid: int
    size: int
    internal_date: datetime | None
    literal: bytes | None


class ImapReader:
    """Reads one mailbox into a sink; see the module docstring for the order of things."""

    def __init__(
        self,
        config: ImapConfig,
        screening: Screening,
        *,
        state_key: str,
        now: Callable[[], datetime],
    ) -> None:
        self._config = config
        self._screening = screening
        self._state_key = state_key
        self._now = now
        self._client: aioimaplib.IMAP4 | None = None
        self._lost = asyncio.Event()
        self._stopping = asyncio.Event()
        self._selected = (0, 1)  # (UIDVALIDITY, UIDNEXT) of the current SELECT
        self.connected = False
        self.last_error: str | None = None

    # --- lifecycle -------------------------------------------------------------------------------

    async def check(self) -> None:
        """Connect, log in and select once, then disconnect; raises `ImapError` if that fails."""
        try:
            await self._connect()
        finally:
            await self._disconnect()

    async def run(self, sink: Sink, state: StateStore) -> None:
        """Read until `stop`: reconnect with backoff after any failure."""
        backoff = BACKOFF_START
        while not self._stopping.is_set():
            try:
                await self._connect()
                backoff = BACKOFF_START
                self.connected, self.last_error = True, None
                await self._serve(sink, state)
            except (ImapError, OSError, TimeoutError, aioimaplib.AioImapException) as exc:
                if self._stopping.is_set():
                    break
                self.last_error = _describe(exc)
                log.warning(
                    "email: IMAP %s:%s failed (%s); reconnecting in %.1f s",
                    self._config.host,
                    self._config.port,
                    self.last_error,
                    backoff,
                )
            finally:
                self.connected = False
                await self._disconnect()
            await self._pause(backoff)
            backoff = min(backoff * 2, BACKOFF_MAX)

    def stop(self) -> None:
        """Ask `run` to finish: the message in hand is completed, waiting is cut short."""
        self._stopping.set()

    def resume(self) -> None:
        """Undo `stop` before `run` is called again (this worker leads the mailbox anew)."""
        self._stopping.clear()

    # --- one session -----------------------------------------------------------------------------

    async def _serve(self, sink: Sink, state: StateStore) -> None:
        client = self._client
        assert client is not None
        use_idle = client.has_capability("IDLE")
        while not self._stopping.is_set():
            await self._drain(client, sink, state)
            if self._stopping.is_set():
                return
            if use_idle:
                await self._idle(client)
            else:
                await self._guard(self._pause(self._config.poll_interval))

    async def _pause(self, seconds: float) -> None:
        """Sleep `seconds`, or less when stopping."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):  # not wait_for: bot.turns.lifecycle.retry_forever
                await self._stopping.wait()

    async def _idle(self, client: aioimaplib.IMAP4) -> None:
        """One IDLE: returns on new mail, after `idle_timeout`, or when stopping."""
        while not client.protocol.idle_queue.empty():
            client.protocol.idle_queue.get_nowait()
        idle = await self._guard(client.idle_start(timeout=self._config.idle_timeout))
        push = asyncio.ensure_future(client.wait_server_push(self._config.idle_timeout + 30))
        stopping = asyncio.ensure_future(self._stopping.wait())
        try:
            await self._guard(asyncio.wait({push, stopping}, return_when=asyncio.FIRST_COMPLETED))
        finally:
            push.cancel()
            stopping.cancel()
        client.idle_done()
        await self._guard(asyncio.wait_for(idle, COMMAND_TIMEOUT))

    async def _drain(self, client: aioimaplib.IMAP4, sink: Sink, state: StateStore) -> None:
        """Handle everything past the cursor, searching again until a search finds nothing.

        Searching again matters: a server reports new mail alongside whatever command runs
        next (our FETCH or STORE), aioimaplib drops such reports, and an IDLE begun afterwards
        would not hear of that mail until `idle_timeout`.
        """
        validity, uidnext = self._selected
        cursor = _parse_cursor(await state.get(self._state_key))
        if cursor is None or cursor[0] != validity:
            if cursor is not None:
                log.warning("email: UIDVALIDITY changed; reading the unseen messages again")
            unseen = sorted(await self._search(client, "UNSEEN"))
            for uid in unseen:
                if self._stopping.is_set():
                    return  # no cursor yet: the next start reads what is still unseen
                await self._handle(client, uid, validity, sink)
            # Later mail gets UIDs from UIDNEXT on, so the range search below finds it.
            cursor = (validity, max([uidnext - 1, *unseen]))
            await state.put(self._state_key, f"{cursor[0]} {cursor[1]}")
        while not self._stopping.is_set():
            last = cursor[1]
            found = await self._search(client, "UID", f"{last + 1}:*")
            uids = sorted(uid for uid in found if uid > last)
            if not uids:
                return
            for uid in uids:
                if self._stopping.is_set():
                    return
                await self._handle(client, uid, validity, sink)
                cursor = (validity, uid)
                await state.put(self._state_key, f"{validity} {uid}")

    async def _handle(self, client: aioimaplib.IMAP4, uid: int, validity: int, sink: Sink) -> None:
        meta = await self._fetch(client, uid, "(UID RFC822.SIZE INTERNALDATE)")
        if meta is None:
            return  # expunged meanwhile
        truncated = meta.size > self._config.max_bytes
        part = "BODY.PEEK[HEADER]" if truncated else "BODY.PEEK[]"
        body = await self._fetch(client, uid, f"(UID {part})")
        if body is None or body.literal is None:
            return
        facts = MailFacts(uid, validity, meta.internal_date, meta.size, truncated)
        try:
            # Parsing is CPU work (MIME, HTML): on a thread, so other chats go on meanwhile.
            outcome = await asyncio.to_thread(
                read_mail, body.literal, facts, self._screening, now=self._now()
            )
        except Exception as exc:  # hostile input must never stop the reader
            outcome = Broken(f"unreadable ({type(exc).__name__})")
        if isinstance(outcome, Broken):
            log.warning("email: UID %d left unseen: %s", uid, outcome.reason)
            return
        if isinstance(outcome, Refused):
            log.info("email: UID %d not answered: %s", uid, outcome.reason)
        elif isinstance(outcome, Accepted):
            try:
                await sink(outcome.inbound)
            except Exception as exc:  # the gateway could not record it: keep it for later
                raise ImapError(
                    f"the gateway did not take UID {uid} ({type(exc).__name__})"
                ) from exc
        await self._ok(client.uid("store", str(uid), "+FLAGS.SILENT", r"(\Seen)"), "STORE")

    # --- IMAP commands ---------------------------------------------------------------------------

    async def _connect(self) -> None:
        cfg = self._config
        self._lost = asyncio.Event()
        context = ssl.create_default_context() if cfg.security == "tls" else None
        self._client = client = aioimaplib.IMAP4(
            host=cfg.host,
            port=cfg.port,
            timeout=COMMAND_TIMEOUT,
            conn_lost_cb=lambda _exc: self._lost.set(),
            ssl_context=context,
        )
        try:
            await client.wait_hello_from_server()
        except (OSError, TimeoutError, ssl.SSLError) as exc:
            raise ImapError(f"cannot connect to {cfg.host}:{cfg.port} ({_describe(exc)})") from exc
        if cfg.security == "starttls":
            await self._starttls(client)
        if cfg.password is None:
            raise ImapError("no IMAP password configured")
        response = await self._guard(client.login(cfg.user, cfg.password))
        if response.result != "OK":
            raise ImapError(f"IMAP login as {cfg.user} refused by {cfg.host}")
        await self._guard(client.protocol.capability())  # the list grows after login
        selected = await self._guard(client.select("INBOX"))
        if selected.result != "OK":
            raise ImapError("SELECT INBOX refused")
        validity = _first_int(_UIDVALIDITY, selected.lines)
        if validity is None:
            raise ImapError("the server sent no UIDVALIDITY")
        self._selected = (validity, _first_int(_UIDNEXT, selected.lines) or 1)

    async def _starttls(self, client: aioimaplib.IMAP4) -> None:
        """Upgrade the plain connection in place (aioimaplib has no STARTTLS of its own)."""
        protocol = client.protocol
        if "STARTTLS" not in protocol.capabilities:
            raise ImapError(f"{self._config.host} does not offer STARTTLS")
        command = aioimaplib.Command("STARTTLS", protocol.new_tag(), loop=protocol.loop)
        response = await self._guard(protocol.execute(command))
        if response.result != "OK":
            raise ImapError("STARTTLS refused")
        loop = asyncio.get_running_loop()
        try:
            transport = await loop.start_tls(
                protocol.transport,
                protocol,
                ssl.create_default_context(),
                server_hostname=self._config.host,
            )
        except (OSError, ssl.SSLError) as exc:
            raise ImapError(f"TLS handshake with {self._config.host} failed") from exc
        assert transport is not None
        protocol.transport = transport
        await self._guard(protocol.capability())

    async def _search(self, client: aioimaplib.IMAP4, *criteria: str) -> list[int]:
        response = await self._ok(client.uid_search(*criteria, charset=None), "SEARCH")
        found: list[int] = []
        for line in response.lines[:-1]:
            text = bytes(line).decode("ascii", "replace").removeprefix("SEARCH")
            found += [int(token) for token in text.split() if token.isdigit()]
        return found

    async def _fetch(self, client: aioimaplib.IMAP4, uid: int, items: str) -> _Fetched | None:
        response = await self._ok(client.uid("fetch", str(uid), items), "FETCH")
        return _parse_fetch(response.lines, uid)

    async def _ok(self, call: Awaitable[aioimaplib.Response], what: str) -> aioimaplib.Response:
        response = await self._guard(call)
        if response.result != "OK":
            raise ImapError(f"{what} answered {response.result}")
        return response

    async def _guard(self, call: Awaitable[T]) -> T:
        """Await `call`, but fail at once when the connection drops instead of timing out."""
        task = asyncio.ensure_future(call)
        lost = asyncio.ensure_future(self._lost.wait())
        try:
            await asyncio.wait({task, lost}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            lost.cancel()
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
            raise ImapError("connection lost")
        return task.result()

    async def _disconnect(self) -> None:
        client, self._client = self._client, None
        if client is None:
            return
        protocol = client.protocol
        if protocol is not None and protocol.transport is not None and not self._lost.is_set():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.logout(), 2)
        if protocol is not None and protocol.transport is not None:
            protocol.transport.close()
        pending = [*client.tasks, *(protocol.tasks if protocol is not None else ())]
        if not client._client_task.done():
            pending.append(client._client_task)
        for task in pending:
            task.cancel()
        for task in pending:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def _parse_fetch(lines: list[bytes | bytearray], uid: int) -> _Fetched | None:
    """The FETCH record for `uid` among `lines` (other, unsolicited records are skipped)."""
    found: _Fetched | None = None
    current: _Fetched | None = None
    for line in lines:
        if isinstance(line, bytearray):
            if current is not None and current.literal is None:
                current.literal = bytes(line)
            continue
        if _FETCH_START.match(line):
            number = _UID.search(line)
            size = _SIZE.search(line)
            date = _INTERNALDATE.search(line)
            current = _Fetched(
                uid=int(number.group(1)) if number else -1,
                size=int(size.group(1)) if size else 0,
                internal_date=internal_date_utc(date.group(1).decode("ascii", "replace"))
                if date
                else None,
                literal=None,
            )
            if current.uid == uid:
                found = current
        elif current is not None and current.uid == -1 and (number := _UID.search(line)):
            current.uid = int(number.group(1))  # UID after the literal
            if current.uid == uid:
                found = current
    return found


def _parse_cursor(value: str | None) -> tuple[int, int] | None:
    if not value:
        return None
    parts = value.split()
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        return None
    return int(parts[0]), int(parts[1])


def _first_int(pattern: re.Pattern[bytes], lines: list[bytes | bytearray]) -> int | None:
    for line in lines:
        found = pattern.search(bytes(line))
        if found:
            return int(found.group(1))
    return None


def _describe(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text[:200]}" if text else type(exc).__name__
