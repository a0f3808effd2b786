"""A local fake Slack: the Web API methods clockbot calls and a Socket Mode WebSocket endpoint.

The real slack-bolt / slack_sdk talk to it over real HTTP and a real WebSocket::

    async with FakeSlack(zones={"U1": "Asia/Tokyo"}) as slack:
        channel = SlackChannel(slack.bot_token, app_token=slack.app_token, api_url=slack.api_url)
        await channel.start(sink, InMemoryStateStore())
        envelope_id = await slack.push_event(dm_event("what time is it"))
        await slack.wait_acked(envelope_id)
        post = await slack.wait_posts(1)

Web API (``api_url`` = ``http://127.0.0.1:<port>/api/``; form or JSON bodies; the token must
match, else ``invalid_auth``):

- ``auth.test``: the bot (`bot_user_id`, `bot_id`, `team_id`);
- ``users.info``: ``user.tz`` from `zones` (missing users get no ``tz``),
  ``user.locale`` from `locales` when asked with ``include_locale``, and from `names`
  ``user.real_name`` and ``user.profile.display_name`` (Slack's own pair);
- ``chat.postMessage``: recorded in `posts` (with any ``metadata``), answered with a fresh
  ``ts`` (the time in microseconds, as Slack's);
- ``conversations.history`` / ``conversations.replies``: the recorded posts of a channel or a
  thread after ``oldest``, with their metadata when asked; ``missing_scope`` for a channel in
  `unreadable`;
- ``apps.connections.open`` (app token): ``ws://127.0.0.1:<port>/link/?ticket=<n>``;
- `fail_next(method, status=429, retry_after=1)` or ``error="channel_not_found"`` scripts the
  next answers of a method (``after=n`` lets n calls through first); every call is in `calls` with its `time.monotonic()` instant.

Socket Mode (``/link/``): each connection gets Slack's ``hello``, then every envelope not acked
yet (again, with ``retry_attempt`` counted up, as Slack redelivers), then new ones from
`push_event`. An ack is ``{"envelope_id": ...}``; `acks` records them. `drop_connection` closes the
socket from the server side (the client is expected to open a new one); while no socket is
open, pushed envelopes wait for the next connection.

`signed_headers` signs an Events API body as Slack does (``v0=`` HMAC-SHA256 of
``v0:<timestamp>:<body>``) for the HTTP-mode tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import itertools
import json
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Self
from urllib.parse import parse_qsl

from aiohttp import WSMsgType, web

__all__ = [
    "FakeSlack",
    "RecordedCall",
    "ScriptedFailure",
    "app_mention_event",
    "dm_event",
    "event_body",
    "signed_headers",
]

TEAM = "T0CLOCK"
BOT_USER = "UBOT"
BOT_ID = "BBOT"


@dataclass(frozen=True, slots=True)
class RecordedCall:
    """One Web API call as the fake received it."""

    method: str
    params: Mapping[str, Any]
    at: float  # time.monotonic() when it arrived
    status: int  # what the fake answered


@dataclass(slots=True)
class ScriptedFailure:
    """The next answer of a method: an HTTP status (429 with Retry-After) or a Slack error code."""

    status: int = 200
    retry_after: int | None = None
    error: str = "ratelimited"
    after: int = 0  # successful calls to let through first


@dataclass(slots=True)
class _Envelope:
    envelope_id: str
    payload: dict[str, Any]
    attempts: int = 0
    kind: str = "events_api"


@dataclass(slots=True)
class _Socket:
    ws: web.WebSocketResponse
    closed: asyncio.Event = field(default_factory=asyncio.Event)


def signed_headers(body: bytes | str, secret: str, timestamp: int) -> dict[str, str]:
    """The headers Slack signs an Events API request with."""
    raw = body.encode() if isinstance(body, str) else body
    base = b"v0:" + str(timestamp).encode() + b":" + raw
    digest = hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()
    return {
        "X-Slack-Request-Timestamp": str(timestamp),
        "X-Slack-Signature": f"v0={digest}",
        "Content-Type": "application/json",
    }


_last_ts_us = 0


def _next_ts() -> str:
    """A post's ``ts`` as Slack makes it: its time to the microsecond, unique per post."""
    global _last_ts_us
    _last_ts_us = max(time.time_ns() // 1_000, _last_ts_us + 1)
    return f"{_last_ts_us // 1_000_000}.{_last_ts_us % 1_000_000:06d}"


def _ts_us(ts: object) -> int:
    """A ``ts`` (or an ``oldest`` bound) in microseconds; 0 when absent or unreadable."""
    seconds, _, fraction = str(ts or "0").partition(".")
    try:
        return int(seconds) * 1_000_000 + int((fraction + "000000")[:6])
    except ValueError:
        return 0


def dm_event(
    text: str, *, user: str = "U1", channel: str = "D1", ts: str | None = None
) -> dict[str, Any]:
    """A ``message`` event in a DM (``message.im``)."""
    return {
        "type": "message",
        "channel_type": "im",
        "channel": channel,
        "user": user,
        "text": text,
        "ts": ts or _next_ts(),
        "team": TEAM,
    }


def app_mention_event(
    text: str,
    *,
    user: str = "U1",
    channel: str = "C1",
    ts: str | None = None,
    thread_ts: str | None = None,
) -> dict[str, Any]:
    """An ``app_mention`` event in a channel; the text starts with the bot's mention."""
    event: dict[str, Any] = {
        "type": "app_mention",
        "channel": channel,
        "user": user,
        "text": f"<@{BOT_USER}> {text}",
        "ts": ts or _next_ts(),
        "team": TEAM,
    }
    if thread_ts is not None:
        event["thread_ts"] = thread_ts
    return event


_event_ids = itertools.count(1)


def event_body(event: Mapping[str, Any], *, team: str = TEAM) -> dict[str, Any]:
    """The Events API ``event_callback`` body around `event`."""
    return {
        "token": "legacy-verification-token",
        "team_id": team,
        "api_app_id": "A0CLOCK",
        "event": dict(event),
        "type": "event_callback",
        "event_id": f"Ev{next(_event_ids):08d}",
        "event_time": int(time.time()),
        "authorizations": [
            {"team_id": team, "user_id": BOT_USER, "is_bot": True, "is_enterprise_install": False}
        ],
    }


class FakeSlack:
    """The fake; use it as an async context manager (see the module docstring)."""

    def __init__(
        self,
        *,
        zones: Mapping[str, str | None] | None = None,
        locales: Mapping[str, str] | None = None,
        names: Mapping[str, str] | None = None,
        bot_token: str = "xoxb-fake-bot-token",
        app_token: str = "xapp-fake-app-token",
    ) -> None:
        self.bot_token = bot_token
        self.app_token = app_token
        self.zones: dict[str, str | None] = dict(zones or {})
        self.locales: dict[str, str] = dict(locales or {})
        self.names: dict[str, str] = dict(names or {})
        self.bot_user_id = BOT_USER
        self.bot_id = BOT_ID
        self.team_id = TEAM
        self.calls: list[RecordedCall] = []
        self.posts: list[dict[str, Any]] = []
        self.updates: list[dict[str, Any]] = []  # chat.update calls accepted
        self.ephemerals: list[dict[str, Any]] = []  # chat.postEphemeral calls accepted
        self.unreadable: set[str] = set()  # channels the bot may not read (missing_scope)
        self.acks: list[str] = []
        self.connections = 0
        self._failures: dict[str, deque[ScriptedFailure]] = {}
        self._unacked: dict[str, _Envelope] = {}
        self._socket: _Socket | None = None
        self._sockets: list[_Socket] = []
        self._changed = asyncio.Condition()
        self._envelope_ids = itertools.count(1)
        self._runner: web.AppRunner | None = None
        self.port = 0

    # --- lifecycle --------------------------------------------------------------------------

    async def __aenter__(self) -> Self:
        app = web.Application()
        app.router.add_post("/api/{method}", self._api)
        app.router.add_get("/api/{method}", self._api)
        app.router.add_get("/link/", self._link)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        sockets = getattr(server, "sockets", None)
        assert sockets
        self.port = sockets[0].getsockname()[1]
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        for socket in self._sockets:
            with contextlib.suppress(Exception):
                await socket.ws.close()
            socket.closed.set()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def api_url(self) -> str:
        """The Web API base for ``AsyncWebClient(base_url=...)``."""
        return f"http://127.0.0.1:{self.port}/api/"

    # --- scripting and inspection -----------------------------------------------------------

    def fail_next(
        self,
        method: str,
        *,
        status: int = 429,
        retry_after: int | None = 1,
        error: str = "",
        after: int = 0,
    ) -> None:
        """Answer a coming `method` call with `status` (and Retry-After) or a Slack `error`.

        Failures queue up in order; `after` lets that many calls succeed before this one fails.
        """
        failure = ScriptedFailure(
            status=status, retry_after=retry_after, error=error or "ratelimited", after=after
        )
        self._failures.setdefault(method, deque()).append(failure)

    def calls_to(self, method: str) -> list[RecordedCall]:
        """The recorded calls of one method, in order."""
        return [call for call in self.calls if call.method == method]

    async def wait_posts(self, count: int, timeout: float = 10) -> list[dict[str, Any]]:
        """Wait until `count` messages were posted; return all posted so far."""
        await self._wait(lambda: len(self.posts) >= count, timeout, f"{count} posts")
        return list(self.posts)

    async def wait_ephemerals(self, count: int, timeout: float = 10) -> list[dict[str, Any]]:
        """Wait until `count` ephemeral messages were posted; return them all."""
        await self._wait(lambda: len(self.ephemerals) >= count, timeout, f"{count} ephemerals")
        return list(self.ephemerals)

    async def wait_acked(self, envelope_id: str, timeout: float = 30) -> None:
        """Wait until the client acked `envelope_id`."""
        await self._wait(lambda: envelope_id in self.acks, timeout, f"ack of {envelope_id}")

    async def wait_connections(self, count: int, timeout: float = 15) -> None:
        """Wait until `count` Socket Mode connections have been opened in all."""
        await self._wait(
            lambda: self.connections >= count and self._socket is not None,
            timeout,
            f"{count} connections",
        )

    async def _wait(self, ready: Any, timeout: float, what: str) -> None:
        async with self._changed:
            try:
                await asyncio.wait_for(self._changed.wait_for(ready), timeout)
            except TimeoutError:
                raise AssertionError(f"fake Slack: timed out waiting for {what}") from None

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    # --- Socket Mode ------------------------------------------------------------------------

    async def push_event(self, event: Mapping[str, Any], *, team: str = TEAM) -> str:
        """Deliver `event` as an ``events_api`` envelope now, or on the next connection."""
        envelope_id = f"env-{next(self._envelope_ids)}"
        envelope = _Envelope(envelope_id, event_body(event, team=team))
        self._unacked[envelope_id] = envelope
        if self._socket is not None:
            await self._send_envelope(self._socket, envelope)
        return envelope_id

    async def push_interaction(self, payload: Mapping[str, Any]) -> str:
        """Deliver an ``interactive`` envelope (a button press) now, or on the next connection."""
        envelope_id = f"env-{next(self._envelope_ids)}"
        envelope = _Envelope(envelope_id, dict(payload), kind="interactive")
        self._unacked[envelope_id] = envelope
        if self._socket is not None:
            await self._send_envelope(self._socket, envelope)
        return envelope_id

    def press(
        self,
        post: Mapping[str, Any],
        label: str,
        *,
        user: str = "U1",
        ticked: tuple[int, ...] | None = None,
    ) -> dict[str, Any]:
        """The ``block_actions`` payload of `user` pressing the button `label` under `post`.

        With `ticked`, the post's checkboxes show those options (1-based) ticked by
        `user`, in the payload's ``state``, as Slack sends a message's state with
        every press.
        """
        blocks = post.get("blocks")
        blocks = json.loads(blocks) if isinstance(blocks, str) else blocks
        actions = [block for block in blocks or [] if block.get("type") == "actions"]
        (button,) = [
            b
            for block in actions
            for b in block["elements"]
            if b["type"] == "button" and b["text"]["text"] == label
        ]
        (block_id,) = [block.get("block_id") for block in actions if button in block["elements"]]
        values: dict[str, Any] = {}
        for block in actions:
            for element in block["elements"]:
                if element["type"] == "checkboxes":
                    chosen = [element["options"][n - 1] for n in ticked or ()]
                    values.setdefault(block["block_id"], {})[element["action_id"]] = {
                        "type": "checkboxes",
                        "selected_options": chosen,
                    }
        message = {"type": "message", "ts": post["ts"], "text": post.get("text"), "blocks": blocks}
        if post.get("thread_ts"):
            message["thread_ts"] = post["thread_ts"]
        channel = str(post["channel"])
        return {
            "type": "block_actions",
            "team": {"id": self.team_id, "domain": "clockbot-test"},
            "user": {"id": user, "team_id": self.team_id},
            "api_app_id": "A0CLOCK",
            "trigger_id": f"trig-{next(self._envelope_ids)}",
            "container": {"type": "message", "message_ts": post["ts"], "channel_id": channel},
            "channel": {"id": channel},
            "message": message,
            "state": {"values": values},
            "actions": [
                {
                    "type": "button",
                    "action_id": button["action_id"],
                    "block_id": block_id,
                    "value": button["value"],
                    "action_ts": _next_ts(),
                    "text": button["text"],
                }
            ],
        }

    async def drop_connection(self) -> None:
        """Close the open socket from the server side, as Slack does when it refreshes."""
        socket, self._socket = self._socket, None
        if socket is not None:
            await socket.ws.close(code=1001, message=b"going away")
            socket.closed.set()

    async def _send_envelope(self, socket: _Socket, envelope: _Envelope) -> None:
        message = {
            "envelope_id": envelope.envelope_id,
            "type": envelope.kind,
            "payload": envelope.payload,
            "accepts_response_payload": False,
            "retry_attempt": envelope.attempts,
            "retry_reason": "timeout" if envelope.attempts else "",
        }
        envelope.attempts += 1
        await socket.ws.send_str(json.dumps(message))

    async def _link(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        socket = _Socket(ws)
        self._sockets.append(socket)
        self.connections += 1
        await ws.send_str(
            json.dumps(
                {
                    "type": "hello",
                    "num_connections": 1,
                    "debug_info": {"host": "fake-slack", "approximate_connection_time": 3600},
                    "connection_info": {"app_id": "A0CLOCK"},
                }
            )
        )
        for envelope in list(self._unacked.values()):  # Slack redelivers what was not acked
            await self._send_envelope(socket, envelope)
        self._socket = socket
        await self._notify()
        async for message in ws:
            if message.type != WSMsgType.TEXT:
                continue
            with contextlib.suppress(ValueError):
                data = json.loads(message.data)
                envelope_id = data.get("envelope_id") if isinstance(data, dict) else None
                if isinstance(envelope_id, str):
                    self.acks.append(envelope_id)
                    self._unacked.pop(envelope_id, None)
                    await self._notify()
        if self._socket is socket:
            self._socket = None
        socket.closed.set()
        return ws

    # --- Web API ----------------------------------------------------------------------------

    async def _api(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        raw = await request.read()
        params: dict[str, Any] = dict(request.query)
        if request.content_type == "application/json":
            params.update(json.loads(raw or b"{}"))
        else:
            params.update(parse_qsl(raw.decode()))
        token = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
        expected = self.app_token if method == "apps.connections.open" else self.bot_token
        failures = self._failures.get(method)
        if token != expected:
            response = self._answer(method, params, {"ok": False, "error": "invalid_auth"})
        elif failures and failures[0].after > 0:
            failures[0].after -= 1
            response = self._answer(method, params, self._result(method, params))
        elif failures:
            failure = failures.popleft()
            headers = {}
            if failure.retry_after is not None:
                headers["Retry-After"] = str(failure.retry_after)
            body = {"ok": False, "error": failure.error}
            response = self._answer(method, params, body, failure.status, headers)
        else:
            response = self._answer(method, params, self._result(method, params))
        await self._notify()
        return response

    def _answer(
        self,
        method: str,
        params: Mapping[str, Any],
        body: Mapping[str, Any],
        status: int = 200,
        headers: Mapping[str, str] | None = None,
    ) -> web.Response:
        self.calls.append(RecordedCall(method, dict(params), time.monotonic(), status))
        return web.json_response(dict(body), status=status, headers=dict(headers or {}))

    def _result(self, method: str, params: Mapping[str, Any]) -> dict[str, Any]:
        if method == "auth.test":
            return {
                "ok": True,
                "url": "https://clockbot-test.slack.com/",
                "team": "Clockbot Test",
                "user": "clockbot",
                "team_id": self.team_id,
                "user_id": self.bot_user_id,
                "bot_id": self.bot_id,
                "is_enterprise_install": False,
            }
        if method == "users.info":
            user = str(params.get("user", ""))
            person: dict[str, Any] = {"id": user, "name": user.lower()}
            if user in self.zones:
                person["tz"] = self.zones[user]
            if user in self.locales and str(params.get("include_locale")).lower() in ("1", "true"):
                person["locale"] = self.locales[user]  # Slack sends it only when asked
            if user in self.names:
                person["real_name"] = self.names[user]
                person["profile"] = {
                    "display_name": self.names[user],
                    "real_name": self.names[user],
                }
            return {"ok": True, "user": person}
        if method == "chat.postMessage":
            ts = _next_ts()
            post = {**params, "ts": ts}
            self.posts.append(post)
            return {"ok": True, "channel": params.get("channel"), "ts": ts, "message": post}
        if method in ("conversations.history", "conversations.replies"):
            return self._conversation(method, params)
        if method == "chat.postEphemeral":
            self.ephemerals.append(dict(params))
            return {"ok": True, "message_ts": _next_ts()}
        if method == "chat.update":
            self.updates.append(dict(params))
            return {"ok": True, "channel": params.get("channel"), "ts": params.get("ts")}
        if method == "apps.connections.open":
            return {"ok": True, "url": f"ws://127.0.0.1:{self.port}/link/?ticket={len(self.calls)}"}
        return {"ok": False, "error": "unknown_method"}

    def _conversation(self, method: str, params: Mapping[str, Any]) -> dict[str, Any]:
        """The bot's posts in a channel (history: top level, newest first) or a thread
        (replies: the root and its replies, oldest first), after ``oldest``, up to ``limit``;
        with their metadata when asked (``include_all_metadata``), as Slack answers."""
        channel = params.get("channel")
        if channel in self.unreadable:
            return {"ok": False, "error": "missing_scope", "needed": "channels:history"}
        oldest = _ts_us(params.get("oldest"))
        if method == "conversations.replies":
            root = params.get("ts")
            picked = [p for p in self.posts if p.get("thread_ts") == root or p["ts"] == root]
        else:
            picked = [p for p in reversed(self.posts) if not p.get("thread_ts")]
        with_metadata = str(params.get("include_all_metadata")).lower() in ("1", "true")
        messages = []
        for post in picked:
            if post.get("channel") != channel or _ts_us(post["ts"]) <= oldest:
                continue
            message = {"type": "message", "ts": post["ts"], "text": post.get("text"),
                       "bot_id": self.bot_id}  # fmt: skip
            if with_metadata and isinstance(post.get("metadata"), Mapping):
                message["metadata"] = post["metadata"]
            messages.append(message)
        limit = int(params.get("limit") or 100)
        return {"ok": True, "messages": messages[:limit], "has_more": len(messages) > limit}
