"""One agent turn: the wrapper's envelope, the stored history, the model, its tools.

The request for a turn is the constant system prompt, every earlier message of
the thread exactly as it was first sent, and the newest user message with the
runtime block on top (`bot.prompt`). The tool tuple is the same object on every
request (`bot.tools.TOOLS`). So each request begins, byte for byte, with the
previous one, and a server's prompt cache serves all but the newest turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.llm.errors import LLMError
from bot.llm.types import Message, Provider, ToolCall
from bot.prompt import assemble, user_turn
from bot.tools import TOOLS, ToolContext, run_tool
from clockcore import Clock, ContactWindow, ContextEnvelope
from wrapper import InteractionWrapper
from wrapper.history import History, StoredMessage
from wrapper.outbox import Outbox

__all__ = ["MAX_TOOL_ROUNDS", "Agent", "TurnResult"]

MAX_TOOL_ROUNDS = 6
"""Model calls in one turn before the agent stops asking for more tool rounds."""

UNAVAILABLE_REPLY = (
    "I can't reach my language model right now. I've kept your message and will "
    "answer it when the model is back."
)
TOO_MANY_ROUNDS_REPLY = "I got stuck using my tools on that one; could you say it another way?"


@dataclass(frozen=True, slots=True)
class TurnResult:
    """What a turn produced: the reply (None for a redelivered message) and the envelope."""

    reply: str | None
    envelope: ContextEnvelope
    model_failed: bool = False


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
    ) -> None:
        self._wrapper = wrapper
        self._outbox = outbox
        self._provider = provider
        self._clock = clock
        self._window = contact_window
        self._history = History(wrapper.database)

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
            return TurnResult(None, envelope)
        stored = await self._history.load(envelope.thread_key)
        earlier = [_message(m) for m in stored]
        newest = user_turn(envelope.render(), text)
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
        await self._history.append(
            envelope.thread_key, [_stored(m) for m in (newest, *produced)], at=self._clock.now()
        )
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

    @staticmethod
    async def _tool_message(call: ToolCall, context: ToolContext) -> Message:
        result = await run_tool(call, context)
        return Message(role="tool", content=result, tool_call_id=call.id, name=call.name)


def _message(stored: StoredMessage) -> Message:
    return Message(
        role=stored.role,  # type: ignore[arg-type]
        content=stored.content,
        tool_calls=tuple(ToolCall(i, n, a) for i, n, a in stored.tool_calls),
        tool_call_id=stored.tool_call_id,
        name=stored.name,
    )


def _stored(message: Message) -> StoredMessage:
    return StoredMessage(
        role=message.role,
        content=message.content,
        tool_calls=tuple((c.id, c.name, c.arguments) for c in message.tool_calls),
        tool_call_id=message.tool_call_id,
        name=message.name,
    )
