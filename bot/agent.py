"""One agent turn: the wrapper's envelope, the stored history, the model, its tools.

The request for a turn is the constant system prompt, every earlier message of
the thread exactly as it was first sent, and the newest user message with the
runtime block on top (`bot.prompt`). The tool tuple is the same object on every
request (`bot.tools.TOOLS`). So each request begins, byte for byte, with the
previous one, and a server's prompt cache serves all but the newest turn.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta

from bot.llm.errors import LLMError
from bot.llm.types import Message, Provider, ToolCall
from bot.prompt import assemble, user_turn
from bot.tools import TOOLS, ToolContext, run_tool
from clockcore import RUNTIME_BLOCK_END, Clock, ContactWindow, ContextEnvelope, to_iso
from wrapper import InteractionWrapper
from wrapper.history import History, StoredMessage
from wrapper.outbox import Outbox
from wrapper.pending import PendingTurns

__all__ = [
    "COMPACT_AFTER_CHARS",
    "KEEP_RECENT",
    "MAX_TOOL_ROUNDS",
    "RETRY_LEASE",
    "Agent",
    "TurnResult",
    "message_to_stored",
    "stored_to_message",
]

RETRY_LEASE = timedelta(minutes=10)
"""How long a retry (or a running turn) holds a waiting message before another may take it."""
MAX_TOOL_ROUNDS = 6
"""Model calls in one turn before the agent stops asking for more tool rounds."""
COMPACT_AFTER_CHARS = 60_000
"""History size (characters, ~15k tokens) past which older turns become one summary."""
KEEP_RECENT = 10
"""Messages kept word for word when compacting."""

SUMMARY_PROMPT = (
    "Summarise this conversation for your own later reference: who the person is, what they "
    "asked, what was decided, promised or scheduled, with dates as absolute timestamps. Plain "
    "sentences, at most 200 words. Reply with the summary only."
)

UNAVAILABLE_REPLY = (
    "I can't reach my language model right now. I've kept your message and will "
    "answer it when the model is back."
)
UNAVAILABLE_NO_ID_REPLY = "I can't reach my language model right now; please try again shortly."
TOO_MANY_ROUNDS_REPLY = "I got stuck using my tools on that one; could you say it another way?"


@dataclass(frozen=True, slots=True)
class TurnResult:
    """What a turn produced: the reply (None for a redelivered message) and the envelope.

    `thread_id` is the channel's thread id the reply belongs to.
    """

    reply: str | None
    envelope: ContextEnvelope
    model_failed: bool = False
    thread_id: str = ""


class Agent:
    """Runs turns for one agent over a wrapper, a model provider and the tools."""

    def __init__(
        self,
        *,
        wrapper: InteractionWrapper,
        provider: Provider,
        clock: Clock,
        contact_window: ContactWindow,
        outbox: Outbox | None = None,
        compact_after_chars: int = COMPACT_AFTER_CHARS,
        keep_recent: int = KEEP_RECENT,
    ) -> None:
        self._wrapper = wrapper
        self._outbox = outbox
        self._compact_after = compact_after_chars
        self._keep_recent = keep_recent
        self._provider = provider
        self._clock = clock
        self._window = contact_window
        self._history = History(wrapper.database)
        self._pending = PendingTurns(wrapper.database)

    async def on_message(
        self,
        *,
        channel: str,
        thread_id: str,
        user_id: str,
        text: str,
        message_id: str | None = None,
    ) -> TurnResult:
        """Handle one inbound message end to end and return the reply to send.

        A redelivered message (same channel and id) gets no reply: it was answered.
        """
        envelope = await self._wrapper.on_user_message(
            channel=channel, thread_id=thread_id, user_id=user_id, text=text, message_id=message_id
        )
        if envelope.duplicate:
            return TurnResult(None, envelope, thread_id=thread_id)
        return await self.answer(
            envelope, thread_id=thread_id, user_id=user_id, text=text, message_id=message_id
        )

    async def answer(
        self,
        envelope: ContextEnvelope,
        *,
        thread_id: str,
        user_id: str,
        text: str,
        message_id: str | None,
    ) -> TurnResult:
        """Answer a message the wrapper has recorded (`envelope` is its envelope).

        When the model fails, the message is kept for `retry_pending` (it
        needs an id for that) and the reply says so.
        """
        result = replace(await self._respond(envelope, text), thread_id=thread_id)
        if not result.model_failed:
            return result
        if message_id is None:  # nothing to recognise it by later: it cannot be kept
            return replace(result, reply=UNAVAILABLE_NO_ID_REPLY)
        await self._pending.keep(
            channel=envelope.channel, message_id=message_id, thread_id=thread_id,
            user_id=user_id, text=text, at=self._clock.now(),
        )  # fmt: skip
        return result

    async def retry_pending(
        self,
        *,
        older_than: timedelta = timedelta(0),
        deliver: Callable[[TurnResult], Awaitable[None]] | None = None,
        lease: timedelta = RETRY_LEASE,
    ) -> list[TurnResult]:
        """Answer messages waiting for the model, now that it may be back.

        Each message is claimed for `lease` (so two workers never answer it
        twice), answered, handed to `deliver` (which puts the reply in the
        outbox), and only then forgotten: a crash in between answers it again
        rather than never. Stops at the first failure (the model is still down).
        """
        answered: list[TurnResult] = []
        now = self._clock.now()
        for turn in await self._pending.claim(before=now - older_than, until=now + lease):
            envelope = await self._wrapper.on_user_message(
                channel=turn.channel, thread_id=turn.thread_id, user_id=turn.user_id,
                text=turn.text, message_id=turn.message_id,
            )  # fmt: skip
            result = await self._respond(envelope, turn.text)
            if result.model_failed:
                await self._pending.keep(
                    channel=turn.channel, message_id=turn.message_id, thread_id=turn.thread_id,
                    user_id=turn.user_id, text=turn.text, at=self._clock.now(),
                )  # fmt: skip
                break
            result = replace(result, thread_id=turn.thread_id)
            if deliver is not None:
                await deliver(result)
            await self._pending.done(channel=turn.channel, message_id=turn.message_id)
            answered.append(result)
        return answered

    async def _respond(self, envelope: ContextEnvelope, text: str) -> TurnResult:
        stored = await self._history.load(envelope.thread_key)
        stored = await self._compact(envelope.thread_key, stored)
        earlier = [stored_to_message(m) for m in stored]
        newest = user_turn(envelope.render(ids=True), text)
        context = ToolContext(
            wrapper=self._wrapper,
            envelope=envelope,
            clock=self._clock,
            contact_window=self._window,
            outbox=self._outbox,
        )
        try:
            produced = await self._converse(earlier, newest, context)
        except LLMError:
            return TurnResult(UNAVAILABLE_REPLY, envelope, model_failed=True)
        stored_now = [message_to_stored(m) for m in (newest, *produced)]
        await self._history.append(envelope.thread_key, stored_now, at=self._clock.now())
        final = produced[-1]
        reply = final.content if final.role == "assistant" and final.content else None
        return TurnResult(reply or TOO_MANY_ROUNDS_REPLY, envelope)

    async def _converse(
        self, earlier: Sequence[Message], newest: Message, context: ToolContext
    ) -> list[Message]:
        produced: list[Message] = []
        for _ in range(MAX_TOOL_ROUNDS):
            completion = await self._provider.complete(
                assemble([*earlier], newest) + produced, TOOLS
            )
            answer = completion.message
            produced.append(answer)
            if not answer.tool_calls:
                return produced
            for call in answer.tool_calls:
                produced.append(await self._tool_message(call, context))
        return produced

    async def _compact(self, thread_key: str, stored: list[StoredMessage]) -> list[StoredMessage]:
        """Past the budget, replace older turns with one summary message.

        The summary is a user message that says when it was made; the system
        prompt is never touched. Recent messages keep their bytes, so the
        prefix changes once, here, and grows again from the next turn. If the
        model cannot summarise now, the history is left whole.
        """
        if sum(len(m.content) for m in stored) <= self._compact_after:
            return stored
        cut = _cut_point(stored, self._keep_recent)
        if cut <= 0:
            return stored
        try:
            summary = await self._summarise(stored[:cut])
        except LLMError:
            return stored
        now = self._clock.now()
        head = [
            StoredMessage(
                role="user",
                content=f"[Earlier conversation, compacted at {to_iso(now, 'UTC')}: "
                f"a summary, not the words]\n{summary}",
            ),
            StoredMessage(role="assistant", content="Noted."),
        ]
        await self._history.replace_prefix(thread_key, cut, head, at=now)
        return [*head, *stored[cut:]]

    async def _summarise(self, older: Sequence[StoredMessage]) -> str:
        if self._provider.name == "rules":
            said = [_words(m.content) for m in older if m.role == "user"]
            return "\n".join(f"- They said: {line}" for line in said[-20:] if line)
        transcript = "\n".join(f"{m.role}: {_words(m.content)}" for m in older if m.content)
        completion = await self._provider.complete(
            [
                Message(role="system", content=SUMMARY_PROMPT),
                Message(role="user", content=transcript[-40_000:]),
            ],
            (),
        )
        return completion.message.content.strip() or "(no summary)"

    @staticmethod
    async def _tool_message(call: ToolCall, context: ToolContext) -> Message:
        result = await run_tool(call, context)
        return Message(role="tool", content=result, tool_call_id=call.id, name=call.name)


def _cut_point(stored: Sequence[StoredMessage], keep: int) -> int:
    """Where to cut: a user message at least `keep` from the end, so turns stay whole."""
    for index in range(max(len(stored) - keep, 0), 0, -1):
        if stored[index].role == "user":
            return index
    return 0


def _words(content: str) -> str:
    """What was said, without the runtime block, on one line, at most 300 characters."""
    if RUNTIME_BLOCK_END in content:
        content = content.split(RUNTIME_BLOCK_END, 1)[1]
    flat = " ".join(content.split())
    return flat if len(flat) <= 300 else flat[:299] + "…"


def stored_to_message(stored: StoredMessage) -> Message:
    """A stored history message as the provider takes it (same bytes)."""
    return Message(
        role=stored.role,  # type: ignore[arg-type]
        content=stored.content,
        tool_calls=tuple(ToolCall(i, n, a) for i, n, a in stored.tool_calls),
        tool_call_id=stored.tool_call_id,
        name=stored.name,
    )


def message_to_stored(message: Message) -> StoredMessage:
    """A provider message as history keeps it (same bytes)."""
    return StoredMessage(
        role=message.role,
        content=message.content,
        tool_calls=tuple((c.id, c.name, c.arguments) for c in message.tool_calls),
        tool_call_id=message.tool_call_id,
        name=message.name,
    )
