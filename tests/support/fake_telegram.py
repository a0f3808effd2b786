"""A local Bot API server with Telegram's semantics, for the real python-telegram-bot.

It serves ``/bot<token>/<method>`` on 127.0.0.1 and a free port::

    async with FakeTelegram() as tg:
        bot = ExtBot(tg.token, base_url=f"{tg.api_url}/bot")
        alice = tg.user(1001, "alice")
        tg.private(alice, "hello")                      # queue an update
        tg.group(-100, alice, "@clockbot_bot hi")     # entities are found as Telegram does
        sent = await tg.wait_sent(1)                     # what the bot sent

Kept from Telegram: ``getUpdates`` confirms every update below ``offset`` and
long-polls up to ``timeout`` seconds, answering as soon as an update is
queued; a newer ``getUpdates`` ends a waiting one with 409; while a webhook
is set ``getUpdates`` is 409 Conflict; ``sendMessage`` checks ``parse_mode``
HTML (allowed tags only, balanced, ``a`` with ``href``, nothing inside
``code``; a bare ``<`` or ``&`` is refused, which real Telegram is looser
about) and refuses text over 4096 UTF-16 units after tags, answering 400
"can't parse entities" / "message is too long"; an unknown chat is 400 "chat
not found"; a wrong token is 401. Message texts get ``bot_command`` and
``mention`` entities (UTF-16 offsets) the way the server computes them.

Scripting: `fail_next(method, status, retry_after=…)` answers the next call
of a method with an error (429 with ``parameters.retry_after``); `block` makes
a chat answer 403; `freeze_offsets` makes ``getUpdates`` ignore offsets, as if
the request confirming a batch never arrived (a crash). Every call is in
`calls` with the loop time it arrived at; messages the bot sent are in `sent`,
polls (``sendPoll``: 2-10 options of at most 100 characters, a question of at most
300) in `polls`; `poll_answer` queues a vote as Telegram sends one for a poll that is
not anonymous.

Several bot processes can share one server and still be told apart: each may
use its own base ``<api_url>/<via>`` (say ``/w0``), and what it sends is
recorded with that ``via``.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import html
import itertools
import json
import re
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Self

from aiohttp import ClientSession, web

_VIA: contextvars.ContextVar[str] = contextvars.ContextVar("via", default="")

__all__ = ["Call", "FakeTelegram", "HtmlError", "SentMessage", "TgUser", "check_html"]

TOKEN = "123456:TEST-fake-token_value"
BOT_ID = 123456
BOT_USERNAME = "clockbot_bot"
MAX_TEXT = 4096
START_DATE = 1_767_225_600  # 2026-01-01T00:00:00Z

ALLOWED_TAGS = {
    "b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span", "tg-spoiler", "a",
    "tg-emoji", "code", "pre", "blockquote",
}  # fmt: skip
_TOKEN_RE = re.compile(
    r"<(?P<close>/?)(?P<name>[a-zA-Z][\w-]*)(?P<attrs>(?:\s[^<>]*)?)>"
    r"|&(?:#\d+|#x[0-9a-fA-F]+|lt|gt|amp|quot);"
    r"|(?P<bad>[<&])"
)
_COMMAND_RE = re.compile(r"(?<![\w/])/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{5,32})?")
_JSON_PARAMS = {
    "allowed_updates", "commands", "drop_pending_updates", "entities", "link_preview_options",
    "reply_markup", "reply_parameters", "options", "is_anonymous", "allows_multiple_answers",
}  # fmt: skip
_MENTION_RE = re.compile(r"(?<![\w@])@[A-Za-z0-9_]{5,32}")


class HtmlError(ValueError):
    """Text Telegram would refuse with "can't parse entities"."""


def check_html(text: str) -> str:
    """The plain text of Telegram HTML, after checking it as Telegram does.

    Raises:
        HtmlError: an unknown or unbalanced tag, a bare ``<`` or ``&``, a link
            without ``href``, a tag inside ``code``.
    """
    stack: list[str] = []
    plain: list[str] = []
    position = 0
    for match in _TOKEN_RE.finditer(text):
        plain.append(text[position : match.start()])
        position = match.end()
        token = match.group(0)
        if match["bad"]:
            raise HtmlError(f"unescaped {token!r} at byte offset {match.start()}")
        if match["name"] is None:
            plain.append(html.unescape(token))
            continue
        name = match["name"].lower()
        if name not in ALLOWED_TAGS:
            raise HtmlError(f"unsupported start tag {name!r} at byte offset {match.start()}")
        if match["close"]:
            if not stack or stack[-1] != name:
                raise HtmlError(f"unmatched end tag at byte offset {match.start()}, expected")
            stack.pop()
            continue
        if (stack and stack[-1] == "code") or (stack and stack[-1] == "pre" and name != "code"):
            raise HtmlError(f"tag {name!r} inside code at byte offset {match.start()}")
        if name == "a" and "href=" not in match["attrs"]:
            raise HtmlError("a link without href")
        stack.append(name)
    plain.append(text[position:])
    if stack:
        raise HtmlError(f"can't find end tag corresponding to start tag {stack[-1]!r}")
    return "".join(plain)


def utf16_len(text: str) -> int:
    """Length as Telegram counts it."""
    return len(text.encode("utf-16-le")) // 2


@dataclass(frozen=True, slots=True)
class TgUser:
    """A Telegram user for injected updates."""

    id: int
    username: str | None = None
    first_name: str = "Test"
    language_code: str | None = None
    last_name: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """The Bot API ``User`` object."""
        data: dict[str, Any] = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        if self.last_name:
            data["last_name"] = self.last_name
        if self.username:
            data["username"] = self.username
        if self.language_code:
            data["language_code"] = self.language_code
        return data


@dataclass(frozen=True, slots=True)
class Call:
    """One Bot API call as received: method, parameters (JSON values decoded), loop time."""

    method: str
    params: dict[str, Any]
    at: float


@dataclass(frozen=True, slots=True)
class SentMessage:
    """A message the bot sent, as accepted by the server."""

    chat_id: int
    text: str
    plain: str
    parse_mode: str | None
    message_thread_id: int | None
    reply_to_message_id: int | None
    message_id: int
    at: float
    reply_markup: dict[str, Any] | None = None
    via: str = ""
    """The path segment before ``/bot<token>`` the sender used ("" for none)."""


@dataclass
class _Failure:
    status: int
    description: str
    parameters: dict[str, Any] = field(default_factory=dict)
    after: int = 0  # successful calls to let through first


class FakeTelegram:
    """The fake server; see the module docstring."""

    def __init__(
        self, *, token: str = TOKEN, bot_id: int = BOT_ID, bot_username: str = BOT_USERNAME
    ) -> None:
        self.token, self.bot_id, self.bot_username = token, bot_id, bot_username
        self.calls: list[Call] = []
        self.sent: list[SentMessage] = []
        self.polls: list[dict[str, Any]] = []  # sendPoll calls accepted, with their poll
        self.updates: list[dict[str, Any]] = []  # queued and not yet confirmed
        self.webhook: dict[str, Any] | None = None
        self.commands: list[dict[str, Any]] = []
        self.freeze_offsets = False
        self.answered: list[dict[str, Any]] = []  # answerCallbackQuery calls accepted
        self.markups: dict[tuple[int, int], Any] = {}  # the keyboard each edit left
        self._queries: set[str] = set()
        self._failures: dict[str, deque[_Failure]] = {}
        self._blocked: set[int] = set()
        self._chats: dict[int, dict[str, Any]] = {}
        self._update_ids = itertools.count(700_000)
        self._message_ids: dict[int, itertools.count[int]] = {}
        self._changed = asyncio.Event()
        self._polls = 0
        self._closing = False
        self._runner: web.AppRunner | None = None
        self.port = 0

    # --- lifecycle ------------------------------------------------------------------------------

    async def __aenter__(self) -> Self:
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._dispatch)
        app.router.add_route("*", "/{via}/bot{token}/{method}", self._dispatch)
        self._runner = web.AppRunner(app, shutdown_timeout=1.0, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._closing = True
        self._notify()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def api_url(self) -> str:
        """The Bot API base, as `TelegramChannel(api_url=…)` takes it."""
        return f"http://127.0.0.1:{self.port}"

    # --- scripting ------------------------------------------------------------------------------

    def fail_next(
        self,
        method: str,
        status: int = 429,
        *,
        retry_after: int | None = None,
        description: str | None = None,
        after: int = 0,
    ) -> None:
        """Answer a call of `method` with an error (429 with ``retry_after`` by default).

        The error goes to the next call, or to the one after `after` successful calls.
        """
        parameters = {"retry_after": retry_after} if retry_after is not None else {}
        text = description or (
            f"Too Many Requests: retry after {retry_after}" if status == 429 else "Scripted"
        )
        failure = _Failure(status, text, parameters, after)
        self._failures.setdefault(method, deque()).append(failure)

    def block(self, chat_id: int) -> None:
        """The bot is blocked in this chat: sends to it answer 403."""
        self._blocked.add(chat_id)

    def calls_of(self, method: str) -> list[Call]:
        """The calls of one method, in order."""
        return [call for call in self.calls if call.method == method]

    async def wait_sent(self, count: int, *, timeout: float = 10.0) -> list[SentMessage]:
        """Wait until at least `count` messages were sent; all of them."""
        await self._wait(lambda: len(self.sent) >= count, timeout, f"{count} sent messages")
        return list(self.sent)

    async def wait_until(
        self, done: Callable[[], bool], what: str, *, timeout: float = 10.0
    ) -> None:
        """Wait until `done()` holds; it is checked at every change of the server's state."""
        await self._wait(done, timeout, what)

    async def wait_calls(self, method: str, count: int, *, timeout: float = 10.0) -> list[Call]:
        """Wait until `method` was called at least `count` times; those calls."""
        await self._wait(
            lambda: len(self.calls_of(method)) >= count, timeout, f"{count} {method} calls"
        )
        return self.calls_of(method)

    async def _wait(self, done: Any, timeout: float, what: str) -> None:
        async def loop() -> None:
            while not done():
                await self._changed_event().wait()

        try:
            await asyncio.wait_for(loop(), timeout)
        except TimeoutError:
            raise AssertionError(f"timed out waiting for {what}") from None

    # --- updates --------------------------------------------------------------------------------

    def user(
        self,
        user_id: int,
        username: str | None = None,
        first_name: str = "Test",
        language_code: str | None = None,
        last_name: str | None = None,
    ) -> TgUser:
        """A user to write messages as."""
        return TgUser(user_id, username, first_name, language_code, last_name)

    def private(self, user: TgUser, text: str | None, **extra: Any) -> dict[str, Any]:
        """Queue a private-chat message from `user`; the update."""
        chat = {"id": user.id, "type": "private", "first_name": user.first_name}
        if user.username:
            chat["username"] = user.username
        return self.queue(self.message(chat, user, text, **extra))

    def group(
        self,
        chat_id: int,
        user: TgUser,
        text: str | None,
        *,
        topic: int | None = None,
        reply_to_bot: bool = False,
        **extra: Any,
    ) -> dict[str, Any]:
        """Queue a supergroup message (in forum topic `topic`, replying to the bot); the update."""
        chat: dict[str, Any] = {"id": chat_id, "type": "supergroup", "title": f"Group {chat_id}"}
        if topic is not None:
            chat["is_forum"] = True
            extra |= {"message_thread_id": topic, "is_topic_message": True}
        if reply_to_bot:
            extra["reply_to_message"] = self.message(chat, None, "an earlier answer", topic=topic)
        elif topic is not None:  # Telegram's topic messages reply to the topic's first message
            extra["reply_to_message"] = {
                "message_id": topic,
                "date": START_DATE,
                "chat": chat,
                "from": user.as_dict(),
                "forum_topic_created": {"name": "Topic", "icon_color": 7322096},
                "message_thread_id": topic,
                "is_topic_message": True,
            }
        return self.queue(self.message(chat, user, text, **extra))

    def message(
        self,
        chat: dict[str, Any],
        user: TgUser | None,
        text: str | None,
        *,
        topic: int | None = None,
        date: int | None = None,
        **extra: Any,
    ) -> dict[str, Any]:
        """A Bot API ``Message`` (from the bot when `user` is None), with entities computed."""
        self._chats[chat["id"]] = chat
        ids = self._message_ids.setdefault(chat["id"], itertools.count(1))
        sender = user.as_dict() if user is not None else self._me()
        data: dict[str, Any] = {
            "message_id": next(ids),
            "date": date if date is not None else int(time.time()),
            "chat": chat,
            "from": sender,
        }
        if topic is not None:
            data |= {"message_thread_id": topic, "is_topic_message": True}
        if text is not None:
            data["text"] = text
            if entities := _entities(text):
                data["entities"] = entities
        return data | extra

    def photo(self, chat_id: int, user: TgUser, caption: str | None = None) -> dict[str, Any]:
        """Queue a photo in a private chat (`chat_id` == user id) or a group; the update."""
        photo = [{"file_id": "p1", "file_unique_id": "u1", "width": 90, "height": 90}]
        extra: dict[str, Any] = {"photo": photo}
        if caption is not None:
            extra["caption"] = caption
            if entities := _entities(caption):
                extra["caption_entities"] = entities
        if chat_id == user.id:
            return self.private(user, None, **extra)
        return self.group(chat_id, user, None, **extra)

    def queue(self, message: dict[str, Any]) -> dict[str, Any]:
        """Queue an update carrying `message`; the update."""
        update = {"update_id": next(self._update_ids), "message": message}
        self.updates.append(update)
        self._notify()
        return update

    def poll_answer(self, poll_id: str, user: TgUser, options: list[int]) -> dict[str, Any]:
        """Queue `user`'s vote on a poll that is not anonymous (0-based options; [] takes it
        back): like Telegram's, the update names the poll and the voter, not the chat."""
        answer = {
            "poll_id": poll_id, "user": user.as_dict(), "option_ids": options,
            "option_persistent_ids": [str(n) for n in options],
        }  # fmt: skip
        update = {"update_id": next(self._update_ids), "poll_answer": answer}
        self.updates.append(update)
        self._notify()
        return update

    def reply(self, user: TgUser, sent: SentMessage, text: str, **extra: Any) -> dict[str, Any]:
        """Queue `user`'s message in `sent`'s chat that replies to `sent` (Telegram's Reply)."""
        chat = self._chats[sent.chat_id]
        replied = {
            "message_id": sent.message_id, "date": START_DATE, "chat": chat,
            "from": self._me(), "text": sent.plain,
        }  # fmt: skip
        return self.queue(self.message(chat, user, text, reply_to_message=replied, **extra))

    def press(self, user: TgUser, sent: SentMessage, data: str) -> dict[str, Any]:
        """Queue a ``callback_query``: `user` taps the inline button `data` under `sent`."""
        query_id = f"q{next(self._update_ids)}"
        self._queries.add(query_id)
        chat = self._chats[sent.chat_id]
        message = {
            "message_id": sent.message_id, "date": START_DATE, "chat": chat,
            "from": self._me(), "text": sent.plain,
        }  # fmt: skip
        if sent.reply_markup is not None:
            message["reply_markup"] = sent.reply_markup
        query = {
            "id": query_id, "from": user.as_dict(), "chat_instance": f"ci{sent.chat_id}",
            "message": message, "data": data,
        }  # fmt: skip
        update = {"update_id": next(self._update_ids), "callback_query": query}
        self.updates.append(update)
        self._notify()
        return update

    def redeliver(self, update: dict[str, Any]) -> None:
        """Queue an update already handled again, same ``update_id`` (Telegram after a crash)."""
        self.updates.append(update)
        self.updates.sort(key=lambda u: u["update_id"])
        self._notify()

    async def post_webhook(
        self, url: str, update: dict[str, Any], *, secret: str | None = None
    ) -> int:
        """POST `update` to `url` as Telegram does (with the registered secret by default)."""
        if secret is None and self.webhook is not None:
            secret = self.webhook.get("secret_token")
        headers = {"Content-Type": "application/json"}
        if secret is not None:
            headers["X-Telegram-Bot-Api-Secret-Token"] = secret
        async with (
            ClientSession() as session,
            session.post(url, data=json.dumps(update), headers=headers) as response,
        ):
            return response.status

    # --- the API --------------------------------------------------------------------------------

    async def _dispatch(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        _VIA.set(request.match_info.get("via", ""))  # each request is a task of its own
        params = await _params(request)
        self.calls.append(Call(method, params, asyncio.get_running_loop().time()))
        self._notify()
        if request.match_info["token"] != self.token:
            return _error(401, "Unauthorized")
        failures = self._failures.get(method)
        if failures and failures[0].after > 0:
            failures[0].after -= 1
        elif failures:
            failure = failures.popleft()
            return _error(failure.status, failure.description, failure.parameters)
        handler = getattr(self, f"_api_{method.lower()}", None)
        if handler is None:
            return _error(404, "Not Found")
        response: web.Response = await handler(params)
        return response

    def _me(self) -> dict[str, Any]:
        return {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": "Clock",
            "username": self.bot_username,
            "can_join_groups": True,
            "can_read_all_group_messages": True,
            "supports_inline_queries": False,
        }

    async def _api_getme(self, params: dict[str, Any]) -> web.Response:
        return _ok(self._me())

    async def _api_getupdates(self, params: dict[str, Any]) -> web.Response:
        if self.webhook is not None:
            return _error(
                409,
                "Conflict: can't use getUpdates method while webhook is active; "
                "use deleteWebhook to delete the webhook first",
            )
        offset = int(params.get("offset") or 0)
        if offset > 0 and not self.freeze_offsets:
            self.updates = [u for u in self.updates if u["update_id"] >= offset]
        limit = int(params.get("limit") or 100)
        timeout = float(params.get("timeout") or 0)
        self._polls += 1
        poll = self._polls
        self._notify()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            ready = [u for u in self.updates if u["update_id"] >= offset]
            remaining = deadline - loop.time()
            if ready or remaining <= 0 or self._closing:
                return _ok(ready[:limit])
            changed = self._changed_event()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), remaining)
            if poll != self._polls:
                return _error(
                    409,
                    "Conflict: terminated by other getUpdates request; make sure that only "
                    "one bot instance is running",
                )

    async def _api_setwebhook(self, params: dict[str, Any]) -> web.Response:
        if not str(params.get("url", "")).startswith("https://"):
            return _error(400, "Bad Request: bad webhook: An HTTPS URL must be provided")
        self.webhook = params
        if params.get("drop_pending_updates"):
            self.updates.clear()
        self._notify()
        return _ok(True)

    async def _api_deletewebhook(self, params: dict[str, Any]) -> web.Response:
        self.webhook = None
        if params.get("drop_pending_updates"):
            self.updates.clear()
        return _ok(True)

    async def _api_getwebhookinfo(self, params: dict[str, Any]) -> web.Response:
        url = self.webhook["url"] if self.webhook else ""
        info = {"url": url, "has_custom_certificate": False, "pending_update_count": 0}
        return _ok(info)

    async def _api_setmycommands(self, params: dict[str, Any]) -> web.Response:
        self.commands = list(params.get("commands") or [])
        return _ok(True)

    async def _api_sendchataction(self, params: dict[str, Any]) -> web.Response:
        if int(params["chat_id"]) not in self._chats:
            return _error(400, "Bad Request: chat not found")
        return _ok(True)

    async def _api_sendmessage(self, params: dict[str, Any]) -> web.Response:
        chat_id = int(params["chat_id"])
        chat = self._chats.get(chat_id)
        if chat is None:
            return _error(400, "Bad Request: chat not found")
        if chat_id in self._blocked:
            return _error(403, "Forbidden: bot was blocked by the user")
        text = str(params.get("text") or "")
        mode = params.get("parse_mode")
        plain = text
        if mode == "HTML":
            try:
                plain = check_html(text)
            except HtmlError as exc:
                return _error(400, f"Bad Request: can't parse entities: {exc}")
        if not plain.strip():
            return _error(400, "Bad Request: message text is empty")
        if utf16_len(plain) > MAX_TEXT:
            return _error(400, "Bad Request: message is too long")
        reply = params.get("reply_parameters") or {}
        thread = params.get("message_thread_id")
        message = self.message(chat, None, plain)
        if thread is not None:
            message |= {"message_thread_id": int(thread), "is_topic_message": True}
        self.sent.append(
            SentMessage(
                chat_id=chat_id,
                text=text,
                plain=plain,
                parse_mode=mode,
                message_thread_id=int(thread) if thread is not None else None,
                reply_to_message_id=reply.get("message_id"),
                message_id=message["message_id"],
                at=asyncio.get_running_loop().time(),
                reply_markup=params.get("reply_markup"),
                via=_VIA.get(),
            )
        )
        self._notify()
        return _ok(message)

    async def _api_sendpoll(self, params: dict[str, Any]) -> web.Response:
        chat_id = int(params["chat_id"])
        chat = self._chats.get(chat_id)
        if chat is None:
            return _error(400, "Bad Request: chat not found")
        options = [o if isinstance(o, str) else o.get("text", "") for o in params["options"]]
        question = str(params.get("question") or "")
        if not 2 <= len(options) <= 10:
            return _error(400, "Bad Request: poll must have 2-10 options")
        if not 1 <= len(question) <= 300 or any(not 1 <= len(o) <= 100 for o in options):
            return _error(400, "Bad Request: poll question or option length is wrong")
        anonymous = params.get("is_anonymous", True) is not False
        poll = {
            "id": str(5_000_000 + len(self.polls)),
            "question": question,
            "options": [
                {"text": o, "voter_count": 0, "persistent_id": str(n)}
                for n, o in enumerate(options)
            ],
            "total_voter_count": 0,
            "is_closed": False,
            "is_anonymous": anonymous,
            "type": "regular",
            "allows_multiple_answers": params.get("allows_multiple_answers") is True,
            "allows_revoting": True,  # Bot API 9.6 and 10.0 always send these two
            "members_only": False,
        }
        message = self.message(chat, None, None) | {"poll": poll}
        thread = params.get("message_thread_id")
        if thread is not None:
            message |= {"message_thread_id": int(thread), "is_topic_message": True}
        self.polls.append({"chat_id": chat_id, "message_id": message["message_id"], **poll})
        self._notify()
        return _ok(message)

    async def _api_answercallbackquery(self, params: dict[str, Any]) -> web.Response:
        query = str(params.get("callback_query_id", ""))
        if query not in self._queries:
            return _error(400, "Bad Request: query is too old and response timeout expired")
        self.answered.append(params)
        self._notify()
        return _ok(True)

    async def _api_editmessagereplymarkup(self, params: dict[str, Any]) -> web.Response:
        chat_id, message_id = int(params["chat_id"]), int(params["message_id"])
        found = [m for m in self.sent if (m.chat_id, m.message_id) == (chat_id, message_id)]
        if not found:
            return _error(400, "Bad Request: message to edit not found")
        markup = params.get("reply_markup")
        if self.markups.get((chat_id, message_id), found[0].reply_markup) == markup:
            return _error(400, "Bad Request: message is not modified")
        self.markups[(chat_id, message_id)] = markup
        self._notify()
        return _ok(True)

    # --- plumbing -------------------------------------------------------------------------------

    def _changed_event(self) -> asyncio.Event:
        return self._changed

    def _notify(self) -> None:
        """Wake everything waiting for a change (long polls, `wait_sent`)."""
        event, self._changed = self._changed, asyncio.Event()
        event.set()


def _entities(text: str) -> list[dict[str, Any]]:
    """``bot_command`` and ``mention`` entities, offsets in UTF-16 units, as Telegram finds them."""
    found = []
    for pattern, kind in ((_COMMAND_RE, "bot_command"), (_MENTION_RE, "mention")):
        for match in pattern.finditer(text):
            if kind == "mention" and match.start() > 0 and text[match.start() - 1] == "/":
                continue
            start = utf16_len(text[: match.start()])
            found.append({"type": kind, "offset": start, "length": utf16_len(match.group(0))})
    return sorted(found, key=lambda e: e["offset"])


async def _params(request: web.Request) -> dict[str, Any]:
    """Request parameters, from a query, a form or JSON; JSON-looking values decoded."""
    raw: dict[str, Any] = dict(request.query)
    if request.content_type == "application/json":
        body = await request.json() if request.can_read_body else {}
        raw |= body if isinstance(body, dict) else {}
    elif request.can_read_body:
        raw |= {k: v for k, v in (await request.post()).items() if isinstance(v, str)}
    params: dict[str, Any] = {}
    for key, value in raw.items():
        if key in _JSON_PARAMS and isinstance(value, str):
            with contextlib.suppress(ValueError):
                value = json.loads(value)
        params[key] = value
    return params


def _ok(result: Any) -> web.Response:
    return web.json_response({"ok": True, "result": result})


def _error(status: int, description: str, parameters: dict[str, Any] | None = None) -> web.Response:
    body: dict[str, Any] = {"ok": False, "error_code": status, "description": description}
    if parameters:
        body["parameters"] = parameters
    return web.json_response(body, status=status)
