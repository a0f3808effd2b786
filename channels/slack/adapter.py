"""The Slack adapter: slack-bolt's `AsyncApp` in, ``chat.postMessage`` out.

Events reach one bolt listener, by Socket Mode (bolt's aiohttp
`AsyncSocketModeHandler`) or by HTTP on the gateway's server at
``/slack/events``, where bolt checks each request's signature (an injected
clock decides what is stale, `verify`). The app runs with ``process_before_response``:
bolt acks an event only after the listener returns, and the listener returns
after the gateway's sink has journaled the message, so a crash before the ack
makes Slack deliver it again and the journal's key makes that harmless. The
same key (``<channel>:<ts>``) answers a post once when it arrives as both
``message`` and ``app_mention``, or again as a retry.

The person's zone is the IANA ``tz`` of ``users.info``, asked at most once a
day per person (by the injected clock, `profiles`) and handed on as `Inbound.user_zone`;
the gateway decides whether it counts. Sends are Markdown turned into mrkdwn
parts (`render`), posted by `sending`; slack_sdk's retry handler sleeps through
one 429, and a second becomes `ChannelError` with Slack's ``Retry-After`` for
the dispatcher. The client and the Socket Mode connection are made in `connect`.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import urlsplit

import aiohttp
from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response, to_bolt_request
from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler
from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from channels.base import (
    Channel,
    ChannelError,
    HttpRoute,
    Inbound,
    Outgoing,
    Pace,
    Sink,
    StateStore,
)
from channels.poll_votes import NATIVE_POLL
from channels.reminder_buttons import PREFIX, press_message_id, words
from channels.slack.buttons import read_press
from channels.slack.connect import open_socket, probe, web_client
from channels.slack.events import Post, read_post, shape_problem
from channels.slack.poll import VOTE_PREFIX, answer_note, read_answer
from channels.slack.profiles import Profiles
from channels.slack.sending import Sender, str_or_none, web_call
from channels.slack.verify import Verification
from clockcore import Clock, SystemClock

__all__ = ["DEFAULT_API_URL", "EVENTS_PATH", "REFUSED_DM", "SlackChannel"]

DEFAULT_API_URL = "https://slack.com/api/"
EVENTS_PATH = "/slack/events"
REFUSED_DM = "Sorry, this assistant isn't open to you here. Ask its owner to add you."
"""The one reply a person outside ``allowed_users`` gets in a DM (once per run)."""

_DRAIN_TIMEOUT = 10.0

log = logging.getLogger(__name__)


@dataclass(slots=True)
class _Once:
    """One message_id being handed to the sink; a duplicate arriving meanwhile waits for it."""

    done: asyncio.Event = field(default_factory=asyncio.Event)
    ok: bool = False


class SlackChannel(Channel):
    """Slack DMs and channel mentions, through slack-bolt's `AsyncApp`.

    Args:
        bot_token: the ``xoxb-`` token.
        mode: ``socket`` (Socket Mode, needs `app_token`) or ``http`` (the
            Events API at `EVENTS_PATH` on the gateway's server, needs
            `signing_secret`).
        app_token: the ``xapp-`` token with ``connections:write``.
        signing_secret: the app's signing secret, checked on every HTTP request.
        api_url: the Web API base (a fake one in tests).
        allowed_users: user ids let in; empty lets everyone in the workspace in.
        allowed_channels: channel ids where mentions are answered; empty means
            every channel. DMs are governed by `allowed_users` alone.
        clock: "now" for signature freshness and the zone cache.

    Raises:
        ValueError: a setting is missing or wrong (named; never its value).
    """

    name = "slack"

    def __init__(
        self,
        bot_token: str,
        *,
        mode: Literal["socket", "http"] = "socket",
        app_token: str | None = None,
        signing_secret: str | None = None,
        api_url: str = DEFAULT_API_URL,
        allowed_users: Sequence[str] = (),
        allowed_channels: Sequence[str] = (),
        clock: Clock | None = None,
    ) -> None:
        api_url = str(api_url)  # settings hand over a pydantic URL
        if not bot_token.strip():
            raise ValueError("slack: bot_token is required")
        if mode not in ("socket", "http"):
            raise ValueError(f"slack: mode must be 'socket' or 'http', not {mode!r}")
        if mode == "socket" and not (app_token or "").strip():
            raise ValueError("slack: app_token is required in socket mode")
        if mode == "http" and not (signing_secret or "").strip():
            raise ValueError("slack: signing_secret is required in http mode")
        if urlsplit(api_url).scheme not in ("http", "https"):
            raise ValueError("slack: api_url must be an http(s) URL")
        self.mode = mode
        self._bot_token = bot_token.strip()
        self._app_token = (app_token or "").strip()
        self._signing_secret = (signing_secret or "").strip()
        self._api_url = api_url if api_url.endswith("/") else api_url + "/"
        self._allowed_users = frozenset(u.strip() for u in allowed_users if u.strip())
        self._allowed_channels = frozenset(c.strip() for c in allowed_channels if c.strip())
        self._clock: Clock = clock or SystemClock()
        self._sink: Sink | None = None
        self._session: aiohttp.ClientSession | None = None
        self._client: AsyncWebClient | None = None
        self._app: AsyncApp | None = None
        self._socket: AsyncSocketModeHandler | None = None
        self._bot_user_id: str | None = None
        self._team_id = ""
        self._profiles = Profiles(self._clock)
        self._inflight: dict[str, _Once] = {}
        self._busy = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._sender = Sender()
        self._told: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    # --- lifecycle --------------------------------------------------------------------------

    async def start(self, sink: Sink, state: StateStore, *, intake: bool = True) -> None:
        """Check the token (``auth.test``), build the bolt app, connect Socket Mode (with `intake`).

        Raises:
            ChannelError: Slack refused a token or could not be reached.
        """
        self._session = aiohttp.ClientSession()
        self._client = web_client(self._bot_token, self._api_url, self._session)
        try:
            auth = await web_call("auth.test", self._client.auth_test())
            self._bot_user_id = str_or_none(auth.get("user_id"))
            self._team_id = str_or_none(auth.get("team_id")) or ""
            self._sender.client, self._sender.team = self._client, self._team_id
            app = AsyncApp(
                name="clockbot-slack",
                logger=logging.getLogger("channels.slack.bolt"),
                client=self._client,
                signing_secret=self._signing_secret,
                process_before_response=True,  # ack after the listener: journal first
                request_verification_enabled=False,  # replaced by Verification below
                before_authorize=(
                    Verification(self._signing_secret, self._clock) if self.mode == "http" else None
                ),
            )
            app.event(re.compile(r".+"))(self._on_event)
            app.action(re.compile(rf"^{PREFIX}:"))(self._on_action)
            app.action(re.compile(rf"^{VOTE_PREFIX}:"))(self._on_vote)
            self._sink, self._app = sink, app
            if intake:
                await self.start_intake()
        except BaseException:
            self._sink, self._app = None, None
            await self._close_session()
            raise
        log.info("slack: running in %s mode as %s", self.mode, self._bot_user_id or "?")

    async def probe(self) -> str:
        """``auth.test`` with the bot token, and in Socket Mode ``apps.connections.open``."""
        app_token = self._app_token if self.mode == "socket" else None
        return await probe(self._bot_token, self._api_url, app_token=app_token)

    @property
    def intake(self) -> str | None:
        """``slack:<bot user>:socket`` in Socket Mode: a second connection would take events."""
        if self.mode != "socket":
            return None
        return f"slack:{self._bot_user_id or '-'}:socket"

    async def start_intake(self) -> None:
        """Open the Socket Mode connection (Socket Mode only)."""
        if self.mode == "socket" and self._socket is None and self._app is not None:
            assert self._client is not None
            self._socket = await open_socket(self._app, self._app_token, self._client)

    async def stop_intake(self) -> None:
        """Close the Socket Mode connection; events in hand finish, sending goes on."""
        if self._socket is not None:
            socket, self._socket = self._socket, None
            await socket.close_async()  # type: ignore[no-untyped-call]

    async def stop(self) -> None:
        """Finish the events in hand (up to 10 s), disconnect, close the HTTP session."""
        self._sink = None
        try:
            await asyncio.wait_for(self._idle.wait(), _DRAIN_TIMEOUT)
        except TimeoutError:
            log.warning(
                "slack: stopping with %d event(s) unfinished; Slack will resend", self._busy
            )
        await self.stop_intake()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        self._app = None
        await self._close_session()

    async def _close_session(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    def http_routes(self) -> Sequence[HttpRoute]:
        """``POST /slack/events`` in http mode; nothing in socket mode."""
        if self.mode != "http":
            return ()
        return (HttpRoute("POST", EVENTS_PATH, self._on_http),)

    async def health(self) -> str | None:
        """None when running (and, in socket mode, connected)."""
        if self._app is None:
            return "slack: not running"
        if self._socket is not None and not await self._socket.client.is_connected():
            return "slack: Socket Mode is reconnecting"
        return None

    # --- inbound ----------------------------------------------------------------------------

    async def _on_http(self, request: web.Request) -> web.StreamResponse:
        """One Events API request, through bolt (signature, url_verification, listener)."""
        app = self._app
        if app is None:
            return web.json_response({"error": "not running"}, status=503)
        try:
            bolt_request = await to_bolt_request(request)
        except (ValueError, TypeError, AttributeError) as exc:  # not a JSON object or a form
            log.warning("slack: refused an events request that is not Slack's shape: %s", exc)
            return web.json_response({"error": "unreadable request"}, status=400)
        problem = shape_problem(bolt_request.body)
        if problem is not None:  # bolt would fail on it with a 500, and Slack retry forever
            log.warning("slack: refused an events request: %s", problem)
            return web.json_response({"error": "unreadable request"}, status=400)
        return await to_aiohttp_response(await app.async_dispatch(bolt_request))

    async def _on_event(self, body: dict[str, Any]) -> None:
        """bolt's listener for every event; bolt acks when this returns, 500/no ack if it raises."""
        self._busy += 1
        self._idle.clear()
        try:
            try:
                post = read_post(body, bot_user_id=self._bot_user_id, default_team=self._team_id)
            except (TypeError, ValueError, AttributeError) as exc:
                log.warning(
                    "slack: ignoring an event that could not be read: %s", type(exc).__name__
                )
                return
            if post is None:
                return
            if not self._allowed(post):
                self._refuse(post)
                return
            await self._hand_over(post)
        finally:
            self._busy -= 1
            if self._busy == 0:
                self._idle.set()

    async def _on_action(self, ack: Any, body: dict[str, Any]) -> None:
        """A reminder button: journaled as the person's words, then acked, then shown chosen.

        As for events, a press not journaled is not acked. A press of something
        that is not our button, or by someone not allowed, is only acked.
        """
        press = read_press(body, default_team=self._team_id)
        post = None
        if press is not None:
            post = Post(
                team=press.team,
                channel=press.channel,
                user=press.user,
                text=words(press.action, press.reminder),
                ts=press.message_ts,
                thread_ts=press.thread_ts,
                direct=press.channel.startswith("D"),
            )
        if press is None or post is None or not self._allowed(post):
            await ack()
            return
        if press.owner is not None and press.owner != press.user:
            await ack()  # someone else's reminder: nothing changes, the buttons stay
            self._spawn(self._sender.not_yours(press))
            return
        await self._journal_press(
            post, press_message_id(press.channel, press.message_ts, press.action, press.user)
        )
        await ack()
        self._spawn(self._sender.show_choice(press))

    async def _on_vote(self, ack: Any, body: dict[str, Any]) -> None:
        """A poll's button: the ticked slots journaled as the person's answer, then acked.

        A tick alone is only acked (`channels.slack.poll`); so is an answer by
        someone not allowed. The presser alone is then told what was taken.
        """
        answer = read_answer(body, default_team=self._team_id)
        if answer is None:
            await ack()
            return
        post = Post(
            team=answer.team,
            channel=answer.channel,
            user=answer.user,
            text=answer.words,
            ts=answer.message_ts,
            thread_ts=answer.thread_ts,
            direct=answer.channel.startswith("D"),
        )
        if not self._allowed(post):
            await ack()
            return
        await self._journal_press(
            post,
            f"vote:{answer.channel}:{answer.message_ts}:{answer.user}:{answer.action_ts}",
            reply_to=f"{NATIVE_POLL}{answer.channel}:{answer.message_ts}",
        )
        await ack()
        note = answer_note(answer.choices)
        self._spawn(self._sender.ephemeral(answer.channel, answer.user, answer.thread_ts, note))

    async def _journal_press(
        self, post: Post, message_id: str, *, reply_to: str | None = None
    ) -> None:
        """Hand a button press to the sink as `post`'s words; it returns once journaled."""
        sink = self._sink
        if sink is None:
            raise ChannelError("slack: not running")  # no ack: Slack delivers it again
        await sink(
            Inbound(
                channel=self.name,
                thread_id=post.thread_id,
                user_id=post.user,
                text=post.text,
                message_id=message_id,
                received_at=self._clock.now(),
                route=post.route,
                reply_to=reply_to,
            )
        )

    def _allowed(self, post: Post) -> bool:
        if self._allowed_users and post.user not in self._allowed_users:
            return False
        return post.direct or not self._allowed_channels or post.channel in self._allowed_channels

    def _refuse(self, post: Post) -> None:
        """Nothing reaches the sink; a DM gets one short note per person and run."""
        log.info("slack: ignored a message from a user or channel not allowed")
        if post.direct and post.user not in self._told:
            self._told.add(post.user)
            self._spawn(self._sender.post_part(post.channel, None, REFUSED_DM))

    async def _hand_over(self, post: Post) -> None:
        """Give `post` to the sink once, even when its duplicate arrives while it is on the way."""
        sink = self._sink
        if sink is None:
            raise ChannelError("slack: not running")  # no ack: Slack delivers it again
        earlier = self._inflight.get(post.message_id)
        if earlier is not None:
            await earlier.done.wait()
            if earlier.ok:
                return
        once = self._inflight[post.message_id] = _Once()
        try:
            inbound = Inbound(
                channel=self.name,
                thread_id=post.thread_id,
                user_id=post.user,
                text=post.text,
                message_id=post.message_id,
                received_at=post.received_at,
                route=post.route,
                user_zone=(profile := await self._profiles.of(self._client, post.user)).zone,
                language=profile.locale,
                reply_to=post.reply_to,
                sender_name=profile.name,
            )
            await sink(inbound)
            once.ok = True
        finally:
            once.done.set()
            if self._inflight.get(post.message_id) is once:
                del self._inflight[post.message_id]

    # --- outbound: `channels.slack.sending` -----------------------------------------------

    def paces(self, message: Outgoing) -> Sequence[Pace]:
        """`Sender.paces`: about one post a second per channel, with short bursts."""
        return self._sender.paces(message)

    async def send(self, message: Outgoing) -> list[str]:
        """`Sender.send`: mrkdwn parts into the route's channel, once across retries.

        Raises:
            ChannelError: Slack refused it, rate-limited it twice or was unreachable.
        """
        return await self._sender.send(message)

    def _spawn(self, work: Coroutine[Any, Any, object]) -> None:
        async def guarded() -> None:
            try:
                await work
            except ChannelError as exc:
                log.warning("%s", exc)

        task = asyncio.get_running_loop().create_task(guarded())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
