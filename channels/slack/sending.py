"""Posting to Slack: an `Outgoing` as mrkdwn parts, exactly once across retries; Web API calls.

Every part carries its job's key and number as message metadata
(`OUTBOX_EVENT`), so a repeated attempt reads the conversation back and skips
what an earlier one posted. Every Web API failure becomes `ChannelError`
(`web_call`), with no secret in it.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any

import aiohttp
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from channels.base import ChannelError, Outgoing, Pace
from channels.poll_votes import NATIVE_POLL
from channels.reminder_buttons import NOT_YOURS
from channels.slack.buttons import Press, chosen_blocks, reminder_blocks
from channels.slack.errors import channel_error, why
from channels.slack.events import route_for_thread
from channels.slack.poll import poll_blocks
from channels.slack.render import to_parts

__all__ = ["OUTBOX_EVENT", "PER_CHANNEL", "Sender", "str_or_none", "web_call"]

log = logging.getLogger(__name__)

PER_CHANNEL = (3, 3.0)
"""Slack posts about one message a second per channel and allows short bursts: three at once."""
_PROGRESS_KEPT = 1_000  # multi-part sends whose progress is remembered for a retry
OUTBOX_EVENT = "clockbot_outbox_part"
"""The metadata event type every posted part carries, with its job's key and part number:
a repeated attempt reads them back to skip what an earlier one posted (`_posted_parts`)."""
_LOOK_BACK = 200  # messages read, newest since the job was made, to find its parts
_CLOCK_MARGIN = timedelta(minutes=10)  # our clock against Slack's ts, when looking back


class Sender:
    """`SlackChannel`'s sending half: posts through `client`, paced per channel of `team`.

    The channel sets `client` and `team` when it starts; until then a send
    fails with "not running".
    """

    def __init__(self) -> None:
        self.client: AsyncWebClient | None = None
        self.team = ""
        self._progress: OrderedDict[str, int] = OrderedDict()

    def paces(self, message: Outgoing) -> Sequence[Pace]:
        """``chat.postMessage``'s limit: about one a second per channel, with short bursts."""
        channel = (dict(message.route) or route_for_thread(message.thread_id)).get("channel")
        return (Pace(f"slack:{self.team}:{channel}", *PER_CHANNEL),) if channel else ()

    async def send(self, message: Outgoing) -> list[str]:
        """Post `message` as mrkdwn parts into its route's channel (and thread).

        A retry of a multi-part message skips the parts already posted.
        Every part carries its job's key and number as message metadata
        (`OUTBOX_EVENT`). A repeated attempt (``message.attempt`` > 1) first
        reads the conversation since the job was made and skips the parts an
        earlier attempt posted, also one made by a worker that died after
        Slack's answer: the send is then exactly once. Where the bot may not
        read the conversation (no ``*:history`` scope), it posts again.
        Returns ``<channel>:<ts>`` of each part of the message: posted by this
        call, or found from an earlier attempt; for a meeting poll also
        ``poll:<channel>:<ts>``, the name its presses give (`NATIVE_POLL`: a
        press on a poll clockbot does not know is dropped, not read as words).

        Raises:
            ChannelError: Slack refused it (``permanent`` when retrying cannot
                help), rate-limited it twice (``retry_after``) or was unreachable.
        """
        route = dict(message.route) or route_for_thread(message.thread_id)
        channel = route.get("channel")
        if not channel:
            raise ChannelError("slack: no channel to send this thread's message to", permanent=True)
        thread_ts = route.get("thread_ts")
        parts = to_parts(message.text)
        done = self._progress.get(message.key, 0)
        posted: list[str] = []
        if message.attempt > 1 and done == 0:
            found = await self._posted_parts(channel, thread_ts, message)
            while done in found and done < len(parts):
                posted.append(f"{channel}:{found[done]}")
                done += 1
            if done:
                log.info(
                    "slack: %d of %d parts were posted by an earlier attempt", done, len(parts)
                )
        for index in range(done, len(parts)):
            blocks = None
            if message.poll is not None and index == len(parts) - 1:
                blocks = poll_blocks(message.poll)
            elif (message.reminder or message.question == "link") and index == len(parts) - 1:
                blocks = reminder_blocks(parts[index], message.reminder or "", message.user_id)
            marker = {
                "event_type": OUTBOX_EVENT,
                "event_payload": {"key": message.key, "part": index},
            }
            ts = await self.post_part(channel, thread_ts, parts[index], blocks, marker)
            if ts is not None:
                posted.append(f"{channel}:{ts}")
            self._progress[message.key] = index + 1
            self._progress.move_to_end(message.key)
            while len(self._progress) > _PROGRESS_KEPT:
                self._progress.popitem(last=False)
        self._progress.pop(message.key, None)
        if message.poll is not None and posted:
            posted.append(f"{NATIVE_POLL}{posted[-1]}")  # what a press on it names
        return posted

    async def post_part(
        self,
        channel: str,
        thread_ts: str | None,
        text: str,
        blocks: list[dict[str, Any]] | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> str | None:
        """Post one part; its ``ts`` (None if Slack's answer lacks one)."""
        if self.client is None:
            raise ChannelError("slack: not running")
        data = await web_call(
            "chat.postMessage",
            self.client.chat_postMessage(
                channel=channel, text=text, thread_ts=thread_ts, blocks=blocks, metadata=metadata
            ),
        )
        return str_or_none(data.get("ts"))

    async def _posted_parts(
        self, channel: str, thread_ts: str | None, message: Outgoing
    ) -> dict[int, str]:
        """The parts of `message` already in the conversation: ``{number: ts}``.

        Reads the thread (``conversations.replies``) or the channel
        (``conversations.history``) since the job was made, with metadata.
        When Slack answers that the bot may not read it, returns ``{}`` and
        warns: the message is posted again (at least once, as before).

        Raises:
            ChannelError: rate limited or unreachable; the job is tried again
                later, when the check can be made.
        """
        if self.client is None:
            raise ChannelError("slack: not running")
        queued = message.queued_at
        since = f"{(queued - _CLOCK_MARGIN).timestamp():.6f}" if queued is not None else None
        method = "conversations.replies" if thread_ts else "conversations.history"
        try:
            if thread_ts:
                response = await self.client.conversations_replies(
                    channel=channel,
                    ts=thread_ts,
                    oldest=since,
                    limit=_LOOK_BACK,
                    include_all_metadata=True,
                )
            else:
                response = await self.client.conversations_history(
                    channel=channel, oldest=since, limit=_LOOK_BACK, include_all_metadata=True
                )
        except SlackApiError as exc:
            error = channel_error(method, exc)
            if error.retry_after is not None:
                raise error from exc
            log.warning(
                "slack: %s; cannot tell whether an earlier attempt posted, posting again "
                "(give the app the *:history scope of this conversation)",
                error,
            )
            return {}
        except (aiohttp.ClientError, TimeoutError) as exc:
            raise ChannelError(f"slack: {method} could not reach Slack ({why(exc)})") from exc
        data = response.data if isinstance(response.data, Mapping) else {}
        found: dict[int, str] = {}
        for item in data.get("messages") or ():
            meta = item.get("metadata") if isinstance(item, Mapping) else None
            if not isinstance(meta, Mapping) or meta.get("event_type") != OUTBOX_EVENT:
                continue
            payload = meta.get("event_payload")
            if (
                isinstance(payload, Mapping)
                and payload.get("key") == message.key
                and isinstance(payload.get("part"), int)
                and isinstance(item.get("ts"), str)
            ):
                found[payload["part"]] = item["ts"]
        return found

    async def not_yours(self, press: Press) -> None:
        """Tell the presser, and only them (``chat.postEphemeral``), whose reminder it is."""
        await self.ephemeral(press.channel, press.user, press.thread_ts, NOT_YOURS)

    async def ephemeral(self, channel: str, user: str, thread_ts: str | None, text: str) -> None:
        """A note only `user` sees (``chat.postEphemeral``)."""
        if self.client is None:
            return
        await web_call(
            "chat.postEphemeral",
            self.client.chat_postEphemeral(
                channel=channel, user=user, text=text, thread_ts=thread_ts
            ),
        )

    async def show_choice(self, press: Press) -> None:
        """Replace the buttons with what was chosen (``chat.update``); a failure is logged."""
        if self.client is None:
            return
        await web_call(
            "chat.update",
            self.client.chat_update(
                channel=press.channel,
                ts=press.message_ts,
                text=press.text,
                blocks=chosen_blocks(press.text, press.action),
            ),
        )


async def web_call(method: str, call: Any) -> Mapping[str, Any]:
    """Await one Web API `call`, wrapping every failure in `ChannelError` (no secrets)."""
    try:
        response = await call
    except SlackApiError as exc:
        raise channel_error(method, exc) from exc
    except (aiohttp.ClientError, TimeoutError) as exc:
        raise ChannelError(f"slack: {method} could not reach Slack ({why(exc)})") from exc
    data = response.data
    return data if isinstance(data, Mapping) else {}


def str_or_none(value: object) -> str | None:
    """`value` when it is a non-empty string (a field of Slack's answer), else None."""
    return value if isinstance(value, str) and value else None
