"""Reaching Slack: the Web API client, the Socket Mode connection, and the probe of both tokens."""

from __future__ import annotations

import asyncio
import logging

import aiohttp
from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler
from slack_bolt.async_app import AsyncApp
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
)
from slack_sdk.web.async_client import AsyncWebClient

from channels.base import ChannelError
from channels.slack.sending import str_or_none, web_call

__all__ = ["open_socket", "probe", "web_client"]

log = logging.getLogger(__name__)

_CONNECT_TIMEOUT = 30.0
_PING_INTERVAL = 10.0


def web_client(token: str, api_url: str, session: aiohttp.ClientSession) -> AsyncWebClient:
    """The running channel's Web API client: slack_sdk sleeps through one 429 or lost
    connection, and a second becomes `ChannelError` for the dispatcher (`web_call`)."""
    return AsyncWebClient(
        token=token,
        base_url=api_url,
        session=session,
        logger=log,
        retry_handlers=[
            AsyncConnectionErrorRetryHandler(max_retry_count=1),
            AsyncRateLimitErrorRetryHandler(max_retry_count=1),
        ],
    )


async def probe(bot_token: str, api_url: str, *, app_token: str | None) -> str:
    """``auth.test`` with the bot token, and with `app_token` ``apps.connections.open``."""
    async with aiohttp.ClientSession() as session:
        client = AsyncWebClient(token=bot_token, base_url=api_url, session=session, logger=log)
        auth = await web_call("auth.test", client.auth_test())
        team, user = str_or_none(auth.get("team")) or "?", str_or_none(auth.get("user")) or "?"
        found = f"auth.test: team {team}, bot {user}"
        if app_token is not None:
            await web_call(
                "apps.connections.open",
                client.apps_connections_open(app_token=app_token),
            )
            found += "; the app token opens Socket Mode"
    return found


async def open_socket(
    app: AsyncApp, app_token: str, client: AsyncWebClient
) -> AsyncSocketModeHandler:
    """`app`'s Socket Mode connection, open (within 30 s, else `ChannelError`)."""
    handler = AsyncSocketModeHandler(
        app, app_token, logger=log, web_client=client, ping_interval=_PING_INTERVAL
    )
    try:
        opened = await web_call(
            "apps.connections.open",
            client.apps_connections_open(app_token=app_token),
        )
        handler.client.wss_uri = str_or_none(opened.get("url"))
        await asyncio.wait_for(
            handler.connect_async(),  # type: ignore[no-untyped-call]
            _CONNECT_TIMEOUT,
        )
    except BaseException as exc:
        await handler.close_async()  # type: ignore[no-untyped-call]
        if isinstance(exc, TimeoutError):
            raise ChannelError("slack: the Socket Mode connection did not open") from exc
        raise
    return handler
