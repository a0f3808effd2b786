"""The Telegram channel: python-telegram-bot's `ExtBot` in, `Inbound` out, and back.

Polling drives ``getUpdates`` itself rather than PTB's `Application`, to keep
clockbot's order: every update of a batch goes to the sink (which journals
it) before the next ``getUpdates`` confirms the batch through its offset. A
crash in between makes Telegram deliver the batch again, and the journal
recognises it. In webhook mode the update arrives on the gateway's aiohttp
server (`http_routes`); Telegram gets its 200 only after the sink returned.

Sending goes through PTB's `AIORateLimiter` without retries of its own
(`channels.telegram.sending`): a flood wait becomes `ChannelError(retry_after=…)`
and the gateway's dispatcher waits and sends again.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import os
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Literal

from aiohttp import web
from telegram import (
    BotCommand,
    CallbackQuery,
    Message,
    PollAnswer,
    Update,
)
from telegram.error import (
    BadRequest,
    InvalidToken,
    RetryAfter,
    TelegramError,
)
from telegram.ext import AIORateLimiter, ExtBot
from telegram.request import HTTPXRequest

from channels.base import (
    Channel,
    ChannelError,
    HttpRoute,
    Outgoing,
    Pace,
    Sink,
    StateStore,
)
from channels.reminder_buttons import NOT_YOURS
from channels.telegram import messages
from channels.telegram.buttons import (
    chosen_keyboard,
    chosen_text,
    press_inbound,
    read_press,
)
from channels.telegram.inbound import (
    Identity,
    is_allowed,
    normalise_allowed,
    read_message,
    vote_inbound,
)
from channels.telegram.sending import Sender, retry_seconds
from clockcore import Clock, SystemClock

__all__ = ["TelegramChannel"]

# PTB 22 warns on every `RetryAfter.retry_after` read unless this opt-in to its next major
# version's `timedelta` is set; the adapter reads both shapes.
os.environ.setdefault("PTB_TIMEDELTA", "true")

log = logging.getLogger(__name__)

WEBHOOK_PATH = "/telegram/webhook"
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"  # noqa: S105 - a header name
_UNREADABLE = (ValueError, KeyError, TypeError, AttributeError, ArithmeticError, OSError)
"""What reading a malformed update raises: wrong types, a date past ``time_t`` (fuzzed)."""
ALLOWED_UPDATES = ("message", "callback_query", "poll_answer")
POLL_TIMEOUT = 25
"""Seconds one ``getUpdates`` long poll may wait for an update."""
MAX_BACKOFF = 30.0
_LOGGERS_WITH_URLS = ("httpx", "telegram.Bot", "telegram.ext.ExtBot")
"""Loggers whose lines can hold the Bot API URL, which contains the token."""
RECENT = 1024
"""How many handled message ids are remembered, so a redelivery gets no second direct reply."""


class TelegramChannel(Channel):
    """Private chats, groups and forum topics through one bot.

    Args:
        token: the Bot API token; it appears in no log line and no error.
        api_url: the Bot API base (a local server in tests).
        mode: ``polling`` or ``webhook``.
        webhook_url: the public URL Telegram posts updates to (webhook mode).
        webhook_secret: the secret Telegram sends back in
            ``X-Telegram-Bot-Api-Secret-Token`` (webhook mode).
        allowed_users: user ids or @usernames let in; empty lets everyone in.
        open_groups: answer every group message, not only those addressed to the bot.
        clock: "now" for a message without a date.

    Raises:
        ValueError: a setting is missing or malformed; the message names the
            setting, never its value.
    """

    name = "telegram"

    def __init__(
        self,
        token: str,
        *,
        api_url: str = "https://api.telegram.org",
        mode: Literal["polling", "webhook"] = "polling",
        webhook_url: str | None = None,
        webhook_secret: str | None = None,
        allowed_users: Sequence[str] = (),
        open_groups: bool = False,
        clock: Clock | None = None,
    ) -> None:
        if not token or any(c.isspace() or c == "/" for c in token):
            raise ValueError("telegram.token: missing or malformed")
        if mode not in ("polling", "webhook"):
            raise ValueError("telegram.mode: use polling or webhook")
        if mode == "webhook" and not (webhook_url and webhook_secret):
            raise ValueError("telegram.webhook_url and telegram.webhook_secret: required")
        self._redact = _Redact(token)
        for name in _LOGGERS_WITH_URLS:
            logging.getLogger(name).addFilter(self._redact)
        api = str(api_url).rstrip("/")
        self._token = token
        self._mode = mode
        self._webhook_url = str(webhook_url) if webhook_url else None
        self._secret = (webhook_secret or "").encode()
        self._allowed = normalise_allowed(allowed_users)
        self._open_groups = open_groups
        self._clock = clock or SystemClock()
        self._bot = ExtBot(
            token,
            base_url=f"{api}/bot",
            base_file_url=f"{api}/file/bot",
            request=HTTPXRequest(connection_pool_size=8, read_timeout=10.0),
            get_updates_request=HTTPXRequest(connection_pool_size=1, read_timeout=10.0),
            rate_limiter=AIORateLimiter(max_retries=0),
        )
        self._me: Identity | None = None
        self._sink: Sink | None = None
        self._state: StateStore | None = None
        self._stopping = asyncio.Event()
        self._poller: asyncio.Task[None] | None = None
        self._fetch: asyncio.Future[tuple[Update, ...]] | None = None
        self._handled_upto = 0
        self._recent: OrderedDict[str, None] = OrderedDict()
        self._sender = Sender(self._bot, token)
        self._problem: str | None = None

    # --- lifecycle ------------------------------------------------------------------------------

    async def start(self, sink: Sink, state: StateStore, *, intake: bool = True) -> None:
        """Check the token, register the commands, then set the webhook or poll (with `intake`)."""
        self._sink, self._state = sink, state
        try:
            await self._bot.initialize()
            self._me = Identity(self._bot.id, self._bot.username)
            if self._mode == "webhook":
                assert self._webhook_url is not None
                await self._bot.set_webhook(
                    self._webhook_url,
                    secret_token=self._secret.decode(),
                    allowed_updates=ALLOWED_UPDATES,
                )
            else:
                await self._bot.delete_webhook()
        except InvalidToken as exc:
            raise ChannelError("telegram: the Bot API refused the token", permanent=True) from exc
        except TelegramError as exc:
            raise ChannelError(f"telegram: cannot start: {self._sender.safe(exc)}") from exc
        try:
            await self._bot.set_my_commands([BotCommand(c, d) for c, d in messages.COMMANDS])
        except TelegramError as exc:
            log.warning("telegram: setMyCommands failed: %s", self._sender.safe(exc))
        if intake:
            await self.start_intake()

    @property
    def intake(self) -> str | None:
        """``telegram:<bot id>:polling`` in polling mode: Telegram answers a second poller 409."""
        if self._mode != "polling":
            return None
        return f"telegram:{self._token.partition(':')[0]}:polling"

    async def start_intake(self) -> None:
        """Begin polling, after the update the store says was handled last (polling mode only)."""
        if self._mode != "polling" or self._poller is not None:
            return
        assert self._state is not None, "start() comes first"
        self._handled_upto = int(await self._state.get(self._state_key) or 0)
        self._stopping = asyncio.Event()
        self._poller = asyncio.create_task(self._poll(), name="telegram-poll")

    async def stop_intake(self) -> None:
        """Stop polling; an update in hand is finished first."""
        poller, self._poller = self._poller, None
        self._stopping.set()
        if self._fetch is not None:
            self._fetch.cancel()
        if poller is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await poller

    async def probe(self) -> str:
        """``getMe``: the token is accepted; the bot's username."""
        try:
            async with self._bot:  # initialize() asks getMe; shutdown() closes the clients
                name = self._bot.username
        except InvalidToken as exc:
            raise ChannelError("telegram: the Bot API refused the token", permanent=True) from exc
        except TelegramError as exc:
            raise ChannelError(f"telegram: getMe failed: {self._sender.safe(exc)}") from exc
        return f"getMe: @{name}"

    async def stop(self) -> None:
        """Stop polling (an update in hand is finished first) and close the HTTP clients."""
        await self.stop_intake()
        await self._bot.shutdown()
        for name in _LOGGERS_WITH_URLS:
            logging.getLogger(name).removeFilter(self._redact)

    def http_routes(self) -> Sequence[HttpRoute]:
        """The webhook endpoint, in webhook mode."""
        if self._mode != "webhook":
            return ()
        return (HttpRoute("POST", WEBHOOK_PATH, self._webhook),)

    async def health(self) -> str | None:
        """The last polling problem, until a poll succeeds again."""
        return self._problem

    @property
    def _state_key(self) -> str:
        return f"telegram:{self._bot.id}:handled_update"

    # --- receiving ------------------------------------------------------------------------------

    async def _poll(self) -> None:
        offset: int | None = None
        failures = 0
        while not self._stopping.is_set():
            self._fetch = asyncio.ensure_future(
                self._bot.get_updates(
                    offset=offset, timeout=POLL_TIMEOUT, allowed_updates=ALLOWED_UPDATES
                )
            )
            try:
                updates = await self._fetch
            except asyncio.CancelledError:
                if self._stopping.is_set():
                    return
                raise
            except RetryAfter as exc:
                await self._pause(retry_seconds(exc))
                continue
            except (TelegramError, *_UNREADABLE) as exc:
                failures += 1
                self._problem = f"telegram: polling failed: {self._sender.safe(exc)}"
                log.warning("%s (attempt %d)", self._problem, failures)
                await self._pause(min(2.0**failures, MAX_BACKOFF))
                continue
            finally:
                self._fetch = None
            failures, self._problem = 0, None
            for update in updates:
                try:
                    await self._handle(update)
                except Exception as exc:  # the sink failed: keep the offset, try again later
                    failures += 1
                    log.error("telegram: update %s not recorded: %s", update.update_id, exc)
                    await self._pause(min(2.0**failures, MAX_BACKOFF))
                    break
                offset = update.update_id + 1
            if offset is not None and offset - 1 > self._handled_upto:
                self._handled_upto = offset - 1
                assert self._state is not None
                await self._state.put(self._state_key, str(self._handled_upto))

    async def _pause(self, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):  # not wait_for: bot.turns.lifecycle.retry_forever
                await self._stopping.wait()

    async def _webhook(self, request: web.Request) -> web.Response:
        """One update from Telegram: 403 without the right secret, 200 once it is recorded."""
        given = request.headers.get(SECRET_HEADER, "").encode()
        if not hmac.compare_digest(given, self._secret):
            return web.Response(status=403, text="forbidden")
        try:
            data = json.loads(await request.read())
            update = Update.de_json(data, self._bot)
            if not isinstance(update.update_id, int):  # the ordering and dedup key
                raise TypeError("update_id is not an integer")
            if update.message is not None and not isinstance(update.message.message_id, int):
                raise TypeError("message_id is not an integer")  # a message's dedup key
            sender = update.effective_user
            if sender is not None and type(sender.id) is not int:  # an int, and not a bool
                raise TypeError("from.id is not an integer")  # the person's key: never empty
        except _UNREADABLE as exc:
            log.warning("telegram: unreadable webhook update: %s", type(exc).__name__)
            return web.Response(status=400, text="bad update")
        try:
            await self._handle(update)
        except Exception as exc:  # not recorded: Telegram delivers it again
            log.error("telegram: update %s not recorded: %s", update.update_id, exc)
            return web.Response(status=500, text="not recorded")
        return web.Response(text="ok")

    async def _handle(self, update: Update) -> None:
        """Record one update through the sink, then send the adapter's own reply, if any."""
        if update.callback_query is not None:
            await self._press(update.callback_query)
            return
        if update.poll_answer is not None:
            await self._vote(update.poll_answer, update.update_id)
            return
        message = update.message
        if message is None or self._me is None or self._sink is None:
            return
        try:
            reading = read_message(
                message, self._me, open_groups=self._open_groups, now=self._clock.now()
            )
        except _UNREADABLE as exc:
            log.warning("telegram: update %s unreadable: %s", update.update_id, exc)
            return
        if reading is None:
            return
        inbound = reading.inbound
        again = update.update_id <= self._handled_upto or inbound.message_id in self._recent
        if not is_allowed(self._allowed, inbound.user_id, reading.username):
            log.info("telegram: refused user %s", inbound.user_id)
            if reading.addressed and not again:
                await self._reply_directly(message, messages.REFUSED)
            self._remember(inbound.message_id)
            return
        await self._sink(inbound)
        if reading.direct and not again:
            await self._reply_directly(message, reading.direct)
        self._remember(inbound.message_id)

    async def _vote(self, answer: PollAnswer, update_id: int) -> None:
        """A vote on a meeting poll, journaled as the person's words (`vote_inbound`)."""
        if self._sink is None:
            return
        inbound = vote_inbound(answer, update_id, self._clock.now())
        if inbound is None:
            return
        user = answer.user
        if not is_allowed(self._allowed, inbound.user_id, user.username if user else None):
            log.info("telegram: refused a vote from user %s", inbound.user_id)
            return
        await self._sink(inbound)

    async def _press(self, query: CallbackQuery) -> None:
        """A reminder button: journaled as the person's words, answered, then shown chosen.

        A press of something that is not our button, or by someone not allowed,
        is only answered (Telegram shows a spinner until it is).
        """
        found, inbound = read_press(query.data), None
        user = query.from_user
        theirs = found is not None and found.owner not in (None, str(user.id))
        try:
            allowed = is_allowed(self._allowed, str(user.id), user.username)
            if found is not None and allowed and not theirs:
                inbound = press_inbound(query, found.action, found.reminder, now=self._clock.now())
        except _UNREADABLE as exc:
            log.warning("telegram: button press unreadable: %s", type(exc).__name__)
        if inbound is not None and self._sink is not None:
            await self._sink(inbound)  # raises when not recorded: Telegram delivers it again
        answer = chosen_text(found.action) if inbound is not None and found is not None else None
        if theirs:
            answer = NOT_YOURS
        try:
            await self._bot.answer_callback_query(query.id, text=answer)
        except TelegramError as exc:
            log.warning("telegram: callback not answered: %s", self._sender.safe(exc))
        message = query.message
        if inbound is None or found is None or not isinstance(message, Message):
            return
        try:
            await self._bot.edit_message_reply_markup(
                message.chat_id,
                message.message_id,
                reply_markup=chosen_keyboard(found.action, found.reminder),
            )
        except BadRequest as exc:
            if "not modified" not in exc.message.lower():  # a double tap shows it already
                log.warning("telegram: button choice not shown: %s", self._sender.safe(exc))
        except TelegramError as exc:
            log.warning("telegram: button choice not shown: %s", self._sender.safe(exc))

    def _remember(self, message_id: str) -> None:
        self._recent[message_id] = None
        while len(self._recent) > RECENT:
            self._recent.popitem(last=False)

    async def _reply_directly(self, message: Message, text: str) -> None:
        """The adapter's own short answer; a failure is logged, never raised."""
        try:
            await self._bot.send_message(
                message.chat_id,
                text,
                message_thread_id=message.message_thread_id if message.is_topic_message else None,
            )
        except TelegramError as exc:
            log.warning("telegram: direct reply failed: %s", self._sender.safe(exc))

    # --- sending: `channels.telegram.sending` -------------------------------------------------

    def paces(self, message: Outgoing) -> Sequence[Pace]:
        """`Sender.paces`: Telegram's limits per bot, chat and group."""
        return self._sender.paces(message)

    async def send(self, message: Outgoing) -> list[str]:
        """`Sender.send`: HTML parts under 4096 characters, or a native poll; raises
        `ChannelError`."""
        return await self._sender.send(message)

    async def typing(self, route: Mapping[str, str]) -> None:
        """`Sender.typing`: "typing…" in the chat, best effort."""
        await self._sender.typing(route)


class _Redact(logging.Filter):
    """Takes the token out of httpx's request lines (the Bot API URL contains it)."""

    def __init__(self, secret: str) -> None:
        super().__init__()
        self._secret = secret

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if self._secret in message:
            record.msg, record.args = message.replace(self._secret, "<token>"), ()
        return True
